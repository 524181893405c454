#pragma once
// An expand whose new processes are being started (context_elastic.cpp). MPI_Comm_spawn, the
// merge with what it returns and the application's duplicate of the merged communicator run
// here, inline at the phase end that took the request, or on a helper thread while the phases
// go on (--tessera_elastic_spawn=background): every call is collective over the running ranks
// and the new processes, which make the same merge and duplicate at their start-up
// (Runtime::join_running_job). The helper uses its own duplicate of the runtime's communicator,
// so the main thread's MPI calls never share one with it.
#include <tessera/tessera.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace tessera {

struct Context::PendingExpand {
  std::int64_t phase = 0;  // the phase end that took the request
  int joining = 0;
  std::string host;        // "" any of the job's hosts
  double decision_s = 0.0;
  bool background = false;
  std::int64_t overlapped_phases = 0;  // phase ends that found the spawn still running
  std::string program;                 // this program, and its arguments with the joined mark
  std::vector<std::string> args;
  MPI_Comm spawn_comm = MPI_COMM_NULL;  // the running ranks, for the spawn alone

  // Written by run(), read after `done` (or after the helper is joined).
  MPI_Comm merged = MPI_COMM_NULL;  // the running ranks then the new processes: the runtime's next
  MPI_Comm app = MPI_COMM_NULL;     // the same group: the application's next
  int error = MPI_SUCCESS;
  std::string error_text;
  double spawn_s = 0.0;  // wall clock of run()
  std::atomic<bool> done{false};
  std::thread helper;

  // The spawn, the merge and the duplicate; sets `done`.
  void run();
};

}  // namespace tessera
