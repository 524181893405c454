// Synthetic workloads (seed 003 section V's "10^4 tasks on 16 of 4096 ranks").

#include "tessera/lbsim/synthetic.hpp"

#include <cmath>
#include <numbers>

#include "pairs.hpp"
#include "tessera/lb/tempered_random.hpp"

namespace tessera::lbsim {

namespace {

constexpr std::string_view flag = "--synthetic";

// "uniform:LOW:HIGH" or "lognormal:MEAN:VARIANCE".
void parse_load(const std::string& value, SyntheticSpec& spec) {
  const std::string expected = "uniform:LOW:HIGH (0 <= LOW <= HIGH) or lognormal:MEAN:VARIANCE (MEAN > 0, VARIANCE >= 0)";
  const auto first = value.find(':');
  const auto second = first == std::string::npos ? std::string::npos : value.find(':', first + 1);
  if (second == std::string::npos) detail::bad_value(flag, "load", value, expected);
  const std::string kind = value.substr(0, first);
  double a = 0.0, b = 0.0;
  if (!detail::parse_number(std::string_view(value).substr(first + 1, second - first - 1), a) ||
      !detail::parse_number(std::string_view(value).substr(second + 1), b)) {
    detail::bad_value(flag, "load", value, expected);
  }
  if (kind == "uniform" && a >= 0.0 && a <= b) {
    spec.distribution = SyntheticSpec::Distribution::uniform;
  } else if (kind == "lognormal" && a > 0.0 && b >= 0.0) {
    spec.distribution = SyntheticSpec::Distribution::lognormal;
  } else {
    detail::bad_value(flag, "load", value, expected);
  }
  spec.a = a;
  spec.b = b;
}

}  // namespace

SyntheticSpec parse_synthetic(std::string_view text) {
  SyntheticSpec spec;
  std::int64_t mapped = -1;
  std::string hot_text;  // as given, for the message when it exceeds mapped
  for (const auto& [key, value] : detail::split_pairs(text, flag)) {
    std::int64_t n = 0;
    if (key == "objects") {
      if (!detail::parse_number(value, n) || n < 0) detail::bad_value(flag, key, value, "an integer >= 0");
      spec.objects = n;
    } else if (key == "ranks") {
      if (!detail::parse_number(value, n) || n < 1 || n > (1 << 24)) {
        detail::bad_value(flag, key, value, "an integer in [1, 16777216]");
      }
      spec.ranks = static_cast<lb::Rank>(n);
    } else if (key == "mapped") {
      if (!detail::parse_number(value, n) || n < 1) detail::bad_value(flag, key, value, "an integer in [1, ranks]");
      mapped = n;
    } else if (key == "seed") {
      if (!detail::parse_number(value, n) || n < 0) detail::bad_value(flag, key, value, "an integer >= 0");
      spec.seed = static_cast<std::uint64_t>(n);
    } else if (key == "load") {
      parse_load(value, spec);
    } else if (key == "hot") {
      const auto colon = value.find(':');
      std::int64_t h = 0;
      double factor = 0.0;
      if (colon == std::string::npos || !detail::parse_number(std::string_view(value).substr(0, colon), h) ||
          !detail::parse_number(std::string_view(value).substr(colon + 1), factor) || h < 0 || !(factor > 0.0)) {
        detail::bad_value(flag, key, value, "H:FACTOR (H an integer in [0, mapped], FACTOR > 0)");
      }
      spec.hot_ranks = static_cast<lb::Rank>(h);
      spec.hot_factor = factor;
      hot_text = value;
    } else {
      throw InputError(std::string(flag) + ": unknown key '" + key +
                       "'; valid keys: objects, ranks, mapped, load, hot, seed");
    }
  }
  if (mapped > spec.ranks) {
    detail::bad_value(flag, "mapped", std::to_string(mapped), "an integer in [1, ranks] (ranks=" + std::to_string(spec.ranks) + ")");
  }
  spec.mapped = mapped > 0 ? static_cast<lb::Rank>(mapped) : std::min(spec.mapped, spec.ranks);
  if (spec.hot_ranks > spec.mapped) {
    detail::bad_value(flag, "hot", hot_text, "H:FACTOR with H in [0, mapped] (mapped=" + std::to_string(spec.mapped) + ")");
  }
  return spec;
}

lb::LbData make_synthetic(const SyntheticSpec& spec) {
  lb::LbData data;
  data.ranks.resize(static_cast<std::size_t>(spec.ranks));
  for (lb::Rank r = 0; r < spec.ranks; ++r) {
    data.ranks[static_cast<std::size_t>(r)].rank = r;
    data.ranks[static_cast<std::size_t>(r)].phases.push_back(lb::Phase{0, {}, {}});
  }
  // The moments of the lognormal are the load's own; convert to those of the underlying normal.
  const double sigma2 = spec.distribution == SyntheticSpec::Distribution::lognormal
                            ? std::log1p(spec.b / (spec.a * spec.a)) : 0.0;
  const double mu = spec.distribution == SyntheticSpec::Distribution::lognormal
                        ? std::log(spec.a) - sigma2 / 2.0 : 0.0;
  lb::tempered::Random random({spec.seed, 0x5e7d});
  for (std::int64_t i = 0; i < spec.objects; ++i) {
    double load = 0.0;
    if (spec.distribution == SyntheticSpec::Distribution::uniform) {
      load = spec.a + (spec.b - spec.a) * random.real();
    } else {
      // Box-Muller, written out so a seed gives the same loads with every standard library.
      const double u1 = 1.0 - random.real();
      const double u2 = random.real();
      const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
      load = std::exp(mu + std::sqrt(sigma2) * normal);
    }
    const auto rank = static_cast<lb::Rank>(random.below(static_cast<std::uint64_t>(spec.mapped)));
    if (rank < spec.hot_ranks) load *= spec.hot_factor;
    lb::Task task;
    task.entity.id = lb::ObjectId::packed(static_cast<std::uint64_t>(i));
    task.entity.home = rank;
    task.entity.migratable = true;
    task.node = rank;
    task.time = load;
    data.ranks[static_cast<std::size_t>(rank)].phases[0].tasks.push_back(std::move(task));
  }
  return data;
}

std::vector<lb::StrategyInput> tile_inputs(const std::vector<lb::StrategyInput>& inputs, lb::Rank ranks) {
  const auto recorded = static_cast<lb::Rank>(inputs.size());
  if (recorded == 0 || ranks < recorded || ranks % recorded != 0) {
    throw InputError("tiling " + std::to_string(recorded) + " recorded ranks over " + std::to_string(ranks) +
                     " ranks: expected a positive multiple of " + std::to_string(recorded));
  }
  std::uint64_t span = 0;  // one past the largest id value: tile t adds t x span
  for (const auto& rank : inputs)
    for (const auto& object : rank.objects) span = std::max(span, object.id.value + 1);
  std::vector<lb::StrategyInput> out(static_cast<std::size_t>(ranks));
  for (lb::Rank r = 0; r < ranks; ++r) {
    const auto tile = static_cast<std::uint64_t>(r / recorded);
    auto& into = out[static_cast<std::size_t>(r)];
    into = inputs[static_cast<std::size_t>(r % recorded)];
    into.rank = r;
    into.edges.clear();
    for (auto& object : into.objects) object.id.value += tile * span;
  }
  return out;
}

}  // namespace tessera::lbsim
