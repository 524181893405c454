// The phase loop of tessera-soak (soak.hpp says what one phase does).
#include "tessera/soak/driver/soak.hpp"

#include "agents.hpp"
#include "killer.hpp"
#include "tree_tasks.hpp"

#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string_view>

namespace tessera::soak {

namespace {

using collections::Index1D;
using collections::Index2D;

constexpr std::array<std::string_view, 3> kStrategies{"RandomLB", "TemperedLB", "GreedyLB"};

State fresh_state(const Options& o) {
  State s;
  s.seed = o.seed;
  s.elements = o.elements;
  s.fanout = o.fanout;
  s.ttl = o.ttl;
  s.spmd_messages = o.spmd_messages;
  s.tasks = o.tasks;
  s.migrate_one_in = o.migrate_one_in;
  s.dynamic = o.dynamic ? 1 : 0;
  return s;
}

// On a restart, the checkpoint's workload must be the one asked for: anything else would not
// reproduce an uninterrupted run.
State starting_state(const Options& o, const Context& ctx) {
  State want = fresh_state(o);
  if (!ctx.restarted()) return want;
  const std::string where = ctx.restart_dir().string();
  if (ctx.restart_state().size() != sizeof(State))
    throw RunError(fmt::format("--restart: the checkpoint {} holds {} bytes of application state, expected {} (not "
                               "written by tessera-soak)",
                               where, ctx.restart_state().size(), sizeof(State)));
  State s = ctx.restart_state<State>();
  if (s.seed != want.seed || s.elements != want.elements || s.fanout != want.fanout || s.ttl != want.ttl ||
      s.spmd_messages != want.spmd_messages || s.tasks != want.tasks || s.migrate_one_in != want.migrate_one_in ||
      s.dynamic != want.dynamic)
    throw RunError(fmt::format("--restart: the checkpoint {} ran --seed {} --elements {} --fanout {} --ttl {} "
                               "--spmd_messages {} --tasks {} --migrate_one_in {}{}; expected this run's flags to be "
                               "the same",
                               where, s.seed, s.elements, s.fanout, s.ttl, s.spmd_messages, s.tasks, s.migrate_one_in,
                               s.dynamic ? " --dynamic" : " without --dynamic"));
  if (s.next_phase > o.phases)
    throw RunError(fmt::format("--phases {}: the checkpoint {} is after phase {} (expected at least {})", o.phases, where,
                               s.next_phase, s.next_phase));
  return s;
}

// The rank-side messages of `phase`: message k comes from source k % 8, on rank (k % 8) % P.
void send_spmd(Ledger& rank_ledger, const Peers& peers, std::uint64_t phase, std::int64_t count, Runtime& rt) {
  for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(count); ++k) {
    const std::uint64_t source = k % kSources;
    if (source % static_cast<std::uint64_t>(rt.size()) != static_cast<std::uint64_t>(rt.rank())) continue;
    const std::uint64_t r = draw(peers.seed, peers.first_source() + source, phase, k);
    Header h;
    h.sender = peers.first_source() + source;
    h.receiver = r % peers.elements();
    h.sequence = root_sequence(phase, k / kSources);
    h.phase = phase;
    h.ttl = static_cast<std::uint32_t>(mix(r) % static_cast<std::uint64_t>(peers.ttl + 1));
    h.size = draw_size(mix(r ^ 0x5b3d));
    post(rank_ledger, h, peers);
  }
}

// --dynamic, at the start of `phase`: the sparks that live now and did not in the last phase are
// inserted, those that did and do not are destroyed, each by a rank drawn from the seed; an
// insertion goes to the spark's home or to a rank drawn from the seed. Returns what this rank did.
std::array<std::uint64_t, 2> change_sparks(const Peers& peers, std::uint64_t phase, Runtime& rt) {
  std::array<std::uint64_t, 2> done{0, 0};
  const auto ranks = static_cast<std::uint64_t>(rt.size());
  for (std::uint64_t i = 0; i < peers.ns; ++i) {
    const bool now = peers.spark_live(phase, i);
    // Before phase 0 nothing lived; a restart holds the sparks of the phase before its first.
    const bool before = phase > 0 && peers.spark_live(phase - 1, i);
    if (now == before || draw(peers.seed, i, phase, 0xac7) % ranks != static_cast<std::uint64_t>(rt.rank())) continue;
    const Index1D idx{static_cast<std::int64_t>(i)};
    if (now) {
      const std::uint64_t where = draw(peers.seed, i, phase, 0x1e5);
      if (where % 2 == 0) peers.c[idx].insert();
      else peers.c[idx].insert_at(static_cast<int>((where >> 1) % ranks));
      done[0] += 1;
    } else {
      peers.c[idx].destroy();
      done[1] += 1;
    }
  }
  return done;
}

// The ranks that leave after phase `p` of a run on `size` ranks: 1 or 2 of ranks 1..size-1
// (rank 0 stays), drawn from the seed.
std::vector<int> drawn_leavers(std::uint64_t seed, std::uint64_t p, int size) {
  const int count = 1 + static_cast<int>(mix(seed ^ (p * 0x51ed27ull)) % static_cast<std::uint64_t>(std::min(2, size - 1)));
  std::vector<int> leaving;
  for (std::uint64_t draw = 0; static_cast<int>(leaving.size()) < count; ++draw) {
    const int r = 1 + static_cast<int>(mix(seed ^ (p << 20) ^ draw) % static_cast<std::uint64_t>(size - 1));
    if (std::find(leaving.begin(), leaving.end(), r) == leaving.end()) leaving.push_back(r);
  }
  return leaving;
}

}  // namespace

