#pragma once
// Counting the solutions of the N-queens problem (OEIS A000170) by bitmask backtracking,
// split into tasks: a task is a partial placement of the first rows, and everything below
// a cutoff row is searched serially inside one task.
//
// Bitmask backtracking: a placement of the first k rows is three N-bit masks, the columns
// already taken and the squares of row k attacked along the two diagonal directions. The
// free squares of row k are the complement of their union; placing a queen on square bit
// shifts the diagonal masks one column as they move down a row. (M. Richards, "Backtracking
// algorithms in MCPL using bit patterns and recursion", 1997.)

#include <cstdint>
#include <type_traits>
#include <vector>

namespace tessera::nqueens {

inline constexpr std::int32_t kMaxN = 32;  // one bit per column in 32-bit masks

// A task descriptor: queens placed on rows [0, row), one per row. Trivially copyable (16
// bytes), so it travels through deques and messages as raw bytes.
struct Placement {
  std::uint32_t columns = 0;  // bit c: column c holds a queen
  std::uint32_t left = 0;     // bit c: square c of `row` is attacked along a "/" diagonal
  std::uint32_t right = 0;    // bit c: square c of `row` is attacked along a "\" diagonal
  std::int32_t row = 0;

  friend bool operator==(const Placement&, const Placement&) = default;
};
static_assert(std::is_trivially_copyable_v<Placement>);

class Board {
 public:
  // Throws tessera::Error naming `n` unless 1 <= n <= kMaxN.
  explicit Board(std::int32_t n);

  std::int32_t n() const noexcept { return n_; }

  // The placement of no queen: the root task.
  Placement empty() const noexcept { return Placement{}; }

  // The placements of one more queen on row `placement.row`, in column order. A complete
  // placement (row == n) has none.
  std::vector<Placement> extend(const Placement& placement) const;

  // The number of complete placements that extend `placement`, searched serially.
  std::uint64_t count_below(const Placement& placement) const noexcept;

  // Every valid placement of the first `cutoff` rows, in lexicographic column order: the
  // tasks of a search with that cutoff. Throws tessera::Error naming the cutoff
  // unless 0 <= cutoff <= n.
  std::vector<Placement> tasks(std::int32_t cutoff) const;

 private:
  std::uint32_t free_squares(const Placement& p) const noexcept { return ~(p.columns | p.left | p.right) & full_; }
  Placement place(const Placement& p, std::uint32_t square) const noexcept;

  std::int32_t n_;
  std::uint32_t full_;  // the low n bits
};

// Solutions by serial search from the empty board.
std::uint64_t count_sequential(std::int32_t n);

// Throws tessera::Error naming `cutoff` unless 0 <= cutoff <= n.
void check_cutoff(std::int32_t n, std::int32_t cutoff);

}  // namespace tessera::nqueens
