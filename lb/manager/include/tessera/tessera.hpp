#pragma once
/// Tessera in one include, and the one entry point that starts it with every layer's flags.
///
///   int main(int argc, char** argv) {
///     tessera::Context ctx(argc, argv);            // parses and removes every --tessera_ flag
///     auto tiles = tessera::collections::make_collection<Tile>(ctx.runtime(), {8, 8});
///     for (int step = 0; step < steps; ++step) {
///       tiles.broadcast<&Tile::relax>();
///       ctx.phase_end();                           // collective: closes the phase, balances
///     }                                            // when the --tessera_lb_ flags say so
///   }                                              // LB data written here if requested
///
/// Layers are created in order (runtime, termination, phase instrumentation, LB manager) and
/// destroyed in reverse. `--tessera_help_lb` prints every LB strategy (rank 0) and exits 0.
#include <tessera/collections.hpp>
#include <tessera/lb/manager/lb_data_output.hpp>
#include <tessera/lb/manager/lb_flags.hpp>
#include <tessera/lb/manager/lb_manager.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <memory>

namespace tessera {

class Context {
 public:
  /// Starts the runtime (standalone, or inside the application's MPI when `app_comm` is given)
  /// with the flags of every layer. Bad flags: one message and a non-zero exit on every rank.
  Context(int& argc, char**& argv, MPI_Comm app_comm = MPI_COMM_NULL);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Runtime& runtime() { return *runtime_; }
  Termination& termination() { return *termination_; }
  lb_manager::LbManager& lb() { return *lb_manager_; }
  collections::PhaseManager& phases() { return *phases_; }
  const collections::CollectionFlags& collection_flags() const { return collection_flags_; }
  const lb_manager::LbDataFlags& lb_data_flags() const { return lb_data_flags_; }
  const lb_manager::LbFlags& lb_flags() const { return lb_flags_; }

  /// Collective: closes the phase (waits for quiescence), records it for LB data output, then
  /// balances if the LB flags or a request from code say so (the next phase runs with the new
  /// placement). Returns this rank's record of the phase.
  collections::PhaseRecord phase_end();

 private:
  collections::CollectionFlags collection_flags_;
  lb_manager::LbDataFlags lb_data_flags_;
  TerminationFlags termination_flags_;
  lb_manager::LbFlags lb_flags_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<Termination> termination_;
  collections::PhaseManager* phases_ = nullptr;
  std::unique_ptr<lb_manager::LbManager> lb_manager_;
  std::unique_ptr<lb_manager::LbDataOutput> lb_data_;
};

}  // namespace tessera
