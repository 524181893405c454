#include <tessera/collections/steal/steal_service.hpp>
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/hooks.hpp>

#include <memory>

namespace tessera::collections::steal {

StealService& StealService::install(Runtime& rt, StealOptions options) {
  if (find(rt) != nullptr) fatal("the steal service of this runtime exists already: install it once");
  auto service = std::make_unique<StealService>(options);
  StealService& result = *service;
  tessera::detail::hooks(rt).set_service(service.get());
  // Owned by the runtime: task collections' engines, which the runtime also keeps, outlive their proxies.
  tessera::detail::hooks(rt).adopt(std::move(service));
  return result;
}

StealService* StealService::find(Runtime& rt) { return tessera::detail::hooks(rt).service<StealService>(); }

StealService& StealService::of(Runtime& rt) {
  if (StealService* found = find(rt)) return *found;
  fatal("this runtime has no steal service: create it through a tessera::Context (or pass StealOptions to the "
        "task collection)");
}

void StealService::record(const IterationStats& stats) {
  ++iterations_;
  totals_ += stats.total();
  seconds_ += stats.seconds;
}

}  // namespace tessera::collections::steal
