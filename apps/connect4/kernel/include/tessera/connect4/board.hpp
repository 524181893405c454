#pragma once
// The four-in-a-row board of seed 002's section 35.4.1 (6 rows x 7 columns; tokens drop to the
// lowest free cell; four in a row horizontally, vertically or diagonally wins), as two 64-bit
// bitboards in the layout of Pascal Pons' connect4 solver: column c owns bits 7c .. 7c + 5 from
// the bottom up, and bit 7c + 6 stays empty so that shifts never carry a line from one column
// into the next. `mask` holds every token, `current` those of the player to move.
//
// Positions are written as Pons writes them: the columns played so far, digits 1-7 from the
// left, first player first ("4453" = first player in column 4, second in 4, first in 5, ...).
//
// The leaf heuristic is the paper's: "the difference in how many two or three token sequences
// each of the players have", counted here over the 69 lines of four cells a player can still
// complete: a line with two or three of a player's tokens and none of the opponent's counts
// one for that player.

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::connect4 {

inline constexpr int kColumns = 7;
inline constexpr int kRows = 6;
inline constexpr int kCells = kColumns * kRows;

// The 42 cells of the board: bits 7c .. 7c + 5 of each column c.
inline constexpr std::uint64_t kAllCells = 0xfdfbf7efdfbfULL;

// Set bits of x. Inline bit arithmetic: without -mpopcnt (the build targets baseline x86-64)
// __builtin_popcountll is a library call, which cost the leaf evaluation a sixth of its time.
constexpr int popcount64(std::uint64_t x) noexcept {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

class Board {
 public:
  // The empty board, first player to move.
  Board() = default;

  // The position after `moves` in Pons' notation. Throws tessera::Error naming the
  // offending move when a character is not a column digit 1-7, a column is already full, a
  // move completes four in a row (the game would be over), or the board is left full (there is
  // nothing to choose): every accepted position has a move to search.
  static Board from_moves(std::string_view moves);

  // Column c in [0, 7) has a free cell.
  bool can_play(int column) const noexcept { return (mask_ & top_cell(column)) == 0; }

  // Bit c set when column c can be played.
  std::uint32_t playable_columns() const noexcept {
    std::uint32_t columns = 0;
    for (int c = 0; c < kColumns; ++c) columns |= static_cast<std::uint32_t>(can_play(c)) << c;
    return columns;
  }

  // The position after the player to move drops a token in column c (which must be playable).
  Board played(int column) const noexcept {
    Board next = *this;
    next.current_ ^= mask_;  // the opponent becomes the player to move
    next.mask_ |= mask_ + bottom_cell(column);
    return next;
  }

  // The player who made the last move has four in a row.
  bool last_mover_won() const noexcept { return has_four(current_ ^ mask_); }

  bool full() const noexcept { return mask_ == kAllCells; }
  int moves() const noexcept { return popcount64(mask_); }

  // Every token on the board.
  std::uint64_t occupied() const noexcept { return mask_; }

  // Tokens of the player to move, and of the other player.
  std::uint64_t to_move() const noexcept { return current_; }
  std::uint64_t other() const noexcept { return current_ ^ mask_; }

  // Rows from the top, 'X' for the first player, 'O' for the second, '.' for empty.
  std::string drawing() const;

  friend bool operator==(const Board&, const Board&) = default;

 private:
  static constexpr std::uint64_t bottom_cell(int column) noexcept { return std::uint64_t{1} << (7 * column); }
  static constexpr std::uint64_t top_cell(int column) noexcept {
    return std::uint64_t{1} << (7 * column + kRows - 1);
  }
  static bool has_four(std::uint64_t tokens) noexcept;

  std::uint64_t current_ = 0;
  std::uint64_t mask_ = 0;
};

// The column of the token one move added, from the occupied cells before and after it.
inline int column_of_move(std::uint64_t occupied_before, std::uint64_t occupied_after) noexcept {
  return __builtin_ctzll(occupied_after ^ occupied_before) / 7;
}

// Lines of four a player with `mine` can still complete against `theirs` holding two or three
// of its tokens (the paper's "two or three token sequences").
int open_lines(std::uint64_t mine, std::uint64_t theirs) noexcept;

}  // namespace tessera::connect4
