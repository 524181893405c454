#pragma once
/// The per-rank engine behind a TaskCollection (task_collection.hpp): an object group member on
/// every rank that runs tasks, answers thieves and steals. Read task_collection.hpp first.
///
/// Messages. Counted in the collection's epoch: `run` (a rank to itself: run up to n tasks,
/// then look at the network again) and `loot` (tasks moving to a thief). Uncounted (system):
/// steal requests, "no" answers and success_only's load publications. Why this is enough for
/// the four-counter detector to be exact: a request or a "no" carries no task; a rank that holds
/// tasks always has its own `run` outstanding (sent, not yet handled), and loot is sent only by a
/// rank holding tasks and is counted until the thief has queued it. So the counted sums cannot
/// balance while any task exists or moves, and they do balance once none does, whatever idle
/// thieves keep asking (random thieves never stop on their own, so counting their requests
/// would keep the epoch open forever).
///
/// Worker threads (`workers` > 1, worker_team.hpp): the main thread keeps its `run` outstanding
/// also while the team is busy, i.e. while any worker thread holds or runs a task, so tasks
/// spawned on worker threads keep the epoch open although those threads never send anything.
/// Only the main thread sends: loot it gives away may come from a worker thread's deque.
///
/// Iterations. Every uncounted message carries the iteration it belongs to, because it may
/// arrive after its iteration ended here: stale ones are dropped (a random request still gets
/// its "no", which its thief then ignores), early ones (a thief already in the next iteration)
/// are kept for that iteration.
#include "tessera/collections/steal/lifeline_graph.hpp"
#include "tessera/collections/steal/spawner.hpp"
#include "tessera/collections/steal/steal_options.hpp"
#include "tessera/collections/steal/steal_stats.hpp"
#include "tessera/collections/steal/worker_team.hpp"

#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/runtime/idle_policy.hpp>
#include <tessera/runtime/objgroup.hpp>
#include <tessera/runtime/timer.hpp>
#include <tessera/termination/termination.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace tessera::collections::steal::detail {

enum class RequestKind : std::uint8_t { random, lifeline, queued };
enum class LootKind : std::uint8_t { random, lifeline_answer, lifeline_push, queued };

template <Stealable Task>
class StealEngine : public RescaleListener {
 public:
  using Body = std::function<void(const Task&, Spawner<Task>&)>;
  using Deque = typename Spawner<Task>::Deque;

