#include "tessera/lb/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tessera::lb {

Statistics Statistics::of(std::span<const double> values) {
  Statistics s;
  for (double v : values) s.add(v);
  return s;
}

void Statistics::add(double value) {
  if (count == 0) {
    min = max = value;
  } else {
    min = std::min(min, value);
    max = std::max(max, value);
  }
  ++count;
  sum += value;
  sum_squares += value * value;
}

void Statistics::merge(const Statistics& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  count += other.count;
  sum += other.sum;
  sum_squares += other.sum_squares;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
}

double Statistics::avg() const { return count == 0 ? 0.0 : sum / static_cast<double>(count); }

double Statistics::std() const {
  if (count == 0) return 0.0;
  const double mean = avg();
  // Clamped: rounding can make E[x^2] - mean^2 slightly negative for equal values.
  return std::sqrt(std::max(0.0, sum_squares / static_cast<double>(count) - mean * mean));
}

double Statistics::imbalance() const {
  const double mean = avg();
  return mean == 0.0 ? 0.0 : max / mean - 1.0;
}

std::vector<double> Statistics::sums() const {
  return {static_cast<double>(count), sum, sum_squares};
}

std::vector<double> Statistics::extremes() const {
  if (count == 0) {
    const double none = -std::numeric_limits<double>::infinity();
    return {none, none};
  }
  return {max, -min};
}

Statistics Statistics::from_reduced(std::span<const double> sums, std::span<const double> extremes) {
  if (sums.size() != 3 || extremes.size() != 2) {
    throw std::invalid_argument("Statistics::from_reduced expects 3 sums and 2 extremes");
  }
  Statistics s;
  s.count = static_cast<std::int64_t>(sums[0]);
  if (s.count == 0) return s;
  s.sum = sums[1];
  s.sum_squares = sums[2];
  s.max = extremes[0];
  s.min = -extremes[1];
  return s;
}

}  // namespace tessera::lb
