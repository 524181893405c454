#include "tessera/connect4/minimax.hpp"

namespace tessera::connect4 {
namespace {

struct Recursion {
  int lookahead;
  std::uint64_t nodes = 0;

  // The minimax value of `board`, and at the root the leftmost best column in `column`.
  int value(const Board& board, int depth, int* column) {
    ++nodes;
    if (const std::optional<int> leaf = leaf_value(board, depth, lookahead)) return *leaf;
    const bool maximizing = depth % 2 == 0;
    int best = maximizing ? -kWinValue - 1 : kWinValue + 1;
    for (int c = 0; c < kColumns; ++c) {
      if (!board.can_play(c)) continue;
      const int v = value(board.played(c), depth + 1, nullptr);
      // Strict comparisons keep the leftmost of equal values.
      if (maximizing ? v > best : v < best) {
        best = v;
        if (column != nullptr) *column = c;
      }
    }
    return best;
  }
};

}  // namespace

SearchResult search_sequential(const Board& root, int lookahead) {
  check_lookahead(lookahead);
  Recursion recursion{lookahead};
  SearchResult result;
  result.value = recursion.value(root, 0, &result.column);
  result.nodes = recursion.nodes;
  return result;
}

}  // namespace tessera::connect4
