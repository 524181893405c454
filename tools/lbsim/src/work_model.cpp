// lbsim's --work text.

#include "tessera/lbsim/work_model.hpp"

#include "pairs.hpp"

namespace tessera::lbsim {

WorkModel parse_work(std::string_view text) {
  constexpr std::string_view flag = "--work";
  WorkModel model;
  for (const auto& [key, value] : detail::split_pairs(text, flag)) {
    double* field = key == "alpha"          ? &model.alpha
                    : key == "beta"         ? &model.beta
                    : key == "gamma"        ? &model.gamma
                    : key == "delta"        ? &model.delta
                    : key == "memory_limit" ? &model.memory_limit
                                            : nullptr;
    if (!field) {
      throw InputError(std::string(flag) + ": unknown key '" + key +
                       "'; valid keys: alpha, beta, gamma, delta, memory_limit");
    }
    if (!detail::parse_number(value, *field) || *field < 0.0) detail::bad_value(flag, key, value, "a number >= 0");
  }
  return model;
}

}  // namespace tessera::lbsim
