#include <tessera/lb/manager/lb_manager.hpp>
#include <tessera/lb/evacuate.hpp>
#include "reshape_live.hpp"
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/runtime.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <vector>
#include <unordered_map>
#include <unordered_set>

namespace tessera::lb {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The rank loads after a plan need the loads of the objects arriving here, which only their
// senders know: each sender tells each destination, inside the backend's own epoch, and hands over
// the object's load history so the load model predicts from it on the new rank.
struct Arrival {
  lb::ObjectId object;
  double load = 0.0;
  std::vector<double> history;
  template <class A>
  void serialize(A& ar) {
    ar(object, load, history);
  }
};

struct Arrivals {
  double load = 0.0;
  std::vector<Arrival> arrived;
  void on_arrival(lb::comm::Communicator&, const Arrival& arriving) {
    load += arriving.load;
    arrived.push_back(arriving);
  }
};

double arrive(lb::comm::Backend& backend, const lb::Plan& plan, const lb::StrategyInput& input,
              lb::LoadHistory& history) {
  std::unordered_map<lb::ObjectId, double, lb::ObjectIdHash> loads;
  for (const auto& object : input.objects) loads.emplace(object.id, object.load);
  lb::comm::Team<Arrivals> team(backend, [](lb::Rank) { return Arrivals{}; });
  const auto handler = team.handler<&Arrivals::on_arrival>();
  team.step([&](Arrivals&, lb::comm::Communicator& ctx) {
    for (const auto& m : plan.migrations)
      ctx.send(m.to, handler, Arrival{m.object, loads.at(m.object), history.take(m.object)});
  });
  team.run_until_quiet();
  const Arrivals& here = team.local(input.rank);
  for (const auto& a : here.arrived) history.restore(a.object, a.history);
  return here.load;
}
}  // namespace

lb::StrategyInput strategy_input(const collections::PhaseRecord& record) {
  // Built straight from the record rather than through its LB data form (to_lb_phase, then
  // lb::strategy_input), which formats each footprint as JSON and parses it back: that round
  // trip cost about 90 us a phase for 24 elements, 1 % of the PIC proxy's phase, on every phase
  // whether or not it balances. The two forms are equal (tests/lb/manager/lb_data_test.cpp).
  const auto element_id = [](const collections::ElementKey& key) {
    return key.is_rank() ? lb::ObjectId::packed(key.element)
                         : lb::ObjectId::sequential(key.element, static_cast<std::int64_t>(key.collection));
  };
  lb::StrategyInput input;
  input.rank = record.rank;
  input.objects.reserve(record.elements.size() + 1);
  for (const auto& element : record.elements) {
    lb::LbObject object{element_id(element.key), element.load, true, {}};
    if (element.footprint_bytes) object.memory.footprint_bytes = *element.footprint_bytes;
    input.objects.push_back(object);
  }
  input.objects.push_back(lb::LbObject{lb::ObjectId::packed(static_cast<std::uint64_t>(record.rank)), record.rank_load,
                                       false, {}});
  input.edges.reserve(record.edges.size());
  for (const auto& edge : record.edges)
    input.edges.push_back(lb::LbEdge{element_id(edge.from), element_id(edge.to), edge.messages, edge.bytes});
  return input;
}

LbManager::LbManager(Runtime& rt, Termination& termination, collections::PhaseManager& phases, const LbFlags& flags)
    : rt_(rt),
      phases_(phases),
      flags_(flags),
      registry_(lb::Registry::builtin()),
      backend_(rt, termination),
      history_(flags.load_model()) {}

void LbManager::request(std::string strategy, std::string args) {
  if (strategy.empty()) {
    if (!flags_.strategy())
      throw Error("LB requested from code without a strategy: pass one or set --tessera_lb_name");
    if (args.empty()) {
      requested_ = Choice{*flags_.strategy(), {}, false};
      return;
    }
    strategy = flags_.name;
  }
  try {
    requested_ = Choice{registry_.parse(strategy, args), {}, false};
  } catch (const lb::ArgumentError& e) {
    throw Error(std::string("LB requested from code: ") + e.what());
  }
}

