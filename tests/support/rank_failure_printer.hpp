#pragma once
// On ranks other than 0, replaces GoogleTest's printer with one that reports only failed
// assertions, prefixed with the rank, so a failure on any rank is visible without N copies of
// the progress output.
#include <gtest/gtest.h>

#include <cstdio>

namespace tessera::testing {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
  }

 private:
  int rank_;
};

/// Keeps the default printer on rank 0; elsewhere prints failures only.
inline void quiet_other_ranks(int rank) {
  if (rank == 0) return;
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailurePrinter(rank));
}

}  // namespace tessera::testing
