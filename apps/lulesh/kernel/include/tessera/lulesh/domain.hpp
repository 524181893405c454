#pragma once
/// One LULESH domain: a cube of `edge^3` hexahedral elements with its nodes, its share of the
/// material regions, and one Lagrange leapfrog cycle cut at the points where the original
/// communicates (LLNL-TR-641973, section 3, "LagrangeLeapFrog").
///
/// A cycle, as a driver runs it on every domain:
///
///     domain.time_increment(global_min_of(domain.dt_bound()));   // the original's MPI_Allreduce of dt
///     domain.compute_forces();          // stress and hourglass forces on this domain's nodes
///     exchange(Exchange::forces);       // every neighbour's partial sums on the shared nodes
///     domain.advance_nodes();           // acceleration, boundary conditions, velocity, position
///     exchange(Exchange::position_velocity);  // the neighbours' copies of the shared nodes
///     domain.compute_gradients();       // kinematics and the monotonic-Q velocity gradients
///     exchange(Exchange::gradients);    // the face neighbours' gradients, into ghost elements
///     domain.update_elements();         // artificial viscosity, EOS per region, volumes, dt bounds
///
/// where exchange(x) packs `pack(x, d)` for each direction d with `sends(x, d)`, delivers it to
/// the neighbour in that direction, and hands every domain the buffers it received, indexed by
/// the direction they came from, to `unpack(x, received)`. Before the first cycle the nodal mass
/// is summed the same way (`Exchange::mass`). unpack() applies the buffers in one fixed order,
/// whatever order they arrived in, so a domain's arithmetic does not depend on where its
/// neighbours run: for a fixed domain count the answer is bit-identical on any rank count.
///
/// Domains are independent objects with no global state: many live in one process, and they
/// migrate and checkpoint through serialize().
#include "tessera/lulesh/problem.hpp"

#include <cereal/types/vector.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::lulesh {

/// The data a domain trades with its neighbours, one kind per communication point of a cycle.
enum class Exchange : std::uint8_t {
  mass = 0,               ///< once, before the first cycle: nodal mass summed over shared nodes
  forces = 1,             ///< nodal forces (x, y, z) summed over shared nodes (the original's CommSBN)
  position_velocity = 2,  ///< positions and velocities of shared nodes (the original's CommSyncPosVel)
  gradients = 3,          ///< monotonic-Q velocity gradients of face elements (the original's CommMonoQ)
};
inline constexpr int kExchanges = 4;

/// Directions to the 26 neighbours of a domain in the cube: offsets (dcol, drow, dplane), each in
/// {-1, 0, 1}, not all 0, numbered in the order of `offset(d)`.
inline constexpr int kDirections = 26;

struct Offset {
  int col = 0;    ///< x (xi)
  int row = 0;    ///< y (eta)
  int plane = 0;  ///< z (zeta)
};

/// The offset of direction d in [0, 26).
Offset offset(int d);
/// The direction of the opposite offset: what the neighbour in direction d calls this domain.
int opposite(int d);

/// Why a domain stopped computing: the original's VolumeError and QStopError exits.
enum class Fault : std::uint8_t {
  none = 0,
  volume = 1,  ///< an element's relative volume fell to 0 or below
  qstop = 2,   ///< artificial viscosity above qstop
};

/// Verification figures of one domain, as the original prints them for rank 0's domain.
struct Symmetry {
  Real max_abs_diff = 0;    ///< max over plane 0 of |e(j, k) - e(k, j)|
  Real total_abs_diff = 0;  ///< sum of the same
  Real max_rel_diff = 0;    ///< max of the same over e(k, j)
};

class Domain {
 public:
  /// An empty domain, to receive a migration or a checkpoint.
  Domain();
  /// Domain (col, row, plane) of `problem`'s cube, initialised as the original initialises the
  /// domain of rank `plane * p * p + row * p + col`. The problem must be valid (Problem::validate).
  Domain(const Problem& problem, int col, int row, int plane);


  // ---- communication -------------------------------------------------------------------------

  /// Whether the cube has a domain in direction d from this one.
  bool has_neighbour(int d) const;
  /// Whether this domain sends `x` to its neighbour in direction d (false where there is none).
  bool sends(Exchange x, int d) const;
  /// Buffers unpack(x, ...) expects: the number of directions d with receives(x, d).
  int expected(Exchange x) const;
  /// Whether unpack(x, ...) expects a buffer from direction d.
  bool receives(Exchange x, int d) const;
  /// Values sent to the neighbour in direction d: appended to `out` after clearing it.
  void pack(Exchange x, int d, std::vector<Real>& out) const;
  /// Applies what the neighbours sent: `received[d]` is the buffer from direction d (as packed
  /// by that neighbour towards opposite(d)), empty where receives(x, d) is false. Throws
  /// std::invalid_argument when a buffer has another length than the neighbour packs.
  void unpack(Exchange x, const std::array<std::span<const Real>, kDirections>& received);

  // ---- the cycle ------------------------------------------------------------------------------

  /// This domain's proposal for the next time step: min(dtcourant / 2, dthydro * 2 / 3) as the
  /// original's TimeIncrement forms it before its MPI_Allreduce (1e20 when neither constrains).
  Real dt_bound() const;
  /// Whether the run is over: time reached stoptime, or `max_cycles` cycles are done.
  bool finished(std::int64_t max_cycles) const;
  /// The original's TimeIncrement, with `global_bound` the minimum of dt_bound() over every
  /// domain (ignored on the first cycle, as there).
  void time_increment(Real global_bound);
  void compute_forces();
  void advance_nodes();
  void compute_gradients();
  void update_elements();
  /// Fault::none unless a stage found a volume or viscosity error; a faulted domain computes no
  /// further (the driver reduces the fault and stops the run with the original's message).
  Fault fault() const;