std::optional<LbManager::Choice> LbManager::choose(const collections::PhaseRecord& record) {
  if (requested_) {
    std::optional<Choice> choice = std::move(requested_);
    requested_.reset();
    choice->reason = "requested from code";
    return choice;
  }
  if (const auto& schedule = flags_.schedule()) {
    const auto entry = schedule->at(record.phase);
    if (!entry) return std::nullopt;
    Choice choice{lb::StrategySpec{entry->strategy, entry->args, entry->make}, fmt::format("{}:{}", flags_.file, entry->line),
                  false};
    if (entry->automatic) return decide_automatically(record, std::move(choice));
    return choice;
  }
  if (!flags_.strategy()) return std::nullopt;
  Choice choice{*flags_.strategy(), {}, false};
  if (flags_.automatic()) return decide_automatically(record, std::move(choice));
  if (record.phase % flags_.every() != 0) return std::nullopt;
  choice.reason = fmt::format("interval {}", flags_.every());
  return choice;
}

std::optional<LbManager::Choice> LbManager::decide_automatically(const collections::PhaseRecord& record,
                                                                 Choice choice) {
  // One allreduce of (max, sum) of the rank loads the strategy would see.
  const lb::StrategyInput& input = predicted_;
  using Pair = std::array<double, 2>;
  const Pair loads = rt_.collectives().allreduce(
      Pair{input.load(), input.load()}, [](Pair a, const Pair& b) { return Pair{std::max(a[0], b[0]), a[1] + b[1]}; });
  const lb::AutoDecision decision = auto_interval_.observe(loads[0], loads[1] / rt_.size());
  if (rt_.rank() == 0)
    rt_.log().info("tessera lb: phase {} {}: {}", record.phase, decision.balance ? "balances" : "does not balance",
                   decision.reason);
  if (!decision.balance) return std::nullopt;
  choice.reason = decision.reason;
  choice.automatic = true;
  return choice;
}

lb::StrategyInput LbManager::predicted_input(const collections::PhaseRecord& record) {
  lb::StrategyInput input = strategy_input(record);
  for (auto& object : input.objects) {
    history_.record(object.id, model_ ? model_(object, record.phase) : object.load);
    object.load = history_.predict(object.id);
  }
  return input;
}

std::optional<BalanceReport> LbManager::phase_end(const collections::PhaseRecord& record, std::span<const int> leaving) {
  last_report_.reset();
  std::optional<Choice> choice;
  {
    TraceSlice slice(rt_.tracer(), "statistics");
    predicted_ = predicted_input(record);
    choice = choose(record);
  }
  if (!leaving.empty()) {
    if (!choice && flags_.strategy()) choice = Choice{*flags_.strategy(), {}, false};
    if (!choice) choice = Choice{lb::StrategySpec{"evacuation", {}, nullptr}, {}, false};
    choice->reason = fmt::format("shrink: rank(s) {} leave{}", fmt::join(leaving, ","),
                                 choice->reason.empty() ? "" : " (" + choice->reason + ")");
    choice->automatic = false;
  }
  if (!choice) return std::nullopt;
  last_report_ = balance(record, *choice, leaving);
  last_report_->reason = choice->reason;
  balancing_s_ += last_report_->strategy_s + last_report_->migration_s;
  // On the clock the loads were measured on: with thread CPU loads on shared cores, the wall time
  // of a balancing includes every wait for a descheduled peer, and weighed against CPU seconds of
  // imbalance it would hold the next balancing off for as long as the cores stay shared.
  if (choice->automatic) auto_interval_.balanced(last_report_->load_clock_cost_s);
  publish(*last_report_);
  return last_report_;
}

