#pragma once
/// Tessera in one include, and the one entry point that starts it with every layer's flags.
///
///   int main(int argc, char** argv) {
///     tessera::Context ctx(argc, argv);            // parses and removes every --tessera_ flag
///     auto tiles = ctx.make_collection<Tile>({8, 8});  // collective: 64 tiles over the ranks
///     for (int step = 0; step < steps; ++step) {
///       tiles.broadcast_from_this_rank<&Tile::relax>();
///       ctx.phase_end();                           // collective: closes the phase, balances
///     }                                            // when the --tessera_lb_ flags say so
///     return ctx.finalize() ? 0 : 1;               // collective: LB data, report, advice
///   }
///
/// Task collections (work stealing) start from the steal flags the same way:
///
///     auto tasks = ctx.task_collection<Node>([](const Node& n, Spawner<Node>& s) { ... });
///
/// Context owns every layer's service and hands out typed accessors: runtime(), termination(),
/// phases() (instrumentation), lb() and steal(). They are created in order (runtime, termination,
/// phase instrumentation, steal service, LB manager) and destroyed in reverse; each registers in
/// its runtime's service table, so two Contexts (one per communicator) live side by side.
/// A help flag (`--tessera_help`, `_help_lb`, `_help_transports`, `_help_markdown`) prints its text
/// on rank 0 and sets help_shown(); the library never exits for it. A program returns 0 there:
///
///     tessera::Context ctx(argc, argv);
///     if (ctx.help_shown()) return 0;
///
/// Checkpoint and restart (lb/manager/checkpoint_flags.hpp for the flags):
///
///     tessera::Context ctx(argc, argv);              // --tessera_restart=DIR: verified here
///     State state = ctx.restarted() ? ctx.restart_state<State>() : State{};
///     auto tiles = ctx.make_collection<Tile>(...);   // restored instead of constructed
///     for (int step = state.step + 1; ...) {
///       ...; ctx.phase_end();
///       if (step % 10 == 0) ctx.checkpoint_now(State{step, ...});   // or --tessera_checkpoint_interval
///     }
#include <tessera/collections.hpp>
#include <tessera/collections/checkpoint/checkpoint.hpp>
#include <tessera/collections/steal/steal_flags.hpp>
#include <tessera/collections/steal/steal_service.hpp>
#include <tessera/collections/steal/task_collection.hpp>
#include <tessera/context/elastic.hpp>
#include <tessera/lb/manager/checkpoint_flags.hpp>
#include <tessera/lb/manager/lb_data_output.hpp>
#include <tessera/lb/manager/lb_flags.hpp>
#include <tessera/lb/manager/lb_manager.hpp>
#include <tessera/runtime.hpp>
#include <tessera/termination/termination.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// The LB manager's namespace before 1.1, when the layer had two (lb and lb_manager); kept for
/// one release.
namespace lb_manager = lb;

/// Every layer's flags as plain structs, for a program that configures Tessera in code: each
/// member starts at its flags' defaults (docs/flags.md names them), e.g.
///
///     tessera::ContextOptions options;
///     options.lb.name = "TemperedLB";           // --tessera_lb_name=TemperedLB
///     options.lb.interval = "auto";             // --tessera_lb_interval=auto
///     tessera::Context ctx(options);
///
/// The values are validated as the flags are: a bad one stops every rank with one message naming
/// its flag.
struct ContextOptions {
  /// The application's communicator (MPI initialized by the application), or MPI_COMM_NULL:
  /// standalone, Tessera initializes and finalizes MPI.
  MPI_Comm app_comm = MPI_COMM_NULL;
  RuntimeFlags runtime;                         ///< --tessera_log_level, _idle_*, _shm*, _transport*, ...
  TraceFlags trace;                             ///< --tessera_trace*
  TerminationFlags termination;                 ///< --tessera_hang_timeout, _rooted_detection, ...
  collections::CollectionFlags collections;     ///< --tessera_lb_load_clock
  collections::steal::StealFlags steal;         ///< --tessera_workers, --tessera_steal_*
  lb::LbFlags lb;                       ///< --tessera_lb_name, _interval, _args, _file, ...
  lb::LbDataFlags lb_data;              ///< --tessera_lb_data*, --tessera_lb_report
  lb::CheckpointFlags checkpoint;       ///< --tessera_checkpoint_*, --tessera_restart
  ElasticFlags elastic;                 ///< --tessera_elastic_plan, _control

