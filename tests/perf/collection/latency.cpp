// Element ping-pong against rank ping-pong: what addressing an element (header, location lookup,
// instrumentation) adds to a runtime message.
#include "bench.hpp"

#include <tessera/collections.hpp>

#include <algorithm>

namespace tessera::bench {

namespace {

using collections::Index1D;

// Two elements, one per rank: 0 serves the ball, 1 returns it. Progress is counted with the
// runtime's count of handled messages (collectives are system messages, not counted), so the
// handlers do nothing but the sends being measured, in both variants.
struct Player : collections::Element<Player, 1> {
  void ping(std::uint64_t ball) { proxy()[Index1D{0}].send<&Player::pong>(ball); }
  void pong(std::uint64_t) {}
  template <class Archive>
  void serialize(Archive&) {}
};

void rank_pong(std::uint64_t) {}
void rank_ping(Runtime& rt, std::uint64_t ball) { rt.send<&rank_pong>(0, ball); }

// Rank 0 sends `serve(i)` and waits for the reply, `round_trips` times; rank 1 answers.
template <class Serve>
double one_way_us(Runtime& rt, int round_trips, Serve&& serve) {
  // Counted before the barrier: rank 0 may serve as soon as it leaves it, before rank 1 does.
  const std::uint64_t before = rt.messages_handled();
  rt.collectives().barrier();
  const double start = wall_time();
  if (rt.rank() == 0) {
    for (int i = 0; i < round_trips; ++i) {
      serve(static_cast<std::uint64_t>(i));
      const std::uint64_t replies = before + static_cast<std::uint64_t>(i) + 1;
      rt.run_until([&] { return rt.messages_handled() == replies; });
    }
  } else if (rt.rank() == 1) {
    const std::uint64_t pings = before + static_cast<std::uint64_t>(round_trips);
    rt.run_until([&] { return rt.messages_handled() == pings; });
  }
  const double elapsed = wall_time() - start;
  rt.collectives().barrier();
  return elapsed / round_trips / 2 * 1e6;
}

}  // namespace

Latency measure_latency(Runtime& rt, int round_trips, int trials) {
  // Element i lives on rank i: with more than two ranks the rest hold none.
  auto players = collections::make_mapped_collection<Player>(
      rt, Index1D{2}, [](const Index1D& idx, const Index1D&, int) { return static_cast<int>(idx[0]); });
  const int warm_up = round_trips / 10 + 1;
  auto to_element = [&](std::uint64_t ball) { players[Index1D{1}].send<&Player::ping>(ball); };
  auto to_rank = [&](std::uint64_t ball) { rt.send<&rank_ping>(1, ball); };
  one_way_us(rt, warm_up, to_element);
  one_way_us(rt, warm_up, to_rank);
  Latency best{1e30, 1e30};
  for (int t = 0; t < trials; ++t) {
    best.rank_us = std::min(best.rank_us, one_way_us(rt, round_trips, to_rank));
    best.element_us = std::min(best.element_us, one_way_us(rt, round_trips, to_element));
  }
  players.destroy();
  return best;
}

}  // namespace tessera::bench
