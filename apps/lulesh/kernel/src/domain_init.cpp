/// Building a domain: the mesh of its cube, the connectivity and boundary flags, the region
/// draw, and the initial state (the original's Domain constructor, lulesh-init.cc); plus the
/// domain's read-only results.
#include "constants.hpp"
#include "geometry.hpp"
#include "tessera/lulesh/domain.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace tessera::lulesh {

using namespace detail;

namespace {

/// glibc's rand() as a per-domain generator: rand() is random() on a TYPE_3 state of 128 bytes,
/// so random_r on a private 128-byte state seeded the same way yields the same sequence without
/// touching the process-wide generator (many domains are drawn in one process).
class GlibcRand {
 public:
  explicit GlibcRand(unsigned seed) {
    std::memset(&data_, 0, sizeof data_);  // initstate_r reads data_.state before setting it
    if (initstate_r(seed, state_, sizeof state_, &data_) != 0) throw std::runtime_error("initstate_r failed");
  }
  int operator()() {
    std::int32_t r = 0;
    random_r(&data_, &r);
    return r;
  }

 private:
  char state_[128] = {};
  random_data data_;
};

}  // namespace

Domain::Domain() = default;

Domain::Domain(const Problem& problem, int col, int row, int plane)
    : edge_(problem.edge),
      tp_(problem.domains_per_side),
      col_(col),
      row_(row),
      plane_(plane),
      num_reg_(problem.regions),
      cost_(problem.cost) {
  if (col < 0 || row < 0 || plane < 0 || col >= tp_ || row >= tp_ || plane >= tp_)
    throw std::invalid_argument("lulesh::Domain: position outside the cube of domains");
  const Index edge_nodes = edge_ + 1;
  num_elem_ = edge_ * edge_ * edge_;
  num_node_ = edge_nodes * edge_nodes * edge_nodes;
  const auto ne = static_cast<std::size_t>(num_elem_);
  const auto nn = static_cast<std::size_t>(num_node_);

  for (auto* f : {&x_, &y_, &z_, &xd_, &yd_, &zd_, &fx_, &fy_, &fz_, &nodal_mass_})
    f->assign(nn, Real(0.0));
  for (auto* f : {&e_, &p_, &q_, &ql_, &qq_, &volo_, &vnew_, &delv_, &vdov_, &arealg_, &ss_, &elem_mass_})
    f->assign(ne, Real(0.0));
  v_.assign(ne, Real(1.0));  // relative volume starts at 1

  place_nodes();
  draw_regions(problem.balance);
  build_topology();

  dtfixed_ = Real(-1.0e-6);  // negative: the Courant condition sets the step
  stoptime_ = Real(1.0e-2);
  deltatimemultlb_ = Real(1.1);
  deltatimemultub_ = Real(1.2);
  dtcourant_ = Real(1.0e+20);
  dthydro_ = Real(1.0e+20);
  dtmax_ = Real(1.0e-2);
  time_ = Real(0.);
  cycle_ = 0;

  // Element volumes, and each element's mass spread evenly over its corners. Shared nodes get
  // only this domain's share here; the mass exchange adds the neighbours'.
  for (Index i = 0; i < num_elem_; ++i) {
    const Index* nodes = &nodelist_[std::size_t(8) * i];
    Real xl[8], yl[8], zl[8];
    gather(nodes, x_.data(), xl);
    gather(nodes, y_.data(), yl);
    gather(nodes, z_.data(), zl);
    const Real volume = element_volume(xl, yl, zl);
    volo_[i] = volume;
    elem_mass_[i] = volume;
    for (int j = 0; j < 8; ++j) nodal_mass_[nodes[j]] += volume / Real(8.0);
  }

  // The blast: an energy that scales with the cube of the global edge (3.948746e+7 is right for
  // 45 elements a side), deposited in the element at the global origin.
  const Real ebase = Real(3.948746e+7);
  const Real scale = (edge_ * tp_) / Real(45.0);
  const Real einit = ebase * scale * scale * scale;
  if (row_ + col_ + plane_ == 0) e_[0] = einit;
  // first step from an analytic CFL estimate
  deltatime_ = (Real(.5) * std::cbrt(volo_[0])) / std::sqrt(Real(2.0) * einit);
}

