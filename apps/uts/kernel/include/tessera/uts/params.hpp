#pragma once
// Parameters of an Unbounded Tree Search (UTS) tree, benchmark version 2.1.
//
// Source: S. Olivier, J. Huan, J. Liu, J. Prins, J. Dinan, P. Sadayappan, C.-W. Tseng,
// "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006, and the UTS 2.1 reference code's
// parameter list. A UTS tree is a Galton-Watson process: every node draws its number of
// children from a distribution fixed by these parameters and a per-node random value, so
// the whole tree (and its node, leaf and depth counts) is determined by the parameters.
//
// The field names below carry the reference's one-letter flags; defaults are the
// reference's defaults.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::uts {

// -t: how a node's number of children is distributed.
enum class TreeType : std::int32_t {
  binomial = 0,   // root has floor(b) children; every other node has m children with probability q
  geometric = 1,  // geometric distribution whose mean b_i follows the shape function of depth
  hybrid = 2,     // geometric above depth f * d, binomial below
};

// -a: how the expected branching factor b_i of a geometric node falls with its depth i.
enum class GeoShape : std::int32_t {
  linear = 0,  // b_i = b * (1 - i / d)
  expdec = 1,  // b_i = b * i^(-ln b / ln d)
  cyclic = 2,  // b_i = b^sin(2 pi i / d), and 0 beyond depth 5 d
  fixed = 3,   // b_i = b above depth d, 0 from depth d on
};

// The reference's truncation: no node has more children than this, except a binomial root.
inline constexpr std::int32_t kMaxChildren = 100;

struct TreeParams {
  TreeType type = TreeType::geometric;     // -t
  double root_branching = 4.0;             // -b: b, the root's branching factor
  std::int32_t root_seed = 0;              // -r: seed of the root's random state
  std::int32_t nonleaf_children = 4;       // -m: children of a binomial non-leaf node
  double nonleaf_probability = 15.0 / 64;  // -q: probability that a binomial node is a non-leaf
  std::int32_t depth = 6;                  // -d: d, the depth parameter of the shape functions
  GeoShape shape = GeoShape::linear;       // -a
  double shift_depth = 0.5;                // -f: hybrid switch depth, as a fraction of d
  std::int32_t granularity = 1;            // -g: SHA-1 evaluations per child (compute load)

  friend bool operator==(const TreeParams&, const TreeParams&) = default;
};

// Throws tessera::Error, naming the flag and the accepted range, when q is outside
// [0, 1], m < 1, d < 1, b < 0, f < 0 or g < 1.
void validate(const TreeParams& params);

// Parses -t as its reference code ("0".."2") or name ("binomial", "geometric", "hybrid").
// Throws tessera::Error naming the value and the accepted ones.
TreeType parse_tree_type(std::string_view text);

// Parses -a as its reference code ("0".."3") or name ("linear", "expdec", "cyclic", "fixed").
// Throws tessera::Error naming the value and the accepted ones.
GeoShape parse_shape(std::string_view text);

std::string_view to_string(TreeType type);
std::string_view to_string(GeoShape shape);

// A named tree from the UTS sample set, with its published counts.
struct NamedTree {
  std::string_view name;
  TreeParams params;
  std::uint64_t nodes;
  std::optional<std::uint64_t> leaves;  // empty where we hold no published leaf count
  std::int32_t depth;
};

// The sample trees T1 (geometric, fixed), T2 (geometric, cyclic), T3 (binomial),
// T4 (hybrid) and T5 (geometric, linear) of the reference's sample_trees.sh, each about
// 4.1 M nodes. Throws tessera::Error for any other name.
const NamedTree& named_tree(std::string_view name);

// The flags that rebuild `params` in the reference's notation, e.g. "-t 1 -a 3 -d 10 -b 4 -r 19".
std::string describe(const TreeParams& params);

}  // namespace tessera::uts
