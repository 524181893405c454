// The advisor's replay of recorded phases under one option, and the ranking of every option
// (advisor.hpp).

#include <algorithm>
#include <chrono>
#include <deque>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tessera/lb/auto_interval.hpp"
#include "tessera/lb/registry.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "tessera/lb/advisor.hpp"

namespace tessera::lb {

ReplayData::ReplayData(const LbData& data, PhaseId first, PhaseId last) {
  const auto ids = data.phase_ids();
  if (ids.empty()) throw ArgumentError("--phases: the LB data has no phases");
  const auto describe = [&] { return fmt::format("the data has phases {}..{}", ids.front(), ids.back()); };
  if (first > last) throw ArgumentError(fmt::format("--phases {}:{}: expected A <= B; {}", first, last, describe()));
  const auto first_at = std::find(ids.begin(), ids.end(), first);
  const auto last_at = std::find(ids.begin(), ids.end(), last);
  if (first_at == ids.end() || last_at == ids.end() || last_at < first_at)
    throw ArgumentError(fmt::format("--phases {}:{}: the LB data lacks phase {}; {}", first, last,
                                 first_at == ids.end() ? first : last, describe()));
  ranks_ = static_cast<Rank>(data.ranks.size());
  alpha_.assign(data.ranks.size(), 1.0);
  // The phases' times, when a live Tessera run recorded them (lb_data_output.hpp).
  std::unordered_map<PhaseId, double> wall;
  for (const auto& rank : data.ranks) {
    if (rank.metadata_extra.empty()) continue;
    const auto metadata = nlohmann::json::parse(rank.metadata_extra, nullptr, false);
    if (!metadata.is_object() || !metadata.contains("phase_time_s") || !metadata["phase_time_s"].is_array()) continue;
    const auto& seconds = metadata["phase_time_s"];
    for (std::size_t i = 0; i < rank.phases.size() && i < seconds.size(); ++i)
      if (seconds[i].is_number()) wall[rank.phases[i].id] = std::max(wall[rank.phases[i].id], seconds[i].get<double>());
  }
  std::unordered_map<ObjectId, std::int32_t, ObjectIdHash> index;
  for (auto at = ids.begin(); at != last_at + 1; ++at) {
    std::vector<Load> loads;
    for (const auto& rank : data.ranks) {
      if (!rank.find_phase(*at)) continue;
      const StrategyInput input = strategy_input(rank, *at);
      if (input.rank_alpha) alpha_[static_cast<std::size_t>(rank.rank)] = *input.rank_alpha;
      for (const auto& object : input.objects) {
        auto [it, fresh] = index.emplace(object.id, static_cast<std::int32_t>(ids_.size()));
        if (fresh) {
          ids_.push_back(object.id);
          migratable_.push_back(object.migratable ? 1 : 0);
          bytes_.push_back(object.memory.footprint_bytes);
          start_.push_back(rank.rank);
        }
        loads.push_back(Load{it->second, object.load});
      }
    }
    if (at < first_at) {
      warmup_.push_back(std::move(loads));
      continue;
    }
    // The phase's fixed part: its time beyond the most loaded rank's recorded work.
    double overhead = 0.0;
    if (const auto it = wall.find(*at); it != wall.end()) {
      const auto recorded = data.rank_loads(*at);
      double most = 0.0;
      for (std::size_t r = 0; r < recorded.size(); ++r) most = std::max(most, alpha_[r] * recorded[r]);
      overhead = std::max(0.0, it->second - most);
      recorded_wall_s_ += it->second;
      walled_ = true;
    }
    phases_.push_back(*at);
    overhead_.push_back(overhead);
    loads_.push_back(std::move(loads));
  }
}

// One replay's state: where each object is and what the load model knows of it.
struct Replayer {
  const ReplayData& data;
  const AdviseOption& option;
  const CostModel& cost;
  std::vector<Rank> placement;
  std::vector<std::deque<double>> history;
  std::unordered_map<ObjectId, std::int32_t, ObjectIdHash> index;

  Replayer(const ReplayData& d, const AdviseOption& o, const CostModel& c)
      : data(d), option(o), cost(c), placement(d.start_), history(d.ids_.size()) {
    for (std::size_t i = 0; i < d.ids_.size(); ++i) index.emplace(d.ids_[i], static_cast<std::int32_t>(i));
  }

  void record(const std::vector<ReplayData::Load>& loads) {
    for (const auto& [object, load] : loads) {
      auto& h = history[static_cast<std::size_t>(object)];
      const bool counted = data.migratable_[static_cast<std::size_t>(object)] || cost.fixed_loads_counted;
      h.push_back(counted ? load : 0.0);
      while (h.size() > option.model.window()) h.pop_front();
    }
  }

  double predicted(std::int32_t object) const {
    const auto& h = history[static_cast<std::size_t>(object)];
    const std::vector<double> loads(h.begin(), h.end());
    return predict_load(option.model, loads);
  }

