#include "tessera/nqueens/board.hpp"

#include <string>

#include <tessera/runtime/error.hpp>

namespace tessera::nqueens {

Board::Board(std::int32_t n) : n_(n), full_(0) {
  if (n < 1 || n > kMaxN) {
    throw Error("N is " + std::to_string(n) + ": expected an integer in [1, " +
                                std::to_string(kMaxN) + "]");
  }
  full_ = n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
}

Placement Board::place(const Placement& p, std::uint32_t square) const noexcept {
  return Placement{p.columns | square, ((p.left | square) << 1) & full_, (p.right | square) >> 1, p.row + 1};
}

std::vector<Placement> Board::extend(const Placement& placement) const {
  std::vector<Placement> children;
  for (std::uint32_t free = free_squares(placement); free != 0; free &= free - 1) {
    children.push_back(place(placement, free & (~free + 1)));
  }
  return children;
}

std::uint64_t Board::count_below(const Placement& placement) const noexcept {
  if (placement.columns == full_) {
    return 1;
  }
  std::uint64_t solutions = 0;
  for (std::uint32_t free = free_squares(placement); free != 0; free &= free - 1) {
    solutions += count_below(place(placement, free & (~free + 1)));
  }
  return solutions;
}

void check_cutoff(std::int32_t n, std::int32_t cutoff) {
  if (cutoff < 0 || cutoff > n) {
    throw Error("cutoff is " + std::to_string(cutoff) + ": expected a row in [0, N = " +
                                std::to_string(n) + "]");
  }
}

std::vector<Placement> Board::tasks(std::int32_t cutoff) const {
  check_cutoff(n_, cutoff);
  std::vector<Placement> level{empty()};
  for (std::int32_t row = 0; row < cutoff; ++row) {
    std::vector<Placement> next;
    for (const Placement& p : level) {
      const std::vector<Placement> children = extend(p);
      next.insert(next.end(), children.begin(), children.end());
    }
    level = std::move(next);
  }
  return level;
}

std::uint64_t count_sequential(std::int32_t n) {
  const Board board(n);
  return board.count_below(board.empty());
}

}  // namespace tessera::nqueens
