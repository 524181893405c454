// lbsim's engine: a recorded or synthetic phase through one strategy on virtual ranks.

#include "tessera/lbsim/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "tessera/lb/evacuate.hpp"
#include "tessera/lb/virtual_backend.hpp"
#include "tessera/lbsim/synthetic.hpp"

namespace tessera::lbsim {

std::vector<lb::StrategyInput> phase_inputs(const lb::LbData& data, lb::PhaseId phase, lb::Rank ranks) {
  const auto ids = data.phase_ids();
  if (std::find(ids.begin(), ids.end(), phase) == ids.end()) {
    throw InputError(fmt::format("--phase {}: the data has no such phase; phases: {}", phase,
                                 ids.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(ids, ", "))));
  }
  if (ranks < 0) throw InputError(fmt::format("--ranks {}: expected an integer >= 1", ranks));
  const auto recorded = static_cast<lb::Rank>(data.ranks.size());
  const lb::Rank count = ranks == 0 ? recorded : ranks;
  std::vector<lb::StrategyInput> inputs(static_cast<std::size_t>(count));
  for (lb::Rank r = 0; r < count; ++r) inputs[static_cast<std::size_t>(r)].rank = r;
  for (const auto& rank : data.ranks) {
    if (!rank.find_phase(phase)) continue;  // a rank that recorded nothing in this phase
    lb::StrategyInput input = lb::strategy_input(rank, phase);
    auto& into = inputs[static_cast<std::size_t>(rank.rank % count)];
    // Folded ranks (a what-if on fewer ranks) add their own memory and keep the tighter limit.
    into.working_bytes += input.working_bytes;
    if (!into.rank_alpha) into.rank_alpha = input.rank_alpha;
    if (input.memory_limit) into.memory_limit = std::min(input.memory_limit.value(), into.memory_limit.value_or(HUGE_VAL));
    into.objects.insert(into.objects.end(), input.objects.begin(), input.objects.end());
    into.edges.insert(into.edges.end(), input.edges.begin(), input.edges.end());
  }
  return inputs;
}

std::vector<lb::StrategyInput> predicted_inputs(const lb::LbData& data, lb::PhaseId phase,
                                                const lb::LoadModelSpec& model, lb::Rank ranks) {
  auto inputs = phase_inputs(data, phase, ranks);
  if (model == lb::LoadModelSpec{}) return inputs;  // persistence: the phase's own loads
  lb::LoadHistory history(model);
  for (lb::PhaseId p : data.phase_ids()) {
    for (const auto& rank : data.ranks)
      if (const lb::Phase* recorded = rank.find_phase(p))
        for (const auto& task : recorded->tasks) history.record(task.entity.id, task.time);
    if (p == phase) break;
  }
  for (auto& rank : inputs)
    for (auto& object : rank.objects) object.load = history.predict(object.id);
  return inputs;
}

double lower_bound_imbalance(const std::vector<lb::StrategyInput>& inputs) {
  double total = 0.0, largest = 0.0;
  for (const auto& rank : inputs) {
    for (const auto& object : rank.objects) {
      total += object.load;
      largest = std::max(largest, object.load);
    }
  }
  if (inputs.empty() || total <= 0.0) return 0.0;
  const double average = total / static_cast<double>(inputs.size());
  return std::max(average, largest) / average - 1.0;
}

WorkBound work_lower_bound(const std::vector<lb::StrategyInput>& inputs, const WorkModel& work) {
  double total = 0.0, largest = 0.0;
  for (const auto& rank : inputs) {
    for (const auto& object : rank.objects) {
      total += object.load;
      largest = std::max(largest, object.load);
    }
  }
  WorkBound bound;
  if (inputs.empty()) return bound;
  double alpha = HUGE_VAL;
  bool own_alpha = false;
  for (const auto& rank : inputs) {
    alpha = std::min(alpha, work.alpha_of(rank));
    own_alpha = own_alpha || rank.rank_alpha.has_value();
  }
  const double average = total / static_cast<double>(inputs.size());
  bound.max_work = alpha * std::max(average, largest);
  const double average_work = alpha * average;
  if (work.beta == 0.0 && work.gamma == 0.0 && work.delta == 0.0 && !own_alpha)
    bound.imbalance = average_work > 0.0 ? bound.max_work / average_work - 1.0 : 0.0;
  return bound;
}

lb::NodeMap phase_nodes(const lb::LbData& data, lb::Rank ranks, lb::Rank ranks_per_node) {
  const auto recorded = static_cast<lb::Rank>(data.ranks.size());
  const lb::Rank count = ranks == 0 ? recorded : ranks;
  if (ranks_per_node > 0) return lb::NodeMap::blocks(count, ranks_per_node);
  return count == recorded ? data.node_map() : lb::NodeMap{};
}

double modelled_seconds(const Traffic& traffic, const Network& network) {
  return static_cast<double>(traffic.rounds) * network.latency_s +
         static_cast<double>(traffic.max_bytes_handled) / network.bandwidth_Bps + traffic.busiest_rank_s;
}