void Domain::place_nodes() {
  // Each coordinate is computed from its global index rather than accumulated, as the original
  // does, so that neighbouring domains agree exactly on their shared nodes.
  const Index edge_nodes = edge_ + 1;
  const Index mesh_edge = tp_ * edge_;
  Index n = 0;
  for (Index pl = 0; pl < edge_nodes; ++pl) {
    const Real tz = Real(1.125) * Real(plane_ * edge_ + pl) / Real(mesh_edge);
    for (Index r = 0; r < edge_nodes; ++r) {
      const Real ty = Real(1.125) * Real(row_ * edge_ + r) / Real(mesh_edge);
      for (Index c = 0; c < edge_nodes; ++c) {
        x_[n] = Real(1.125) * Real(col_ * edge_ + c) / Real(mesh_edge);
        y_[n] = ty;
        z_[n] = tz;
        ++n;
      }
    }
  }
}

void Domain::draw_regions(int balance) {
  // The original seeds with its MPI rank (0 without MPI) and rotates the regions by it, so each
  // domain has a different dominant material.
  const int rank = (plane_ * tp_ + row_) * tp_ + col_;
  GlibcRand rand(static_cast<unsigned>(rank));
  std::vector<Index> reg_num(static_cast<std::size_t>(num_elem_));
  Index next = 0;
  if (num_reg_ == 1) {
    std::fill(reg_num.begin(), reg_num.end(), 1);
  } else {
    // Region r is drawn with weight (r + 1)^balance.
    std::vector<int> bin_end(static_cast<std::size_t>(num_reg_));
    int cost_denominator = 0;
    for (Index i = 0; i < num_reg_; ++i) {
      cost_denominator += std::pow(i + 1, balance);
      bin_end[i] = cost_denominator;
    }
    auto pick = [&] {
      const int var = rand() % cost_denominator;
      Index i = 0;
      while (var >= bin_end[i]) ++i;
      return ((i + rank) % num_reg_) + 1;
    };
    int last = -1;
    while (next < num_elem_) {
      int region = pick();
      while (region == last) region = pick();  // never the same region twice in a row
      // run lengths: mostly short, rarely up to ~2000 elements
      const int bin = rand() % 1000;
      int run;
      if (bin < 773) run = rand() % 15 + 1;
      else if (bin < 937) run = rand() % 16 + 16;
      else if (bin < 970) run = rand() % 32 + 32;
      else if (bin < 974) run = rand() % 64 + 64;
      else if (bin < 978) run = rand() % 128 + 128;
      else if (bin < 981) run = rand() % 256 + 256;
      else run = rand() % 1537 + 512;
      const Index end = next + run;
      while (next < end && next < num_elem_) reg_num[next++] = region;
      last = region;
    }
  }
  reg_elem_list_.assign(static_cast<std::size_t>(num_reg_), {});
  std::vector<Index> count(static_cast<std::size_t>(num_reg_), 0);
  for (Index i = 0; i < num_elem_; ++i) ++count[reg_num[i] - 1];
  for (Index r = 0; r < num_reg_; ++r) reg_elem_list_[r].reserve(static_cast<std::size_t>(count[r]));
  for (Index i = 0; i < num_elem_; ++i) reg_elem_list_[reg_num[i] - 1].push_back(i);
}

