#pragma once
// The computer opponent of seed 002's section 35.4.1: minimax over the next `lookahead` moves
// (Figure 35.7), searched sequentially or with every node of the tree a task on one of the
// two work-pools of section 35.3 (static assignment, or ABP deques with work stealing).
//
// Values are from the side of the player to move at the root (the computer): a line of four
// it completes `d` plies below the root is worth kWinValue - d, one its opponent completes
// -(kWinValue - d) (a quicker win is worth more, a later loss less bad); a node `lookahead`
// plies down, or a full board, is worth the heuristic of board.hpp, which stays within
// [-69, 69]. The root and every other node where the computer moves take the largest value of
// their children, the others the smallest. Among the root's moves of equal value the leftmost
// column is chosen, so the answer does not depend on which worker finished first.
//
// Nodes: the root and every position below it down to the lookahead, each one task; a node
// whose last move completed four has no children. There is no pruning, so every scheme
// evaluates the same nodes and reports the same count.
//
// The task-based search follows the paper's design: a task holds its position, its depth and
// its parent; a node with children keeps a record (its children's values and a counter of
// those still to report), and the child that brings the counter to zero computes the node's
// value and reports it to the grandparent. Records come from per-worker free lists, so the
// dynamic scheme keeps only the records of the nodes on its workers' current paths.

#include <cstdint>
#include <optional>

#include <tessera/collections/steal/work_pool.hpp>

#include "tessera/connect4/board.hpp"

namespace tessera::connect4 {

inline constexpr int kWinValue = 1000;
inline constexpr int kMaxLookahead = kCells;

struct SearchResult {
  int column = -1;  // the chosen move, 0-based (the app prints it 1-7)
  int value = 0;
  std::uint64_t nodes = 0;
};

struct TaskSearchResult {
  SearchResult search;
  collections::steal::WorkPoolRun run;  // tasks, peak task storage, CPU and wall seconds
};

// Throws tessera::Error unless lookahead is in [1, kMaxLookahead].
void check_lookahead(int lookahead);

// The value of the node `board`, `depth` plies below the root, if it is a leaf (its last move
// completed four, it is `lookahead` plies down, or the board is full); nothing otherwise.
std::optional<int> leaf_value(const Board& board, int depth, int lookahead) noexcept;

// Depth-first recursion with no tasks: the reference the task-based search is checked against.
SearchResult search_sequential(const Board& root, int lookahead);

// Every node a task on `workers` threads under `scheme`. Throws tessera::Error for a
// bad lookahead or 0 workers.
TaskSearchResult search_tasks(const Board& root, int lookahead, collections::steal::WorkPoolScheme scheme,
                              std::size_t workers);

}  // namespace tessera::connect4
