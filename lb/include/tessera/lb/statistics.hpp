#pragma once
// Load statistics: count, sum, min, max, avg, std and the imbalance I = max/avg - 1, over rank
// loads or object loads (seconds).
//
// Statistics is a mergeable summary: each rank summarizes its own values, and summaries combine
// associatively, so the LB manager gets global figures from reductions without gathering values:
//   auto sums = team.allreduce(ReduceOp::sum, [](auto& r) { return r.stats.sums(); });
//   auto ext  = team.allreduce(ReduceOp::max, [](auto& r) { return r.stats.extremes(); });
//   Statistics global = Statistics::from_reduced(sums, ext);
// (or one reduction with merge() as a user-defined operator).

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::lb {

struct Statistics {
  std::int64_t count = 0;
  double sum = 0.0;
  double sum_squares = 0.0;
  double min = 0.0;  // 0 when count == 0
  double max = 0.0;  // 0 when count == 0

  static Statistics of(std::span<const double> values);

  void add(double value);
  void merge(const Statistics& other);

  double avg() const;        // 0 when empty
  double std() const;        // population standard deviation; 0 when empty
  double imbalance() const;  // max/avg - 1; 0 when avg == 0 (nothing to balance)

  // Reduction encoding: sums() reduce with sum, extremes() with max, then from_reduced().
  std::vector<double> sums() const;      // {count, sum, sum_squares}
  std::vector<double> extremes() const;  // {max, -min}; {-inf, -inf} when empty
  static Statistics from_reduced(std::span<const double> sums, std::span<const double> extremes);
};

inline Statistics statistics(std::span<const double> values) { return Statistics::of(values); }

}  // namespace tessera::lb
