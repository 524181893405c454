// Load models (load_model.hpp): persistence, median of the last N, least-squares line of the last N.

#include "tessera/lb/load_model.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace tessera::lb {

namespace {
constexpr std::int64_t kMaxWindow = 1000;

[[noreturn]] void bad_model(std::string_view text) {
  throw ArgumentError(fmt::format("load model '{}': expected persistence, median:N or linear:N with N an integer "
                                  "in [1, {}]",
                                  text, kMaxWindow));
}

double median(std::span<const double> loads) {
  std::vector<double> sorted(loads.begin(), loads.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t half = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[half] : 0.5 * (sorted[half - 1] + sorted[half]);
}

// The least-squares line through (x_i, y_i) with x = 0 .. n-1, evaluated at x = n.
double extrapolate(std::span<const double> loads) {
  const auto n = static_cast<double>(loads.size());
  if (loads.size() == 1) return loads[0];
  const double mean_x = (n - 1.0) / 2.0;
  double mean_y = 0.0;
  for (double y : loads) mean_y += y;
  mean_y /= n;
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    const double dx = static_cast<double>(i) - mean_x;
    sxy += dx * (loads[i] - mean_y);
    sxx += dx * dx;
  }
  return mean_y + (sxy / sxx) * (n - mean_x);
}
}  // namespace

LoadModelSpec parse_load_model(std::string_view text) {
  if (text == "persistence") return {};
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) bad_model(text);
  const std::string_view kind = text.substr(0, colon);
  const std::string_view count = text.substr(colon + 1);
  LoadModelSpec spec;
  if (kind == "median") {
    spec.kind = LoadModelSpec::Kind::median;
  } else if (kind == "linear") {
    spec.kind = LoadModelSpec::Kind::linear;
  } else {
    bad_model(text);
  }
  const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), spec.n);
  if (count.empty() || ec != std::errc() || end != count.data() + count.size() || spec.n < 1 || spec.n > kMaxWindow)
    bad_model(text);
  return spec;
}

std::string to_string(const LoadModelSpec& spec) {
  switch (spec.kind) {
    case LoadModelSpec::Kind::persistence: return "persistence";
    case LoadModelSpec::Kind::median: return fmt::format("median:{}", spec.n);
    case LoadModelSpec::Kind::linear: return fmt::format("linear:{}", spec.n);
  }
  return "persistence";
}

double predict_load(const LoadModelSpec& spec, std::span<const double> history) {
  if (history.empty()) return 0.0;
  const std::size_t take = std::min(history.size(), spec.window());
  const auto recent = history.subspan(history.size() - take);
  switch (spec.kind) {
    case LoadModelSpec::Kind::persistence: return recent.back();
    case LoadModelSpec::Kind::median: return median(recent);
    case LoadModelSpec::Kind::linear: return std::max(0.0, extrapolate(recent));
  }
  return recent.back();
}

void LoadHistory::record(const ObjectId& object, double load) {
  auto& loads = loads_[object];
  loads.push_back(load);
  while (loads.size() > spec_.window()) loads.pop_front();
}

double LoadHistory::predict(const ObjectId& object) const {
  const auto it = loads_.find(object);
  if (it == loads_.end()) return 0.0;
  const std::vector<double> loads(it->second.begin(), it->second.end());
  return predict_load(spec_, loads);
}

std::vector<double> LoadHistory::take(const ObjectId& object) {
  const auto it = loads_.find(object);
  if (it == loads_.end()) return {};
  std::vector<double> loads(it->second.begin(), it->second.end());
  loads_.erase(it);
  return loads;
}

void LoadHistory::restore(const ObjectId& object, std::span<const double> loads) {
  auto& kept = loads_[object];
  kept.clear();
  const std::size_t take = std::min(loads.size(), spec_.window());
  kept.insert(kept.end(), loads.end() - static_cast<std::ptrdiff_t>(take), loads.end());
}

}  // namespace tessera::lb
