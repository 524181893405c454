#include <tessera/termination/termination.hpp>
#include <tessera/runtime/hooks.hpp>

#include "epoch_table.hpp"

namespace tessera {

void TerminationFlags::describe(FlagTable& table) {
  table.option("--tessera_hang_timeout", hang_timeout,
               "Seconds without progress while an epoch is open before every rank prints its open "
               "epochs and the job exits non-zero (0 disables)");
  table
      .option("--tessera_rooted_detection", rooted_detection,
              "Termination detector for rooted epochs: ds (Dijkstra-Scholten) or wave (four-counter)")
      .one_of({"ds", "wave"});
  table.option("--tessera_wave_backoff_max_us", wave_backoff_max_us,
               "Longest pause in microseconds between two termination waves of a busy epoch");
}

void TerminationFlags::validate() const {
  if (hang_timeout < 0) throw Error("--tessera_hang_timeout must be a non-negative number of seconds");
  if (wave_backoff_max_us < 0) throw Error("--tessera_wave_backoff_max_us must be non-negative");
}

Termination::Termination(Runtime& rt, const TerminationFlags& flags)
    : rt_(rt), table_(std::make_unique<detail::EpochTable>(*this, rt, flags)) {
  if (tessera::detail::hooks(rt).service<Termination>() != nullptr)
    fatal("this runtime has a termination layer already: create one tessera::Termination per runtime");
  tessera::detail::hooks(rt).set_service(this);
}

Termination::~Termination() { tessera::detail::hooks(rt_).set_service<Termination>(nullptr); }

Termination& Termination::of(Runtime& rt) {
  Termination* termination = tessera::detail::hooks(rt).service<Termination>();
  if (termination == nullptr) fatal("this runtime has no termination layer: create a tessera::Termination");
  return *termination;
}

EpochId Termination::open_collective() { return table_->open(true); }
EpochId Termination::open_rooted() { return table_->open(false); }
void Termination::finish(EpochId epoch) { table_->finish(epoch); }
bool Termination::terminated(EpochId epoch) const { return table_->terminated(epoch); }
void Termination::on_termination(EpochId epoch, std::function<void()> done) {
  table_->on_termination(epoch, std::move(done));
}
std::pair<std::uint64_t, std::uint64_t> Termination::counts(EpochId epoch) const { return table_->counts(epoch); }
std::uint64_t Termination::waves(EpochId epoch) const { return table_->waves(epoch); }

void Termination::run_in(EpochId epoch, const std::function<void()>& fn) {
  const EpochId outer = rt_.current_epoch();
  tessera::detail::hooks(rt_).set_current_epoch(epoch);
  fn();
  tessera::detail::hooks(rt_).set_current_epoch(outer);
}

void Termination::wait(EpochId epoch) {
  rt_.run_until([this, epoch] { return table_->terminated(epoch); });
}

void Termination::wait_all(const std::vector<EpochId>& epochs) {
  rt_.run_until([this, &epochs] {
    for (EpochId epoch : epochs)
      if (!table_->terminated(epoch)) return false;
    return true;
  });
}

void Termination::run_in_epoch_collective(const std::function<void()>& fn) {
  const EpochId epoch = open_collective();
  run_in(epoch, fn);
  finish(epoch);
  wait(epoch);
}

void Termination::run_in_epoch_rooted(const std::function<void()>& fn) {
  const EpochId epoch = open_rooted();
  run_in(epoch, fn);
  finish(epoch);
  wait(epoch);
}

EpochId Termination::start_collective(const std::function<void()>& fn, std::function<void()> done) {
  const EpochId epoch = open_collective();
  run_in(epoch, fn);
  on_termination(epoch, std::move(done));
  finish(epoch);
  return epoch;
}

EpochId Termination::start_rooted(const std::function<void()>& fn, std::function<void()> done) {
  const EpochId epoch = open_rooted();
  run_in(epoch, fn);
  on_termination(epoch, std::move(done));
  finish(epoch);
  return epoch;
}

}  // namespace tessera
