#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/pic/driver/options.hpp"

namespace tessera::pic::driver {
namespace {

ParseResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "tessera-pic");
  std::vector<const char*> argv;
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }
  return parse_options(static_cast<int>(argv.size()), argv.data());
}

TEST(PicOptions, NoArgumentsIsTheDefaultInputOfIssue7) {
  const ParseResult r = parse({});
  ASSERT_TRUE(r.options.has_value()) << r.message;
  const Options& o = *r.options;
  EXPECT_EQ(o.mode, "spmd");
  EXPECT_EQ(o.problem.grid_size, 960);
  EXPECT_EQ(o.problem.particles, 600000U);
  EXPECT_EQ(o.problem.k, 0);
  EXPECT_EQ(o.problem.m, 1);
  EXPECT_EQ(o.problem.distribution.describe(), "PATCH 0 239 0 239");
  EXPECT_EQ(o.steps, 300);
  EXPECT_FALSE(o.json);
  EXPECT_EQ(o.colors_per_rank, 24);
  EXPECT_EQ(o.recut, "off");
}

TEST(PicOptions, TheDefaultPatchScalesWithTheGrid) {
  for (const auto& [side, patch] : {std::pair{"200", "PATCH 0 49 0 49"}, std::pair{"30", "PATCH 0 6 0 6"},
                                    std::pair{"4000", "PATCH 0 999 0 999"}}) {
    const ParseResult r = parse({"--L", side});
    ASSERT_TRUE(r.options.has_value()) << r.message;
    EXPECT_EQ(r.options->problem.distribution.describe(), patch) << "--L " << side;
  }
}

TEST(PicOptions, ParsesEveryFlag) {
  const ParseResult r = parse({"--mode=amt", "--L", "64", "--n", "5000", "--k", "2", "--m=-3", "--steps", "7",
                               "--distribution", "LINEAR", "0.5", "2", "--print_every", "3", "--report=json",
                               "--dump_particles", "p.txt", "--step_log", "s.csv", "--colors_per_rank", "8"});
  ASSERT_TRUE(r.options.has_value()) << r.message;
  const Options& o = *r.options;
  EXPECT_EQ(o.mode, "amt");
  EXPECT_EQ(o.problem.grid_size, 64);
  EXPECT_EQ(o.problem.particles, 5000U);
  EXPECT_EQ(o.problem.k, 2);
  EXPECT_EQ(o.problem.m, -3);
  EXPECT_EQ(o.steps, 7);
  EXPECT_EQ(o.problem.distribution.describe(), "LINEAR 0.5 2");
  EXPECT_EQ(o.print_every, 3);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(o.dump_particles, "p.txt");
  EXPECT_EQ(o.step_log, "s.csv");
  EXPECT_EQ(o.colors_per_rank, 8);
}

void expect_rejected(const std::vector<std::string>& args, const std::string& fragment) {
  const ParseResult r = parse(args);
  EXPECT_FALSE(r.options.has_value()) << fragment;
  EXPECT_EQ(r.exit_code, 1) << fragment;
  EXPECT_NE(r.message.find(fragment), std::string::npos) << r.message;
}

TEST(PicOptions, RejectsBadFlagsWithOneMessage) {
  expect_rejected({"--mode", "fast"}, "--mode: fast not in {spmd,amt}");
  expect_rejected({"--distribution", "CIRCLE"}, "unknown distribution 'CIRCLE'");
  expect_rejected({"--distribution", "GEOMETRIC"}, "expected 1 parameter(s), got 0");
  expect_rejected({"--steps", "0"}, "--steps 0: expected at least 1 step");
  expect_rejected({"--print_every", "-1"}, "--print_every -1");
  expect_rejected({"--colors_per_rank", "0"}, "--colors_per_rank 0");
  expect_rejected({"--recut", "sometimes"}, "--recut");
  expect_rejected({"--report=xml"}, "--report: xml not in {text,json}");
  expect_rejected({"--L", "ten"}, "--L");
  expect_rejected({"--L", "30", "--distribution", "PATCH", "0", "239", "0", "239"},
                  "PATCH 0 239 0 239: the patch must satisfy");
  expect_rejected({"--tessera_lb_name=GreedyLB"}, "--tessera_lb_name");
  expect_rejected({"--color_loads", "guessed"}, "--color_loads");
  expect_rejected({"--mode=amt", "--recut", "auto", "--tessera_lb_name=GreedyLB", "--tessera_lb_split_above=2"},
                  "--recut auto moves the cuts of whole colors and cannot be combined with --tessera_lb_split_above");
}

TEST(PicOptions, HelpExitsWithZero) {
  const ParseResult r = parse({"--help"});
  EXPECT_FALSE(r.options.has_value());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.message.find("--distribution"), std::string::npos);
}

}  // namespace
}  // namespace tessera::pic::driver
