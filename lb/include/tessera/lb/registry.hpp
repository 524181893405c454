#pragma once
// The strategy registry: every strategy's name, summary and keys (what --tessera_help_lb prints),
// and construction by name from "key=value" text. The text is parsed once, into a StrategySpec
// whose factory builds the strategy from options already converted: a strategy named by a flag
// or a schedule line is parsed at start-up and built at each balancing without reading text.
//
// The built-in list is one function in registry.cpp (builtin_strategies): self-registering
// statics are dropped by the linker when tessera_lb is a static library, so a new strategy is
// added there, in one line.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tessera/named_registry.hpp>

#include "tessera/lb/args.hpp"
#include "tessera/lb/strategy.hpp"

namespace tessera::lb {

// Builds one strategy from options converted when its arguments were parsed.
using StrategyFactory = std::function<std::unique_ptr<Strategy>()>;

struct StrategyInfo {
  std::string name;
  std::string summary;  // one line: what it does and its source (paper, algorithm)
  std::vector<KeySpec> keys;
  // Converts parsed keys into the strategy's options (throws ArgumentError on a bad value).
  std::function<StrategyFactory(const Args&)> configure;
};

// A strategy named and configured: the name and arguments as written, for reports, and the
// factory their parse produced.
struct StrategySpec {
  std::string name;
  std::string args;
  StrategyFactory make;
};

// GreedyLB, HierLB, RandomLB, RotateLB, ... in the order --tessera_help_lb prints them.
std::vector<StrategyInfo> builtin_strategies();

// find, get (unknown name: ArgumentError listing the valid names), names and help (what
// --tessera_help_lb prints: every strategy with its keys, defaults and meaning) come from
// NamedRegistry, as the transport registry's do.
class Registry : public NamedRegistry<StrategyInfo> {
 public:
  explicit Registry(std::vector<StrategyInfo> strategies)
      : NamedRegistry(std::move(strategies), "LB strategy", "strategies") {}
  static Registry builtin() { return Registry(builtin_strategies()); }

  // Parses `args` for strategy `name` once. Throws ArgumentError: unknown name (listing the valid
  // names) or invalid arguments.
  StrategySpec parse(std::string_view name, std::string_view args = {}) const;
  // parse(name, args).make(), for one-off use.
  std::unique_ptr<Strategy> create(std::string_view name, std::string_view args = {}) const;
  // How many times this registry has parsed arguments (parse, create): a registry that builds
  // strategies from StrategySpecs parses nothing after start-up.
  std::int64_t parses() const { return parses_; }

 private:
  mutable std::int64_t parses_ = 0;
};

}  // namespace tessera::lb
