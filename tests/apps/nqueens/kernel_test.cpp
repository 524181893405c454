#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/nqueens/board.hpp"
#include "tessera/nqueens/worker_search.hpp"
#include <tessera/runtime/error.hpp>

namespace tessera::nqueens {
namespace {

// OEIS A000170, n = 1..12.
constexpr std::array<std::uint64_t, 12> kSolutions{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};

TEST(NQueens, SequentialCountsMatchA000170) {
  for (std::int32_t n = 1; n <= 12; ++n) {
    EXPECT_EQ(count_sequential(n), kSolutions[static_cast<std::size_t>(n - 1)]) << "n = " << n;
  }
}

TEST(NQueens, TasksAtEveryCutoffSumToTheSameCount) {
  for (std::int32_t n = 1; n <= 10; ++n) {
    const Board board(n);
    for (std::int32_t cutoff = 0; cutoff <= n; ++cutoff) {
      std::uint64_t solutions = 0;
      for (const Placement& task : board.tasks(cutoff)) {
        EXPECT_EQ(task.row, cutoff);
        solutions += board.count_below(task);
      }
      EXPECT_EQ(solutions, kSolutions[static_cast<std::size_t>(n - 1)]) << "n = " << n << " cutoff = " << cutoff;
    }
  }
}

TEST(NQueens, PartialPlacementsPerRowOfTheEightQueensTree) {
  // The backtracking tree of 8 queens: 1, 8, 42, 140, 344, 568, 550, 312, 92 nodes per
  // level, 2057 in all (N. Wirth, Algorithms + Data Structures = Programs, 1976).
  constexpr std::array<std::size_t, 9> kPerRow{1, 8, 42, 140, 344, 568, 550, 312, 92};
  const Board board(8);
  for (std::int32_t row = 0; row <= 8; ++row) {
    EXPECT_EQ(board.tasks(row).size(), kPerRow[static_cast<std::size_t>(row)]) << "row " << row;
  }
  const std::vector<Placement> first = board.extend(board.empty());
  ASSERT_EQ(first.size(), 8U);
  EXPECT_EQ(first.front().columns, 1U);
  EXPECT_EQ(first.back().columns, 0x80U);
}

TEST(NQueens, TwoWorkersMatchA000170) {
  for (std::int32_t n = 1; n <= 12; ++n) {
    const std::int32_t cutoff = std::min(n, 3);
    const WorkerSearchResult result = search_workers(n, cutoff, 2);
    EXPECT_EQ(result.solutions, kSolutions[static_cast<std::size_t>(n - 1)]) << "n = " << n;
    // Every partial placement down to the cutoff is one task.
    std::uint64_t tasks = 0;
    const Board board(n);
    for (std::int32_t row = 0; row <= cutoff; ++row) {
      tasks += board.tasks(row).size();
    }
    EXPECT_EQ(result.tasks, tasks) << "n = " << n;
  }
}

TEST(NQueens, RejectsBoardsAndCutoffsOutOfRange) {
  EXPECT_THROW(Board(0), tessera::Error);
  EXPECT_THROW(Board(kMaxN + 1), tessera::Error);
  EXPECT_NO_THROW(Board{kMaxN});
  EXPECT_THROW(Board(6).tasks(7), tessera::Error);
  EXPECT_THROW(Board(6).tasks(-1), tessera::Error);
  EXPECT_THROW(search_workers(6, 7, 2), tessera::Error);
  EXPECT_THROW(search_workers(6, 2, 0), tessera::Error);
  try {
    check_cutoff(4, 5);
    FAIL() << "cutoff 5 beyond N = 4 accepted";
  } catch (const tessera::Error& error) {
    EXPECT_STREQ(error.what(), "cutoff is 5: expected a row in [0, N = 4]");
  }
}

}  // namespace
}  // namespace tessera::nqueens