void Domain::build_topology() {
  const Index ee = edge_;
  const Index en = edge_ + 1;
  num_elem_ = ee * ee * ee;
  num_node_ = en * en * en;
  const auto ne = static_cast<std::size_t>(num_elem_);

  nodelist_.resize(8 * ne);
  {
    Index z = 0, n = 0;
    for (Index pl = 0; pl < ee; ++pl) {
      for (Index r = 0; r < ee; ++r) {
        for (Index c = 0; c < ee; ++c) {
          Index* local = &nodelist_[std::size_t(8) * z];
          local[0] = n;
          local[1] = n + 1;
          local[2] = n + en + 1;
          local[3] = n + en;
          local[4] = n + en * en;
          local[5] = n + en * en + 1;
          local[6] = n + en * en + en + 1;
          local[7] = n + en * en + en;
          ++z;
          ++n;
        }
        ++n;
      }
      n += en;
    }
  }

  // Symmetry planes: the node faces on the global x = 0, y = 0, z = 0 planes.
  const bool symm_x = col_ == 0, symm_y = row_ == 0, symm_z = plane_ == 0;
  symm_x_.assign(symm_x ? std::size_t(en) * en : 0, 0);
  symm_y_.assign(symm_y ? std::size_t(en) * en : 0, 0);
  symm_z_.assign(symm_z ? std::size_t(en) * en : 0, 0);
  {
    Index n = 0;
    for (Index i = 0; i < en; ++i) {
      for (Index j = 0; j < en; ++j) {
        if (symm_z) symm_z_[n] = i * en + j;
        if (symm_y) symm_y_[n] = i * en * en + j;
        if (symm_x) symm_x_[n] = i * en * en + j * en;
        ++n;
      }
    }
  }

  // Face neighbours inside the domain; a face on the domain's boundary points at itself until
  // the boundary conditions below redirect it.
  for (auto* l : {&lxim_, &lxip_, &letam_, &letap_, &lzetam_, &lzetap_}) l->resize(ne);
  lxim_[0] = 0;
  for (Index i = 1; i < num_elem_; ++i) {
    lxim_[i] = i - 1;
    lxip_[i - 1] = i;
  }
  lxip_[num_elem_ - 1] = num_elem_ - 1;
  for (Index i = 0; i < ee; ++i) {
    letam_[i] = i;
    letap_[num_elem_ - ee + i] = num_elem_ - ee + i;
  }
  for (Index i = ee; i < num_elem_; ++i) {
    letam_[i] = i - ee;
    letap_[i - ee] = i;
  }
  for (Index i = 0; i < ee * ee; ++i) {
    lzetam_[i] = i;
    lzetap_[num_elem_ - ee * ee + i] = num_elem_ - ee * ee + i;
  }
  for (Index i = ee * ee; i < num_elem_; ++i) {
    lzetam_[i] = i - ee * ee;
    lzetap_[i - ee * ee] = i;
  }

  // Ghost elements for the monotonic-Q gradients of the face neighbours, after the domain's own
  // elements, one face layer per neighbour in the order plane-, plane+, row-, row+, col-, col+.
  const bool has[6] = {plane_ > 0, plane_ < tp_ - 1, row_ > 0, row_ < tp_ - 1, col_ > 0, col_ < tp_ - 1};
  Index next_ghost = num_elem_;
  for (int f = 0; f < 6; ++f) {
    ghost_base_[f] = has[f] ? next_ghost : INT_MIN;
    if (has[f]) next_ghost += ee * ee;
  }

  elem_bc_.assign(ne, 0);
  for (Index i = 0; i < ee; ++i) {
    const Index plane_inc = i * ee * ee;
    const Index row_inc = i * ee;
    for (Index j = 0; j < ee; ++j) {
      if (plane_ == 0) {
        elem_bc_[row_inc + j] |= kZetaMSymm;
      } else {
        elem_bc_[row_inc + j] |= kZetaMComm;
        lzetam_[row_inc + j] = ghost_base_[0] + row_inc + j;
      }
      if (plane_ == tp_ - 1) {
        elem_bc_[row_inc + j + num_elem_ - ee * ee] |= kZetaPFree;
      } else {
        elem_bc_[row_inc + j + num_elem_ - ee * ee] |= kZetaPComm;
        lzetap_[row_inc + j + num_elem_ - ee * ee] = ghost_base_[1] + row_inc + j;
      }
      if (row_ == 0) {
        elem_bc_[plane_inc + j] |= kEtaMSymm;
      } else {
        elem_bc_[plane_inc + j] |= kEtaMComm;
        letam_[plane_inc + j] = ghost_base_[2] + row_inc + j;
      }
      if (row_ == tp_ - 1) {
        elem_bc_[plane_inc + j + ee * ee - ee] |= kEtaPFree;
      } else {
        elem_bc_[plane_inc + j + ee * ee - ee] |= kEtaPComm;
        letap_[plane_inc + j + ee * ee - ee] = ghost_base_[3] + row_inc + j;
      }
      if (col_ == 0) {
        elem_bc_[plane_inc + j * ee] |= kXiMSymm;
      } else {
        elem_bc_[plane_inc + j * ee] |= kXiMComm;
        lxim_[plane_inc + j * ee] = ghost_base_[4] + row_inc + j;
      }
      if (col_ == tp_ - 1) {
        elem_bc_[plane_inc + j * ee + ee - 1] |= kXiPFree;
      } else {
        elem_bc_[plane_inc + j * ee + ee - 1] |= kXiPComm;
        lxip_[plane_inc + j * ee + ee - 1] = ghost_base_[5] + row_inc + j;
      }
    }
  }

  // Scratch: sized once here, reused by every cycle.
  const std::size_t all_elem = ne + 6 * std::size_t(ee) * ee;
  for (auto* s : {&delv_xi_, &delv_eta_, &delv_zeta_}) s->assign(all_elem, Real(0));
  for (auto* s : {&delx_xi_, &delx_eta_, &delx_zeta_}) s->assign(ne, Real(0));
  std::size_t largest = 0;
  for (const auto& list : reg_elem_list_) largest = std::max(largest, list.size());
  for (auto* s : {&p_new_, &e_new_, &q_new_, &bvc_, &pbvc_}) s->assign(largest, Real(0));
}

