#pragma once
// lbsim's --work: the work model (lb/work_model.hpp: LBAF's affine combination of load, off-rank
// bytes, a constant and homing, with memory limits) that lbsim reports rank work in. Without
// --work, lbsim reports in the strategy's own model (its alpha ... memory_limit keys), so that
// what is printed is what the strategy balanced.

#include <string_view>

#include "tessera/lb/work_model.hpp"

namespace tessera::lbsim {

using WorkModel = lb::WorkModel;

// "alpha=1 beta=0 gamma=0 delta=0 memory_limit=0", any subset. Throws InputError naming the pair.
WorkModel parse_work(std::string_view text);

}  // namespace tessera::lbsim
