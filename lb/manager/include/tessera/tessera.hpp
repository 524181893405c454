#pragma once
/// Tessera in one include, and the one entry point that starts it with every layer's flags.
///
///   int main(int argc, char** argv) {
///     tessera::Context ctx(argc, argv);            // parses and removes every --tessera_ flag
///     auto tiles = tessera::collections::make_collection<Tile>(ctx.runtime(), {8, 8});
///     for (int step = 0; step < steps; ++step) {
///       tiles.broadcast<&Tile::relax>();
///       ctx.phase_end();                           // collective: closes the phase
///     }
///   }                                              // LB data written here if requested
#include <tessera/collections.hpp>
#include <tessera/lb/manager/lb_data_output.hpp>
#include <tessera/runtime.hpp>

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
  collections::PhaseManager& phases() { return *phases_; }
  const collections::CollectionFlags& collection_flags() const { return collection_flags_; }
  const lb_manager::LbDataFlags& lb_data_flags() const { return lb_data_flags_; }

  /// Collective: closes the phase (waits for quiescence) and records it for LB data output.
  collections::PhaseRecord phase_end();

 private:
  collections::CollectionFlags collection_flags_;
  lb_manager::LbDataFlags lb_data_flags_;
  std::unique_ptr<Runtime> runtime_;
  collections::PhaseManager* phases_ = nullptr;
  std::unique_ptr<lb_manager::LbDataOutput> lb_data_;
};

}  // namespace tessera
