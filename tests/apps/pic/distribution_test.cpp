#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/pic/distribution.hpp"
#include <tessera/runtime/error.hpp>
#include "tessera/pic/problem.hpp"

namespace tessera::pic {
namespace {

double total_mean(const Distribution& d, std::int64_t L, double n) {
  double sum = 0.0;
  for (std::int64_t x = 0; x < L; ++x) {
    for (std::int64_t y = 0; y < L; ++y) {
      sum += d.mean(x, y, L, n);
    }
  }
  return sum;
}

TEST(PicDistribution, ExpectedCountsSumToTheRequestedTotal) {
  const double n = 10000.0;
  for (const Distribution& d : {Distribution::geometric(0.9), Distribution::geometric(1.0),
                                Distribution::sinusoidal(), Distribution::linear(1.0, 3.0),
                                Distribution::patch_of({2, 9, 4, 5})}) {
    EXPECT_NEAR(total_mean(d, 32, n), n, 1e-6) << d.describe();
  }
}

TEST(PicDistribution, ShapesMatchTheirFormulas) {
  const std::int64_t L = 16;
  const auto geometric = Distribution::geometric(0.5);
  EXPECT_DOUBLE_EQ(geometric.mean(3, 7, L, 100.0), 0.5 * geometric.mean(2, 0, L, 100.0));
  const auto sinusoidal = Distribution::sinusoidal();
  EXPECT_DOUBLE_EQ(sinusoidal.mean(0, 5, L, 256.0), 2.0);  // 2 cos^2(0) n / L^2
  EXPECT_NEAR(sinusoidal.mean(8, 5, L, 256.0), 0.0, 1e-12);  // cos(pi / 2)
  const auto patch = Distribution::patch_of({1, 2, 3, 3});
  EXPECT_DOUBLE_EQ(patch.mean(2, 3, L, 10.0), 5.0);
  EXPECT_DOUBLE_EQ(patch.mean(3, 3, L, 10.0), 0.0);
  EXPECT_FALSE(patch.may_populate(0, 3));
}

TEST(PicDistribution, ParsesTheBenchmarkSpelling) {
  const auto d = Distribution::parse({"patch", "0", "239", "10", "20"});
  EXPECT_EQ(d.kind, DistributionKind::patch);
  EXPECT_EQ(d.patch.right, 239);
  EXPECT_EQ(d.patch.bottom, 10);
  EXPECT_EQ(Distribution::parse({"LINEAR", "1.5", "2"}).describe(), "LINEAR 1.5 2");
  EXPECT_EQ(Distribution::parse({"GEOMETRIC", "0.99"}).rho, 0.99);
  EXPECT_EQ(Distribution::parse({"Sinusoidal"}).kind, DistributionKind::sinusoidal);
}

void expect_error(const std::vector<std::string>& words, const std::string& fragment) {
  try {
    Distribution::parse(words);
    ADD_FAILURE() << "no error for " << words[0];
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(PicDistribution, RejectsMalformedSpellings) {
  expect_error({"PATCH", "0", "1", "2"}, "expected 4 parameter(s), got 3");
  expect_error({"GEOMETRIC", "abc"}, "'abc' is not a number");
  expect_error({"PATCH", "0", "1.5", "2", "3"}, "'1.5' is not an integer");
  expect_error({"UNIFORM"}, "unknown distribution 'UNIFORM'");
}

void expect_invalid(const Problem& problem, const std::string& fragment) {
  try {
    problem.validate();
    ADD_FAILURE() << "no error, expected one mentioning " << fragment;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(PicProblem, RejectsBadInputNamingTheFlag) {
  Problem p;
  p.grid_size = 961;
  expect_invalid(p, "--L 961");
  p = Problem{};
  p.k = -1;
  expect_invalid(p, "--k -1");
  p = Problem{};
  p.grid_size = 16;
  p.distribution = Distribution::sinusoidal();
  p.m = -16;
  expect_invalid(p, "--m -16");
  p = Problem{};
  p.particles = 0;
  expect_invalid(p, "--n 0");
  p = Problem{};
  p.distribution = Distribution::patch_of({0, 960, 0, 10});
  expect_invalid(p, "PATCH 0 960 0 10");
  p.distribution = Distribution::patch_of({5, 4, 0, 10});
  expect_invalid(p, "PATCH 5 4 0 10");
  p.distribution = Distribution::linear(4.0, 1.0);
  expect_invalid(p, "LINEAR 4 1");
  p.distribution = Distribution::geometric(0.0);
  expect_invalid(p, "GEOMETRIC 0");
  EXPECT_NO_THROW(Problem{}.validate());
}

}  // namespace
}  // namespace tessera::pic
