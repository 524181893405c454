// The four-in-a-row board: Pons' move notation and its errors, lines of four, the heuristic.
#include "tessera/connect4/board.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <tessera/runtime/error.hpp>

namespace tessera::connect4 {
namespace {

std::string error_of(const std::string& moves) {
  try {
    Board::from_moves(moves);
  } catch (const tessera::Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(Connect4Board, ReadsPonsNotationFirstPlayerFirst) {
  const Board board = Board::from_moves("4453");
  EXPECT_EQ(board.moves(), 4);
  EXPECT_EQ(board.drawing(),
            ".......\n"
            ".......\n"
            ".......\n"
            ".......\n"
            "...O...\n"
            "..OXX..\n"
            "1234567\n");
  EXPECT_EQ(Board::from_moves(""), Board());
  EXPECT_EQ(Board::from_moves("4").played(3), Board::from_moves("44"));
}

TEST(Connect4Board, RejectsBadMoveStringsNamingTheMove) {
  EXPECT_EQ(error_of("44a"), "illegal move string '44a': move 3 is 'a', expected a column 1-7");
  EXPECT_EQ(error_of("408"), "illegal move string '408': move 2 is '0', expected a column 1-7");
  EXPECT_EQ(error_of("1111111"), "illegal move string '1111111': move 7 plays column 1, which is full");
  EXPECT_EQ(error_of("1212121"),
            "illegal move string '1212121': move 7 (column 1) completes four in a row, so the game is over");
  EXPECT_EQ(error_of("12121213"),  // nothing may follow the end of the game
            "illegal move string '12121213': move 7 (column 1) completes four in a row, so the game is over");
}

TEST(Connect4Board, RejectsAFullBoard) {
  // Columns filled in pairs 1-2, 3-4, 5-6 bottom-up alternate tokens in rows; this order of
  // 42 moves leaves no four (checked by from_moves at every move), then the board is full.
  const std::string full = "121212343434565656777777" "212121434343656565";
  ASSERT_EQ(full.size(), 42u);
  EXPECT_EQ(error_of(full.substr(0, 41)), "no error");
  EXPECT_EQ(error_of(full), "position '" + full + "' fills the board: there is no move to choose");
}

TEST(Connect4Board, FindsFourInEveryDirection) {
  // Each string ends one move before four in one direction (horizontal, vertical, the two
  // diagonals); playing the given 0-based column completes it.
  struct Case {
    const char* moves;
    int column;
  };
  for (const Case& c : {Case{"536376766517", 3}, Case{"277427712554", 1}, Case{"364565475635", 5},
                      Case{"472553634341", 2}}) {
    const Board before = Board::from_moves(c.moves);
    EXPECT_FALSE(before.last_mover_won()) << c.moves;
    EXPECT_TRUE(before.played(c.column).last_mover_won()) << c.moves << " then " << c.column + 1;
  }
}

// open_lines by the definition: every line of four, one at a time.
int open_lines_by_definition(std::uint64_t mine, std::uint64_t theirs) {
  int count = 0;
  constexpr int kSteps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (const auto& step : kSteps) {
    for (int c = 0; c < kColumns; ++c) {
      for (int r = 0; r < kRows; ++r) {
        int held = 0;
        bool blocked = false;
        bool inside = true;
        for (int k = 0; k < 4; ++k) {
          const int cc = c + k * step[0];
          const int rr = r + k * step[1];
          if (cc >= kColumns || rr < 0 || rr >= kRows) {
            inside = false;
            break;
          }
          const std::uint64_t bit = std::uint64_t{1} << (7 * cc + rr);
          held += (mine & bit) != 0;
          blocked |= (theirs & bit) != 0;
        }
        count += inside && !blocked && (held == 2 || held == 3);
      }
    }
  }
  return count;
}

TEST(Connect4Board, OpenLinesMatchTheDefinitionOnRandomGames) {
  std::mt19937 random(7);
  int positions = 0;
  for (int game = 0; game < 300; ++game) {
    Board board;
    for (int ply = 0; ply < kCells; ++ply) {
      EXPECT_EQ(open_lines(board.to_move(), board.other()), open_lines_by_definition(board.to_move(), board.other()));
      EXPECT_EQ(open_lines(board.other(), board.to_move()), open_lines_by_definition(board.other(), board.to_move()));
      ++positions;
      int column;
      do column = static_cast<int>(random() % kColumns); while (!board.can_play(column));
      board = board.played(column);
      if (board.last_mover_won() || board.full()) break;
    }
  }
  EXPECT_GT(positions, 3000);
}

TEST(Connect4Board, CountsTwoAndThreeTokenLinesOnly) {
  EXPECT_EQ(open_lines(Board::from_moves("").to_move(), 0), 0);
  // First player on the bottom row in columns 1 and 2, second player on top of them: each
  // holds two tokens of one line only (row 1 or row 2, columns 1-4); the others hold one, or
  // are blocked (the diagonal from column 1 up).
  const Board board = Board::from_moves("1122");
  EXPECT_EQ(open_lines(board.to_move(), board.other()), 1);
  EXPECT_EQ(open_lines(board.other(), board.to_move()), 1);
  const Board three = Board::from_moves("11223");  // first player: 1-4 holds three, 2-5 two
  EXPECT_EQ(open_lines(three.other(), three.to_move()), 2);
  EXPECT_EQ(popcount64(0xfdfbf7efdfbfULL), kCells);
}

}  // namespace
}  // namespace tessera::connect4
