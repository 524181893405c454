// Flag parsing: --tessera_ arguments are consumed, the application's are kept in order.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/trace.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace {

struct Argv {
  explicit Argv(std::vector<std::string> a) : strings(std::move(a)) {
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
    argc = static_cast<int>(strings.size());
  }
  std::vector<std::string> strings;
  std::vector<char*> pointers;
  int argc;
  std::vector<std::string> left() const { return {pointers.begin(), pointers.begin() + argc}; }
};

TEST(Flags, ConsumesTesseraFlagsAndKeepsTheRest) {
  tessera::RuntimeFlags flags;
  Argv a({"app", "--steps", "10", "--tessera_tree_fanout=8", "-x", "--tessera_log_level", "debug", "y"});
  tessera::parse_flags(a.argc, a.pointers.data(), {&flags});
  EXPECT_EQ(flags.tree_fanout, 8);
  EXPECT_EQ(flags.log_level, "debug");
  EXPECT_EQ(a.left(), (std::vector<std::string>{"app", "--steps", "10", "-x", "y"}));
}

TEST(Flags, UnknownFlagNamesTheClosestValidOne) {
  tessera::RuntimeFlags flags;
  Argv a({"app", "--tessera_tree_fanot=3"});
  try {
    tessera::parse_flags(a.argc, a.pointers.data(), {&flags});
    FAIL() << "expected an error";
  } catch (const tessera::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("--tessera_tree_fanot"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean '--tessera_tree_fanout'"), std::string::npos) << message;
  }
}

TEST(Flags, BadValuesAreRejected) {
  tessera::RuntimeFlags flags;
  Argv a({"app", "--tessera_tree_fanout=1"});
  EXPECT_THROW(tessera::parse_flags(a.argc, a.pointers.data(), {&flags}), tessera::Error);
  tessera::RuntimeFlags flags2;
  Argv b({"app", "--tessera_log_level=loud"});
  EXPECT_THROW(tessera::parse_flags(b.argc, b.pointers.data(), {&flags2}), tessera::Error);
  tessera::RuntimeFlags flags3;
  Argv c({"app", "--tessera_tree_fanout=abc"});
  EXPECT_THROW(tessera::parse_flags(c.argc, c.pointers.data(), {&flags3}), tessera::Error);
}

TEST(Flags, HelpListsEveryFlag) {
  tessera::RuntimeFlags flags;
  Argv a({"app", "--tessera_help"});
  auto parsed = tessera::parse_flags(a.argc, a.pointers.data(), {&flags});
  EXPECT_TRUE(parsed.help);
  for (const char* name : {"--tessera_log_level", "--tessera_tree_fanout", "--tessera_idle_spin_us"})
    EXPECT_NE(parsed.help_text.find(name), std::string::npos) << name;
}

TEST(Flags, GroupsDescribeTheirFlagsAsPlainData) {
  tessera::RuntimeFlags flags;
  tessera::TraceFlags trace;
  tessera::FlagTable table;
  flags.describe(table);
  trace.describe(table);
  std::set<std::string> names;
  for (const tessera::Flag& flag : table.flags()) {
    EXPECT_EQ(flag.name.rfind("--tessera_", 0), 0u) << flag.name;
    EXPECT_FALSE(flag.help.empty()) << flag.name;
    EXPECT_TRUE(names.insert(flag.name).second) << "described twice: " << flag.name;
  }
  const auto fanout = std::find_if(table.flags().begin(), table.flags().end(),
                                   [](const tessera::Flag& f) { return f.name == "--tessera_tree_fanout"; });
  ASSERT_NE(fanout, table.flags().end());
  EXPECT_EQ(std::get<std::int32_t*>(fanout->target), &flags.tree_fanout);
  EXPECT_FALSE(table.flags().front().takes_value);  // --tessera_help is a switch
}

TEST(Flags, AWordStandsForAValue) {
  tessera::RuntimeFlags automatic;
  Argv a({"app", "--tessera_idle_spin_us=auto"});
  tessera::parse_flags(a.argc, a.pointers.data(), {&automatic});
  EXPECT_EQ(automatic.idle_spin_us, tessera::RuntimeFlags::kIdleSpinAuto);
  tessera::RuntimeFlags given;
  Argv b({"app", "--tessera_idle_spin_us", "75"});
  tessera::parse_flags(b.argc, b.pointers.data(), {&given});
  EXPECT_EQ(given.idle_spin_us, 75);
}

}  // namespace
