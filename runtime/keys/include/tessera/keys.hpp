#pragma once
/// Tessera's one `key=value` parser. parse_args validates the arguments of the runtime's extension
/// points against their owner's key list: LB strategies (`--tessera_lb_args`), steal policies
/// (`--tessera_steal_args`), transports (`--tessera_transport_args`) and the test-only fault spec
/// (runtime/src/faulty_transport.cpp). split_key_values, the splitting it is built on, serves the
/// texts whose values are read by their owner's own rules: lbsim's `--synthetic` and `--work`
/// (tools/lbsim/src/pairs.hpp) and the advisor's grid (lb/src/advisor/grid.cpp).
///
/// Every key has a kind, a default and a one-line meaning (printed by the owner's help). Parsing
/// rejects, with ArgumentError naming the owner and the key:
///   - a pair that is not key=value,           e.g. "GreedyLB: malformed argument 'c': expected key=value"
///   - a key the owner does not have,          listing the valid keys
///   - a value of the wrong kind or range,     e.g. "GreedyLB: c=0.5: expected a number >= 1"
///   - a key given twice.
///
/// This library needs no MPI: the runtime, the collections' steal policies and the MPI-free LB
/// strategies (lbsim) all link it.
#include <tessera/runtime/error.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

/// A bad `key=value` argument: a tessera::Error, whose message names the owner and the key.
class ArgumentError : public Error {
 public:
  using Error::Error;
};

struct KeySpec {
  enum class Kind { real, integer, choice, boolean, text };

  std::string name;
  Kind kind = Kind::real;
  std::string default_value;
  std::string meaning;
  double min = -std::numeric_limits<double>::infinity();  // inclusive, real and integer kinds
  double max = std::numeric_limits<double>::infinity();   // inclusive
  std::vector<std::string> choices;                        // choice kind

  std::string allowed() const;  // "a number >= 1", "one of: full, refine", ...
};

// Builders for key lists.
KeySpec real_key(std::string name, std::string default_value, std::string meaning, double min,
                 double max = std::numeric_limits<double>::infinity());
KeySpec integer_key(std::string name, std::string default_value, std::string meaning, double min,
                    double max = std::numeric_limits<double>::infinity());
KeySpec choice_key(std::string name, std::string default_value, std::string meaning,
                   std::vector<std::string> choices);
KeySpec boolean_key(std::string name, std::string default_value, std::string meaning);
KeySpec text_key(std::string name, std::string default_value, std::string meaning);

// Validated values of every key (defaults filled in).
class Args {
 public:
  Args() = default;
  Args(std::map<std::string, std::string, std::less<>> values, std::vector<std::string> given = {})
      : values_(std::move(values)), given_(std::move(given)) {}

  /// True when the text named `key` (false when its value is the default).
  bool given(std::string_view key) const;
  double real(std::string_view key) const;
  std::int64_t integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  const std::string& text(std::string_view key) const;  // choice and text keys

 private:
  const std::string& raw(std::string_view key) const;  // throws std::out_of_range for unknown keys
  std::map<std::string, std::string, std::less<>> values_;
  std::vector<std::string> given_;
};

/// One `key=value` pair as written.
struct KeyValue {
  std::string key;
  std::string value;
};

/// Splits `text` (whitespace-separated key=value pairs) into pairs, in order. Throws ArgumentError
/// led by `owner`: a pair that is not key=value (an empty key or value included), a key given twice.
std::vector<KeyValue> split_key_values(std::string_view text, std::string_view owner);

// Parses and validates `text` (whitespace-separated key=value pairs) against `keys`; `owner`
// leads every message ("GreedyLB", "--tessera_steal_args"). Throws ArgumentError.
Args parse_args(std::string_view text, std::span<const KeySpec> keys, std::string_view owner);

// One line per key for help texts: "  name=default  (allowed)\n      meaning\n".
std::string describe_keys(std::span<const KeySpec> keys);

}  // namespace tessera
