#pragma once
// Starting this benchmark's multi-rank part from its single-process part: the parent never
// initializes MPI (so it may start mpirun) and reads the child job's JSON line.

#include <nlohmann/json.hpp>

namespace tessera::bench {

// Runs `mpirun -np ranks <this program> --distributed-part --repeat=repeat` and returns the
// JSON object on the last line of its output. Throws std::runtime_error naming the command if
// it fails or prints no JSON.
nlohmann::json run_on_ranks(int ranks, int repeat);

// The 1-minute load average from /proc/loadavg (-1 if unreadable): how busy the shared cores were.
double load_average();

}  // namespace tessera::bench
