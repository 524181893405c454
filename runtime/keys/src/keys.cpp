#include <algorithm>
#include <tessera/keys.hpp>

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>

#include <fmt/format.h>

namespace tessera {

namespace {

std::optional<double> parse_real(std::string_view s) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<bool> parse_boolean(std::string_view s) {
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  return std::nullopt;
}

std::string bound_text(double v) { return fmt::format("{}", v); }

bool valid(const KeySpec& spec, std::string_view value) {
  switch (spec.kind) {
    case KeySpec::Kind::real: {
      const auto v = parse_real(value);
      return v && *v >= spec.min && *v <= spec.max;
    }
    case KeySpec::Kind::integer: {
      const auto v = parse_integer(value);
      return v && static_cast<double>(*v) >= spec.min && static_cast<double>(*v) <= spec.max;
    }
    case KeySpec::Kind::boolean:
      return parse_boolean(value).has_value();
    case KeySpec::Kind::text:
      return true;
    case KeySpec::Kind::choice:
      for (const auto& c : spec.choices) {
        if (c == value) return true;
      }
      return false;
  }
  return false;
}

// A key without a numeric range (choice, boolean, text).
KeySpec unbounded_key(std::string name, KeySpec::Kind kind, std::string default_value, std::string meaning) {
  KeySpec spec;
  spec.name = std::move(name);
  spec.kind = kind;
  spec.default_value = std::move(default_value);
  spec.meaning = std::move(meaning);
  return spec;
}

}  // namespace

KeySpec real_key(std::string name, std::string default_value, std::string meaning, double min, double max) {
  return KeySpec{std::move(name), KeySpec::Kind::real, std::move(default_value), std::move(meaning), min, max, {}};
}

KeySpec integer_key(std::string name, std::string default_value, std::string meaning, double min, double max) {
  return KeySpec{std::move(name), KeySpec::Kind::integer, std::move(default_value), std::move(meaning), min, max, {}};
}

KeySpec choice_key(std::string name, std::string default_value, std::string meaning,
                   std::vector<std::string> choices) {
  KeySpec spec = unbounded_key(std::move(name), KeySpec::Kind::choice, std::move(default_value), std::move(meaning));
  spec.choices = std::move(choices);
  return spec;
}

KeySpec boolean_key(std::string name, std::string default_value, std::string meaning) {
  return unbounded_key(std::move(name), KeySpec::Kind::boolean, std::move(default_value), std::move(meaning));
}

KeySpec text_key(std::string name, std::string default_value, std::string meaning) {
  return unbounded_key(std::move(name), KeySpec::Kind::text, std::move(default_value), std::move(meaning));
}

std::string KeySpec::allowed() const {
  const auto range = [&](const char* what) {
    std::string text = what;
    const bool low = std::isfinite(min), high = std::isfinite(max);
    if (low && high) return text + " in [" + bound_text(min) + ", " + bound_text(max) + "]";
    if (low) return text + " >= " + bound_text(min);
    if (high) return text + " <= " + bound_text(max);
    return text;
  };
  switch (kind) {
    case Kind::real: return range("a number");
    case Kind::integer: return range("an integer");
    case Kind::boolean: return "true or false";
    case Kind::text: return "text";
    case Kind::choice: return "one of: " + fmt::format("{}", fmt::join(choices, ", "));
  }
  return {};
}

bool Args::given(std::string_view key) const {
  for (const auto& name : given_)
    if (name == key) return true;
  return false;
}

std::string describe_keys(std::span<const KeySpec> keys) {
  std::string out;
  for (const auto& key : keys) out += fmt::format("  {}={}  ({})\n      {}\n", key.name, key.default_value, key.allowed(), key.meaning);
  return out;
}

const std::string& Args::raw(std::string_view key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw std::out_of_range("argument '" + std::string(key) + "' was not declared");
  return it->second;
}

double Args::real(std::string_view key) const { return *parse_real(raw(key)); }
std::int64_t Args::integer(std::string_view key) const { return *parse_integer(raw(key)); }
bool Args::boolean(std::string_view key) const { return *parse_boolean(raw(key)); }
const std::string& Args::text(std::string_view key) const { return raw(key); }

std::vector<KeyValue> split_key_values(std::string_view text, std::string_view owner) {
  std::vector<KeyValue> pairs;
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == word.size()) {
      throw ArgumentError(fmt::format("{}: malformed argument '{}': expected key=value", owner, word));
    }
    std::string key = word.substr(0, eq);
    for (const auto& seen : pairs)
      if (seen.key == key) throw ArgumentError(fmt::format("{}: key '{}' given twice", owner, key));
    pairs.push_back(KeyValue{std::move(key), word.substr(eq + 1)});
  }
  return pairs;
}

Args parse_args(std::string_view text, std::span<const KeySpec> keys, std::string_view owner) {
  std::map<std::string, std::string, std::less<>> values;
  for (const auto& spec : keys) values[spec.name] = spec.default_value;
  std::vector<std::string> named;
  for (auto& [key, value] : split_key_values(text, owner)) {
    const KeySpec* spec = nullptr;
    for (const auto& k : keys) {
      if (k.name == key) spec = &k;
    }
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& k : keys) names.push_back(k.name);
      throw ArgumentError(fmt::format("{}: unknown key '{}'; valid keys: {}", owner, key,
                                      names.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(names, ", "))));
    }
    if (!valid(*spec, value)) {
      throw ArgumentError(fmt::format("{}: {}={}: expected {}", owner, key, value, spec->allowed()));
    }
    values[key] = std::move(value);
    named.push_back(key);
  }
  std::sort(named.begin(), named.end());
  return Args(std::move(values), std::move(named));
}

}  // namespace tessera
