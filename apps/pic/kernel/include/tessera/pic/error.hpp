#pragma once
/// The one exception type of the PIC kernel.
#include <tessera/runtime/error.hpp>

namespace tessera::pic {

/// Invalid input to the PIC kernel (odd grid size, a patch outside the grid, tiles smaller than a
/// particle's per-step travel, ...). The message names the input and what was expected, so a
/// driver can print it as is before any step runs. A tessera::Error, the applications' one error
/// type (apps/common/include/tessera/apps/error.hpp), under the name the kernel has always used.
class InputError : public Error {
 public:
  using Error::Error;
};

}  // namespace tessera::pic
