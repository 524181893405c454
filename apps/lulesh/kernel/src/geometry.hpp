#pragma once
/// Geometry of one hexahedral element from its 8 corner positions: volume, shape-function
/// derivatives, face normals summed at the nodes, volume derivatives, characteristic length and
/// velocity gradient (LLNL-TR-641973, appendix A). Inline: they run inside the element loops.
///
/// Every expression keeps the original's operations and their order (sums left to right, the
/// same parenthesisation), since the published answers depend on the last bit. Each takes T =
/// Real for one element or T = Pair for two (simd.hpp).
#include "simd.hpp"
#include "tessera/lulesh/problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tessera::lulesh::detail {

template <class T>
inline T triple_product(T x1, T y1, T z1, T x2, T y2, T z2, T x3, T y3,
                           T z3) {
  return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2);
}

/// Volume of a hexahedron as three triple products of its diagonals.
template <class T>
inline T element_volume(const T x[8], const T y[8], const T z[8]) {
  const Real twelfth = Real(1.0) / Real(12.0);
  const T dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
  const T dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
  const T dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
  const T dx20 = x[2] - x[0], dy20 = y[2] - y[0], dz20 = z[2] - z[0];
  const T dx50 = x[5] - x[0], dy50 = y[5] - y[0], dz50 = z[5] - z[0];
  const T dx64 = x[6] - x[4], dy64 = y[6] - y[4], dz64 = z[6] - z[4];
  const T dx31 = x[3] - x[1], dy31 = y[3] - y[1], dz31 = z[3] - z[1];
  const T dx72 = x[7] - x[2], dy72 = y[7] - y[2], dz72 = z[7] - z[2];
  const T dx43 = x[4] - x[3], dy43 = y[4] - y[3], dz43 = z[4] - z[3];
  const T dx57 = x[5] - x[7], dy57 = y[5] - y[7], dz57 = z[5] - z[7];
  const T dx14 = x[1] - x[4], dy14 = y[1] - y[4], dz14 = z[1] - z[4];
  const T dx25 = x[2] - x[5], dy25 = y[2] - y[5], dz25 = z[2] - z[5];
  T volume = triple_product(dx31 + dx72, dx63, dx20, dy31 + dy72, dy63, dy20, dz31 + dz72, dz63, dz20) +
                triple_product(dx43 + dx57, dx64, dx70, dy43 + dy57, dy64, dy70, dz43 + dz57, dz64, dz70) +
                triple_product(dx14 + dx25, dx61, dx50, dy14 + dy25, dy61, dy50, dz14 + dz25, dz61, dz50);
  volume *= twelfth;
  return volume;
}

/// Derivatives of the trilinear shape functions at the element centre (b[axis][node]) and the
/// Jacobian determinant (the volume).
template <class T>
inline void shape_function_derivatives(const T x[8], const T y[8], const T z[8], T b[3][8],
                                       T* volume) {
  const T fjxxi = Real(.125) * ((x[6] - x[0]) + (x[5] - x[3]) - (x[7] - x[1]) - (x[4] - x[2]));
  const T fjxet = Real(.125) * ((x[6] - x[0]) - (x[5] - x[3]) + (x[7] - x[1]) - (x[4] - x[2]));
  const T fjxze = Real(.125) * ((x[6] - x[0]) + (x[5] - x[3]) + (x[7] - x[1]) + (x[4] - x[2]));
  const T fjyxi = Real(.125) * ((y[6] - y[0]) + (y[5] - y[3]) - (y[7] - y[1]) - (y[4] - y[2]));
  const T fjyet = Real(.125) * ((y[6] - y[0]) - (y[5] - y[3]) + (y[7] - y[1]) - (y[4] - y[2]));
  const T fjyze = Real(.125) * ((y[6] - y[0]) + (y[5] - y[3]) + (y[7] - y[1]) + (y[4] - y[2]));
  const T fjzxi = Real(.125) * ((z[6] - z[0]) + (z[5] - z[3]) - (z[7] - z[1]) - (z[4] - z[2]));
  const T fjzet = Real(.125) * ((z[6] - z[0]) - (z[5] - z[3]) + (z[7] - z[1]) - (z[4] - z[2]));
  const T fjzze = Real(.125) * ((z[6] - z[0]) + (z[5] - z[3]) + (z[7] - z[1]) + (z[4] - z[2]));

  // cofactors of the Jacobian
  const T cjxxi = (fjyet * fjzze) - (fjzet * fjyze);
  const T cjxet = -(fjyxi * fjzze) + (fjzxi * fjyze);
  const T cjxze = (fjyxi * fjzet) - (fjzxi * fjyet);
  const T cjyxi = -(fjxet * fjzze) + (fjzet * fjxze);
  const T cjyet = (fjxxi * fjzze) - (fjzxi * fjxze);
  const T cjyze = -(fjxxi * fjzet) + (fjzxi * fjxet);
  const T cjzxi = (fjxet * fjyze) - (fjyet * fjxze);
  const T cjzet = -(fjxxi * fjyze) + (fjyxi * fjxze);
  const T cjzze = (fjxxi * fjyet) - (fjyxi * fjxet);

  // nodes 4..7 are the negatives of 2, 3, 0, 1 by the element's symmetry
  b[0][0] = -cjxxi - cjxet - cjxze;
  b[0][1] = cjxxi - cjxet - cjxze;
  b[0][2] = cjxxi + cjxet - cjxze;
  b[0][3] = -cjxxi + cjxet - cjxze;
  b[0][4] = -b[0][2];
  b[0][5] = -b[0][3];
  b[0][6] = -b[0][0];
  b[0][7] = -b[0][1];

  b[1][0] = -cjyxi - cjyet - cjyze;
  b[1][1] = cjyxi - cjyet - cjyze;
  b[1][2] = cjyxi + cjyet - cjyze;
  b[1][3] = -cjyxi + cjyet - cjyze;
  b[1][4] = -b[1][2];
  b[1][5] = -b[1][3];
  b[1][6] = -b[1][0];
  b[1][7] = -b[1][1];

  b[2][0] = -cjzxi - cjzet - cjzze;
  b[2][1] = cjzxi - cjzet - cjzze;
  b[2][2] = cjzxi + cjzet - cjzze;
  b[2][3] = -cjzxi + cjzet - cjzze;
  b[2][4] = -b[2][2];
  b[2][5] = -b[2][3];
  b[2][6] = -b[2][0];
  b[2][7] = -b[2][1];

  *volume = Real(8.) * (fjxet * cjxet + fjyet * cjyet + fjzet * cjzet);
}

