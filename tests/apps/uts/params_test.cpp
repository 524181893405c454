#include "tessera/uts/params.hpp"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <tessera/runtime/error.hpp>

namespace tessera::uts {
namespace {

// The message of the tessera::Error that `call` throws ("" if none).
template <class Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const tessera::Error& error) {
    return error.what();
  }
  return "";
}

TEST(TreeParams, DefaultsAreTheReferenceDefaults) {
  const TreeParams p;
  EXPECT_EQ(p.type, TreeType::geometric);
  EXPECT_EQ(p.root_branching, 4.0);
  EXPECT_EQ(p.root_seed, 0);
  EXPECT_EQ(p.nonleaf_children, 4);
  EXPECT_EQ(p.nonleaf_probability, 15.0 / 64.0);
  EXPECT_EQ(p.depth, 6);
  EXPECT_EQ(p.shape, GeoShape::linear);
  EXPECT_EQ(p.shift_depth, 0.5);
  EXPECT_EQ(p.granularity, 1);
  EXPECT_NO_THROW(validate(p));
}

TEST(TreeParams, ParsesCodesAndNames) {
  EXPECT_EQ(parse_tree_type("0"), TreeType::binomial);
  EXPECT_EQ(parse_tree_type("hybrid"), TreeType::hybrid);
  EXPECT_EQ(parse_shape("2"), GeoShape::cyclic);
  EXPECT_EQ(parse_shape("expdec"), GeoShape::expdec);
  EXPECT_EQ(error_of([] { parse_tree_type("3"); }),
            "unknown tree type '3' for -t: expected one of 0 (binomial), 1 (geometric), 2 (hybrid)");
  EXPECT_EQ(error_of([] { parse_shape("1x"); }),
            "unknown shape function '1x' for -a: expected one of 0 (linear), 1 (expdec), 2 (cyclic), 3 (fixed)");
}

TEST(TreeParams, RejectsOutOfRangeValuesNamingTheFlag) {
  auto with = [](auto change) {
    TreeParams p;
    change(p);
    return error_of([&] { validate(p); });
  };
  EXPECT_EQ(with([](TreeParams& p) { p.nonleaf_probability = -0.1; }),
            "-q (non-leaf probability) is -0.1: expected a value in [0, 1]");
  EXPECT_EQ(with([](TreeParams& p) { p.nonleaf_probability = 1.5; }),
            "-q (non-leaf probability) is 1.5: expected a value in [0, 1]");
  EXPECT_EQ(with([](TreeParams& p) { p.nonleaf_children = 0; }),
            "-m (children of a non-leaf) is 0: expected an integer >= 1");
  EXPECT_EQ(with([](TreeParams& p) { p.depth = 0; }), "-d (depth) is 0: expected an integer >= 1");
  EXPECT_EQ(with([](TreeParams& p) { p.granularity = 0; }),
            "-g (compute granularity) is 0: expected an integer >= 1");
  EXPECT_NE(with([](TreeParams& p) { p.root_branching = -1; }), "");
  EXPECT_NE(with([](TreeParams& p) { p.shift_depth = -0.5; }), "");
  EXPECT_EQ(with([](TreeParams& p) { p.nonleaf_probability = 1.0; }), "");
}

TEST(NamedTrees, HoldTheSampleParameters) {
  EXPECT_EQ(describe(named_tree("T1").params), "-t 1 -b 4 -r 19 -a 3 -d 10");
  EXPECT_EQ(describe(named_tree("T3").params), "-t 0 -b 2000 -r 42 -q 0.124875 -m 8");
  EXPECT_EQ(describe(named_tree("T4").params), "-t 2 -b 6 -r 1 -q 0.234375 -m 4 -a 0 -d 16 -f 0.5");
  EXPECT_EQ(error_of([] { named_tree("T6"); }), "unknown tree 'T6' for --tree: expected T1, T2, T3, T4 or T5");
}

}  // namespace
}  // namespace tessera::uts