  // The strategy inputs the live manager would build after the phase of `loads`.
  std::vector<StrategyInput> inputs(const std::vector<ReplayData::Load>& loads) const {
    std::vector<StrategyInput> out(static_cast<std::size_t>(data.ranks_));
    for (Rank r = 0; r < data.ranks_; ++r) out[static_cast<std::size_t>(r)].rank = r;
    for (const auto& l : loads) {
      const auto o = static_cast<std::size_t>(l.object);
      LbObject object;
      object.id = data.ids_[o];
      object.load = predicted(l.object);
      object.migratable = data.migratable_[o] != 0;
      object.memory.footprint_bytes = data.bytes_[o];
      out[static_cast<std::size_t>(placement[o])].objects.push_back(object);
    }
    return out;
  }

  // Applies the plan; returns the migration's cost (the slowest rank's, seconds).
  double migrate(const Plan& plan) {
    const auto p = static_cast<std::size_t>(data.ranks_);
    std::vector<double> sent_bytes(p), received_bytes(p);
    std::vector<std::int64_t> sent(p), received(p);
    for (const auto& m : plan.migrations) {
      const auto o = static_cast<std::size_t>(index.at(m.object));
      placement[o] = m.to;
      sent_bytes[static_cast<std::size_t>(m.from)] += data.bytes_[o];
      received_bytes[static_cast<std::size_t>(m.to)] += data.bytes_[o];
      ++sent[static_cast<std::size_t>(m.from)];
      ++received[static_cast<std::size_t>(m.to)];
    }
    double slowest = 0.0;
    for (std::size_t r = 0; r < p; ++r)
      slowest = std::max(slowest, std::max(sent_bytes[r], received_bytes[r]) / cost.bandwidth_Bps +
                                      static_cast<double>(std::max(sent[r], received[r])) * cost.latency_s);
    return slowest;
  }

  ReplayResult run();
};

ReplayResult Replayer::run() {
  Replayer& state = *this;
  for (const auto& loads : data.warmup_) state.record(loads);
  const Registry registry = Registry::builtin();
  const bool automatic = option.interval == "auto";
  const std::int64_t every = automatic ? 1 : std::stoll(option.interval);
  AutoInterval rule;
  ReplayResult result;
  const auto p = static_cast<std::size_t>(data.ranks_);
  for (std::size_t i = 0; i < data.phases_.size(); ++i) {
    const auto& loads = data.loads_[i];
    std::vector<double> rank_load(p);
    for (const auto& [object, load] : loads) rank_load[static_cast<std::size_t>(state.placement[static_cast<std::size_t>(object)])] += load;
    double phase_s = data.overhead_[i];
    double busiest = 0.0;
    for (std::size_t r = 0; r < p; ++r) busiest = std::max(busiest, data.alpha_[r] * rank_load[r]);
    phase_s += busiest;
    result.phases_s += phase_s;
    state.record(loads);
    if (option.strategy.empty()) continue;
    bool balance = false;
    std::vector<StrategyInput> inputs;
    if (automatic) {
      inputs = state.inputs(loads);
      double max_load = 0.0, sum = 0.0;
      for (const auto& rank : inputs) {
        max_load = std::max(max_load, rank.load());
        sum += rank.load();
      }
      balance = rule.observe(max_load, sum / static_cast<double>(p)).balance;
    } else {
      balance = data.phases_[i] % every == 0;
      if (balance) inputs = state.inputs(loads);
    }
    if (!balance) continue;
    const auto strategy = registry.create(option.strategy, option.args);
    comm::VirtualBackend backend(data.ranks_);
    const auto start = std::chrono::steady_clock::now();
    const Plan plan = strategy->run(backend, inputs);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double strategy_s = cost.strategy_s.value_or(wall / static_cast<double>(p));
    const double migration_s = state.migrate(plan);
    result.strategy_s += strategy_s;
    result.migration_s += migration_s;
    result.migrations += static_cast<std::int64_t>(plan.migrations.size());
    ++result.balancings;
    if (automatic) rule.balanced(strategy_s + migration_s);
  }
  result.predicted_s = result.phases_s + result.lb_s();
  return result;
}

ReplayResult replay(const ReplayData& data, const AdviseOption& option, const CostModel& cost) {
  return Replayer(data, option, cost).run();
}

std::vector<AdviceRow> advise(const ReplayData& data, const std::vector<AdviseOption>& grid, const CostModel& cost) {
  const double none = replay(data, AdviseOption{}, cost).predicted_s;
  std::vector<AdviceRow> rows;
  rows.reserve(grid.size());
  for (const auto& option : grid) {
    AdviceRow row{option, replay(data, option, cost), 1.0};
    row.gain = row.result.predicted_s > 0.0 ? none / row.result.predicted_s : 1.0;
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const AdviceRow& a, const AdviceRow& b) {
    if (a.result.predicted_s != b.result.predicted_s) return a.result.predicted_s < b.result.predicted_s;
    return a.result.migrations < b.result.migrations;
  });
  return rows;
}

}  // namespace tessera::lb