/// Adds a quarter of the area vector of face (n0, n1, n2, n3) to each of its four nodes.
template <class T>
inline void add_face_normal(T pfx[8], T pfy[8], T pfz[8], const T x[8], const T y[8],
                            const T z[8], int n0, int n1, int n2, int n3) {
  const T bisect_x0 = Real(0.5) * (x[n3] + x[n2] - x[n1] - x[n0]);
  const T bisect_y0 = Real(0.5) * (y[n3] + y[n2] - y[n1] - y[n0]);
  const T bisect_z0 = Real(0.5) * (z[n3] + z[n2] - z[n1] - z[n0]);
  const T bisect_x1 = Real(0.5) * (x[n2] + x[n1] - x[n3] - x[n0]);
  const T bisect_y1 = Real(0.5) * (y[n2] + y[n1] - y[n3] - y[n0]);
  const T bisect_z1 = Real(0.5) * (z[n2] + z[n1] - z[n3] - z[n0]);
  const T area_x = Real(0.25) * (bisect_y0 * bisect_z1 - bisect_z0 * bisect_y1);
  const T area_y = Real(0.25) * (bisect_z0 * bisect_x1 - bisect_x0 * bisect_z1);
  const T area_z = Real(0.25) * (bisect_x0 * bisect_y1 - bisect_y0 * bisect_x1);
  pfx[n0] += area_x;
  pfx[n1] += area_x;
  pfx[n2] += area_x;
  pfx[n3] += area_x;
  pfy[n0] += area_y;
  pfy[n1] += area_y;
  pfy[n2] += area_y;
  pfy[n3] += area_y;
  pfz[n0] += area_z;
  pfz[n1] += area_z;
  pfz[n2] += area_z;
  pfz[n3] += area_z;
}

/// The area-weighted normals of the six faces, summed at the nodes (the stress divergence).
template <class T>
inline void element_node_normals(T pfx[8], T pfy[8], T pfz[8], const T x[8], const T y[8],
                                 const T z[8]) {
  for (int i = 0; i < 8; ++i) {
    pfx[i] = T{};
    pfy[i] = T{};
    pfz[i] = T{};
  }
  add_face_normal(pfx, pfy, pfz, x, y, z, 0, 1, 2, 3);
  add_face_normal(pfx, pfy, pfz, x, y, z, 0, 4, 5, 1);
  add_face_normal(pfx, pfy, pfz, x, y, z, 1, 5, 6, 2);
  add_face_normal(pfx, pfy, pfz, x, y, z, 2, 6, 7, 3);
  add_face_normal(pfx, pfy, pfz, x, y, z, 3, 7, 4, 0);
  add_face_normal(pfx, pfy, pfz, x, y, z, 4, 7, 6, 5);
}

