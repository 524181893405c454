#pragma once
// Node expansion of a UTS 2.1 tree: how many children a node has, and their states.
//
// Source: Olivier et al., "UTS: An Unbalanced Tree Search Benchmark" (LCPC 2006), section 2
// (binomial and geometric trees, shape functions, hybrid trees), with the reference
// code's conventions that make the published counts reproducible:
//  - a geometric node of depth i with target mean b_i has floor(ln(1 - u) / ln(1 - p))
//    children, where p = 1 / (1 + b_i) and u is the node's probability (inverse CDF of the
//    geometric distribution); the root uses b_0 = b whatever the shape;
//  - a binomial root has floor(b) children; any other binomial node has m children if its
//    probability is below q, and none otherwise;
//  - a hybrid node is geometric while its depth is below f * d, binomial from there on;
//  - no node has more than kMaxChildren children, except the root of a binomial tree.

#include <cstdint>
#include <type_traits>

#include "tessera/uts/params.hpp"
#include "tessera/uts/rng.hpp"

namespace tessera::uts {

// One tree node: all that is needed to expand it. Trivially copyable (24 bytes), so it can
// travel through lock-free deques and inside messages as raw bytes.
struct Node {
  RngState state;
  std::int32_t height;  // depth below the root; the root has height 0
};
static_assert(std::is_trivially_copyable_v<Node>);

// Expands nodes of one tree. Owns an RNG (and so a hasher): use one generator per thread.
class TreeGenerator {
 public:
  // Throws tessera::Error if `params` fail validate().
  explicit TreeGenerator(const TreeParams& params, Sha1Backend backend = default_sha1_backend());

  const TreeParams& params() const noexcept { return params_; }

  Node root();

  // The number of children of `node`, in [0, kMaxChildren] (a binomial root: floor(b)).
  std::int32_t num_children(const Node& node) const;

  // Child `index` of `parent`, hashing `granularity` times as the reference does to add load.
  Node child(const Node& parent, std::int32_t index);

 private:
  std::int32_t geometric_children(const Node& node) const;
  std::int32_t binomial_children(const Node& node) const;

  TreeParams params_;
  SplittableRng rng_;
};

}  // namespace tessera::uts
