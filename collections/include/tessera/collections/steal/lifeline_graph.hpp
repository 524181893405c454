#pragma once
// The lifeline graph of lifeline-based global load balancing.
//
// Source: V. A. Saraswat, P. Kambadur, S. Kodali, D. Grove, S. Krishnamoorthy,
// "Lifeline-based Global Load Balancing" (PPoPP 2011), section 1.1. A thief that fails w
// random steals sends a request along each of its outgoing lifelines and goes quiet; a
// victim that had no work remembers the request and pushes loot along that edge when it
// has some. For that to never strand work, the graph must be strongly connected, with low
// degree (few requests per quiescent rank) and low diameter (fast spreading of loot).
//
// The paper's family is the cyclic hypercube: write each rank in base l (the radix) with z
// digits, z the smallest integer with l^z >= P; rank p has one edge per digit, to the rank
// that differs from p in that digit alone, by one step around the digit's cycle. When P is
// not a power of l some labels are not ranks; the edge then continues around the same
// cycle to the next label that is a rank, and is dropped only if none is. (The direction
// is decrement, as in X10 GLB's implementation: rank 0 of P = 16, l = 4 has lifelines 3
// and 12.) Each rank thus has at most z outgoing and z incoming lifelines.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::collections::steal {

class LifelineGraph {
 public:
  // `ranks` P >= 1, `radix` l >= 2. Throws std::invalid_argument otherwise.
  LifelineGraph(std::int32_t ranks, std::int32_t radix) : ranks_(ranks), radix_(radix) {
    if (ranks < 1) {
      throw std::invalid_argument("LifelineGraph: ranks is " + std::to_string(ranks) + ", expected >= 1");
    }
    if (radix < 2) {
      throw std::invalid_argument("LifelineGraph: radix l is " + std::to_string(radix) + ", expected >= 2");
    }
    for (std::int64_t span = 1; span < ranks; span *= radix) {
      ++dimension_;
    }
  }

  std::int32_t ranks() const noexcept { return ranks_; }
  std::int32_t radix() const noexcept { return radix_; }

  // z: the number of base-l digits of a rank, the smallest z with l^z >= P.
  std::int32_t dimension() const noexcept { return dimension_; }

  // The ranks `rank` sends lifeline requests to, one per digit (lowest digit first), with
  // digits that lead to no rank skipped. Throws std::out_of_range for a rank outside [0, P).
  std::vector<std::int32_t> outgoing(std::int32_t rank) const { return neighbours(rank, radix_ - 1); }

  // The ranks whose lifelines end at `rank`: those it may have to feed. Same order and
  // errors as outgoing().
  std::vector<std::int32_t> incoming(std::int32_t rank) const { return neighbours(rank, 1); }

 private:
  // Walks each digit's cycle from `rank` in steps of `step` (l - 1 steps forward is one
  // step back) and keeps the first label that is a rank.
  std::vector<std::int32_t> neighbours(std::int32_t rank, std::int32_t step) const {
    if (rank < 0 || rank >= ranks_) {
      throw std::out_of_range("LifelineGraph: rank " + std::to_string(rank) + " outside [0, " +
                              std::to_string(ranks_) + ")");
    }
    std::vector<std::int32_t> result;
    std::int64_t weight = 1;  // l^digit
    for (std::int32_t digit = 0; digit < dimension_; ++digit, weight *= radix_) {
      const std::int64_t own = (rank / weight) % radix_;
      for (std::int32_t k = 1; k < radix_; ++k) {
        const std::int64_t other = (own + static_cast<std::int64_t>(k) * step) % radix_;
        const std::int64_t candidate = rank + (other - own) * weight;
        if (candidate < ranks_) {
          result.push_back(static_cast<std::int32_t>(candidate));
          break;
        }
      }
    }
    return result;
  }

  std::int32_t ranks_;
  std::int32_t radix_;
  std::int32_t dimension_ = 0;
};

}  // namespace tessera::collections::steal
