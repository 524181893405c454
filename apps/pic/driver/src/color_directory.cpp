#include "tessera/pic/driver/color_directory.hpp"

namespace tessera::pic::driver {

void ColorDirectory::rebuild(MPI_Comm comm, std::span<const PieceId> local) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<std::int64_t> mine;
  mine.reserve(3 * local.size());
  for (const PieceId& id : local) {
    mine.insert(mine.end(), {id.tile.i, id.tile.j, static_cast<std::int64_t>(id.piece)});
  }
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  std::vector<std::int64_t> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), offsets.data(), MPI_INT64_T, comm);
  std::vector<PieceId> leaves;
  leaves.reserve(all.size() / 3);
  for (std::size_t k = 0; k + 2 < all.size(); k += 3) {
    leaves.push_back({{all[k], all[k + 1]}, static_cast<std::uint64_t>(all[k + 2])});
  }
  map_.assign(leaves);
}

}  // namespace tessera::pic::driver
