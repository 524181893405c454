#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tessera/pic/distribution.hpp"
#include "tessera/pic/lcg.hpp"

namespace tessera::pic {
namespace {

TEST(PicLcg, FirstStateFollowsTheRecurrence) {
  Lcg lcg;
  const std::uint64_t expected = 6364136223846793005ULL * 27182818285ULL + 1442695040888963407ULL;
  EXPECT_EQ(lcg.next(), expected);
}

TEST(PicLcg, JumpEqualsStepping) {
  for (std::uint64_t steps : {0ULL, 1ULL, 2ULL, 3ULL, 64ULL, 1000ULL, 12345ULL, 921599ULL}) {
    Lcg stepped;
    for (std::uint64_t i = 0; i < steps; ++i) {
      stepped.next();
    }
    EXPECT_EQ(Lcg::at(steps).state(), stepped.state()) << steps << " steps";
  }
}

TEST(PicLcg, JumpsCompose) {
  Lcg lcg = Lcg::at(777);
  lcg.jump(223);
  EXPECT_EQ(lcg.state(), Lcg::at(1000).state());
}

TEST(PicDraw, EveryDrawConsumesTwoStates) {
  for (double mu : {0.0, 0.3, 1.0, 7.5}) {
    Lcg lcg;
    draw_count(mu, lcg);
    EXPECT_EQ(lcg.state(), Lcg::at(2).state()) << "mu " << mu;
  }
}

TEST(PicDraw, ZeroMeanNeverPlacesAParticle) {
  Lcg lcg;
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(draw_count(0.0, lcg), 0U);
  }
}

TEST(PicDraw, BernoulliAndNormalDrawsHaveTheRequestedMean) {
  // The stream is fixed, so these sample means are fixed numbers; the bounds are what a correct
  // draw gives (4 standard errors), and a wrong formula (sigma, rounding, threshold) misses them.
  for (double mu : {0.25, 3.0, 40.0}) {
    Lcg lcg;
    const int draws = 20000;
    double sum = 0.0;
    for (int i = 0; i < draws; ++i) {
      sum += static_cast<double>(draw_count(mu, lcg));
    }
    const double sigma = mu < 1.0 ? std::sqrt(mu * (1.0 - mu)) : 0.15 * mu;
    EXPECT_NEAR(sum / draws, mu, 4.0 * sigma / std::sqrt(draws) + 1e-9) << "mu " << mu;
  }
}

}  // namespace
}  // namespace tessera::pic
