#pragma once
/// Elastic runs: how a change of the rank set is asked for, and what the last one cost.
///
/// A rescale is asked for in three ways, and happens at a phase end (Context::phase_end), after
/// the phase's records are taken:
///   - in code: Context::request_shrink(ranks), before the phase end it applies to;
///   - by a plan: `--tessera_elastic_plan="PHASE:shrink R,R;PHASE:expand N"`, applied at the end of
///     phase PHASE, with ranks named by their number at that time;
///   - from outside the job: `--tessera_elastic_control=PATH`. Rank 0 reads PATH at every phase end
///     when it exists, one request per line ("shrink 1,3", "expand 2", "expand 2 h3"; `#` starts a
///     comment), then removes it, so an operator or a batch system writes a request once.
/// A request that cannot be met (a rank outside the run, rank 0, every rank, a rank named twice,
/// a second rescale at the same phase end) is refused with one message from rank 0, and the run
/// goes on with the ranks it has.
///
/// With --tessera_trace a rescale shows in the trace as its stages: "decision", "evacuation"
/// (the balancing that empties the leaving ranks), "rescale" holding "spawn", "quiescence" and
/// "cut" or "merge", and an async slice "first phase after a rescale". Each process keeps its
/// own file through renumberings (trace_session.hpp). LB data is one data set per rank set
/// (LbDataFlags::stem), and --tessera_lb_report writes a report of each, listing every rescale.
///
/// An expand starts new processes of the same program with MPI_Comm_spawn (the same command line,
/// plus --tessera_elastic_joined), on the slots of the hosts the job was given, or on HOST. It
/// also needs: a program that hands its state to new processes (Context::set_join_state, read in
/// them with Context::join_state), a fixed --tessera_lb_interval (not auto), and free slots: the job's
/// MPI_UNIVERSE_SIZE counts every process it has started, those that left included (they wait
/// for the job's end). HOST must be a host the job's first processes started on (gathered when the
/// Context starts): Open MPI 4.1 answers a spawn it cannot place with an error on the root only and
/// a hang in MPI_Finalize, so what it would refuse is refused before it is tried. Open MPI also needs a BTL that reaches another job's
/// processes (tcp): with OMPI_MCA_btl set without it, an expand is refused. With --tessera_lb_name
/// the next phase end balances (the flags' strategy) and fills the new ranks; without it, the
/// program's next request to the LB manager does.
///
/// The spawn (with MPI_Init of the new processes, about 0.25 s on one host) runs inline at the
/// phase end by default. With `--tessera_elastic_spawn=background` a helper thread on every
/// running rank makes it, and the merges, while the phases go on; the expand then completes at the
/// first phase end that finds every rank's helper done (one MPI_Allreduce per phase end until
/// then; Context::expanding() is true meanwhile, and other rescale requests are refused). The
/// helper needs MPI_THREAD_MULTIPLE, which the runtime asks MPI_Init_thread for when this flag is
/// given; where the program initialized MPI itself without it, expands spawn inline.
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/rank_change.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

/// One request: shrink (the ranks that leave) or expand (new processes, optionally on a host).
struct ElasticRequest {
  enum class Kind { shrink, expand };
  Kind kind = Kind::shrink;
  std::vector<int> ranks;  ///< shrink: the ranks that leave, as numbered when it takes effect
  int processes = 0;       ///< expand: how many
  std::string host;        ///< expand: where ("" any host the job was given)
  std::string text;        ///< as written, for messages
};

/// Parses "shrink R,R" or "expand N [HOST]". Throws tessera::Error saying what was expected.
ElasticRequest parse_elastic_request(const std::string& text);

/// `--tessera_elastic_plan` and `--tessera_elastic_control`.
struct ElasticFlags : FlagGroup {
  std::string plan;     ///< "PHASE:request;PHASE:request"
  std::string control;  ///< a file rank 0 reads at every phase end
  /// How an expand starts its processes: "inline" (at the phase end that takes the request; the
  /// run waits for MPI_Comm_spawn) or "background" (a helper thread spawns and merges while the
  /// phases go on; the expand completes at the first phase end after, which needs
  /// MPI_THREAD_MULTIPLE: an expand falls back to inline where MPI was initialized without it).
  std::string spawn = "inline";
  bool joined = false;  ///< set by an expand on the processes it starts

  void describe(FlagTable& table) override;
  void validate() const override;
  void resolve() override;
  bool needs_mpi_thread_multiple() const override { return spawn == "background"; }
  /// The plan's requests by phase, in the plan's order (after resolve()).
  const std::multimap<std::int64_t, ElasticRequest>& schedule() const { return schedule_; }

 private:
  std::multimap<std::int64_t, ElasticRequest> schedule_;
};

/// What one rescale cost, the same on every rank that stays (seconds on the wall clock; each
/// stage is the slowest old rank's).
struct RescaleReport {
  std::int64_t phase = 0;       ///< the phase at whose end it happened
  int old_size = 0;
  int new_size = 0;
  std::vector<int> leaving;     ///< shrink: old numbers
  int joining = 0;              ///< expand: the processes that joined
  double spawn_s = 0.0;         ///< expand: MPI_Comm_spawn and the merges, until the new processes answered
  bool background = false;      ///< expand: spawned on a helper thread while phases ran
  std::int64_t overlapped_phases = 0;  ///< expand in the background: phase ends the spawn took
  double decision_s = 0.0;      ///< agreeing on the request (reading the control file included)
  double evacuation_s = 0.0;    ///< the balancing that emptied the leaving ranks (strategy and migration)
  double quiescence_s = 0.0;    ///< the homes told where each element is, and the drains around it
  double cut_s = 0.0;           ///< the communicator split, transports and tables rebuilt
  double first_phase_s = 0.0;   ///< the first phase on the new rank set (set at its end)
  std::int64_t migrations = 0;
  RescaleReport() = default;
  /// The sizes of `change` (and how many join), at the end of `phase`; the stages still zero.
  RescaleReport(std::int64_t at_phase, const RankChange& change)
      : phase(at_phase), old_size(change.old_size), new_size(change.new_size), joining(change.joining()) {}
  /// One line as the LB statistics print theirs, and the same as one JSON object.
  std::string line() const;
  std::string json() const;
};

}  // namespace tessera
