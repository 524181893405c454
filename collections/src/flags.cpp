#include <tessera/collections/flags.hpp>

namespace tessera::collections {

void CollectionFlags::describe(FlagTable& table) {
  table
      .option("--tessera_lb_load_clock", load_clock,
              "Clock for element loads: wall, or cpu (thread CPU time) when ranks share cores")
      .one_of({"wall", "cpu"});
}

}  // namespace tessera::collections
