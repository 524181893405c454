#pragma once
// The strategy registry: every strategy's name, summary and keys (what --tessera_help_lb prints),
// and construction by name from "key=value" text.
//
// The built-in list is one function in registry.cpp (builtin_strategies): self-registering
// statics are dropped by the linker when tessera_lb is a static library, so a new strategy is
// added there, in one line.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"

namespace tessera::lb {

struct StrategyInfo {
  std::string name;
  std::string summary;  // one line: what it does and its source (paper, algorithm)
  std::vector<KeySpec> keys;
  std::function<std::unique_ptr<Strategy>(const Args&)> make;
};

// GreedyLB, HierLB, RandomLB, RotateLB, ... in the order --tessera_help_lb prints them.
std::vector<StrategyInfo> builtin_strategies();

class Registry {
 public:
  explicit Registry(std::vector<StrategyInfo> strategies);
  static Registry builtin() { return Registry(builtin_strategies()); }

  // nullptr when there is no such strategy.
  const StrategyInfo* find(std::string_view name) const;

  // Throws ArgumentError: unknown name (listing the valid names) or invalid arguments.
  std::unique_ptr<Strategy> create(std::string_view name, std::string_view args = {}) const;
  // Validates without constructing (for schedules checked before any phase runs).
  void validate(std::string_view name, std::string_view args) const;

  std::vector<std::string> names() const;
  // Every strategy with its keys, defaults and meaning, as --tessera_help_lb prints it.
  std::string help() const;

 private:
  const StrategyInfo& get(std::string_view name) const;
  std::vector<StrategyInfo> strategies_;
};

}  // namespace tessera::lb
