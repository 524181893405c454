#include "tessera/uts/params.hpp"

#include <array>
#include <charconv>

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::uts {
namespace {

// Accepts the reference's integer code or the enumerator's name, so that both
// "-t 1" (as in published UTS command lines) and "-t geometric" work.
template <class Enum, std::size_t N>
Enum parse_enum(std::string_view text, const std::array<std::string_view, N>& names,
                std::string_view flag, std::string_view what) {
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i]) {
      return static_cast<Enum>(i);
    }
  }
  int code = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), code);
  if (error == std::errc{} && end == text.data() + text.size() && code >= 0 &&
      static_cast<std::size_t>(code) < N) {
    return static_cast<Enum>(code);
  }
  std::string accepted;
  for (std::size_t i = 0; i < N; ++i) {
    accepted += fmt::format("{}{} ({})", i == 0 ? "" : ", ", i, names[i]);
  }
  throw Error(
      fmt::format("unknown {} '{}' for {}: expected one of {}", what, text, flag, accepted));
}

constexpr std::array<std::string_view, 3> kTypeNames{"binomial", "geometric", "hybrid"};
constexpr std::array<std::string_view, 4> kShapeNames{"linear", "expdec", "cyclic", "fixed"};

TreeParams geometric(GeoShape shape, std::int32_t depth, double branching, std::int32_t seed) {
  TreeParams p;
  p.type = TreeType::geometric;
  p.shape = shape;
  p.depth = depth;
  p.root_branching = branching;
  p.root_seed = seed;
  return p;
}

TreeParams binomial(double root_branching, double q, std::int32_t m, std::int32_t seed) {
  TreeParams p;
  p.type = TreeType::binomial;
  p.root_branching = root_branching;
  p.nonleaf_probability = q;
  p.nonleaf_children = m;
  p.root_seed = seed;
  return p;
}

TreeParams hybrid() {
  TreeParams p = geometric(GeoShape::linear, 16, 6, 1);
  p.type = TreeType::hybrid;
  p.nonleaf_probability = 0.234375;
  p.nonleaf_children = 4;
  return p;
}

// Published counts of the UTS 2.1 sample trees (sample_trees.sh of the reference).
const std::array<NamedTree, 5>& sample_trees() {
  static const std::array<NamedTree, 5> trees{{
      {"T1", geometric(GeoShape::fixed, 10, 4, 19), 4'130'071, 3'305'118, 10},
      {"T2", geometric(GeoShape::cyclic, 16, 6, 502), 4'117'769, std::nullopt, 81},
      {"T3", binomial(2000, 0.124875, 8, 42), 4'112'897, 3'599'034, 1'572},
      {"T4", hybrid(), 4'132'453, 3'108'986, 134},
      {"T5", geometric(GeoShape::linear, 20, 4, 34), 4'147'582, 2'181'318, 20},
  }};
  return trees;
}

}  // namespace

void validate(const TreeParams& p) {
  if (!(p.nonleaf_probability >= 0.0 && p.nonleaf_probability <= 1.0)) {
    throw Error(
        fmt::format("-q (non-leaf probability) is {}: expected a value in [0, 1]", p.nonleaf_probability));
  }
  if (p.nonleaf_children < 1) {
    throw Error(
        fmt::format("-m (children of a non-leaf) is {}: expected an integer >= 1", p.nonleaf_children));
  }
  if (p.depth < 1) {
    throw Error(fmt::format("-d (depth) is {}: expected an integer >= 1", p.depth));
  }
  if (!(p.root_branching >= 0.0 && p.root_branching <= 2147483647.0)) {
    throw Error(fmt::format(
        "-b (root branching factor) is {}: expected a value in [0, 2147483647]", p.root_branching));
  }
  if (!(p.shift_depth >= 0.0)) {
    throw Error(
        fmt::format("-f (hybrid shift depth) is {}: expected a fraction >= 0", p.shift_depth));
  }
  if (p.granularity < 1) {
    throw Error(
        fmt::format("-g (compute granularity) is {}: expected an integer >= 1", p.granularity));
  }
  if (static_cast<std::int32_t>(p.type) < 0 || static_cast<std::size_t>(p.type) >= kTypeNames.size()) {
    throw Error(fmt::format("-t (tree type) is {}: expected 0, 1 or 2",
                                            static_cast<std::int32_t>(p.type)));
  }
  if (static_cast<std::int32_t>(p.shape) < 0 || static_cast<std::size_t>(p.shape) >= kShapeNames.size()) {
    throw Error(fmt::format("-a (shape function) is {}: expected 0, 1, 2 or 3",
                                            static_cast<std::int32_t>(p.shape)));
  }
}

TreeType parse_tree_type(std::string_view text) {
  return parse_enum<TreeType>(text, kTypeNames, "-t", "tree type");
}

GeoShape parse_shape(std::string_view text) {
  return parse_enum<GeoShape>(text, kShapeNames, "-a", "shape function");
}

std::string_view to_string(TreeType type) { return kTypeNames.at(static_cast<std::size_t>(type)); }

std::string_view to_string(GeoShape shape) { return kShapeNames.at(static_cast<std::size_t>(shape)); }

const NamedTree& named_tree(std::string_view name) {
  for (const auto& tree : sample_trees()) {
    if (tree.name == name) {
      return tree;
    }
  }
  throw Error(
      fmt::format("unknown tree '{}' for --tree: expected T1, T2, T3, T4 or T5", name));
}

std::string describe(const TreeParams& p) {
  std::string out = fmt::format("-t {} -b {} -r {}", static_cast<int>(p.type), p.root_branching, p.root_seed);
  if (p.type != TreeType::geometric) {
    out += fmt::format(" -q {} -m {}", p.nonleaf_probability, p.nonleaf_children);
  }
  if (p.type != TreeType::binomial) {
    out += fmt::format(" -a {} -d {}", static_cast<int>(p.shape), p.depth);
  }
  if (p.type == TreeType::hybrid) {
    out += fmt::format(" -f {}", p.shift_depth);
  }
  if (p.granularity != 1) {
    out += fmt::format(" -g {}", p.granularity);
  }
  return out;
}

}  // namespace tessera::uts
