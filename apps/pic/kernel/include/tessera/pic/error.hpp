#pragma once
/// The one exception type of the PIC kernel.
#include <stdexcept>

namespace tessera::pic {

/// Invalid input to the PIC kernel (odd grid size, a patch outside the grid, tiles smaller than a
/// particle's per-step travel, ...). The message names the input and what was expected, so a
/// driver can print it as is before any step runs.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace tessera::pic
