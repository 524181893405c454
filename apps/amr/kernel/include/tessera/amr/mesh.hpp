#pragma once
/// The block-structured mesh of tessera-amr, as miniAMR builds it (written here): the unit
/// square covered by square blocks of B x B cells, R x R blocks at level 0, each refinement
/// dividing a block into 4 children one level finer, up to a maximum level. Refinement follows
/// moving objects: a block whose square the boundary of an object's disk crosses is refined to
/// the finest level, one level per refinement stage; four sibling leaves that no object's
/// boundary crosses are coarsened back into their parent.
///
/// Everything here is a pure function of the parameters and the time, so every rank plans the
/// same refinement from its copy of the leaf set without asking any other (Tree::plan).
#include <array>
#include <cstdint>
#include <set>
#include <vector>

namespace tessera::amr {

/// A block: its level and its position among the level's (R 2^level)^2 blocks.
struct BlockId {
  std::int64_t level = 0;
  std::int64_t i = 0;  ///< along x
  std::int64_t j = 0;  ///< along y
  auto operator<=>(const BlockId&) const = default;
  BlockId parent() const { return {level - 1, i / 2, j / 2}; }
  /// Child q (0..3): (2i + q / 2, 2j + q % 2) one level finer.
  BlockId child(int q) const { return {level + 1, 2 * i + q / 2, 2 * j + q % 2}; }
  /// Which child of its parent this block is (0..3).
  int quadrant() const { return static_cast<int>((i % 2) * 2 + (j % 2)); }
};

/// The mesh's shape and the objects' motion.
struct MeshSpec {
  std::int64_t roots = 4;      ///< R: level-0 blocks per side
  std::int64_t cells = 16;     ///< B: cells per block side (even)
  std::int64_t max_level = 3;  ///< the finest level
  std::int64_t objects = 2;    ///< moving disks
  std::int64_t steps = 60;     ///< the run's steps: the objects make one sweep in them
  /// Blocks per side at `level`.
  std::int64_t blocks_per_side(std::int64_t level) const { return roots << level; }
  /// The side of a block at `level`, in units of the domain.
  double block_side(std::int64_t level) const { return 1.0 / static_cast<double>(blocks_per_side(level)); }
};

/// Disk k at step `step`: its centre (x, y) and radius. Disks sweep along y within the lower
/// third of x (where the first ranks' blocks are, so refinement loads them most).
struct Disk {
  double x, y, r;
};
Disk disk_at(const MeshSpec& spec, std::int64_t k, std::int64_t step);

/// The level block `b` should have at `step`: max_level when some disk's boundary crosses its
/// square, else 0.
std::int64_t target_level(const MeshSpec& spec, const BlockId& b, std::int64_t step);

/// What one refinement stage does to the leaves.
struct Plan {
  std::vector<BlockId> refine;   ///< leaves to divide into their 4 children
  std::vector<BlockId> coarsen;  ///< parents to rebuild from their 4 leaf children
};

/// The set of leaves, the same on every rank.
class Tree {
 public:
  /// The R x R level-0 blocks.
  explicit Tree(const MeshSpec& spec);
  const std::set<BlockId>& leaves() const { return leaves_; }
  /// The stage at `step`: leaves below their target level are refined; parents whose four
  /// children are leaves above all their targets, none refining, are coarsened.
  Plan plan(std::int64_t step) const;
  /// Applies a plan to the leaf set.
  void apply(const Plan& plan);

 private:
  MeshSpec spec_;
  std::set<BlockId> leaves_;
};

}  // namespace tessera::amr
