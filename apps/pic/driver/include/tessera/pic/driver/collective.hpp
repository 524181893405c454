#pragma once
/// Collective helpers every PIC mode shares: the global self-check, particle numbering, and the
/// dump of the final particles.
#include <mpi.h>

#include <span>
#include <string>

#include "tessera/pic/id_table.hpp"
#include "tessera/pic/particle.hpp"
#include "tessera/pic/verification.hpp"

namespace tessera::pic::driver {

/// Sums every rank's tally; every rank gets the total.
Verification reduce_verification(MPI_Comm comm, const Verification& mine);

/// Sums every rank's IdTable segments (each rank recorded only its own tiles) and finishes the
/// table, so every rank can number its tiles' particles.
void combine_id_table(MPI_Comm comm, IdTable& table);

/// Gathers every rank's particles on rank 0 and writes them sorted by id, one per line:
/// "id x y vx vy" with doubles printed in shortest round-trip form, so two runs' files are equal
/// exactly when their final particles are bit-for-bit equal. Collective.
void dump_particles(MPI_Comm comm, std::span<const Particle> mine, const std::string& path);

/// Rank 0 checks that `path` can be created for writing and tells every rank; throws InputError
/// (on every rank) naming `flag` and the file if not. Collective; an empty path is accepted.
void check_writable(MPI_Comm comm, const std::string& flag, const std::string& path);

/// Collective: the hosts the ranks of `comm` span (ranks that share memory are one host).
int count_hosts(MPI_Comm comm);

}  // namespace tessera::pic::driver
