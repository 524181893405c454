#pragma once
// What the ranks of one node may really run on, for the idle policy's start-up guess
// (idle_policy.hpp). Internal to the runtime.
#include <mpi.h>

#include <string>

namespace tessera::detail {

/// CPUs this process may use: the CPUs in its affinity mask, bounded by its cgroup's CPU quota
/// rounded up. Never below 1.
int usable_cpus();

/// The CPU quota of this process's cgroup in CPUs (fractional), or 0 when there is none: the
/// tightest of cgroup v2's cpu.max and v1's cpu.cfs_quota_us / cpu.cfs_period_us from its cgroup
/// up to the hierarchy's root.
double cgroup_cpu_quota();

/// The same from the text of /proc/self/cgroup, with the cgroup file systems mounted at
/// `cgroup_root` (v1 controllers under cgroup_root/cpu or cgroup_root/<controllers>, v2 at
/// cgroup_root itself or cgroup_root/unified). Tests point it at a fake tree.
double cgroup_cpu_quota(const std::string& cgroup_root, const std::string& proc_cgroup);

/// This node's ranks and the CPUs they may run on, as the idle policy sees them.
struct NodeCpus {
  int node_rank = 0;   // this rank's place among its node's ranks
  int node_ranks = 1;  // ranks on this node
  int cpus = 1;        // the union of their affinity masks, bounded by the smallest cgroup quota
  std::string host;    // this node's name (gethostname)
  bool shared() const { return node_ranks > cpus; }
};

/// Collective over `comm`: this node's ranks and the CPUs they may run on (the union of their
/// affinity masks, bounded by the smallest cgroup quota among them). A launcher may bind each rank
/// to one core (mpirun --bind-to core, Slurm's task/affinity), which says nothing about sharing;
/// the union does: two ranks bound to the same core share it.
NodeCpus node_cpus(MPI_Comm comm);

}  // namespace tessera::detail
