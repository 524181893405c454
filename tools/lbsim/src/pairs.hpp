#pragma once
// "key=value key=value" specs of lbsim's flags (--synthetic, --work), with located errors.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tessera/keys.hpp>

#include "tessera/lbsim/synthetic.hpp"

namespace tessera::lbsim::detail {

// The pairs of `text` in order (tessera/keys.hpp's splitter). Throws InputError: "<flag>: malformed
// argument 'x': expected key=value", or a key given twice.
inline std::vector<std::pair<std::string, std::string>> split_pairs(std::string_view text, std::string_view flag) {
  std::vector<std::pair<std::string, std::string>> pairs;
  try {
    for (auto& [key, value] : split_key_values(text, flag)) pairs.emplace_back(std::move(key), std::move(value));
  } catch (const ArgumentError& e) {
    throw InputError(e.what());
  }
  return pairs;
}

inline bool parse_number(std::string_view s, double& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

inline bool parse_number(std::string_view s, std::int64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

[[noreturn]] inline void bad_value(std::string_view flag, const std::string& key, const std::string& value,
                                   std::string_view expected) {
  throw InputError(std::string(flag) + ": " + key + "=" + value + ": expected " + std::string(expected));
}

}  // namespace tessera::lbsim::detail
