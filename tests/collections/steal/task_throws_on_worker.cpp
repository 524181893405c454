// A task that throws on a worker thread (not the rank's main thread) must abort the job with one
// message naming the rank and the thread, and a non-zero exit on every rank. Run with
// --tessera_workers=2: 64 tasks of 200 us are seeded on rank 0, and every task that runs on a
// worker thread throws. Exits 0 only if no worker thread ever ran a task, which fails the test.
#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/collections/steal/task_collection.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace {

struct Chunk {
  std::int32_t id;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::collections::steal;
  tessera::TerminationFlags termination_flags;
  StealFlags steal_flags;
  tessera::RuntimeOptions options;
  options.flag_groups = {&termination_flags, &steal_flags};
  tessera::Runtime rt(argc, argv, options);
  tessera::Termination term(rt, termination_flags);
  StealOptions steal;
  steal.policy = Policy::random;
  steal.n = 1;
  steal.workers = steal_flags.workers;
  TaskCollection<Chunk> chunks(rt, term, steal, [](const Chunk&, Spawner<Chunk>& spawner) {
    if (spawner.worker() != 0) throw std::runtime_error("boom on a worker thread");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  });
  if (rt.rank() == 0)
    for (std::int32_t id = 0; id < 64; ++id) chunks.seed(Chunk{id});
  chunks.process();
  return 0;
}