  StealEngine(Runtime& rt, Termination& term, StealOptions options, Body body)
      : rt_(rt), term_(term), options_(options), body_(std::move(body)),
        deque_(std::make_unique<Deque>(options.capacity, options.workers > 1)),
        team_idle_(options.spin_us, 0, options.sleep_us),
        rng_(options.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(rt.rank() + 1))),
        contacted_(static_cast<std::size_t>(rt.size()), false),
        loads_(static_cast<std::size_t>(rt.size())) {
    connect();
    if (options_.workers > 1)
      team_ = std::make_unique<WorkerTeam<Task>>(static_cast<std::size_t>(options_.workers), *deque_, body_,
                                                 rt.rank(), options_);
    tessera::detail::hooks(rt_).add_rescale_listener(this);
  }
  ~StealEngine() override { tessera::detail::hooks(rt_).remove_rescale_listener(this); }
  StealEngine(const StealEngine&) = delete;
  StealEngine& operator=(const StealEngine&) = delete;

  // Between iterations, on the ranks that stay: what the engine knows per rank starts again over
  // the new rank set, and the lifelines are drawn for it.
  void after_cut(const RankChange&) override {
    contacted_.assign(static_cast<std::size_t>(rt_.size()), false);
    loads_.assign(static_cast<std::size_t>(rt_.size()), Load{});
    connect();
  }

  // At an expand: the iteration, which a joining process's engine continues (messages carry it).
  void join_state(JoinState& state) const override {
    const auto* raw = reinterpret_cast<const std::byte*>(&iteration_);
    state[join_key()].assign(raw, raw + sizeof iteration_);
  }

  void attach(ObjGroup<StealEngine> self) {
    self_ = self;
    if (const std::span<const std::byte> joined = rt_.joined_state(join_key()); joined.size() == sizeof iteration_)
      std::memcpy(&iteration_, joined.data(), sizeof iteration_);
  }

 private:
  std::string join_key() const { return "steal/" + std::to_string(self_.id()); }
  // The lifeline graph over the ranks as they are now (seed 004's low-degree graph).
  void connect() {
    outgoing_.clear();
    lifeline_out_.clear();
    if (options_.policy != Policy::lifeline) return;
    const LifelineGraph graph(rt_.size(), options_.l);
    outgoing_ = graph.outgoing(rt_.rank());
    lifeline_out_.assign(outgoing_.size(), false);
  }

 public:

  // The collection is going away, but the runtime keeps its object group alive, and late steal
  // requests may still reach it (they find it inactive): free what only process() uses.
  void release() {
    team_.reset();
    deque_.reset();
    body_ = nullptr;
  }
  std::int64_t queued() const { return deque_->local_size() + deque_->shared_size(); }
  const StealOptions& options() const { return options_; }

  void seed(const Task& task) {
    seeds_.push_back(task);
    push(Entry<Task>{task, true});
  }

  void restore() {
    std::vector<Task> tasks = options_.retentive ? std::move(executed_seeds_) : seeds_;
    executed_seeds_.clear();
    for (const Task& task : tasks) push(Entry<Task>{task, true});
  }

  IterationStats process() {
    ++iteration_;
    stats_ = RankStats{};
    executed_seeds_.clear();
    waiting_ = false;
    random_tries_ = 0;
    std::fill(lifeline_out_.begin(), lifeline_out_.end(), false);
    std::fill(contacted_.begin(), contacted_.end(), false);
    std::erase_if(lifeline_thieves_, [this](const Request& r) { return r.iteration < iteration_; });
    std::erase_if(queued_thieves_, [this](const Request& r) { return r.iteration < iteration_; });
    if (options_.policy == Policy::success_only) share_initial_loads();
    const double start = wall_time();
    const double cpu_start = thread_cpu_time();
    active_ = true;
    epoch_ = term_.open_collective();
    if (team_) {
      team_->record_spans(rt_.tracer() != nullptr);
      team_->start();
    }
    term_.run_in(epoch_, [this] { resume(); });
    term_.finish(epoch_);
    // Not term_.wait(): its idling is the runtime's general one (steal_options.hpp says why
    // thieves need a shorter one).
    IdleBackoff idle(options_.spin_us, 0, options_.sleep_us);
    while (!term_.terminated(epoch_)) {
      if (rt_.progress()) idle.reset();
      else idle.wait();
    }
    rt_.flush();
    active_ = false;
    const double seconds = wall_time() - start;
    stats_.cpu_seconds = thread_cpu_time() - cpu_start;
    if (team_) collect_team();
    stats_.steal_seconds = options_.workers * seconds - stats_.work_seconds;
    return gather_stats(rt_, iteration_, seconds, stats_);
  }

  // Handlers.

  void on_run(std::uint32_t iteration) {
    run_pending_ = false;
    if (iteration != iteration_ || !active_) return;
    if (team_)
      if (const std::optional<std::string> failure = team_->failure()) tessera::detail::fatal_message(*failure);
    const double start = wall_time();
    Spawner<Task> spawner(*deque_, rt_.rank());
    std::int32_t ran = 0;
    for (; ran < options_.n; ++ran) {
      std::optional<Entry<Task>> entry = deque_->pop();
      if (!entry && refill_from_team()) entry = deque_->pop();
      if (!entry) break;
      if (entry->seeded) executed_seeds_.push_back(entry->task);
      try {
        body_(entry->task, spawner);
      } catch (const std::exception& e) {
        fatal("a task of a task collection threw on rank {}: {}", rt_.rank(), e.what());
      } catch (...) {
        fatal("a task of a task collection threw a non-standard exception on rank {}", rt_.rank());
      }
      ++stats_.tasks_executed;
    }
    stats_.work_seconds += wall_time() - start;
    if (team_) {
      // Nothing to run here, but the worker threads are busy: the run stays outstanding, so
      // nap as an idle rank would instead of spinning on messages to ourselves.
      if (ran == 0 && team_->busy()) team_idle_.wait();
      else team_idle_.reset();
    }
    distribute();
    resume();
    publish_load();
  }

  void on_steal_request(int thief, std::uint32_t iteration, RequestKind kind) {
    if (iteration != iteration_ || !active_) {
      if (kind == RequestKind::random) send_system<&StealEngine::on_no>(thief, rt_.rank(), iteration);
      else if (iteration > iteration_) remember(thief, iteration, kind);
      return;
    }
    const LootKind answer = kind == RequestKind::random     ? LootKind::random
                            : kind == RequestKind::lifeline ? LootKind::lifeline_answer
                                                            : LootKind::queued;
    if (send_loot(thief, answer)) {
      publish_load();
      return;
    }
    if (kind == RequestKind::random) send_system<&StealEngine::on_no>(thief, rt_.rank(), iteration);
    else remember(thief, iteration, kind);
  }

  void on_no(int /*victim*/, std::uint32_t iteration) {
    if (iteration != iteration_ || !active_) return;
    waiting_ = false;
    ++stats_.steals_failed;
    resume();
  }

  void on_loot(int victim, std::uint32_t iteration, LootKind kind, std::span<const std::byte> bytes) {
    if (iteration != iteration_ || !active_)
      fatal("loot of iteration {} reached rank {} in iteration {}", iteration, rt_.rank(), iteration_);
    for (std::size_t at = 0; at < bytes.size(); at += sizeof(Entry<Task>)) {
      Entry<Task> entry;
      std::memcpy(static_cast<void*>(&entry), bytes.data() + at, sizeof entry);
      push(entry);
    }
    ++stats_.steals_successful;
    random_tries_ = 0;
    switch (kind) {
      case LootKind::random: waiting_ = false; break;
      case LootKind::lifeline_push: ++stats_.lifeline_activations; [[fallthrough]];
      case LootKind::lifeline_answer: clear_lifeline(victim); break;
      case LootKind::queued: contacted_[static_cast<std::size_t>(victim)] = false; break;
    }
    distribute();
    resume();
    publish_load();
  }

  void on_load(int rank, std::uint32_t iteration, std::uint64_t seq, std::int64_t load) {
    Load& known = loads_[static_cast<std::size_t>(rank)];
    if (std::pair(iteration, seq) <= std::pair(known.iteration, known.seq)) return;
    known = Load{iteration, seq, load};
    if (active_) resume();
  }

 private:
  struct Request {
    int thief;
    std::uint32_t iteration;
  };
  struct Load {
    std::uint32_t iteration = 0;
    std::uint64_t seq = 0;  // 0: the value shared at the start of `iteration`
    std::int64_t tasks = 0;
  };

  void push(const Entry<Task>& entry) {
    if (!deque_->push(entry))
      fatal("the task deque of rank {} is full ({} tasks): raise the capacity steal key", rt_.rank(),
            deque_->capacity());
  }

  template <auto F, class... A>
  void send_system(int dest, A&&... args) {
    tessera::detail::hooks(rt_).send_to<F, tessera::detail::invoke_member<F, StealEngine>>(dest, self_.id(), Envelope::kSystem, std::forward<A>(args)...);
  }

  template <auto F, class... A>
  void send_counted(int dest, A&&... args) {
    const EpochId outer = rt_.current_epoch();
    tessera::detail::hooks(rt_).set_current_epoch(epoch_);
    self_.template send<F>(dest, std::forward<A>(args)...);
    tessera::detail::hooks(rt_).set_current_epoch(outer);
  }

  // The older half of the shared part to `thief`, or else the older half of a worker thread's
  // deque; false when neither has a task.
  bool send_loot(int thief, LootKind kind) {
    if (const auto ticket = deque_->steal_begin()) {
      send_counted<&StealEngine::on_loot>(thief, rt_.rank(), iteration_, kind, std::as_bytes(ticket->tasks));
      deque_->steal_complete(*ticket);
      return true;
    }
    if (!team_) return false;
    scratch_.clear();
    if (team_->take_half(scratch_) == 0) return false;
    send_counted<&StealEngine::on_loot>(thief, rt_.rank(), iteration_, kind,
                                        std::as_bytes(std::span<const Entry<Task>>(scratch_)));
    return true;
  }

  // The main thread's deque ran dry: take the older half of a worker thread's deque.
  bool refill_from_team() {
    if (!team_) return false;
    scratch_.clear();
    if (team_->take_half(scratch_) == 0) return false;
    stats_.worker_steals += 1;
    for (const Entry<Task>& entry : scratch_) push(entry);
    return true;
  }

  void collect_team() {
    team_->stop();
    TeamTotals<Task> totals = team_->collect();
    stats_.tasks_executed += totals.tasks_executed;
    stats_.worker_steals += totals.steals;
    stats_.work_seconds += totals.work_seconds;
    stats_.cpu_seconds += totals.cpu_seconds;
    executed_seeds_.insert(executed_seeds_.end(), totals.executed_seeds.begin(), totals.executed_seeds.end());
    if (Tracer* tracer = rt_.tracer())
      for (const WorkerSpan& span : totals.spans)
        tracer->thread_slice(static_cast<int>(span.worker), "tasks", span.start_ns, span.end_ns, span.tasks);
  }

  void remember(int thief, std::uint32_t iteration, RequestKind kind) {
    auto& list = kind == RequestKind::lifeline ? lifeline_thieves_ : queued_thieves_;
    const bool known = std::any_of(list.begin(), list.end(), [&](const Request& r) {
      return r.thief == thief && r.iteration == iteration;
    });
    if (!known) list.push_back(Request{thief, iteration});
  }

  // Pushes loot to recorded lifeline thieves and queued success_only thieves, oldest first.
  void distribute() {
    for (auto* list : {&lifeline_thieves_, &queued_thieves_}) {
      const LootKind kind = list == &lifeline_thieves_ ? LootKind::lifeline_push : LootKind::queued;
      for (auto it = list->begin(); it != list->end();) {
        if (it->iteration != iteration_) {
          ++it;
        } else if (send_loot(it->thief, kind)) {
          it = list->erase(it);
        } else {
          return;  // nothing left to give
        }
      }
    }
  }

  void clear_lifeline(int victim) {
    for (std::size_t i = 0; i < outgoing_.size(); ++i)
      if (outgoing_[i] == victim) lifeline_out_[i] = false;
  }

  // Keeps the rank busy: runs its tasks if it has any, else steals as the policy says. With
  // worker threads, the run also stays outstanding while they are busy, and the main thread
  // turns to other ranks only when no worker thread has a task queued for it to take.
  void resume() {
    if (!active_) return;
    const bool rank_has_tasks = queued() > 0;
    if (!run_pending_ && (rank_has_tasks || (team_ && team_->busy()))) {
      run_pending_ = true;
      send_counted<&StealEngine::on_run>(rt_.rank(), iteration_);
    }
    // With a team, only a pending run brings the main thread back to the tasks the team holds;
    // without one, turning to other ranks is the only way back to work.
    if (rank_has_tasks || (run_pending_ && (!team_ || team_->queued_hint() > 0))) return;
    if (rt_.size() == 1) return;
    switch (options_.policy) {
      case Policy::random: steal_random(); break;
      case Policy::lifeline:
        if (random_tries_ < options_.w) {
          if (steal_random()) ++random_tries_;
        } else if (!waiting_) {
          steal_lifelines();
        }
        break;
      case Policy::success_only: steal_success_only(); break;
    }
  }

  int random_victim() {
    const auto others = static_cast<std::uint64_t>(rt_.size() - 1);
    return static_cast<int>((static_cast<std::uint64_t>(rt_.rank()) + 1 + rng_() % others) %
                            static_cast<std::uint64_t>(rt_.size()));
  }

  bool steal_random() {
    if (waiting_) return false;
    waiting_ = true;
    ++stats_.steals_attempted;
    send_system<&StealEngine::on_steal_request>(random_victim(), rt_.rank(), iteration_, RequestKind::random);
    return true;
  }

  // Seed 004: one request per outgoing lifeline with none outstanding, then quiet.
  void steal_lifelines() {
    for (std::size_t i = 0; i < outgoing_.size(); ++i) {
      if (lifeline_out_[i]) continue;
      lifeline_out_[i] = true;
      ++stats_.steals_attempted;
      send_system<&StealEngine::on_steal_request>(outgoing_[i], rt_.rank(), iteration_, RequestKind::lifeline);
    }
  }

  bool eligible(std::size_t rank) const {
    return loads_[rank].iteration == iteration_ && loads_[rank].tasks > options_.threshold;
  }

  // Seed 001, Algorithm 1: while some victim we wait on still publishes work, keep waiting;
  // otherwise queue at a random eligible victim we are not already waiting on.
  void steal_success_only() {
    std::vector<int> candidates;
    for (std::size_t r = 0; r < contacted_.size(); ++r) {
      if (static_cast<int>(r) == rt_.rank() || !eligible(r)) continue;
      if (contacted_[r]) return;
      candidates.push_back(static_cast<int>(r));
    }
    if (candidates.empty()) return;
    const int victim = candidates[rng_() % candidates.size()];
    contacted_[static_cast<std::size_t>(victim)] = true;
    ++stats_.steals_attempted;
    send_system<&StealEngine::on_steal_request>(victim, rt_.rank(), iteration_, RequestKind::queued);
  }

  void share_initial_loads() {
    std::vector<std::int64_t> tasks(static_cast<std::size_t>(rt_.size()), 0);
    tasks[static_cast<std::size_t>(rt_.rank())] = queued();
    tasks = rt_.collectives().allreduce(std::move(tasks), op::sum{});
    for (std::size_t r = 0; r < tasks.size(); ++r) {
      if (std::pair(iteration_, std::uint64_t{0}) > std::pair(loads_[r].iteration, loads_[r].seq))
        loads_[r] = Load{iteration_, 0, tasks[r]};
    }
    published_above_ = queued() > options_.threshold;
    load_seq_ = 0;
  }

  // success_only: tells every rank when this rank's queued tasks cross the threshold.
  void publish_load() {
    if (options_.policy != Policy::success_only || !active_) return;
    const std::int64_t available = queued() + (team_ ? team_->queued_hint() : 0);
    const bool above = available > options_.threshold;
    if (above == published_above_) return;
    published_above_ = above;
    ++load_seq_;
    loads_[static_cast<std::size_t>(rt_.rank())] = Load{iteration_, load_seq_, available};
    for (int r = 0; r < rt_.size(); ++r)
      if (r != rt_.rank()) send_system<&StealEngine::on_load>(r, rt_.rank(), iteration_, load_seq_, available);
  }

  Runtime& rt_;
  Termination& term_;
  StealOptions options_;
  Body body_;
  ObjGroup<StealEngine> self_;
  std::unique_ptr<Deque> deque_;  // released with the collection; the engine outlives it
  std::unique_ptr<WorkerTeam<Task>> team_;  // workers > 1 only; released with the deque
  std::vector<Entry<Task>> scratch_;        // tasks taken from the team, main thread only
  IdleBackoff team_idle_;                   // the main thread's naps while only the team has work
  std::mt19937_64 rng_;
  std::vector<Task> seeds_;           // this rank's seed set, for restore()
  std::vector<Task> executed_seeds_;  // seeded tasks run here this iteration (retentive)
  std::uint32_t iteration_ = 0;
  EpochId epoch_ = kGlobalEpoch;
  bool active_ = false;
  bool run_pending_ = false;
  RankStats stats_;
  // Thief state.
  bool waiting_ = false;         // a random request is outstanding
  std::int32_t random_tries_ = 0;
  std::vector<std::int32_t> outgoing_;
  std::vector<bool> lifeline_out_;
  std::vector<bool> contacted_;  // success_only: victims we are queued at
  std::vector<Load> loads_;      // success_only: what each rank last published
  bool published_above_ = false;
  std::uint64_t load_seq_ = 0;
  // Victim state.
  std::vector<Request> lifeline_thieves_;
  std::vector<Request> queued_thieves_;
};

}  // namespace tessera::collections::steal::detail
