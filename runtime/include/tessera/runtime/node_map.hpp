#pragma once
/// Which node each rank of a communicator runs on. A node is a set of ranks that share memory
/// (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED): within it messages take the shared-memory
/// rings, between nodes the network transport. The LB layer charges bytes by it (work_model.hpp:
/// beta between nodes, gamma within one) and HierLB groups a node's ranks under one parent.
///
/// Node ids are dense, 0 .. num_nodes() - 1, numbered in the order of each node's lowest rank: the
/// node of rank 0 is node 0, the next node to appear in rank order is node 1, and so on. So the same
/// placement of ranks on hosts gives the same ids on every run whatever the host names.
#include <mpi.h>

#include <vector>

namespace tessera {

class NodeMap {
 public:
  /// One rank on one node.
  NodeMap() = default;
  /// From the node of every rank: `node_of_rank[r]` for r in [0, P), P >= 1. Throws tessera::Error
  /// naming the first offending rank unless the ids are dense and numbered by lowest rank as above.
  explicit NodeMap(std::vector<int> node_of_rank);
  /// Collective over `comm`: one MPI_Comm_split_type and one MPI_Allgather of an int per rank.
  static NodeMap of(MPI_Comm comm);

  /// Ranks P of the communicator.
  int size() const { return static_cast<int>(node_of_.size()); }
  int num_nodes() const { return static_cast<int>(node_sizes_.size()); }
  /// The node of `rank`; rank outside [0, P) is a caller bug (std::out_of_range).
  int node_of(int rank) const { return node_of_.at(static_cast<std::size_t>(rank)); }
  /// Ranks on `node`; node outside [0, num_nodes()) throws std::out_of_range.
  int node_size(int node) const { return node_sizes_.at(static_cast<std::size_t>(node)); }
  /// Position of `rank` among the ranks of its node, in rank order (0 for the node's lowest rank).
  int rank_in_node(int rank) const { return rank_in_node_.at(static_cast<std::size_t>(rank)); }
  /// node_of(r) for every rank r, indexed by rank.
  const std::vector<int>& nodes() const { return node_of_; }

 private:
  std::vector<int> node_of_{0};
  std::vector<int> node_sizes_{1};
  std::vector<int> rank_in_node_{0};
};

}  // namespace tessera
