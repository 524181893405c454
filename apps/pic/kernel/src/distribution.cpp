#include "tessera/pic/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>

#include <tessera/runtime/error.hpp>

namespace tessera::pic {

namespace {

constexpr const char* kForms = "GEOMETRIC rho | SINUSOIDAL | LINEAR alpha beta | PATCH xl xr yb yt";

std::string upper(std::string word) {
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return word;
}

template <class T>
T parse_number(const std::string& word, const std::string& name, const char* what) {
  T value{};
  const char* end = word.data() + word.size();
  auto [ptr, ec] = std::from_chars(word.data(), end, value);
  if (ec != std::errc{} || ptr != end) {
    throw InputError(fmt::format("--distribution {}: parameter '{}' is not {}", name, word, what));
  }
  return value;
}

void expect_parameters(const std::vector<std::string>& words, std::size_t count) {
  if (words.size() != count + 1) {
    throw InputError(fmt::format("--distribution {}: expected {} parameter(s), got {} (forms: {})",
                                 words[0], count, words.size() - 1, kForms));
  }
}

}  // namespace

Distribution Distribution::geometric(double rho) {
  Distribution d;
  d.kind = DistributionKind::geometric;
  d.rho = rho;
  return d;
}

Distribution Distribution::sinusoidal() {
  Distribution d;
  d.kind = DistributionKind::sinusoidal;
  return d;
}

Distribution Distribution::linear(double alpha, double beta) {
  Distribution d;
  d.kind = DistributionKind::linear;
  d.alpha = alpha;
  d.beta = beta;
  return d;
}

Distribution Distribution::patch_of(Patch box) {
  Distribution d;
  d.kind = DistributionKind::patch;
  d.patch = box;
  return d;
}

Distribution Distribution::parse(const std::vector<std::string>& words) {
  if (words.empty()) {
    throw InputError(fmt::format("--distribution: expected one of {}", kForms));
  }
  const std::string name = upper(words[0]);
  if (name == "GEOMETRIC") {
    expect_parameters(words, 1);
    return geometric(parse_number<double>(words[1], name, "a number"));
  }
  if (name == "SINUSOIDAL") {
    expect_parameters(words, 0);
    return sinusoidal();
  }
  if (name == "LINEAR") {
    expect_parameters(words, 2);
    return linear(parse_number<double>(words[1], name, "a number"),
                  parse_number<double>(words[2], name, "a number"));
  }
  if (name == "PATCH") {
    expect_parameters(words, 4);
    Patch box;
    box.left = parse_number<std::int64_t>(words[1], name, "an integer");
    box.right = parse_number<std::int64_t>(words[2], name, "an integer");
    box.bottom = parse_number<std::int64_t>(words[3], name, "an integer");
    box.top = parse_number<std::int64_t>(words[4], name, "an integer");
    return patch_of(box);
  }
  throw InputError(fmt::format("--distribution: unknown distribution '{}', expected one of {}",
                               words[0], kForms));
}

void Distribution::validate(std::int64_t grid_size) const {
  const auto L = static_cast<double>(grid_size);
  switch (kind) {
    case DistributionKind::geometric:
      if (!(rho > 0.0) || !std::isfinite(rho)) {
        throw InputError(fmt::format("--distribution GEOMETRIC {}: rho must be a positive number", rho));
      }
      return;
    case DistributionKind::sinusoidal:
      return;
    case DistributionKind::linear: {
      // Column weights beta - alpha x / L must be non-negative on every column, with a positive sum.
      const double last = beta - alpha * (L - 1.0) / L;
      const double total = beta * L - alpha * (L - 1.0) / 2.0;
      if (!std::isfinite(alpha) || !std::isfinite(beta) || beta < 0.0 || last < 0.0 || !(total > 0.0)) {
        throw InputError(fmt::format(
            "--distribution LINEAR {} {}: the weight beta - alpha x / L must be >= 0 on every "
            "column 0..{} with a positive total",
            alpha, beta, grid_size - 1));
      }
      return;
    }
    case DistributionKind::patch:
      if (patch.left < 0 || patch.bottom < 0 || patch.right >= grid_size || patch.top >= grid_size ||
          patch.left > patch.right || patch.bottom > patch.top) {
        throw InputError(fmt::format(
            "--distribution {}: the patch must satisfy 0 <= xl <= xr < L and 0 <= yb <= yt < L "
            "(L = {})",
            describe(), grid_size));
      }
      return;
  }
}

double Distribution::mean(std::int64_t x, std::int64_t y, std::int64_t grid_size,
                          double particles) const {
  const auto L = static_cast<double>(grid_size);
  const auto column = static_cast<double>(x);
  switch (kind) {
    case DistributionKind::geometric: {
      if (rho == 1.0) {
        return particles / (L * L);
      }
      const double a = particles * ((1.0 - rho) / (1.0 - std::pow(rho, L))) / L;
      return a * std::pow(rho, column);
    }
    case DistributionKind::sinusoidal: {
      const double c = std::cos(column * std::numbers::pi / L);
      return 2.0 * c * c * particles / (L * L);
    }
    case DistributionKind::linear: {
      const double total = beta * L - alpha * (L - 1.0) / 2.0;
      return particles * ((beta - alpha * column / L) / total) / L;
    }
    case DistributionKind::patch:
      return patch.contains(x, y) ? particles / static_cast<double>(patch.cells()) : 0.0;
  }
  return 0.0;
}

std::string Distribution::describe() const {
  switch (kind) {
    case DistributionKind::geometric:
      return fmt::format("GEOMETRIC {}", rho);
    case DistributionKind::sinusoidal:
      return "SINUSOIDAL";
    case DistributionKind::linear:
      return fmt::format("LINEAR {} {}", alpha, beta);
    case DistributionKind::patch:
      return fmt::format("PATCH {} {} {} {}", patch.left, patch.right, patch.bottom, patch.top);
  }
  return {};
}

std::uint64_t draw_count(double mu, Lcg& lcg) {
  const std::uint64_t first = lcg.next();
  const std::uint64_t second = lcg.next();
  if (mu >= 1.0) {
    constexpr std::uint64_t range = std::numeric_limits<std::uint64_t>::max();
    constexpr double scale = 1.0 / static_cast<double>(range);
    // u0 = 0 would put log(0) in the draw; the smallest normal double stands in for it.
    const double u0 = std::max(static_cast<double>(first % range) * scale,
                               std::numeric_limits<double>::min());
    const double u1 = static_cast<double>(second % range) * scale;
    const double z = std::sqrt(-2.0 * std::log(u0)) * std::cos(2.0 * std::numbers::pi * u1);
    const double rounded = z * 0.15 * mu + mu + 0.5;
    // A draw below zero (z < -6.7 sigma) is an empty cell, not a wrapped-around huge count.
    return rounded > 0.0 ? static_cast<std::uint64_t>(rounded) : 0;
  }
  // Bernoulli: compare a 32-bit variate against mu scaled to the same range.
  constexpr std::uint64_t range = std::numeric_limits<std::uint32_t>::max();
  const auto threshold = static_cast<std::uint64_t>(mu * static_cast<double>(range));
  return (second % range) < threshold ? 1 : 0;
}

}  // namespace tessera::pic