BalanceReport LbManager::balance(const collections::PhaseRecord& record, const Choice& choice, std::span<const int> leaving) {
  TraceSlice statistics(rt_.tracer(), "statistics");
  lb::StrategyInput input = predicted_;
  // An element that left during the phase (self-migration) is recorded here too; only the
  // elements here now can be moved from here. The record says which those are.
  std::unordered_set<lb::ObjectId, lb::ObjectIdHash> departed;
  for (const auto& element : record.elements)
    if (!element.local) departed.insert(lb::ObjectId::sequential(element.key.element, static_cast<std::int64_t>(element.key.collection)));
  if (!departed.empty())
    std::erase_if(input.objects, [&](const lb::LbObject& o) { return departed.contains(o.id); });
  lb::ReshapeCounts reshaped;
  if (flags_.reshape().enabled() && leaving.empty())
    reshaped = reshape_live(rt_, phases_, flags_.reshape(), input, history_);
  const bool shrinking = !leaving.empty();
  if (shrinking) {
    input.leaving = std::find(leaving.begin(), leaving.end(), rt_.rank()) != leaving.end();
    input.staying = rt_.size() - static_cast<std::int64_t>(leaving.size());
  }
  last_input_ = input;

  BalanceReport local;
  local.splits = reshaped.splits;
  local.merges = reshaped.merges;
  local.phase = record.phase;
  local.strategy = choice.strategy.name;
  for (const auto& object : input.objects)
    if (object.migratable) local.objects.add(object.load);
  local.before.add(input.load());

  statistics.end();
  const std::unique_ptr<lb::Strategy> strategy = choice.strategy.make ? choice.strategy.make() : nullptr;
  const double cost_start = phases_.now();  // the load clock
  const auto strategy_start = std::chrono::steady_clock::now();
  {
    TraceSlice slice(rt_.tracer(), "strategy");
    const std::span<const lb::StrategyInput> hosted(&input, 1);
    if (!shrinking) last_plan_ = strategy->run(backend_, hosted);
    else if (strategy) last_plan_ = lb::run_shrinking(*strategy, backend_, hosted);
    else last_plan_ = lb::evacuate(backend_, hosted).plan;
  }
  local.strategy_s = seconds_since(strategy_start);

  std::unordered_map<lb::ObjectId, const lb::LbObject*, lb::ObjectIdHash> by_id;
  by_id.reserve(input.objects.size());
  for (const auto& object : input.objects) by_id.emplace(object.id, &object);
  double departing = 0.0;
  for (const auto& m : last_plan_.migrations) {
    const auto it = by_id.find(m.object);
    if (it == by_id.end() || !it->second->migratable || m.from != input.rank)
      fatal("{} planned to move {} from rank {}, which is not a migratable object of rank {}", choice.strategy.name,
            lb::to_string(m.object), m.from, input.rank);
    departing += it->second->load;
    migrated_bytes_ += it->second->memory.footprint_bytes;
  }
  const double after = input.load() - departing + arrive(backend_, last_plan_, input, history_);
  if (!input.leaving) local.after.add(after);
  local.migrations = static_cast<std::int64_t>(last_plan_.migrations.size());

  const auto migration_start = std::chrono::steady_clock::now();
  {
    TraceSlice slice(rt_.tracer(), "migration");
    apply(last_plan_);
  }
  local.migration_s = seconds_since(migration_start);
  local.load_clock_cost_s = phases_.now() - cost_start;
  migration_seconds_ += local.migration_s;
  TraceSlice slice(rt_.tracer(), "report");
  return reduce_report(rt_.collectives(), local);
}

bool LbManager::counts_fixed_loads() const {
  if (!model_) return true;
  lb::LbObject fixed;
  fixed.load = 1.0;
  fixed.migratable = false;
  return model_(fixed, 0) != 0.0;
}

void LbManager::apply(const lb::Plan& plan) {
  for (const auto& m : plan.migrations) {
    const collections::ElementKey key{static_cast<std::uint64_t>(m.object.collection), m.object.value};
    if (!m.object.is_seq || !phases_.migrate(key, static_cast<int>(m.to)))
      fatal("the LB plan moves {} from rank {}, but it is not an element on that rank", lb::to_string(m.object),
            m.from);
  }
  // Collective: returns once every element sent anywhere has been reconstructed at its new rank.
  rt_.drain();
}

void LbManager::publish(const BalanceReport& report) const {
  if (rt_.rank() != 0) return;
  fmt::print("{}\n", report.line());
  std::fflush(stdout);
  if (flags_.stats_file.empty()) return;
  std::ofstream out(flags_.stats_file, std::ios::app);
  if (!(out << report.json() << '\n'))
    fatal("--tessera_lb_stats_file={}: cannot append the LB statistics (expected a writable file)", flags_.stats_file);
}

}  // namespace tessera::lb
