#pragma once
// Strategy arguments: "key=value key=value" text validated against a strategy's key list.
//
// Every key has a kind, a default and a one-line meaning (printed by --tessera_help_lb). Parsing
// rejects, with ArgumentError naming the strategy and the key:
//   - a pair that is not key=value,           e.g. "GreedyLB: malformed argument 'c': expected key=value"
//   - a key the strategy does not have,       listing the valid keys
//   - a value of the wrong kind or range,     e.g. "GreedyLB: c=0.5: expected a number >= 1"
//   - a key given twice.

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::lb {

class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct KeySpec {
  enum class Kind { real, integer, choice, boolean };

  std::string name;
  Kind kind = Kind::real;
  std::string default_value;
  std::string meaning;
  double min = -std::numeric_limits<double>::infinity();  // inclusive, real and integer kinds
  double max = std::numeric_limits<double>::infinity();   // inclusive
  std::vector<std::string> choices;                        // choice kind

  std::string allowed() const;  // "a number >= 1", "one of: full, refine", ...
};

// Builders for the key lists of strategies.
KeySpec real_key(std::string name, std::string default_value, std::string meaning, double min,
                 double max = std::numeric_limits<double>::infinity());
KeySpec integer_key(std::string name, std::string default_value, std::string meaning, double min,
                    double max = std::numeric_limits<double>::infinity());
KeySpec choice_key(std::string name, std::string default_value, std::string meaning,
                   std::vector<std::string> choices);
KeySpec boolean_key(std::string name, std::string default_value, std::string meaning);

// Validated values of every key (defaults filled in).
class Args {
 public:
  Args() = default;
  Args(std::map<std::string, std::string, std::less<>> values) : values_(std::move(values)) {}

  double real(std::string_view key) const;
  std::int64_t integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  const std::string& text(std::string_view key) const;  // choice keys

 private:
  const std::string& raw(std::string_view key) const;  // throws std::out_of_range for unknown keys
  std::map<std::string, std::string, std::less<>> values_;
};

// Parses and validates `text` against `keys`. Throws ArgumentError.
Args parse_args(std::string_view text, std::span<const KeySpec> keys, std::string_view strategy);

}  // namespace tessera::lb
