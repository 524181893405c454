#include <vector>

#include <tessera/collections/steal/cache_line.hpp>

#include "node_record.hpp"
#include "tessera/connect4/minimax.hpp"

#include <tessera/runtime/error.hpp>

namespace tessera::connect4 {
namespace {

using collections::steal::CacheAligned;
using detail::NodeArena;
using detail::NodeRecord;

// One node of the tree as a task: its position and the record of its parent (nullptr for the
// root), from which it learns its depth and the move that led to it. Three 64-bit words, no
// narrower field: the deques copy tasks a word at a time, and a word assembled from byte
// stores cannot be forwarded from the store buffer (a stall on every push).
struct NodeTask {
  Board board;
  NodeRecord* parent = nullptr;
};

// Hands `value` to the node `record`'s slot `column`; when that was its last child, computes
// the node's value and hands it on upwards, releasing the finished record into `arena`. The
// root's value and move end in `outcome`.
void report(NodeRecord* record, int column, int value, NodeArena& arena, SearchResult& outcome) {
  while (record != nullptr) {
    record->values[static_cast<std::size_t>(column)] = static_cast<std::int16_t>(value);
    if (record->pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    const bool maximizing = record->depth % 2 == 0;
    int best_column = -1;
    int best = 0;
    for (int c = 0; c < kColumns; ++c) {
      if ((record->playable >> c & 1) == 0) continue;
      const int v = record->values[static_cast<std::size_t>(c)];
      if (best_column < 0 || (maximizing ? v > best : v < best)) {  // strict: leftmost of equals
        best_column = c;
        best = v;
      }
    }
    NodeRecord* parent = record->parent;
    if (parent == nullptr) outcome = SearchResult{best_column, best, 0};
    column = record->column;
    value = best;
    arena.release(record);
    record = parent;
  }
}

}  // namespace

TaskSearchResult search_tasks(const Board& root, int lookahead, collections::steal::WorkPoolScheme scheme,
                              std::size_t workers) {
  check_lookahead(lookahead);
  if (workers == 0) throw Error("the number of workers is 0: expected at least 1");
  std::vector<CacheAligned<NodeArena>> arenas(workers);
  SearchResult outcome;
  const NodeTask seed{root, nullptr};
  // A depth-first worker holds at most 6 pending siblings on each level above the node it
  // expands, plus that node's 7 children: 7 * lookahead slots, and one for the seed.
  const collections::steal::WorkPoolShape shape{kColumns, std::int64_t{kColumns} * lookahead + 1};
  TaskSearchResult result;
  result.run = collections::steal::run_work_pool(
      scheme, workers, shape, std::span(&seed, 1), [&](const NodeTask& task, auto& context) {
        NodeArena& arena = arenas[context.worker()].value;
        const int depth = task.parent == nullptr ? 0 : task.parent->depth + 1;
        if (const std::optional<int> leaf = leaf_value(task.board, depth, lookahead)) {
          if (task.parent == nullptr) {
            outcome.value = *leaf;  // a root with no move to choose
          } else {
            report(task.parent, column_of_move(task.parent->occupied, task.board.occupied()), *leaf, arena,
                   outcome);
          }
          return;
        }
        NodeRecord* record = arena.allocate();
        record->parent = task.parent;
        record->column = task.parent == nullptr
                             ? 0
                             : static_cast<std::uint8_t>(column_of_move(task.parent->occupied, task.board.occupied()));
        record->depth = static_cast<std::uint8_t>(depth);
        record->occupied = task.board.occupied();
        record->playable = static_cast<std::uint8_t>(task.board.playable_columns());
        record->pending.store(__builtin_popcount(record->playable), std::memory_order_relaxed);
        for (int c = 0; c < kColumns; ++c) {
          if ((record->playable >> c & 1) == 0) continue;
          context.spawn(NodeTask{task.board.played(c), record});
        }
      });
  result.search = outcome;
  result.search.nodes = result.run.tasks;
  return result;
}

}  // namespace tessera::connect4
