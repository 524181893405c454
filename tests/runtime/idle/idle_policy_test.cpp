#include <tessera/runtime/idle_policy.hpp>
#include <tessera/runtime/timer.hpp>

#include "node_cpus.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace tessera {
namespace {

TEST(SpinGovernor, ShortensTheWindowForOneHoldAfterADescheduledSpin) {
  SpinGovernor g(10000, 50, 1.0);
  EXPECT_TRUE(g.adaptive());
  EXPECT_DOUBLE_EQ(g.spin_seconds(0), 10e-3);
  EXPECT_FALSE(g.observe(5.0, 5.004, 0.0039));  // 97.5 % of the wall time on the CPU: its own core
  EXPECT_DOUBLE_EQ(g.spin_seconds(5.1), 10e-3);
  EXPECT_FALSE(g.observe(5.0, 5.0002, 0.0));  // 0.2 ms says too little
  EXPECT_TRUE(g.observe(6.0, 6.004, 0.002));  // half of it: descheduled
  EXPECT_EQ(g.descheduled(), 1u);
  EXPECT_DOUBLE_EQ(g.spin_seconds(6.5), 50e-6);
  EXPECT_DOUBLE_EQ(g.spin_seconds(7.003), 50e-6);
  EXPECT_DOUBLE_EQ(g.spin_seconds(7.005), 10e-3);  // the hold (1 s from the spin's end) is over
}

TEST(SpinGovernor, TheHoldDoublesWhileTheRankKeepsBeingDescheduled) {
  SpinGovernor g(10000, 50, 1.0);
  double t = 10.0;
  for (double hold : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 64.0}) {
    EXPECT_TRUE(g.observe(t, t + 0.002, 0.0005));
    EXPECT_DOUBLE_EQ(g.spin_seconds(t + 0.002 + hold - 0.001), 50e-6) << hold;
    EXPECT_DOUBLE_EQ(g.spin_seconds(t + 0.002 + hold + 0.001), 10e-3) << hold;
    t += hold + 1.0;
  }
  EXPECT_FALSE(g.observe(t, t + 0.002, 0.002));  // a long spin that kept its core: back to 1 s
  EXPECT_TRUE(g.observe(t + 1.0, t + 1.002, 0.0));
  EXPECT_DOUBLE_EQ(g.spin_seconds(t + 1.002 + 1.001), 10e-3);
}

TEST(SpinGovernor, AFixedWindowNeverChanges) {
  SpinGovernor g(50, 50);
  EXPECT_FALSE(g.adaptive());
  IdleBackoff idle(g, 0, 10);
  EXPECT_TRUE(idle.spinning());
  EXPECT_DOUBLE_EQ(g.spin_seconds(0), 50e-6);
}

// Spins until the backoff leaves its spin window, `waits` times over.
void spin_windows(IdleBackoff& idle, int waits) {
  for (int i = 0; i < waits; ++i) {
    idle.reset();
    while (idle.spinning()) idle.wait();
  }
}

TEST(IdleBackoff, ADescheduledSpinnerShortensItsWindow) {
  // Two threads pinned to one CPU: the spinner gets about half of the wall time on it, which the
  // governor must see as being descheduled within a few 10 ms windows.
  cpu_set_t one;
  CPU_ZERO(&one);
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  int cpu = 0;
  while (!CPU_ISSET(cpu, &mine)) ++cpu;
  CPU_SET(cpu, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  std::atomic<bool> stop{false};
  std::thread hog([&stop, &one] {
    sched_setaffinity(0, sizeof one, &one);
    volatile unsigned long x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x + 1;
  });
  SpinGovernor g(10000, 50, 60.0);
  IdleBackoff idle(g, 0, 10);
  spin_windows(idle, 20);
  stop = true;
  hog.join();
  sched_setaffinity(0, sizeof mine, &mine);
  EXPECT_GE(g.descheduled(), 1u);
  EXPECT_DOUBLE_EQ(g.spin_seconds(wall_time()), 50e-6);
}

class FakeCgroups : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("tessera_cgroups_" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void write(const std::string& relative, const std::string& text) {
    const auto path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
  }
  std::filesystem::path root_;
};

TEST_F(FakeCgroups, V2TakesTheTightestQuotaUpThePath) {
  write("job/cpu.max", "150000 100000");
  write("job/step/cpu.max", "max 100000");
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), "0::/job/step\n"), 1.5);
  write("job/step/cpu.max", "50000 100000");
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), "0::/job/step\n"), 0.5);
}

TEST_F(FakeCgroups, V1ReadsTheCfsQuota) {
  const std::string proc = "4:memory:/x\n3:cpu,cpuacct:/x\n0::/\n";
  write("cpu,cpuacct/x/cpu.cfs_quota_us", "-1");
  write("cpu,cpuacct/x/cpu.cfs_period_us", "100000");
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), proc), 0.0);
  write("cpu,cpuacct/x/cpu.cfs_quota_us", "250000");
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), proc), 2.5);
}

TEST_F(FakeCgroups, NoCgroupFilesMeanNoQuota) {
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), "0::/nowhere\n"), 0.0);
  EXPECT_DOUBLE_EQ(detail::cgroup_cpu_quota(root_.string(), "garbage"), 0.0);
}

TEST(UsableCpus, AtLeastOneAndNoMoreThanTheAffinityMask) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  const int cpus = detail::usable_cpus();
  EXPECT_GE(cpus, 1);
  EXPECT_LE(cpus, CPU_COUNT(&mine));
}

}  // namespace
}  // namespace tessera