namespace {

Traffic traffic_of(const lb::comm::VirtualBackend& backend) {
  Traffic t;
  double busiest = -1.0;
  for (lb::Rank r = 0; r < backend.size(); ++r) {
    const auto& a = backend.account(r);
    t.messages += a.messages_sent;
    t.bytes += a.bytes_sent;
    t.max_messages_sent = std::max(t.max_messages_sent, a.messages_sent);
    t.max_messages_received = std::max(t.max_messages_received, a.messages_received);
    t.max_bytes_sent = std::max(t.max_bytes_sent, a.bytes_sent);
    t.max_bytes_received = std::max(t.max_bytes_received, a.bytes_received);
    if (a.messages_sent + a.messages_received > t.max_messages_handled) {
      t.max_messages_handled = a.messages_sent + a.messages_received;
      t.busiest_rank = r;
    }
    t.max_bytes_handled = std::max(t.max_bytes_handled, a.bytes_sent + a.bytes_received);
    busiest = std::max(busiest, a.cpu_seconds);
  }
  if (backend.size() > 0) {
    t.root_messages_received = backend.account(0).messages_received;
    t.root_bytes_received = backend.account(0).bytes_received;
  }
  t.rounds = backend.critical_path_rounds();
  t.busiest_rank_s = std::max(0.0, busiest);
  return t;
}

}  // namespace

SimResult simulate(lb::Strategy* strategy, const std::vector<lb::StrategyInput>& inputs, const WorkModel& work,
                   const lb::NodeMap& nodes) {
  SimResult result;
  const auto before = work.rank_work(inputs, {}, nodes);
  result.before = lb::Statistics::of(before);
  const WorkBound bound = work_lower_bound(inputs, work);
  result.lower_bound = bound.imbalance;
  result.lower_bound_max_work = bound.max_work;
  if (strategy) {
    lb::comm::VirtualBackend backend(static_cast<lb::Rank>(inputs.size()), lb::comm::VirtualBackend::CpuTiming::wall,
                                     nodes);
    const auto start = std::chrono::steady_clock::now();
    const bool shrinking = std::any_of(inputs.begin(), inputs.end(), [](const lb::StrategyInput& r) { return r.leaving; });
    result.plan = shrinking ? lb::run_shrinking(*strategy, backend, inputs) : strategy->run(backend, inputs);
    result.strategy_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.traffic = traffic_of(backend);
    if (const auto* tempered = dynamic_cast<const lb::TemperedLB*>(strategy)) result.iterations = tempered->report();
  }
  result.migrations = static_cast<std::int64_t>(result.plan.migrations.size());
  result.balanced = lb::apply_plan(inputs, result.plan);
  auto after = work.rank_work(result.balanced, inputs, nodes);  // shared blocks homed where they started
  // After a shrink the job runs on the staying ranks: the leaving ones are not part of its balance.
  std::vector<double> staying;
  for (std::size_t r = 0; r < after.size(); ++r)
    if (!inputs[r].leaving) staying.push_back(after[r]);
  result.after = lb::Statistics::of(staying.size() == after.size() ? after : staying);
  result.memory_violations_before = lb::memory_violations(work, inputs);
  result.memory_violations_after = lb::memory_violations(work, result.balanced);
  result.limited = std::any_of(inputs.begin(), inputs.end(),
                               [&](const lb::StrategyInput& rank) { return std::isfinite(work.limit_of(rank)); });
  return result;
}

std::vector<PhaseStatistics> phase_statistics(const lb::LbData& data, const WorkModel& work, const lb::NodeMap& nodes) {
  std::vector<PhaseStatistics> out;
  for (lb::PhaseId phase : data.phase_ids()) {
    const auto inputs = phase_inputs(data, phase);
    out.push_back(PhaseStatistics{phase, lb::Statistics::of(work.rank_work(inputs, {}, nodes))});
  }
  return out;
}

lb::LbData placement_data(const lb::LbData& data, lb::PhaseId phase, const std::vector<lb::StrategyInput>& balanced,
                          const lb::NodeMap& nodes) {
  const auto shared_nodes = nodes.node.size() == balanced.size() ? nodes.shared_nodes() : std::vector<lb::SharedNode>{};
  std::unordered_map<lb::ObjectId, lb::Rank, lb::ObjectIdHash> where;
  for (const auto& rank : balanced) {
    for (const auto& object : rank.objects) where[object.id] = rank.rank;
  }
  const auto count = static_cast<lb::Rank>(balanced.size());
  lb::LbData out;
  out.ranks.resize(balanced.size());
  for (lb::Rank r = 0; r < count; ++r) {
    auto& rank = out.ranks[static_cast<std::size_t>(r)];
    rank.rank = r;
    if (static_cast<std::size_t>(r) < data.ranks.size()) rank.metadata_extra = data.ranks[static_cast<std::size_t>(r)].metadata_extra;
    if (!shared_nodes.empty()) rank.shared_node = shared_nodes[static_cast<std::size_t>(r)];
    rank.phases.push_back(lb::Phase{phase, {}, {}});
  }
  for (const auto& recorded : data.ranks) {
    const lb::Phase* source = recorded.find_phase(phase);
    if (!source) continue;
    for (lb::Task task : source->tasks) {
      const auto it = where.find(task.entity.id);
      task.node = it != where.end() ? it->second : recorded.rank % count;
      out.ranks[static_cast<std::size_t>(task.node)].phases[0].tasks.push_back(std::move(task));
    }
    for (const auto& edge : source->communications) {
      const auto it = where.find(edge.from.id);
      const lb::Rank holder = it != where.end() ? it->second : recorded.rank % count;
      out.ranks[static_cast<std::size_t>(holder)].phases[0].communications.push_back(edge);
    }
  }
  return out;
}

}  // namespace tessera::lbsim