  /// The flag groups of the layers above the runtime, in the order a Context parses them: the
  /// one list that both a Context and Context::mpi_thread_level parse.
  std::vector<FlagGroup*> layer_flag_groups() { return {&collections, &lb_data, &termination, &lb, &checkpoint, &steal, &elastic}; }
};

/// What Context::finalize() did, the same verdict on every rank.
struct FinalizeStatus {
  bool ok = true;
  /// The lowest rank that met a failure, -1 when ok.
  int rank = -1;
  /// Empty when ok; on `rank`, what failed (which output, which path); elsewhere, which rank.
  std::string message;
  explicit operator bool() const { return ok; }
};

class Context {
 public:
  /// Starts the runtime (standalone, or inside the application's MPI when `app_comm` is given)
  /// with the flags of every layer. Bad flags: one message and a non-zero exit on every rank.
  Context(int& argc, char**& argv, MPI_Comm app_comm = MPI_COMM_NULL);
  /// The same from a program name and flags held as strings (a program that parses its own
  /// command line and hands the `--tessera_` flags on): a span of `std::string`,
  /// e.g. `std::vector<std::string>{"tessera-pic", "--tessera_lb_name=..."}`.
  /// Arguments other than `--tessera_` flags are an error, as they would be left unread.
  explicit Context(std::span<const std::string> args, MPI_Comm app_comm = MPI_COMM_NULL);
  /// The same from a braced list: `Context ctx({"prog", "--tessera_lb_name=GreedyLB"}, comm)`.
  explicit Context(std::initializer_list<std::string> args, MPI_Comm app_comm = MPI_COMM_NULL)
      : Context(std::span<const std::string>(args.begin(), args.size()), app_comm) {}
  /// The same from options set in code (ContextOptions), with no command line.
  explicit Context(const ContextOptions& options);
  /// Calls finalize() if the program did not; a failure there is printed once (by a rank that
  /// met it), never thrown, and does not stop the other ranks.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// True when a help flag printed its text: the program should end here, returning 0 (the
  /// context is otherwise fully started, so a program that goes on runs as without the flag).
  bool help_shown() const { return help_shown_; }
  Runtime& runtime() { return *runtime_; }
  Termination& termination() { return *termination_; }
  lb::LbManager& lb() { return *lb_manager_; }
  collections::PhaseManager& phases() { return *phases_; }
  /// The steal engine's service: the options task collections start from, and their totals.
  collections::steal::StealService& steal() { return *steal_; }
  const collections::CollectionFlags& collection_flags() const { return options_.collections; }
  const lb::LbDataFlags& lb_data_flags() const { return options_.lb_data; }
  const lb::LbFlags& lb_flags() const { return options_.lb; }
  /// --tessera_workers, --tessera_steal_policy and --tessera_steal_args, validated at start-up.
  const collections::steal::StealFlags& steal_flags() const { return options_.steal; }
  /// Collective: a collection of `T` over `bounds` (every rank calls it, in the same order as its
  /// other collections), each element built on its home rank under the block mapper as
  /// `T(idx, args...)` when `T` has that constructor, else `T(args...)`; restored instead when the
  /// run restarted from a checkpoint (collections/proxy.hpp).
  template <class T, class... A>
  collections::CollectionProxy<T> make_collection(const collections::Index<T::dimensions>& bounds, A&&... args) {
    return collections::make_collection<T>(*runtime_, bounds, std::forward<A>(args)...);
  }
  /// The same with another home mapper (collections/mapper.hpp).
  template <class T, class... A>
  collections::CollectionProxy<T> make_mapped_collection(const collections::Index<T::dimensions>& bounds,
                                                         collections::Mapper<T::dimensions> mapper, A&&... args) {
    return collections::make_mapped_collection<T>(*runtime_, bounds, std::move(mapper), std::forward<A>(args)...);
  }
  /// Collective: an empty dynamic collection of `T` (collections/membership.hpp): elements are
  /// inserted and destroyed at run time, each homed by `mapper` (the block mapper by default).
  template <class T>
  collections::CollectionProxy<T> make_dynamic_collection(
      const collections::Index<T::dimensions>& bounds,
      collections::Mapper<T::dimensions> mapper = collections::Mapper<T::dimensions>(collections::block_map<T::dimensions>)) {
    return collections::make_dynamic_collection<T>(*runtime_, bounds, std::move(mapper));
  }
  /// Collective: a task collection running `body` with steal().options() (the steal flags, or
  /// what the program set there). Task must be trivially copyable (task_collection.hpp).
  template <collections::steal::Stealable Task>
  collections::steal::TaskCollection<Task> task_collection(typename collections::steal::TaskCollection<Task>::Body body) {
    return collections::steal::TaskCollection<Task>(*runtime_, *termination_, steal_->options(), std::move(body));
  }

