#include <tessera/collections/steal/steal_flags.hpp>

namespace tessera::collections::steal {

void StealFlags::add_to(CLI::App& app) {
  // More threads than this on one rank is a typing error, not a configuration.
  app.add_option("--tessera_workers", workers,
                 "Worker threads per rank for task collections, the rank's main thread included (1 to 4096)")
      ->check(CLI::Range(1, 4096));
}

}  // namespace tessera::collections::steal
