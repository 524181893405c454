/// What a domain trades with its neighbours, as the original's lulesh-comm.cc trades it:
/// CommSBN (mass, forces: sums over shared nodes), CommSyncPosVel as called with
/// SEDOV_SYNC_POS_VEL_EARLY (positions and velocities, overwritten, one way only) and CommMonoQ
/// (face gradients into ghost elements).
///
/// A buffer holds one field after the other; within a field, the shared nodes (or face
/// elements) in ascending index order, which is the order the original packs every face, edge
/// and corner. Both sides of a shared face number its points alike, so the n-th value of the
/// buffer lands on the n-th point of the receiver's matching face.
///
/// unpack() applies the buffers in the original's order (faces plane-, plane+, row-, row+,
/// col-, col+; then its twelve edges; then its eight corners): a node on an edge or corner
/// receives several contributions, and the order of their additions (or which overwrite wins)
/// is what makes the sums bit-identical to the original's MPI run.
#include "tessera/lulesh/domain.hpp"

#include <stdexcept>
#include <string>

namespace tessera::lulesh {

namespace {

constexpr int direction_of(int dcol, int drow, int dplane) {
  const int k = (dplane + 1) * 9 + (drow + 1) * 3 + (dcol + 1);
  return k < 13 ? k : k - 1;
}

/// The original's unpacking order, as directions.
constexpr int kUnpackOrder[kDirections] = {
    // faces
    direction_of(0, 0, -1), direction_of(0, 0, 1), direction_of(0, -1, 0), direction_of(0, 1, 0),
    direction_of(-1, 0, 0), direction_of(1, 0, 0),
    // edges
    direction_of(-1, -1, 0), direction_of(0, -1, -1), direction_of(-1, 0, -1), direction_of(1, 1, 0),
    direction_of(0, 1, 1), direction_of(1, 0, 1), direction_of(-1, 1, 0), direction_of(0, -1, 1),
    direction_of(-1, 0, 1), direction_of(1, -1, 0), direction_of(0, 1, -1), direction_of(1, 0, -1),
    // corners
    direction_of(-1, -1, -1), direction_of(-1, -1, 1), direction_of(1, -1, -1), direction_of(1, -1, 1),
    direction_of(-1, 1, -1), direction_of(-1, 1, 1), direction_of(1, 1, -1), direction_of(1, 1, 1)};

int nonzero(const Offset& o) { return (o.col != 0) + (o.row != 0) + (o.plane != 0); }

/// Position of a face direction in the ghost layout (plane-, plane+, row-, row+, col-, col+).
int face_slot(const Offset& o) {
  if (o.plane != 0) return o.plane < 0 ? 0 : 1;
  if (o.row != 0) return o.row < 0 ? 2 : 3;
  return o.col < 0 ? 4 : 5;
}

/// The points of an n^3 block on its side towards offset o, visited in ascending index order.
template <class F>
void for_each_site(const Offset& o, int n, F&& f) {
  auto lo = [n](int d) { return d > 0 ? n - 1 : 0; };
  auto hi = [n](int d) { return d < 0 ? 1 : n; };
  for (int pl = lo(o.plane); pl < hi(o.plane); ++pl)
    for (int r = lo(o.row); r < hi(o.row); ++r)
      for (int c = lo(o.col); c < hi(o.col); ++c) f((pl * n + r) * n + c);
}

std::size_t site_count(const Offset& o, int n) {
  std::size_t count = 1;
  for (const int d : {o.col, o.row, o.plane}) count *= d == 0 ? std::size_t(n) : 1;
  return count;
}

// Whether a domain sends `x` in direction d, given a neighbour there.
bool sent_towards(Exchange x, int d) {
  switch (x) {
    case Exchange::mass:
    case Exchange::forces: return true;
    // The early position sync (doSend = false) sends only towards the neighbours that precede
    // this domain in (plane, row, col) order; they take the shared nodes from it.
    case Exchange::position_velocity: return d < 13;
    case Exchange::gradients: return nonzero(offset(d)) == 1;
  }
  return false;
}

}  // namespace

Offset offset(int d) {
  const int k = d < 13 ? d : d + 1;
  return Offset{k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1};
}

int opposite(int d) { return kDirections - 1 - d; }

bool Domain::has_neighbour(int d) const {
  const Offset o = offset(d);
  const auto inside = [this](int p) { return p >= 0 && p < tp_; };
  return inside(col_ + o.col) && inside(row_ + o.row) && inside(plane_ + o.plane);
}

bool Domain::sends(Exchange x, int d) const { return has_neighbour(d) && sent_towards(x, d); }

// Whatever a neighbour sends towards this domain (in direction opposite(d) from it), this domain
// receives.
bool Domain::receives(Exchange x, int d) const { return has_neighbour(d) && sent_towards(x, opposite(d)); }

int Domain::expected(Exchange x) const {
  int n = 0;
  for (int d = 0; d < kDirections; ++d) n += receives(x, d) ? 1 : 0;
  return n;
}

void Domain::pack(Exchange x, int d, std::vector<Real>& out) const {
  out.clear();
  if (!sends(x, d)) return;
  const Offset o = offset(d);
  const std::vector<Real>* fields[6] = {};
  int count = 0;
  switch (x) {
    case Exchange::mass: fields[count++] = &nodal_mass_; break;
    case Exchange::forces:
      for (const auto* f : {&fx_, &fy_, &fz_}) fields[count++] = f;
      break;
    case Exchange::position_velocity:
      for (const auto* f : {&x_, &y_, &z_, &xd_, &yd_, &zd_}) fields[count++] = f;
      break;
    case Exchange::gradients:
      for (const auto* f : {&delv_xi_, &delv_eta_, &delv_zeta_}) fields[count++] = f;
      break;
  }
  const int n = x == Exchange::gradients ? edge_ : edge_ + 1;
  out.reserve(site_count(o, n) * count);
  for (int fi = 0; fi < count; ++fi) {
    const Real* src = fields[fi]->data();
    for_each_site(o, n, [&](int i) { out.push_back(src[i]); });
  }
}

void Domain::unpack(Exchange x, const std::array<std::span<const Real>, kDirections>& received) {
  std::vector<Real>* fields[6] = {};
  int count = 0;
  switch (x) {
    case Exchange::mass: fields[count++] = &nodal_mass_; break;
    case Exchange::forces:
      for (auto* f : {&fx_, &fy_, &fz_}) fields[count++] = f;
      break;
    case Exchange::position_velocity:
      for (auto* f : {&x_, &y_, &z_, &xd_, &yd_, &zd_}) fields[count++] = f;
      break;
    case Exchange::gradients:
      for (auto* f : {&delv_xi_, &delv_eta_, &delv_zeta_}) fields[count++] = f;
      break;
  }
  const int n = x == Exchange::gradients ? edge_ : edge_ + 1;

  // Check every buffer before touching anything, so a bad delivery leaves the domain as it was.
  for (int d = 0; d < kDirections; ++d) {
    const std::size_t want = receives(x, d) ? site_count(offset(d), n) * count : 0;
    if (received[d].size() != want) {
      throw std::invalid_argument("lulesh::Domain::unpack: buffer from direction " + std::to_string(d) + " has " +
                                  std::to_string(received[d].size()) + " values, expected " +
                                  std::to_string(want));
    }
  }

  for (const int d : kUnpackOrder) {
    if (!receives(x, d)) continue;
    const Offset o = offset(d);
    const std::span<const Real> buf = received[d];
    const std::size_t sites = site_count(o, n);
    for (int fi = 0; fi < count; ++fi) {
      Real* dst = fields[fi]->data();
      const Real* src = buf.data() + fi * sites;
      std::size_t k = 0;
      switch (x) {
        case Exchange::mass:
        case Exchange::forces: for_each_site(o, n, [&](int i) { dst[i] += src[k++]; }); break;
        case Exchange::position_velocity: for_each_site(o, n, [&](int i) { dst[i] = src[k++]; }); break;
        case Exchange::gradients: {
          // into this face's ghost layer, in the order the neighbour packed its face
          Real* ghost = dst + ghost_base_[face_slot(o)];
          for (std::size_t j = 0; j < sites; ++j) ghost[j] = src[j];
          break;
        }
      }
    }
  }
}

}  // namespace tessera::lulesh