  // ---- results --------------------------------------------------------------------------------

  std::int64_t cycle() const;
  Real time() const;
  Real deltatime() const;
  int col() const;
  int row() const;
  int plane() const;
  /// Elements in this domain (edge^3).
  std::int64_t elements() const;
  /// e(0): the energy of the element at this domain's origin (the original prints rank 0's).
  Real origin_energy() const;
  /// The symmetry check over plane 0 of this domain's energy (the original's, on rank 0).
  Symmetry symmetry() const;
  /// Sum of the energy over this domain's elements, in element order.
  Real total_energy() const;
  /// Material regions (the original's -r) and the elements of region r, ascending: with the
  /// EOS repetitions of each region they are the domain's share of the imbalance.
  int regions() const;
  std::span<const std::int32_t> region(int r) const;
  /// Heap bytes this domain holds (fields, index sets and scratch): its footprint when it migrates.
  std::size_t bytes() const;

  /// Every field, the region index sets and the cycle's scalars: what migrates and checkpoints
  /// (cereal; defined here so any archive instantiates it). Scratch arrays are not state and are
  /// not written.
  template <class Archive>
  void serialize(Archive& archive);

 private:
  using Index = std::int32_t;  // the original's Index_t: element and node numbers

  // ---- construction (domain_init.cpp) ----
  /// Connectivity, boundary flags, symmetry node sets, ghost offsets and scratch sizes: all a
  /// function of the problem and the position, so a loaded domain rebuilds them.
  void build_topology();
  void place_nodes();
  void draw_regions(int balance);

  // ---- stage parts ----
  void integrate_stress();                // forces.cpp
  void control_hourglass();               // forces.cpp
  void calc_kinematics();                 // kinematics.cpp
  void calc_monotonic_q_gradients();      // kinematics.cpp
  void calc_monotonic_q();                // viscosity.cpp
  void calc_monotonic_q_region(const std::vector<Index>& list);  // viscosity.cpp
  void apply_material_properties();       // eos.cpp
  void eval_eos(const std::vector<Index>& list, int rep);        // eos.cpp
  void calc_time_constraints();           // constraints.cpp

  // ---- the problem and the position (serialized) ----
  Index edge_ = 0;             // -s: elements per edge
  Index tp_ = 1;               // domains per side
  Index col_ = 0, row_ = 0, plane_ = 0;
  Index num_reg_ = 0;
  Index cost_ = 0;

  // ---- the cycle's scalars (serialized) ----
  std::int64_t cycle_ = 0;
  Real time_ = 0;
  Real deltatime_ = 0;
  Real dtcourant_ = 0;
  Real dthydro_ = 0;
  Real stoptime_ = 0;
  Real dtfixed_ = 0;
  Real dtmax_ = 0;
  Real deltatimemultlb_ = 0;
  Real deltatimemultub_ = 0;
  Fault fault_ = Fault::none;

  // ---- node-centred state (serialized) ----
  std::vector<Real> x_, y_, z_;        // coordinates
  std::vector<Real> xd_, yd_, zd_;     // velocities
  std::vector<Real> fx_, fy_, fz_;     // forces
  std::vector<Real> nodal_mass_;

  // ---- element-centred state (serialized) ----
  std::vector<Real> e_, p_, q_, ql_, qq_;
  std::vector<Real> v_, volo_, vnew_, delv_, vdov_;
  std::vector<Real> arealg_, ss_, elem_mass_;
  std::vector<std::vector<Index>> reg_elem_list_;  // elements of each region, ascending

  // ---- topology (rebuilt by build_topology, not serialized) ----
  Index num_elem_ = 0, num_node_ = 0;
  std::vector<Index> nodelist_;  // 8 nodes per element
  std::vector<Index> lxim_, lxip_, letam_, letap_, lzetam_, lzetap_;
  std::vector<Index> elem_bc_;
  std::vector<Index> symm_x_, symm_y_, symm_z_;
  std::array<Index, 6> ghost_base_{};  // first ghost element of each face (plane-, plane+, row-, ...)

  // ---- scratch, reused every cycle (not serialized) ----
  // The gradients live from compute_gradients to update_elements, so a domain must not migrate
  // between those two stages; anywhere else (normally between cycles) all state is serialized.
  std::vector<Real> delv_xi_, delv_eta_, delv_zeta_;  // own elements, then the face ghosts
  std::vector<Real> delx_xi_, delx_eta_, delx_zeta_;
  // each EOS repetition's results, as long as the largest region
  std::vector<Real> p_new_, e_new_, q_new_, bvc_, pbvc_;
};

template <class Archive>
void Domain::serialize(Archive& a) {
  a(edge_, tp_, col_, row_, plane_, num_reg_, cost_);
  a(cycle_, time_, deltatime_, dtcourant_, dthydro_, stoptime_, dtfixed_, dtmax_,
    deltatimemultlb_, deltatimemultub_, fault_);
  a(x_, y_, z_, xd_, yd_, zd_, fx_, fy_, fz_, nodal_mass_);
  a(e_, p_, q_, ql_, qq_, v_, volo_, vnew_, delv_, vdov_, arealg_, ss_, elem_mass_);
  a(reg_elem_list_);
  if constexpr (Archive::is_loading::value) build_topology();
}

}  // namespace tessera::lulesh
