#include <tessera/lb/manager/balance_report.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <vector>

namespace tessera::lb {

namespace {
// Wire layout of one report: three summaries of 5 numbers, then migrations and the two times.
constexpr std::size_t kSummary = 5;
constexpr std::size_t kMigrations = 3 * kSummary;
constexpr std::size_t kStrategy = kMigrations + 1;
constexpr std::size_t kMigration = kMigrations + 2;
constexpr std::size_t kCost = kMigrations + 3;
constexpr std::size_t kSplits = kMigrations + 4;
constexpr std::size_t kMerges = kMigrations + 5;
constexpr std::size_t kLength = kMigrations + 6;

void put(std::vector<double>& out, std::size_t at, const lb::Statistics& s) {
  out[at] = static_cast<double>(s.count);
  out[at + 1] = s.sum;
  out[at + 2] = s.sum_squares;
  out[at + 3] = s.min;
  out[at + 4] = s.max;
}

lb::Statistics get(const std::vector<double>& in, std::size_t at) {
  lb::Statistics s;
  s.count = static_cast<std::int64_t>(in[at]);
  s.sum = in[at + 1];
  s.sum_squares = in[at + 2];
  s.min = in[at + 3];
  s.max = in[at + 4];
  return s;
}

std::vector<double> combine(std::vector<double> a, const std::vector<double>& b) {
  for (std::size_t at = 0; at < kMigrations; at += kSummary) {
    lb::Statistics merged = get(a, at);
    merged.merge(get(b, at));
    put(a, at, merged);
  }
  a[kMigrations] += b[kMigrations];
  a[kStrategy] = std::max(a[kStrategy], b[kStrategy]);
  a[kMigration] = std::max(a[kMigration], b[kMigration]);
  a[kCost] = std::max(a[kCost], b[kCost]);
  a[kSplits] += b[kSplits];
  a[kMerges] += b[kMerges];
  return a;
}

nlohmann::json loads(const lb::Statistics& s) {
  return {{"min", s.min}, {"max", s.max}, {"avg", s.avg()}, {"std", s.std()}, {"imbalance", s.imbalance()}};
}
}  // namespace

std::string BalanceReport::line() const {
  return fmt::format(
      "tessera lb: phase {} {}: rank load min {:.6g} max {:.6g} avg {:.6g} std {:.6g} I {:.4g} -> min {:.6g} "
      "max {:.6g} avg {:.6g} std {:.6g} I {:.4g}; object load min {:.6g} max {:.6g} avg {:.6g}; "
      "migrations {}{}; strategy {:.6f} s; migration {:.6f} s{}{}",
      phase, strategy, before.min, before.max, before.avg(), before.std(), before.imbalance(), after.min, after.max,
      after.avg(), after.std(), after.imbalance(), objects.min, objects.max, objects.avg(), migrations,
      splits + merges > 0 ? fmt::format("; splits {}; merges {}", splits, merges) : "", strategy_s, migration_s,
      reason.empty() ? "" : "; why: ", reason);
}

std::string BalanceReport::json() const {
  const nlohmann::json out = {
      {"phase", phase},
      {"strategy", strategy},
      {"before", loads(before)},
      {"after", loads(after)},
      {"objects", {{"count", objects.count}, {"min", objects.min}, {"max", objects.max}, {"avg", objects.avg()}}},
      {"migrations", migrations},
      {"splits", splits},
      {"merges", merges},
      {"strategy_s", strategy_s},
      {"migration_s", migration_s},
      {"reason", reason}};
  return out.dump();
}

BalanceReport reduce_report(Collectives& collectives, const BalanceReport& local) {
  std::vector<double> mine(kLength, 0.0);
  put(mine, 0, local.before);
  put(mine, kSummary, local.after);
  put(mine, 2 * kSummary, local.objects);
  mine[kMigrations] = static_cast<double>(local.migrations);
  mine[kStrategy] = local.strategy_s;
  mine[kMigration] = local.migration_s;
  mine[kCost] = local.load_clock_cost_s;
  mine[kSplits] = static_cast<double>(local.splits);
  mine[kMerges] = static_cast<double>(local.merges);
  const std::vector<double> all = collectives.allreduce(std::move(mine), combine);
  BalanceReport global = local;
  global.before = get(all, 0);
  global.after = get(all, kSummary);
  global.objects = get(all, 2 * kSummary);
  global.migrations = static_cast<std::int64_t>(all[kMigrations]);
  global.strategy_s = all[kStrategy];
  global.migration_s = all[kMigration];
  global.load_clock_cost_s = all[kCost];
  global.splits = static_cast<std::int64_t>(all[kSplits]);
  global.merges = static_cast<std::int64_t>(all[kMerges]);
  return global;
}

}  // namespace tessera::lb