  /// Collective: the end of the run's output. Writes this rank's LB data (--tessera_lb_data),
  /// then, once every rank's file is complete, the HTML report (--tessera_lb_report, rank 0) and
  /// the advice (--tessera_lb_advise, rank 0). Returns the same status on every rank: not ok when
  /// any rank could not write its part (the report and advice are then skipped, as they would
  /// read incomplete data). Call it once, after the last phase_end(), and exit non-zero when it
  /// fails; later calls return the first call's status.
  FinalizeStatus finalize();

  /// Collective: closes the phase (waits for quiescence), records it for LB data output, then
  /// balances if the LB flags or a request from code say so (the next phase runs with the new
  /// placement). Returns this rank's record of the phase.
  collections::PhaseRecord phase_end();

  /// Collective: writes every live collection's elements, the phase counter and `app_state` (the
  /// program's own state: step, fields) into the checkpoint directory `dir`
  /// (collections/checkpoint/checkpoint.hpp). Call it between phases. On failure (unwritable
  /// directory, no space left) rank 0 prints one message naming the path and every rank exits 2.
  void checkpoint(const std::filesystem::path& dir, std::span<const std::byte> app_state = {});
  /// The same into `--tessera_checkpoint_dir/phase.<next phase>`, then removes all but the newest
  /// --tessera_checkpoint_keep complete checkpoints there (and incomplete ones older than this
  /// one). Returns the checkpoint's directory. Without --tessera_checkpoint_dir: one message, exit 2.
  std::filesystem::path checkpoint_now(std::span<const std::byte> app_state = {});
  /// `state` encoded as a message argument is (serialize.hpp), for the typed restart_state<S>().
  template <class S>
    requires(!std::is_convertible_v<const S&, std::span<const std::byte>>)
  std::filesystem::path checkpoint_now(const S& state) {
    Buffer bytes;
    serial::encode(bytes, state);
    return checkpoint_now(bytes.view());
  }
  // ---- Elastic runs (context/elastic.hpp) ----
  /// The ranks in `ranks` leave at the next phase end (every rank makes the same request): the
  /// balancer in use moves their elements to the ranks that stay, then the runtime moves to a
  /// communicator of those, renumbered in order. Throws tessera::Error for a negative rank or
  /// one named twice; what only the phase end can judge (a rank outside the run, rank 0, every
  /// rank) is refused there with one message, and the run goes on.
  void request_shrink(std::vector<int> ranks);
  /// `processes` new processes of this program join at the next phase end (every rank makes the
  /// same request), on `host` or on the job's free slots (context/elastic.hpp gives what an
  /// expand needs). They get ranks size()..size()+processes-1 and the next phase end balances
  /// elements onto them. With --tessera_elastic_spawn=background that phase end only starts
  /// them, and they join at the first phase end after their start (expanding() until then).
  /// Throws tessera::Error for fewer than one process.
  void request_expand(int processes, std::string host = {});
  /// The MPI thread level the `--tessera_` flags in argv need: MPI_THREAD_MULTIPLE with
  /// --tessera_elastic_spawn=background, else MPI_THREAD_SINGLE. A program that initializes MPI
  /// itself passes it to MPI_Init_thread (a Context that initializes MPI asks for it itself).
  /// Reads argv through the same parser as the Context, on a copy; a bad flag gives
  /// MPI_THREAD_SINGLE here and its message when the Context starts.
  static int mpi_thread_level(int argc, char** argv);
  /// True while an expand's processes start in the background: a later phase end (the first
  /// that finds them started on every rank) completes it. A program whose phase ends are not
  /// all alike ends empty phases until this is false, as tessera-soak does.
  bool expanding() const { return pending_expand_ != nullptr; }
  /// True in a process that joined the run at an expand. Its Context continues the run's phase
  /// numbering and holds no element; the program skips its set-up's collective steps (placing,
  /// reading input) and enters its loop after the phase the expand ended, with join_state().
  bool joined() const { return runtime_->joined(); }
  /// What the running ranks' set_join_state function returned at the expand (empty when not joined).
  std::span<const std::byte> join_state() const { return runtime_->joined_state("app"); }
  /// The same, decoded as a `S` (serial::encode).
  template <class S>
  S join_state() const {
    serial::Reader reader(join_state(), runtime_.get());
    return serial::decode<S>(reader);
  }
  /// What an expand hands the new processes as the application's state, called on rank 0 at the
  /// phase end the expand happens at. Without it an expand is refused.
  void set_join_state(std::function<std::vector<std::byte>()> state) { join_state_ = std::move(state); }
  /// The same for a function returning a `S`, encoded with serial::encode (read with join_state<S>()).
  template <class F>
    requires(!std::is_convertible_v<std::invoke_result_t<F&>, std::vector<std::byte>>)
  void set_join_state(F state) {
    set_join_state(std::function<std::vector<std::byte>()>([state = std::move(state)]() mutable {
      Buffer bytes;
      serial::encode(bytes, state());
      const auto view = bytes.view();
      return std::vector<std::byte>(view.begin(), view.end());
    }));
  }
  /// True on a rank that has left the run: the program ends its loop and returns (finalize()
  /// does nothing collective there). Its process waits at exit, holding no core, for the others.
  bool left() const { return runtime_->left(); }
  /// The application's communicator as it is now: the one given to the constructor (or
  /// MPI_COMM_WORLD, standalone) until a rescale, then its split over the ranks that stay, in
  /// the runtime's new order (owned by the Context); MPI_COMM_NULL on a rank that left. A program
  /// that keeps its own MPI regions takes this after every phase_end().
  MPI_Comm app_comm() const { return app_comm_; }
  /// The last rescale, on the ranks that stay (nullopt before the first).
  std::optional<RescaleReport> last_rescale() const {
    return rescale_log_.empty() ? std::nullopt : std::optional<RescaleReport>(rescale_log_.back());
  }
  /// Every rescale so far, in order, as the ranks there are now saw them (a joined process: none
  /// before it joined). A program's own report (`--report=json`) lists them.
  const std::vector<RescaleReport>& rescale_log() const { return rescale_log_; }
  const ElasticFlags& elastic_flags() const { return options_.elastic; }

