#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/uts/search.hpp"
#include "tessera/uts/tree.hpp"
#include "tessera/uts/worker_search.hpp"
#include <tessera/runtime/error.hpp>

namespace tessera::uts {
namespace {

void expect_published(const NamedTree& tree, const TreeCounts& counts) {
  EXPECT_EQ(counts.nodes, tree.nodes);
  EXPECT_EQ(counts.depth, tree.depth);
  if (tree.leaves) {
    EXPECT_EQ(counts.leaves, *tree.leaves);
  }
}

TEST(PublishedTrees, T1GeometricFixedSequential) {
  const NamedTree& t1 = named_tree("T1");
  expect_published(t1, search_sequential(t1.params));
  EXPECT_EQ(t1.nodes, 4'130'071U);
  EXPECT_EQ(*t1.leaves, 3'305'118U);
}

TEST(PublishedTrees, T3BinomialSequential) {
  const NamedTree& t3 = named_tree("T3");
  expect_published(t3, search_sequential(t3.params));
  EXPECT_EQ(t3.nodes, 4'112'897U);
  EXPECT_EQ(*t3.leaves, 3'599'034U);
  EXPECT_EQ(t3.depth, 1'572);
}

TEST(PublishedTrees, T1AndT3WithTwoWorkers) {
  for (const char* name : {"T1", "T3"}) {
    SCOPED_TRACE(name);
    const NamedTree& tree = named_tree(name);
    const WorkerSearchResult result = search_workers(tree.params, 2);
    expect_published(tree, result.counts);
    EXPECT_EQ(result.stats.total().tasks_executed, tree.nodes);
  }
}

// T2, T4 and T5 cover the cyclic, hybrid and linear code paths against published counts.
TEST(PublishedTrees, T2T4T5Sequential) {
  for (const char* name : {"T2", "T4", "T5"}) {
    SCOPED_TRACE(name);
    const NamedTree& tree = named_tree(name);
    expect_published(tree, search_sequential(tree.params));
  }
}

TreeParams small(TreeType type, GeoShape shape, double b, std::int32_t d, std::int32_t seed) {
  TreeParams p;
  p.type = type;
  p.shape = shape;
  p.root_branching = b;
  p.depth = d;
  p.root_seed = seed;
  return p;
}

// Small trees of every type and shape, counted by the sequential search, by the worker
// pool with two and three workers, and with the other SHA-1 backend: all must agree.
TEST(SmallTrees, EveryTypeAndShapeAgreesAcrossSearchesAndBackends) {
  TreeParams binomial = small(TreeType::binomial, GeoShape::linear, 50, 6, 7);
  binomial.nonleaf_probability = 0.2;
  binomial.nonleaf_children = 4;
  TreeParams hybrid = small(TreeType::hybrid, GeoShape::linear, 4, 10, 4);
  hybrid.nonleaf_probability = 0.24;
  TreeParams granular = small(TreeType::geometric, GeoShape::fixed, 3, 5, 11);
  granular.granularity = 3;
  const std::vector<TreeParams> trees{
      binomial,
      small(TreeType::geometric, GeoShape::linear, 4, 8, 1),
      small(TreeType::geometric, GeoShape::expdec, 4, 6, 7),
      small(TreeType::geometric, GeoShape::cyclic, 4, 6, 4),
      small(TreeType::geometric, GeoShape::fixed, 3, 6, 9),
      hybrid,
      granular,
  };
  for (const TreeParams& params : trees) {
    SCOPED_TRACE(describe(params));
    const TreeCounts sequential = search_sequential(params);
    EXPECT_GT(sequential.nodes, 100U);  // big enough for stealing to happen
    EXPECT_LT(sequential.leaves, sequential.nodes);
    EXPECT_EQ(search_workers(params, 2).counts, sequential);
    EXPECT_EQ(search_workers(params, 3).counts, sequential);
    EXPECT_EQ(search_sequential(params, Sha1Backend::evp), sequential);
  }
}

TEST(SmallTrees, DegenerateTreesHaveKnownCounts) {
  // A binomial root has floor(b) children; with q = 0 they are all leaves.
  TreeParams star;
  star.type = TreeType::binomial;
  star.root_branching = 7.9;
  star.nonleaf_probability = 0;
  EXPECT_EQ(search_sequential(star), (TreeCounts{8, 7, 1}));
  // Geometric with b = 0: p = 1, so the root has no children.
  TreeParams lone;
  lone.root_branching = 0;
  EXPECT_EQ(search_sequential(lone), (TreeCounts{1, 1, 0}));
  // Fixed shape with d = 1: only the root draws children; all of them are leaves.
  TreeParams one_level;
  one_level.shape = GeoShape::fixed;
  one_level.depth = 1;
  one_level.root_seed = 4;
  TreeGenerator generator(one_level);
  const std::int32_t children = generator.num_children(generator.root());
  EXPECT_EQ(search_sequential(one_level),
            (TreeCounts{1U + static_cast<std::uint64_t>(children), static_cast<std::uint64_t>(children),
                        children > 0 ? 1 : 0}));
}

TEST(SmallTrees, NonRootNodesAreTruncatedToOneHundredChildren) {
  // m = 150 > kMaxChildren: every non-leaf below the root has exactly 100 children, so
  // nodes = 1 + b + 100 * (non-leaves below the root). q * 100 < 1 keeps the tree finite.
  TreeParams wide;
  wide.type = TreeType::binomial;
  wide.root_branching = 300;  // a binomial root is exempt from the limit
  wide.nonleaf_children = 150;
  wide.nonleaf_probability = 0.004;
  wide.root_seed = 2;
  const TreeCounts counts = search_sequential(wide);
  const std::uint64_t nonleaves_below_root = counts.nodes - counts.leaves - 1;
  EXPECT_GT(nonleaves_below_root, 0U);
  EXPECT_EQ(counts.nodes, 1 + 300 + 100 * nonleaves_below_root);
  // A geometric root with mean 1000 children is truncated too.
  TreeParams bushy;
  bushy.root_branching = 1000;
  for (std::int32_t seed = 0; seed < 20; ++seed) {
    bushy.root_seed = seed;
    TreeGenerator generator(bushy);
    EXPECT_LE(generator.num_children(generator.root()), kMaxChildren);
  }
}

TEST(SmallTrees, GeneratorRejectsInvalidParameters) {
  TreeParams bad;
  bad.nonleaf_probability = 2;
  EXPECT_THROW(TreeGenerator{bad}, tessera::Error);
  EXPECT_THROW(search_sequential(bad), tessera::Error);
  EXPECT_THROW(search_workers(TreeParams{}, 0), tessera::Error);
}

}  // namespace
}  // namespace tessera::uts
