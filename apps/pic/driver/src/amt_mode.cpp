#include "tessera/pic/driver/modes.hpp"
#include "tessera/pic/error.hpp"

namespace tessera::pic::driver {

RunSummary run_amt(const Options& /*options*/, MPI_Comm /*comm*/) {
  throw InputError(
      "--mode=amt: the AMT mode holds its colors in a migratable Tessera collection and needs the "
      "collections layer, which this build does not provide yet; use --mode=spmd");
}

}  // namespace tessera::pic::driver