  /// What --tessera_checkpoint_interval checkpoints store as the application's state.
  void set_checkpoint_state(std::function<std::vector<std::byte>()> state) { checkpoint_state_ = std::move(state); }

  /// True when this run restarted from a checkpoint (--tessera_restart).
  bool restarted() const { return restart_ != nullptr; }
  /// The checkpoint restarted from (empty when not restarted).
  std::filesystem::path restart_dir() const { return restart_ ? restart_->dir() : std::filesystem::path(); }
  /// The application state of the checkpoint restarted from (empty when not restarted).
  std::span<const std::byte> restart_state() const { return restart_ ? restart_->app_state() : std::span<const std::byte>(); }
  /// The same, decoded as a `S` written by checkpoint_now(const S&).
  template <class S>
  S restart_state() const {
    serial::Reader reader(restart_state(), runtime_.get());
    return serial::decode<S>(reader);
  }
  /// The name checkpoints record and restart checks (argv[0]'s file name).
  const std::string& program() const { return program_; }

 private:
  void start(int& argc, char**& argv, MPI_Comm app_comm, const ContextOptions* preset = nullptr);
  void check_checkpoint_dir() const;
  void remove_old_checkpoints(const std::filesystem::path& newest) const;
  // The rescale due at the end of `phase` (code, plan, control file), agreed on every rank: the
  // ranks that leave or the processes that join, neither when none (context_elastic.cpp).
  struct DueRescale {
    std::vector<int> leaving;  // a shrink
    int joining = 0;           // an expand
    std::string host;
  };
  DueRescale due_rescale(std::int64_t phase);
  // Why an expand of `processes` on `host` cannot be met now, or "" (context_elastic.cpp).
  std::string expand_refusal(int processes, const std::string& host) const;
  void shrink(std::int64_t phase, const std::vector<int>& leaving, double decision_s);
  // An expand: the spawn and the merges (on a helper thread with --tessera_elastic_spawn=background),
  // then, at once or at the first phase end every rank's helper is done, the state handed over
  // and the runtime moved to the merged communicator (context_elastic.cpp).
  struct PendingExpand;
  void expand(std::int64_t phase, int joining, const std::string& host, double decision_s);
  // Collective: true when the pending expand's spawn has returned on every rank.
  bool expand_spawned();
  void finish_expand(std::int64_t phase);
  // At the end of the run with an expand still starting: waits for its spawn and sends the new
  // processes away with an empty state.
  void abandon_expand();
  // Rank 0 prints the rescale's line and appends its JSON to --tessera_lb_stats_file.
  void publish(const RescaleReport& report);
  // LB data through a rescale: every rank writes its rank set's file before the cut (a failure is
  // fatal: the run cannot go on with a rank set's data half written); a rank that stays starts
  // recording the next rank set after it (context_elastic.cpp).
  void close_rank_set();
  void open_rank_set();
  // The job's processes and hosts, at start (collective) or from the running ranks' JoinState.
  void learn_job();
  // Rank 0, once every rank's LB data file is complete; each returns "" or what failed.
  std::string write_report() const;  // --tessera_lb_report
  std::string print_advice() const;  // --tessera_lb_advise

