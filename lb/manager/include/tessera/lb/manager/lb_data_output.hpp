#pragma once
/// LB data output: each rank's phase records written in vt's LBDatafile format through the lb
/// layer's writer (lb_data_io.hpp), so lbsim, LBAF and vt-tv read them.
///
/// Flags:
///   --tessera_lb_data                   record every phase and write the files at the end
///   --tessera_lb_data_dir=DIR           directory of the files (default "lb_data")
///   --tessera_lb_data_file=STEM.%p.json file name per rank, %p is the rank (default data.%p.json)
///   --tessera_lb_data_compress          brotli-compress the files (readers decide by content)
///   --tessera_lb_report=FILE            at the end, rank 0 writes the HTML report of the files
///                                       (tessera/lb/report.hpp) with the advisor's Advice section
///                                       (tessera/lb/advisor.hpp); implies --tessera_lb_data
///   --tessera_lb_advise                 at the end, rank 0 replays the files under the advisor's
///                                       grid (tessera/lb/advisor.hpp) and prints its top three
///                                       options with their predicted gain over this run; implies
///                                       --tessera_lb_data
///
/// Each rank's metadata also carries `phase_time_s`: for each phase in the file, in order, the
/// seconds on this rank, on the load clock (wall, or thread CPU time with
/// --tessera_lb_load_clock=cpu), from the end of the previous phase_end() (its balancing included)
/// to the record of this one; the first phase counts from the output's construction. The phase's time
/// beyond its objects' loads (waiting, collectives, the runtime's own work) is what `lbsim advise`
/// takes from it; vt and LBAF readers ignore the key. After a run that migrated objects of known
/// size, the metadata also has `migration_bytes` (bytes this rank sent away) and `migration_s` (its
/// own seconds migrating): the rate `lbsim advise` takes for its default bandwidth.
///
/// An element whose type has `double footprint_bytes() const` (collections/phase.hpp) carries it
/// as its task's user_defined `task_footprint_bytes` (vt's and LBAF's name): what the work model's
/// memory terms and the advisor's migration cost read.
///
/// Entities: an element is {seq_id: linear id, collection_id, index, home, migratable: true};
/// the rank's own time (handlers outside elements) is one non-migratable entity per rank,
/// {id: rank, objgroup_id: 0, migratable: false}, as vt lists its object groups.
#include <tessera/collections/phase.hpp>
#include <tessera/lb/model.hpp>
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/node_map.hpp>

#include <functional>
#include <filesystem>
#include <vector>
#include <string>

namespace tessera::lb {

struct LbDataFlags : FlagGroup {
  bool enabled = false;
  std::string dir = "lb_data";
  std::string file = "data.%p.json";
  bool compress = false;
  std::string report;  ///< HTML report file; empty: none
  bool advise = false;  ///< print the advisor's top three options at the end

  /// True when the run records LB data: --tessera_lb_data, or a flag that reads it at the end.
  bool recording() const { return enabled || advise || !report.empty(); }

  void describe(FlagTable& table) override;
  /// Throws tessera::Error unless `file` has the form STEM.%p.json.
  void validate() const override;
  /// DIR/STEM: what lb::write_lb_data and lb::read_lb_data take. An elastic run writes one data
  /// set per rank set (the ranks between two rescales, each set readable alone: lbsim, LBAF and
  /// vt-tv expect a fixed rank count): the first in DIR, the k-th after it in DIR/rescale-k.
  std::filesystem::path stem(int rank_set = 0) const;
};

/// The LBDatafile form of one rank's phase record.
lb::Phase to_lb_phase(const collections::PhaseRecord& record);

/// vt's metadata.shared_node of `rank` under `nodes`: its node id, the ranks on that node, its place
/// among them, and the number of nodes. A rank outside the map throws std::out_of_range.
lb::SharedNode shared_node(const tessera::NodeMap& nodes, int rank);

/// Accumulates one rank's phases and writes its file. Tasks carry `node` = the rank (vt's "node"
/// is a rank); the file's metadata.shared_node says which node the rank ran on.
class LbDataOutput {
 public:
  /// `nodes`: the job's node map (Runtime::node_map()), written as metadata.shared_node; nullptr
  /// writes none (readers then take every rank for a node of its own).
  /// `now`: the load clock in seconds (collections::PhaseManager::now), what phase_time_s is
  /// measured on.
  /// `rank_set`: which of an elastic run's rank sets this rank records (LbDataFlags::stem).
  LbDataOutput(const LbDataFlags& flags, int rank, const tessera::NodeMap* nodes, std::function<double()> now,
               int rank_set = 0)
      : flags_(flags), rank_set_(rank_set), now_(std::move(now)), mark_(now_()) {
    data_.rank = rank;
    if (nodes != nullptr) data_.shared_node = shared_node(*nodes, rank);
  }
  /// Keeps the record, and the seconds since construction or the last phase_done().
  void add(const collections::PhaseRecord& record);
  /// Marks the end of a phase's close (after balancing): the next phase's time starts here.
  void phase_done() { mark_ = now_(); }
  /// This rank's migrations over the run (LbManager::migrated_bytes, migration_seconds); the
  /// file gets what they grew by since start_migrations_at (a rank set's own).
  void set_migrations(double bytes, double seconds) {
    migration_bytes_ = bytes - migration_base_bytes_;
    migration_s_ = seconds - migration_base_s_;
  }
  void start_migrations_at(double bytes, double seconds) {
    migration_base_bytes_ = bytes;
    migration_base_s_ = seconds;
  }
  /// The rank's data as write() writes it (phase_time_s in its metadata).
  lb::RankData data() const;
  /// Writes `DIR/STEM.<rank>.json` (in its rank set's folder). Throws lb::DataError if it cannot.
  void write() const;

 private:
  const LbDataFlags& flags_;
  int rank_set_ = 0;
  lb::RankData data_;
  std::function<double()> now_;  // the load clock, seconds
  std::vector<double> phase_time_s_;
  // Elements inserted and destroyed on this rank per phase (dynamic collections): metadata
  // `inserted` and `destroyed`, written only when some phase has any.
  std::vector<std::int64_t> inserted_;
  std::vector<std::int64_t> destroyed_;
  double mark_ = 0.0;
  double migration_bytes_ = 0.0;
  double migration_s_ = 0.0;
  double migration_base_bytes_ = 0.0;
  double migration_base_s_ = 0.0;
};

}  // namespace tessera::lb
