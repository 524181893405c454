#include "tessera/connect4/board.hpp"


#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::connect4 {
namespace {

constexpr std::uint64_t cell(int column, int row) { return std::uint64_t{1} << (7 * column + row); }


}  // namespace

bool Board::has_four(std::uint64_t tokens) noexcept {
  // Shifts by 1 (vertical), 7 (horizontal), 6 and 8 (the diagonals): the empty seventh bit of
  // each column stops a line wrapping into the next column.
  for (const int shift : {1, 7, 6, 8}) {
    const std::uint64_t pairs = tokens & (tokens >> shift);
    if ((pairs & (pairs >> (2 * shift))) != 0) return true;
  }
  return false;
}

Board Board::from_moves(std::string_view moves) {
  Board board;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const char ch = moves[i];
    if (ch < '1' || ch > '7') {
      throw Error(fmt::format("illegal move string '{}': move {} is '{}', expected a column 1-7",
                                              moves, i + 1, ch));
    }
    const int column = ch - '1';
    if (!board.can_play(column)) {
      throw Error(
          fmt::format("illegal move string '{}': move {} plays column {}, which is full", moves, i + 1, ch));
    }
    board = board.played(column);
    if (board.last_mover_won()) {
      throw Error(fmt::format("illegal move string '{}': move {} (column {}) completes four in a "
                                              "row, so the game is over",
                                              moves, i + 1, ch));
    }
  }
  if (board.full()) {
    throw Error(fmt::format("position '{}' fills the board: there is no move to choose", moves));
  }
  return board;
}

std::string Board::drawing() const {
  // The player to move made moves() / 2 moves if it is the first player (moves() even).
  const bool first_to_move = moves() % 2 == 0;
  const std::uint64_t first = first_to_move ? to_move() : other();
  std::string text;
  for (int r = kRows - 1; r >= 0; --r) {
    for (int c = 0; c < kColumns; ++c) {
      const std::uint64_t bit = cell(c, r);
      text += (mask_ & bit) == 0 ? '.' : (first & bit) != 0 ? 'X' : 'O';
    }
    text += '\n';
  }
  text += "1234567\n";
  return text;
}

int open_lines(std::uint64_t mine, std::uint64_t theirs) noexcept {
  // All lines of one direction at once: a line is named by its first cell, and shifting a
  // bitboard right by k steps brings the line's k-th cell onto that bit. A line no opponent
  // token blocks has all four cells in `open`, the board's cells outside `theirs`; since the
  // column's seventh bit and the bits past column 7 are never in `open`, a line that would
  // leave the board is never counted.
  const std::uint64_t open = kAllCells & ~theirs;
  int count = 0;
  for (const int step : {1, 7, 6, 8}) {  // vertical, horizontal, the two diagonals
    const std::uint64_t m1 = mine >> step;
    const std::uint64_t m2 = mine >> (2 * step);
    const std::uint64_t m3 = mine >> (3 * step);
    const std::uint64_t unblocked = open & (open >> step) & (open >> (2 * step)) & (open >> (3 * step));
    // At least two of the four cells are mine; at most three, four having ended the game.
    const std::uint64_t two_or_more = (mine & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3);
    const std::uint64_t four = mine & m1 & m2 & m3;
    count += popcount64(unblocked & two_or_more & ~four);
  }
  return count;
}

}  // namespace tessera::connect4
