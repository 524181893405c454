#pragma once
/// Two elements at once: the element loops compute a pair of neighbouring elements per pass in
/// the two lanes of a `Pair` (SSE2 on x86-64, which every x86-64 processor has, so the build
/// needs no target flag).
///
/// Each lane performs exactly the operations the scalar code performs for its element, in the
/// same order: IEEE addition, subtraction, multiplication, division and square root are
/// correctly rounded lane by lane, the build contracts nothing into fused multiply-adds (x86-64
/// without a target flag has none), and what has no packed instruction (the cube root) is called
/// once per lane. So a pair gives the scalar code's bits, and the answer stays the original's.
/// Everything that adds into shared nodes stays scalar and in element order (scatter_add).
#include "tessera/lulesh/problem.hpp"

#include <cmath>
#include <cstdint>

namespace tessera::lulesh::detail {

using Pair = Real __attribute__((vector_size(2 * sizeof(Real))));

inline Real sqrt_each(Real v) { return std::sqrt(v); }
inline Pair sqrt_each(Pair v) {
#if defined(__SSE2__)
  return __builtin_ia32_sqrtpd(v);
#else
  return Pair{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
}
inline Real cbrt_each(Real v) { return std::cbrt(v); }
inline Pair cbrt_each(Pair v) { return Pair{std::cbrt(v[0]), std::cbrt(v[1])}; }

/// std::max(a, b) lane by lane: b where a < b, else a (so signed zeros and NaNs pick as it does).
inline Real max_each(Real a, Real b) { return a < b ? b : a; }
inline Pair max_each(Pair a, Pair b) { return a < b ? b : a; }

/// `value` in every lane.
template <class T>
T splat(Real value);
template <>
inline Real splat<Real>(Real value) { return value; }
template <>
inline Pair splat<Pair>(Real value) { return Pair{value, value}; }

/// |v| lane by lane.
inline Real abs_each(Real v) { return std::fabs(v); }
inline Pair abs_each(Pair v) { return Pair{std::fabs(v[0]), std::fabs(v[1])}; }

/// `when ? a : b` lane by lane, `when` a comparison of Reals or of Pairs.
using PairMask = decltype(Pair{} < Pair{});
inline Real choose(bool when, Real a, Real b) { return when ? a : b; }
inline Pair choose(PairMask when, Pair a, Pair b) { return when ? a : b; }

/// Whether any lane is <= 0.
inline bool any_nonpositive(Real v) { return v <= Real(0.0); }
inline bool any_nonpositive(Pair v) { return v[0] <= Real(0.0) || v[1] <= Real(0.0); }

/// One element's values (Real) or a pair's (Pair) from consecutive entries of a per-element array.
template <class T>
T load(const Real* values);
template <>
inline Real load<Real>(const Real* values) { return values[0]; }
template <>
inline Pair load<Pair>(const Real* values) { return Pair{values[0], values[1]}; }
inline void store(Real* values, Real v) { values[0] = v; }
inline void store(Real* values, Pair v) {
  values[0] = v[0];
  values[1] = v[1];
}

/// field[list[0]] (Real), or field[list[0]] and field[list[1]] (Pair): a region's elements.
template <class T>
T load_at(const Real* field, const std::int32_t* list);
template <>
inline Real load_at<Real>(const Real* field, const std::int32_t* list) { return field[list[0]]; }
template <>
inline Pair load_at<Pair>(const Real* field, const std::int32_t* list) { return Pair{field[list[0]], field[list[1]]}; }

/// The 8 corner values of `field` for the element whose corners are nodes[0..8), or for the pair
/// whose corners are nodes[0..8) (lane 0) and nodes[8..16) (lane 1), as the node list stores them.
inline void gather(const std::int32_t* nodes, const Real* field, Real out[8]) {
  for (int i = 0; i < 8; ++i) out[i] = field[nodes[i]];
}
inline void gather(const std::int32_t* nodes, const Real* field, Pair out[8]) {
  for (int i = 0; i < 8; ++i) out[i] = Pair{field[nodes[i]], field[nodes[8 + i]]};
}

/// gather() of the three components of a nodal vector (positions, velocities).
template <class T>
inline void gather3(const std::int32_t* nodes, const Real* x, const Real* y, const Real* z, T xl[8], T yl[8],
                    T zl[8]) {
  gather(nodes, x, xl);
  gather(nodes, y, yl);
  gather(nodes, z, zl);
}

/// Adds 8 values into the element's nodes; for a pair, lane 0's before lane 1's: the scalar
/// loop's order, since neighbouring elements share nodes.
inline void scatter_add(const std::int32_t* nodes, const Real values[8], Real* field) {
  for (int i = 0; i < 8; ++i) field[nodes[i]] += values[i];
}
inline void scatter_add(const std::int32_t* nodes, const Pair values[8], Real* field) {
  for (int i = 0; i < 8; ++i) field[nodes[i]] += values[i][0];
  for (int i = 0; i < 8; ++i) field[nodes[8 + i]] += values[i][1];
}

/// Runs body(T{}, k) over elements [0, count): T = Pair for k, k + 1 while two remain, then
/// T = Real for the last one when count is odd.
template <class Body>
inline void for_each_pair(std::int32_t count, Body&& body) {
  std::int32_t k = 0;
  for (; k + 2 <= count; k += 2) body(Pair{}, k);
  if (k < count) body(Real{}, k);
}

}  // namespace tessera::lulesh::detail
