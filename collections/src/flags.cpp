#include <tessera/collections/flags.hpp>

namespace tessera::collections {

void CollectionFlags::add_to(CLI::App& app) {
  app.add_option("--tessera_lb_load_clock", load_clock,
                 "Clock for element loads: wall, or cpu (thread CPU time) when ranks share cores")
      ->check(CLI::IsMember({"wall", "cpu"}));
}

}  // namespace tessera::collections