/// d(volume)/d(node position) for one node, from the six nodes around it (a..f in the
/// original's argument order).
template <class T>
inline void volume_derivative_at(const T x[8], const T y[8], const T z[8], int a, int b, int c, int d,
                                 int e, int f, T* dvdx, T* dvdy, T* dvdz) {
  const Real twelfth = Real(1.0) / Real(12.0);
  const T x0 = x[a], x1 = x[b], x2 = x[c], x3 = x[d], x4 = x[e], x5 = x[f];
  const T y0 = y[a], y1 = y[b], y2 = y[c], y3 = y[d], y4 = y[e], y5 = y[f];
  const T z0 = z[a], z1 = z[b], z2 = z[c], z3 = z[d], z4 = z[e], z5 = z[f];
  *dvdx = (y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) + (y0 + y4) * (z3 + z4) - (y3 + y4) * (z0 + z4) -
          (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5);
  *dvdy = -(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) - (x0 + x4) * (z3 + z4) + (x3 + x4) * (z0 + z4) +
          (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5);
  *dvdz = -(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) - (y0 + y4) * (x3 + x4) + (y3 + y4) * (x0 + x4) +
          (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5);
  *dvdx *= twelfth;
  *dvdy *= twelfth;
  *dvdz *= twelfth;
}

template <class T>
inline void volume_derivatives(T dvdx[8], T dvdy[8], T dvdz[8], const T x[8], const T y[8],
                               const T z[8]) {
  volume_derivative_at(x, y, z, 1, 2, 3, 4, 5, 7, &dvdx[0], &dvdy[0], &dvdz[0]);
  volume_derivative_at(x, y, z, 0, 1, 2, 7, 4, 6, &dvdx[3], &dvdy[3], &dvdz[3]);
  volume_derivative_at(x, y, z, 3, 0, 1, 6, 7, 5, &dvdx[2], &dvdy[2], &dvdz[2]);
  volume_derivative_at(x, y, z, 2, 3, 0, 5, 6, 4, &dvdx[1], &dvdy[1], &dvdz[1]);
  volume_derivative_at(x, y, z, 7, 6, 5, 0, 3, 1, &dvdx[4], &dvdy[4], &dvdz[4]);
  volume_derivative_at(x, y, z, 4, 7, 6, 1, 0, 2, &dvdx[5], &dvdy[5], &dvdz[5]);
  volume_derivative_at(x, y, z, 5, 4, 7, 2, 1, 3, &dvdx[6], &dvdy[6], &dvdz[6]);
  volume_derivative_at(x, y, z, 6, 5, 4, 3, 2, 0, &dvdx[7], &dvdy[7], &dvdz[7]);
}

/// Squared-area measure of face (n0, n1, n2, n3): |f|^2 |g|^2 - (f.g)^2 of its diagonals' sum
/// and difference.
template <class T>
inline T face_area(const T x[8], const T y[8], const T z[8], int n0, int n1, int n2, int n3) {
  const T fx = (x[n2] - x[n0]) - (x[n3] - x[n1]);
  const T fy = (y[n2] - y[n0]) - (y[n3] - y[n1]);
  const T fz = (z[n2] - z[n0]) - (z[n3] - z[n1]);
  const T gx = (x[n2] - x[n0]) + (x[n3] - x[n1]);
  const T gy = (y[n2] - y[n0]) + (y[n3] - y[n1]);
  const T gz = (z[n2] - z[n0]) + (z[n3] - z[n1]);
  return (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz) -
         (fx * gx + fy * gy + fz * gz) * (fx * gx + fy * gy + fz * gz);
}

/// Volume over the largest face: the length the Courant condition uses.
template <class T>
inline T characteristic_length(const T x[8], const T y[8], const T z[8], T volume) {
  T len{};
  len = max_each(face_area(x, y, z, 0, 1, 2, 3), len);
  len = max_each(face_area(x, y, z, 4, 5, 6, 7), len);
  len = max_each(face_area(x, y, z, 0, 1, 5, 4), len);
  len = max_each(face_area(x, y, z, 1, 2, 6, 5), len);
  len = max_each(face_area(x, y, z, 2, 3, 7, 6), len);
  len = max_each(face_area(x, y, z, 3, 0, 4, 7), len);
  return Real(4.0) * volume / sqrt_each(len);
}

/// The diagonal of the velocity gradient (the principal strain rates): all the kernel keeps of it.
template <class T>
inline void velocity_gradient_diagonal(const T xv[8], const T yv[8], const T zv[8], const T b[3][8],
                                       T det_j, T d[3]) {
  const T inv_det_j = Real(1.0) / det_j;
  const T* pfx = b[0];
  const T* pfy = b[1];
  const T* pfz = b[2];
  d[0] = inv_det_j * (pfx[0] * (xv[0] - xv[6]) + pfx[1] * (xv[1] - xv[7]) + pfx[2] * (xv[2] - xv[4]) +
                      pfx[3] * (xv[3] - xv[5]));
  d[1] = inv_det_j * (pfy[0] * (yv[0] - yv[6]) + pfy[1] * (yv[1] - yv[7]) + pfy[2] * (yv[2] - yv[4]) +
                      pfy[3] * (yv[3] - yv[5]));
  d[2] = inv_det_j * (pfz[0] * (zv[0] - zv[6]) + pfz[1] * (zv[1] - zv[7]) + pfz[2] * (zv[2] - zv[4]) +
                      pfz[3] * (zv[3] - zv[5]));
}

}  // namespace tessera::lulesh::detail
