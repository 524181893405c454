#pragma once
/// The run modes of tessera-pic and the entry point that picks one.
///
/// A mode is one function `RunSummary run_<mode>(const Options&, MPI_Comm)`, in its own source file,
/// that validates its decomposition (throwing InputError on every rank before any step), runs
/// `options.steps` steps, verifies, writes `options.dump_particles` if set (collective
/// `dump_particles`), and returns the summary with its per-step records on rank 0. Printing the
/// summary, the JSON report and the step log is common to all modes (`run`).
#include <mpi.h>

#include "tessera/pic/driver/options.hpp"
#include "tessera/pic/driver/summary.hpp"
#include "tessera/pic/driver/time_to_solution.hpp"

namespace tessera::pic::driver {

/// Plain MPI: one tile per rank on a Px x Py grid (Decomposition with one color per rank), particles exchanged with the
/// 8 neighbour ranks every step. The tile layout must give every tile at least 2k+1 x |m| cells.
RunSummary run_spmd(const Options& options, MPI_Comm comm);

/// AMT: the mesh split into colors held in a Tessera collection and balanced by the LB manager
/// (strategy chosen by the --tessera_lb_* flags); one phase per step.
RunSummary run_amt(const Options& options, MPI_Comm comm);

/// tessera-pic's main after MPI_Init: parses argv, runs the chosen mode on `comm`, and on rank 0
/// prints the per-step lines, the summary (text or one JSON line) and writes the step log.
/// Returns the process exit code: 0 if the run validated (or --help), 1 on bad input or a failed
/// validation; the same on every rank. `started`: the start of main(), before MPI_Init (init_s).
int run(int argc, const char* const* argv, MPI_Comm comm, Clock::time_point started = Clock::now());

}  // namespace tessera::pic::driver
