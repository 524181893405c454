#pragma once
// The check every order-independence test makes: a TemperedLB in deterministic mode gives the same
// plan and the same per-iteration report (transfers, rejections by cause, swaps, imbalance) whether its
// messages arrive in FIFO order, in two seeded random orders, or eagerly (ScrambledBackend).

#include <gtest/gtest.h>

#include <vector>

#include "scrambled_backend.hpp"
#include "tessera/lb/tempered_lb.hpp"
#include "tessera/lb/virtual_backend.hpp"

namespace tessera::lb::testing {

// Returns the FIFO plan, after checking the scrambled runs against it.
inline Plan expect_same_in_any_delivery_order(TemperedLB& lb, const std::vector<StrategyInput>& ranks) {
  comm::VirtualBackend fifo_backend(static_cast<Rank>(ranks.size()));
  const Plan fifo = lb.run(fifo_backend, ranks);
  const auto fifo_report = lb.report();
  for (std::uint64_t order : {1u, 2u, 3u}) {
    ScrambledBackend scrambled(static_cast<Rank>(ranks.size()), order, order == 3);
    EXPECT_EQ(lb.run(scrambled, ranks), fifo) << "delivery order " << order << (order == 3 ? " (eager)" : "");
    EXPECT_EQ(lb.report().iterations.size(), fifo_report.iterations.size());
    if (lb.report().iterations.size() != fifo_report.iterations.size()) continue;
    for (std::size_t i = 0; i < fifo_report.iterations.size(); ++i) {
      EXPECT_EQ(lb.report().iterations[i].transfers, fifo_report.iterations[i].transfers);
      EXPECT_EQ(lb.report().iterations[i].rejected_memory, fifo_report.iterations[i].rejected_memory);
      EXPECT_EQ(lb.report().iterations[i].swaps, fifo_report.iterations[i].swaps);
      EXPECT_EQ(lb.report().iterations[i].imbalance, fifo_report.iterations[i].imbalance);
    }
  }
  return fifo;
}

}  // namespace tessera::lb::testing
