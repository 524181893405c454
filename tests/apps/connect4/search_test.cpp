// Minimax of seed 002's four-in-a-row: exact answers, and every scheme and worker count
// returning the sequential search's move, value and node count.
#include "tessera/connect4/minimax.hpp"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <tessera/runtime/error.hpp>

namespace tessera::connect4 {
namespace {

using collections::steal::WorkPoolScheme;

struct Expected {
  const char* position;
  int lookahead;
  int move;  // 1-7
  int value;
  std::uint64_t nodes;
};

// Values worked out by hand where the tree is small or the outcome forced:
//  - the empty board: no line of two exists after one or two moves, so every column is worth 0
//    and the leftmost is chosen; the tree is complete (1 + 7 + ... + 7^n nodes), as no four can
//    be made in fewer than seven moves;
//  - "445533": the first player holds columns 3-5 of the bottom row and wins at once in
//    column 2 or 6; the leftmost, 2, is worth kWinValue - 1 at every lookahead;
//  - "4455": columns 3 or 6 make an open three on the bottom row, a double threat the second
//    player cannot meet: a win at ply 3, worth kWinValue - 3, once the search sees three plies;
//  - "4444332": the second player to move cannot stop the first completing a row at ply 2
//    whatever it plays: -(kWinValue - 2), leftmost column 1.
// The rest were produced by the sequential search and pin the heuristic down.
const Expected kExpected[] = {
    {"", 1, 1, 0, 8},
    {"", 2, 1, 0, 57},
    {"", 3, 1, 1, 400},
    {"", 4, 3, 0, 2801},
    {"", 5, 4, 2, 19608},
    {"445533", 1, 2, kWinValue - 1, 8},
    {"445533", 3, 2, kWinValue - 1, 288},
    {"445533", 5, 2, kWinValue - 1, 10295},
    {"4455", 2, 3, -2, 57},
    {"4455", 3, 3, kWinValue - 3, 400},
    {"4455", 5, 3, kWinValue - 3, 17590},
    {"4444332", 1, 3, 6, 8},
    {"4444332", 2, 1, -(kWinValue - 2), 57},
    {"4444332", 5, 1, -(kWinValue - 2), 11890},
    {"4453326715", 4, 5, -1, 2801},
    {"4453326715", 5, 3, 1, 19178},
    {"3443455", 5, 4, -1, 18545},
};

TEST(Connect4Search, SequentialSearchGivesTheKnownAnswers) {
  for (const Expected& e : kExpected) {
    const SearchResult result = search_sequential(Board::from_moves(e.position), e.lookahead);
    EXPECT_EQ(result.column + 1, e.move) << e.position << " lookahead " << e.lookahead;
    EXPECT_EQ(result.value, e.value) << e.position << " lookahead " << e.lookahead;
    EXPECT_EQ(result.nodes, e.nodes) << e.position << " lookahead " << e.lookahead;
  }
}

TEST(Connect4Search, EverySchemeAndWorkerCountMatchesTheSequentialSearch) {
  for (const char* position : {"", "445533", "4455", "4444332", "4453326715", "3443455", "7654321"}) {
    const Board board = Board::from_moves(position);
    for (int lookahead = 1; lookahead <= 5; ++lookahead) {
      const SearchResult reference = search_sequential(board, lookahead);
      for (const WorkPoolScheme scheme : {WorkPoolScheme::static_assignment, WorkPoolScheme::dynamic}) {
        for (const std::size_t workers : {1u, 2u, 3u}) {
          const TaskSearchResult result = search_tasks(board, lookahead, scheme, workers);
          const std::string where = std::string("'") + position + "' lookahead " + std::to_string(lookahead) + " " +
                                    to_string(scheme) + " on " + std::to_string(workers);
          EXPECT_EQ(result.search.column, reference.column) << where;
          EXPECT_EQ(result.search.value, reference.value) << where;
          EXPECT_EQ(result.search.nodes, reference.nodes) << where;
          EXPECT_EQ(result.run.tasks, reference.nodes) << where;
        }
      }
    }
  }
}

// The paper's storage comparison in miniature: static holds a whole generation, dynamic a
// depth-first path per worker.
TEST(Connect4Search, StaticStoresAGenerationAndDynamicAPath) {
  const Board board = Board::from_moves("");
  const TaskSearchResult by_generations = search_tasks(board, 5, WorkPoolScheme::static_assignment, 2);
  EXPECT_EQ(by_generations.run.peak_tasks, 16807);  // 7^5 leaves
  EXPECT_EQ(by_generations.run.generations, 6);
  const TaskSearchResult one = search_tasks(board, 5, WorkPoolScheme::dynamic, 1);
  EXPECT_EQ(one.run.peak_tasks, 6 * 4 + 7);  // 6 siblings pending on 4 levels, 7 children
}

TEST(Connect4Search, RejectsALookaheadOutsideItsRange) {
  EXPECT_THROW(search_sequential(Board(), 0), tessera::Error);
  EXPECT_THROW(search_tasks(Board(), 0, WorkPoolScheme::dynamic, 2), tessera::Error);
  EXPECT_THROW(search_tasks(Board(), 43, WorkPoolScheme::dynamic, 2), tessera::Error);
  EXPECT_THROW(search_tasks(Board(), 3, WorkPoolScheme::static_assignment, 0), tessera::Error);
}

}  // namespace
}  // namespace tessera::connect4
