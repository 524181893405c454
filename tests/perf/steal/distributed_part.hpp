#pragma once
// The part of tessera-bench-steal that runs inside an MPI job (started by the benchmark itself
// with `mpirun -np 2`): UTS T1 and T3 under each victim policy, and the iterative retentive
// workload with and without retention. Rank 0 prints one JSON object on its last line:
//   {"uts":{"T1":{"random":{"nodes_per_s":..,"steals_attempted":..,"steals_successful":..,
//            "steals_failed":..,"lifeline_activations":..},...},"T3":{...}},
//    "retentive":[{"iteration":1,"steals_attempted":..,"steals_successful":..},...],
//    "plain":[...]}
// Every search's counts are checked against the published ones; a mismatch exits 1.

namespace tessera::bench {

// Runs with its own Runtime; returns the process exit code.
int run_distributed_part(int argc, char** argv, int repeat);

}  // namespace tessera::bench
