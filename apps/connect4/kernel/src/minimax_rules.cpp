
#include <fmt/format.h>

#include "tessera/connect4/minimax.hpp"

#include <tessera/runtime/error.hpp>

namespace tessera::connect4 {

void check_lookahead(int lookahead) {
  if (lookahead < 1 || lookahead > kMaxLookahead) {
    throw Error(
        fmt::format("lookahead is {}: expected a number of moves in [1, {}]", lookahead, kMaxLookahead));
  }
}

std::optional<int> leaf_value(const Board& board, int depth, int lookahead) noexcept {
  // At odd depths the computer made the last move.
  const bool computer_moved_last = depth % 2 == 1;
  if (depth > 0 && board.last_mover_won()) {
    return computer_moved_last ? kWinValue - depth : -(kWinValue - depth);
  }
  if (depth < lookahead && !board.full()) return std::nullopt;
  const std::uint64_t computer = computer_moved_last ? board.other() : board.to_move();
  const std::uint64_t human = computer_moved_last ? board.to_move() : board.other();
  return open_lines(computer, human) - open_lines(human, computer);
}

}  // namespace tessera::connect4