  // The layers' flags, parsed by the Runtime's constructor; the Runtime keeps its own and the
  // trace's, so `runtime`, `trace` and `app_comm` here are only a preset's copy.
  ContextOptions options_;
  std::string program_;
  std::function<std::vector<std::byte>()> checkpoint_state_;
  std::shared_ptr<collections::checkpoint::RestartImage> restart_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<Termination> termination_;
  collections::PhaseManager* phases_ = nullptr;
  collections::steal::StealService* steal_ = nullptr;  // owned by the runtime, like phases_
  std::unique_ptr<lb::LbManager> lb_manager_;
  std::unique_ptr<lb::LbDataOutput> lb_data_;
  std::optional<FinalizeStatus> finalized_;
  bool help_shown_ = false;
  std::vector<std::vector<int>> shrink_requests_;  // from code, for the next phase end
  std::vector<std::pair<int, std::string>> expand_requests_;  // from code: processes, host
  std::function<std::vector<std::byte>()> join_state_;
  int processes_started_ = 0;  // this job's processes, those that left and those that joined included
  std::vector<std::string> job_hosts_;  // the hosts the job's first processes started on
  MPI_Comm app_comm_ = MPI_COMM_NULL;
  bool owns_app_comm_ = false;  // a split made at a rescale
  std::unique_ptr<PendingExpand> pending_expand_;
  std::vector<RescaleReport> rescale_log_;
  double rescaled_at_ = -1.0;  // wall clock when the last rescale ended, until the next phase end
};

}  // namespace tessera
