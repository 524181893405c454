#include "tessera/pic/driver/collective.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <tessera/runtime/error.hpp>

namespace tessera::pic::driver {

Verification reduce_verification(MPI_Comm comm, const Verification& mine) {
  std::uint64_t local[3] = {mine.count, mine.id_sum, mine.misplaced};
  std::uint64_t total[3] = {0, 0, 0};
  // Unsigned sums wrap modulo 2^64, matching id_checksum.
  MPI_Allreduce(local, total, 3, MPI_UINT64_T, MPI_SUM, comm);
  return {total[0], total[1], total[2]};
}

void combine_id_table(MPI_Comm comm, IdTable& table) {
  auto segments = table.segments();
  MPI_Allreduce(MPI_IN_PLACE, segments.data(), static_cast<int>(segments.size()), MPI_UINT64_T, MPI_SUM, comm);
  table.finish();
}

void dump_particles(MPI_Comm comm, std::span<const Particle> mine, const std::string& path) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int my_bytes = static_cast<int>(mine.size_bytes());
  std::vector<int> bytes(static_cast<std::size_t>(size), 0);
  MPI_Gather(&my_bytes, 1, MPI_INT, bytes.data(), 1, MPI_INT, 0, comm);
  std::vector<int> displacements(static_cast<std::size_t>(size), 0);
  std::vector<Particle> all;
  if (rank == 0) {
    int offset = 0;
    for (int r = 0; r < size; ++r) {
      displacements[static_cast<std::size_t>(r)] = offset;
      offset += bytes[static_cast<std::size_t>(r)];
    }
    all.resize(static_cast<std::size_t>(offset) / sizeof(Particle));
  }
  MPI_Gatherv(mine.data(), my_bytes, MPI_BYTE, all.data(), bytes.data(), displacements.data(), MPI_BYTE, 0,
              comm);
  if (rank != 0) {
    return;
  }
  std::sort(all.begin(), all.end(), [](const Particle& a, const Particle& b) { return a.id < b.id; });
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    throw InputError(fmt::format("--dump_particles {}: cannot open the file for writing", path));
  }
  fmt::print(file, "# id x y vx vy\n");
  for (const Particle& p : all) {
    fmt::print(file, "{} {} {} {} {}\n", p.id, p.x, p.y, p.vx, p.vy);
  }
  std::fclose(file);
}

void check_writable(MPI_Comm comm, const std::string& flag, const std::string& path) {
  if (path.empty()) {
    return;
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int ok = 1;
  if (rank == 0) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    ok = file != nullptr ? 1 : 0;
    if (file != nullptr) {
      std::fclose(file);
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (ok == 0) {
    throw InputError(fmt::format("{} {}: cannot open the file for writing", flag, path));
  }
}

int count_hosts(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  int leaders = local == 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &leaders, 1, MPI_INT, MPI_SUM, comm);
  return leaders;
}

}  // namespace tessera::pic::driver