// ---- results ----------------------------------------------------------------------------------

Fault Domain::fault() const { return fault_; }
std::int64_t Domain::cycle() const { return cycle_; }
Real Domain::time() const { return time_; }
Real Domain::deltatime() const { return deltatime_; }
int Domain::col() const { return col_; }
int Domain::row() const { return row_; }
int Domain::plane() const { return plane_; }
std::int64_t Domain::elements() const { return num_elem_; }
int Domain::regions() const { return num_reg_; }
std::span<const std::int32_t> Domain::region(int r) const { return reg_elem_list_.at(static_cast<std::size_t>(r)); }
Real Domain::origin_energy() const { return e_.empty() ? Real(0) : e_[0]; }

Symmetry Domain::symmetry() const {
  Symmetry s;
  const Index nx = edge_;
  for (Index j = 0; j < nx; ++j) {
    for (Index k = j + 1; k < nx; ++k) {
      const Real abs_diff = std::fabs(e_[j * nx + k] - e_[k * nx + j]);
      s.total_abs_diff += abs_diff;
      if (s.max_abs_diff < abs_diff) s.max_abs_diff = abs_diff;
      const Real rel_diff = abs_diff / e_[k * nx + j];
      if (s.max_rel_diff < rel_diff) s.max_rel_diff = rel_diff;
    }
  }
  return s;
}

Real Domain::total_energy() const {
  Real sum = 0;
  for (const Real e : e_) sum += e;
  return sum;
}

std::size_t Domain::bytes() const {
  std::size_t n = 0;
  auto add = [&n](const auto& v) { n += v.capacity() * sizeof(v[0]); };
  for (const auto* f : {&x_, &y_, &z_, &xd_, &yd_, &zd_, &fx_, &fy_, &fz_, &nodal_mass_, &e_, &p_,
                        &q_, &ql_, &qq_, &v_, &volo_, &vnew_, &delv_, &vdov_, &arealg_, &ss_, &elem_mass_, &delv_xi_,
                        &delv_eta_, &delv_zeta_, &delx_xi_, &delx_eta_, &delx_zeta_, &p_new_, &e_new_, &q_new_,
                        &bvc_, &pbvc_})
    add(*f);
  for (const auto* l : {&nodelist_, &lxim_, &lxip_, &letam_, &letap_, &lzetam_, &lzetap_, &elem_bc_, &symm_x_,
                        &symm_y_, &symm_z_})
    add(*l);
  for (const auto& list : reg_elem_list_) add(list);
  n += reg_elem_list_.capacity() * sizeof(reg_elem_list_[0]);
  return n;
}

}  // namespace tessera::lulesh
