// The node map (node_map.hpp): which ranks share memory, found once at start-up.

#include <tessera/runtime/error.hpp>
#include <tessera/runtime/node_map.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tessera {

NodeMap::NodeMap(std::vector<int> node_of_rank) {
  if (node_of_rank.empty()) throw Error("node map: expected the node of at least one rank, got none");
  node_sizes_.clear();
  rank_in_node_.assign(node_of_rank.size(), 0);
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const int node = node_of_rank[r];
    // Dense and in order of lowest rank: a rank either joins a node already seen or opens the next.
    if (node < 0 || node > static_cast<int>(node_sizes_.size()))
      throw Error(fmt::format("node map: rank {} is on node {}, but the nodes seen before it are 0..{}, so it "
                              "must be on one of them or on node {}",
                              r, node, static_cast<int>(node_sizes_.size()) - 1, node_sizes_.size()));
    if (node == static_cast<int>(node_sizes_.size())) node_sizes_.push_back(0);
    rank_in_node_[r] = node_sizes_[static_cast<std::size_t>(node)]++;
  }
  node_of_ = std::move(node_of_rank);
}

NodeMap NodeMap::of(MPI_Comm comm) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Key 0 keeps the communicator's order, but the lowest rank is taken by a reduction so as not to
  // depend on it: it names the node the same way on every rank of it.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int lowest = rank;
  MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  std::vector<int> lowest_of(static_cast<std::size_t>(size));
  MPI_Allgather(&lowest, 1, MPI_INT, lowest_of.data(), 1, MPI_INT, comm);
  // Rank order meets each node first at its lowest rank, so numbering on first sight is dense and
  // ordered by lowest rank.
  std::map<int, int> id_of_lowest;
  std::vector<int> node_of(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    const auto [it, fresh] = id_of_lowest.emplace(lowest_of[static_cast<std::size_t>(r)],
                                                  static_cast<int>(id_of_lowest.size()));
    node_of[static_cast<std::size_t>(r)] = it->second;
  }
  return NodeMap(std::move(node_of));
}

}  // namespace tessera