Result run_soak(const Options& options, Context& ctx) {
  Runtime& rt = ctx.runtime();
  Termination& term = ctx.termination();
  // A process an expand started takes the running ranks' state and enters after that phase.
  const bool joined = ctx.joined();
  State state = joined ? ctx.join_state<State>() : starting_state(options, ctx);
  ctx.set_join_state([&state] { return state; });
  const auto na = state.elements;
  const std::int64_t rows = 4;
  const std::int64_t cols = (state.elements + rows - 1) / rows;
  // Created in the same order on every run: a restart fills them from the checkpoint.
  auto cells = collections::make_collection<Cell>(rt, Index1D{na});
  auto patches = collections::make_collection<Patch>(rt, Index2D{rows, cols});
  collections::CollectionProxy<Spark> sparks;
  if (state.dynamic != 0) sparks = collections::make_dynamic_collection<Spark>(rt, Index1D{na});
  TreeTasks tree(ctx, static_cast<int>(state.tasks));

  Peers peers;
  peers.a = cells;
  peers.b = patches;
  peers.seed = state.seed;
  peers.na = static_cast<std::uint64_t>(na);
  peers.nb = static_cast<std::uint64_t>(rows * cols);
  peers.c = sparks;
  peers.ns = state.dynamic != 0 ? static_cast<std::uint64_t>(na) : 0;
  peers.fanout = state.fanout;
  peers.ttl = state.ttl;
  peers.migrate_one_in = state.migrate_one_in;
  peers.inject = static_cast<std::int32_t>(options.inject);
  peers.inject_phase = static_cast<std::uint64_t>(state.next_phase);

  Result result;
  result.ranks = rt.size();
  result.joined = joined;
  if (ctx.restarted()) {
    result.restarted_from = ctx.restart_dir().string();
    state.totals.restarts += 1;
  }
  // The victim and the moment are fresh on every run (not drawn from the seed), so a restart from
  // the same checkpoint is not killed at the same point again. Rank 0 draws for everyone.
  std::uint64_t kill_draw = 0;
  if (options.kill_every > 0) {
    if (rt.rank() == 0) kill_draw = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    kill_draw = rt.collectives().allreduce(kill_draw, op::max{});
  }
  Killer killer(options.kill_every > 0 && static_cast<int>(kill_draw % static_cast<std::uint64_t>(rt.size())) == rt.rank(),
                options.kill_every * (0.5 + static_cast<double>(mix(kill_draw) >> 11) * 0x1.0p-53));

  Ledger rank_ledger;  // the SPMD sources' sends on this rank
  collections::MembershipCounts seen;  // the sparks' counts on this rank at the last phase end
  if (!joined) rt.collectives().barrier();
  const double start = wall_time();
  // The end of every phase, after its rescale if any: false when the run is out of time.
  const auto go_on_after = [&](std::int64_t phase) {
    state.next_phase = phase + 1;
    if (options.checkpoint_every > 0 && state.next_phase % options.checkpoint_every == 0) {
      state.totals.checkpoints += 1;  // the checkpoint counts itself, so a restart from it does too
      ctx.checkpoint_now(state);
    }
    if (options.seconds > 0) {
      const int out_of_time = rt.rank() == 0 && wall_time() - start >= options.seconds ? 1 : 0;
      if (rt.collectives().allreduce(out_of_time, op::max{}) != 0) return false;
    }
    return true;
  };
  bool going = !joined || go_on_after(state.next_phase);
  for (std::int64_t phase = state.next_phase; going && phase < options.phases; ++phase) {
    const auto p = static_cast<std::uint64_t>(phase);
    std::array<std::uint64_t, 2> changes{0, 0};
    term.run_in_epoch_collective([&] {
      if (peers.ns > 0) changes = change_sparks(peers, p, rt);
      send_spmd(rank_ledger, peers, p, state.spmd_messages, rt);
      // A rooted epoch inside the collective one: the patches' broadcast ends before this
      // rank's part of the outer epoch does.
      if (p % static_cast<std::uint64_t>(rt.size()) == static_cast<std::uint64_t>(rt.rank()))
        term.run_in_epoch_rooted([&] { patches.broadcast_from_this_rank<&Patch::tick>(p, peers); });
    });
    if (rt.rank() == 0) cells.broadcast_from_this_rank<&Cell::tick>(p, peers);
    const TreeOutcome tasks = tree.run(p);
    if (options.inject == Inject::hang && phase == static_cast<std::int64_t>(peers.inject_phase) && rt.rank() == 0) {
      // A collective epoch only this rank opens never ends: the hang diagnostics must name it.
      // Here, where the other ranks wait in phase_end() for this one, not in the task collection.
      const EpochId stuck = term.open_collective();
      term.finish(stuck);
      term.wait(stuck);
    }
    if (!options.lb_from_flags) ctx.lb().request(std::string(kStrategies[p % kStrategies.size()]));
    ctx.phase_end();  // collective: every message of the phase delivered, then the balancer
    if (ctx.lb().last_report()) state.totals.balancings += 1;

    Tally local = rank_ledger.close_phase();
    cells.manager().for_each_local([&](Cell& c) { local += c.ledger().close_phase(); });
    patches.manager().for_each_local([&](Patch& c) { local += c.ledger().close_phase(); });
    // The sparks: each change asked for happened exactly once, and no message was a dead letter.
    std::array<std::uint64_t, 5> membership{changes[0], changes[1], 0, 0, 0};
    if (peers.ns > 0) {
      sparks.manager().for_each_local([&](Spark& c) { local += c.ledger().close_phase(); });
      const collections::MembershipCounts& now = sparks.membership();
      membership[2] = static_cast<std::uint64_t>(now.inserted - seen.inserted);
      membership[3] = static_cast<std::uint64_t>(now.destroyed - seen.destroyed);
      membership[4] = static_cast<std::uint64_t>(now.dead_letters - seen.dead_letters);
      seen = now;
      membership = rt.collectives().allreduce(membership, [](auto x, const auto& y) {
        for (std::size_t k = 0; k < x.size(); ++k) x[k] += y[k];
        return x;
      });
    }
    const Tally all = rt.collectives().allreduce(local, [](Tally x, const Tally& y) { return x += y; });
    const Verdict v = check(all, peers.elements());
    const bool membership_ok = membership[0] == membership[2] && membership[1] == membership[3] && membership[4] == 0;
    Totals& t = state.totals;
    t.messages += all.sent;
    t.delivered += all.delivered;
    t.bytes += all.bytes;
    t.broadcasts += all.ticks;
    t.lost += v.lost + tasks.lost;
    t.duplicated += v.duplicated + tasks.duplicated;
    t.corrupted += v.corrupted;
    t.tasks += tasks.tasks;
    t.steals += tasks.steals;
    t.phases += 1;
    t.inserted += membership[2];
    t.destroyed += membership[3];
    t.lost += membership[4];  // a dead letter is a message that never ran
    if (!membership_ok) {
      t.failed_phases += 1;
      if (rt.rank() == 0)
        fmt::print(stderr, "tessera-soak: phase {}: sparks inserted {} of {}, destroyed {} of {}, dead letters {}\n", phase,
                   membership[2], membership[0], membership[3], membership[1], membership[4]);
    }
    if (!v.ok() || tasks.lost != 0 || tasks.duplicated != 0) {
      t.failed_phases += 1;
      if (rt.rank() == 0)
        fmt::print(stderr,
                   "tessera-soak: phase {}: sent {}, delivered {} (key sums {:016x} / {:016x}), duplicated {}, "
                   "corrupted {}, misrouted {}, broadcast deliveries {} of {}; tasks {} lost, {} duplicated\n",
                   phase, all.sent, all.delivered, all.sent_keys, all.delivered_keys, all.duplicated, all.corrupted,
                   all.misrouted, all.ticks, peers.elements(), tasks.lost, tasks.duplicated);
    }
    if (options.shrink_every > 0 && (phase + 1) % options.shrink_every == 0 && rt.size() > 1) {
      // An empty phase whose end changes the rank set: the phase above is tallied on the ranks
      // that ran it, and the ledger goes on over the ranks that stay.
      ctx.request_shrink(drawn_leavers(state.seed, p, rt.size()));
      ctx.phase_end();
      if (ctx.left()) {
        result.left = true;
        return result;
      }
      result.shrinks += 1;
    } else if (options.expand_every > 0 && (phase + 1) % options.expand_every == 0) {
      // The same, with 1 or 2 new processes; the state handed to them is this phase's, before
      // go_on_after, which they run as the running ranks do.
      // With --tessera_elastic_spawn=background, more empty phase ends until the processes join.
      const int before = rt.size();
      ctx.request_expand(1 + static_cast<int>(mix(state.seed ^ (p * 0xe7a9d1ull)) % 2));
      do {
        ctx.phase_end();
      } while (ctx.expanding());
      if (rt.size() > before) result.expands += 1;
    }
    going = go_on_after(phase);
  }
  result.seconds = rt.collectives().allreduce(wall_time() - start, op::max{});
  std::uint64_t arrivals = 0;
  std::uint64_t fingerprint = 0;
  cells.manager().for_each_local([&](Cell& c) {
    arrivals += c.arrivals();
    fingerprint ^= c.ledger().fingerprint(c.linear_id());
  });
  patches.manager().for_each_local([&](Patch& c) {
    arrivals += c.arrivals();
    fingerprint ^= c.ledger().fingerprint(peers.na + c.linear_id());
  });
  if (peers.ns > 0)
    sparks.manager().for_each_local([&](Spark& c) {
      arrivals += c.arrivals();
      fingerprint ^= c.ledger().fingerprint(peers.first_spark() + c.linear_id());
    });
  state.totals.migrations = rt.collectives().allreduce(arrivals, op::sum{});
  result.fingerprint = rt.collectives().allreduce(fingerprint, [](std::uint64_t a, const std::uint64_t& b) { return a ^ b; });
  result.totals = state.totals;
  result.final_ranks = rt.size();
  cells.destroy();
  patches.destroy();
  if (peers.ns > 0) sparks.destroy();
  return result;
}

}  // namespace tessera::soak
