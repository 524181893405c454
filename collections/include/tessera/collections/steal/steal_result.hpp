#pragma once
// What a thief gets from a work-stealing deque (chase_lev_deque.hpp, abp_deque.hpp).

namespace tessera::collections::steal {

// Why a steal returned nothing, so a thief can tell "go elsewhere" from "try again".
enum class StealStatus {
  success,    // `value` holds the stolen element
  empty,      // the victim had nothing to steal
  lost_race,  // the victim had work, but another thief (or the owner) took that element
};

template <class T>
struct StealResult {
  StealStatus status = StealStatus::empty;
  T value{};  // meaningful only when status == success

  explicit operator bool() const noexcept { return status == StealStatus::success; }
};

}  // namespace tessera::collections::steal
