// Strategy registry, key=value arguments and per-phase schedules: the errors users see.

#include <gtest/gtest.h>

#include "tessera/lb/registry.hpp"
#include "tessera/lb/schedule.hpp"

namespace tessera::lb {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Registry, CreatesEveryBuiltinAndListsKeysWithDefaults) {
  const Registry registry = Registry::builtin();
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"GreedyLB", "HierLB", "TemperedLB", "GrapevineLB", "RandomLB", "RotateLB"}));
  for (const auto& name : registry.names()) EXPECT_EQ(registry.create(name)->name(), name);
  const std::string help = registry.help();
  EXPECT_NE(help.find("  c=1.003  (a number >= 1)"), std::string::npos) << help;
  EXPECT_NE(help.find("  mode=refine  (one of: refine, full)"), std::string::npos) << help;
  EXPECT_NE(help.find("  branching=3  (an integer in [2, 1048576])"), std::string::npos) << help;
  EXPECT_NE(help.find("RotateLB\n  every migratable object to rank (r + 1) mod P (for testing migration)\n  (no keys)"),
            std::string::npos) << help;
}

TEST(Registry, RejectsUnknownNamesKeysMalformedPairsAndOutOfRangeValues) {
  const Registry registry = Registry::builtin();
  EXPECT_EQ(error_of([&] { registry.create("FooLB"); }),
            "unknown LB strategy 'FooLB'; valid strategies: GreedyLB, HierLB, TemperedLB, GrapevineLB, RandomLB, RotateLB");
  EXPECT_EQ(error_of([&] { registry.create("GreedyLB", "c=1.01 fanout=4"); }),
            "GreedyLB: unknown key 'fanout'; valid keys: c, mode, memory_limit");
  EXPECT_EQ(error_of([&] { registry.create("GreedyLB", "c"); }), "GreedyLB: malformed argument 'c': expected key=value");
  EXPECT_EQ(error_of([&] { registry.create("GreedyLB", "c=0.5"); }), "GreedyLB: c=0.5: expected a number >= 1");
  EXPECT_EQ(error_of([&] { registry.create("GreedyLB", "c=abc"); }), "GreedyLB: c=abc: expected a number >= 1");
  EXPECT_EQ(error_of([&] { registry.create("GreedyLB", "mode=half"); }),
            "GreedyLB: mode=half: expected one of: refine, full");
  EXPECT_EQ(error_of([&] { registry.create("HierLB", "branching=1"); }),
            "HierLB: branching=1: expected an integer in [2, 1048576]");
  EXPECT_EQ(error_of([&] { registry.create("HierLB", "d=1.1 d=1.2"); }), "HierLB: key 'd' given twice");
  EXPECT_EQ(error_of([&] { registry.create("RotateLB", "x=1"); }), "RotateLB: unknown key 'x'; valid keys: (none)");
  EXPECT_EQ(registry.create("HierLB", "c=1.05 d=1.02 branching=8")->name(), "HierLB");
}

TEST(Args, ParsedValuesAndDefaults) {
  const std::vector<KeySpec> keys{real_key("c", "1.003", "", 1.0), integer_key("n", "3", "", 2),
                                  choice_key("mode", "refine", "", {"refine", "full"}),
                                  boolean_key("deterministic", "false", "")};
  const Args args = parse_args("  n=16   mode=full deterministic=true ", keys, "X");
  EXPECT_EQ(args.real("c"), 1.003);
  EXPECT_EQ(args.integer("n"), 16);
  EXPECT_EQ(args.text("mode"), "full");
  EXPECT_TRUE(args.boolean("deterministic"));
}

TEST(Schedule, ExactPhasesWinOverEveryNth) {
  const Registry registry = Registry::builtin();
  const Schedule s = Schedule::parse("# balance early, then periodically\n2 GreedyLB\n\n%100 HierLB branching=4\n%7 RotateLB\n0 RandomLB seed=3 # first\n",
                                     "lb.txt", &registry);
  ASSERT_EQ(s.entries().size(), 4u);
  EXPECT_EQ(s.at(2)->strategy, "GreedyLB");
  EXPECT_EQ(s.at(2)->line, 2);
  EXPECT_EQ(s.at(0)->strategy, "RandomLB");
  EXPECT_EQ(s.at(0)->args, "seed=3");
  EXPECT_EQ(s.at(700)->strategy, "HierLB");
  EXPECT_EQ(s.at(700)->args, "branching=4");
  EXPECT_EQ(s.at(14)->strategy, "RotateLB");
  EXPECT_FALSE(s.at(3).has_value());
}

TEST(Schedule, AutoLinesApplyWhereNoOtherLineDoes) {
  const Registry registry = Registry::builtin();
  const Schedule s = Schedule::parse("auto TemperedLB fanout=2\n%10 GreedyLB\n3 RotateLB\n", "lb.txt", &registry);
  ASSERT_EQ(s.entries().size(), 3u);
  EXPECT_TRUE(s.at(1)->automatic);
  EXPECT_EQ(s.at(1)->strategy, "TemperedLB");
  EXPECT_EQ(s.at(1)->args, "fanout=2");
  EXPECT_EQ(s.at(20)->strategy, "GreedyLB");
  EXPECT_FALSE(s.at(20)->automatic);
  EXPECT_EQ(s.at(3)->strategy, "RotateLB");
}

TEST(Schedule, BadLinesNameTheirLineNumber) {
  const Registry registry = Registry::builtin();
  EXPECT_EQ(error_of([&] { Schedule::parse("2 GreedyLB\nx GreedyLB\n", "lb.txt", &registry); }),
            "lb.txt:2: expected a phase number, %N or auto at the start of the line, got 'x'");
  EXPECT_EQ(error_of([&] { Schedule::parse("\n\n%0 GreedyLB\n", "lb.txt", &registry); }),
            "lb.txt:3: %N needs N >= 1, got '%0'");
  EXPECT_EQ(error_of([&] { Schedule::parse("5\n", "lb.txt", &registry); }),
            "lb.txt:1: expected a strategy name after '5'");
  EXPECT_EQ(error_of([&] { Schedule::parse("1 GreedyLB\n4 NoSuchLB\n", "lb.txt", &registry); }),
            "lb.txt:2: unknown LB strategy 'NoSuchLB'; valid strategies: GreedyLB, HierLB, TemperedLB, GrapevineLB, RandomLB, RotateLB");
  EXPECT_EQ(error_of([&] { Schedule::parse("%10 HierLB branching=1\n", "lb.txt", &registry); }),
            "lb.txt:1: HierLB: branching=1: expected an integer in [2, 1048576]");
  EXPECT_EQ(error_of([&] { Schedule::read("/nonexistent/lb.txt", &registry); }),
            "/nonexistent/lb.txt: cannot open LB schedule file");
}

}  // namespace
}  // namespace tessera::lb
