#pragma once
/// The live backend of lb's communication interface (tessera/lb/comm.hpp): one rank per process,
/// over Tessera's active messages, so a strategy compiled once into tessera_lb runs inside a job.
///
/// - Messages: a strategy's byte message to rank r is one runtime message to this backend's
///   object group on r, carrying (source rank, handler id, payload bytes).
/// - run_until_quiet: every step and every message of the strategy belongs to one collective
///   epoch, opened by the first collective step after the previous quiet point; run_until_quiet
///   finishes it and returns when termination detection reports it ended, i.e. when every message
///   and every message it caused has been handled everywhere.
/// - allreduce: one runtime allreduce (spanning tree, fixed combine order, so results are the same
///   on every rank and from run to run). broadcast: an allreduce in which only the root's bytes
///   are non-empty, which costs a trip up the tree but needs no extra handler or sequence numbers.
///
/// Collective contract as in comm.hpp: every rank creates the backend, registers handlers and
/// calls the collective operations in the same order. A faster rank may therefore message a
/// handler this rank has not registered yet (it is still finishing the previous collective); such
/// a message is held and runs at this rank's next step, inside the epoch that step opens, which is
/// the epoch the sender was in. Errors: send() to a rank outside [0, P)
/// throws std::out_of_range; a message for a removed handler is fatal (tessera::fatal) on the
/// receiving rank, because it means two ranks disagreed on the strategy's handlers.
#include <tessera/lb/comm.hpp>
#include <tessera/runtime/objgroup.hpp>
#include <tessera/termination/termination.hpp>

#include <optional>
#include <vector>

namespace tessera::lb {

class LiveBackend;

namespace detail {
/// The per-rank receiver of the backend's messages. It lives as long as the runtime (object
/// groups do), so it forgets its backend when the backend goes away.
struct LiveEndpoint {
  LiveBackend* backend = nullptr;
  void on_message(int source, std::uint32_t handler, std::span<const std::byte> payload);
};
}  // namespace detail

class LiveBackend final : public lb::comm::Backend, public RescaleListener {
 public:
  /// Collective: creates the backend's object group on every rank.
  LiveBackend(Runtime& rt, Termination& termination);
  /// Collective: ends an epoch still open (a strategy that stepped after its last quiet point).
  ~LiveBackend() override;
  LiveBackend(const LiveBackend&) = delete;
  LiveBackend& operator=(const LiveBackend&) = delete;

  lb::Rank size() const override { return static_cast<lb::Rank>(rt_.size()); }
  std::span<const lb::Rank> local_ranks() const override { return self_; }

  lb::comm::HandlerId add_handler(lb::comm::RawHandler handler) override;
  void remove_handler(lb::comm::HandlerId id) override;

  void for_each_local(const std::function<void(lb::Rank)>& step) override;
  void run_on(lb::Rank r, const std::function<void()>& step) override;

  void send(lb::Rank source, lb::Rank dest, lb::comm::HandlerId handler, lb::comm::Payload bytes) override;
  void run_until_quiet() override;

  void allreduce(lb::comm::ReduceOp op, std::span<double> values) override;
  void allreduce(lb::comm::ReduceOp op, std::span<std::int64_t> values) override;
  void broadcast(lb::Rank root, lb::comm::Payload& bytes) override;

  /// After a rescale: this rank's new number and the new node map.
  void after_cut(const RankChange& change) override;
  /// At an expand: how many handlers strategies have registered (ids are never reused), so a
  /// joining process numbers the next strategy's handlers as every rank does.
  void join_state(JoinState& state) const override;

  /// Runs a delivered message's handler (called by the object group).
  void deliver(lb::Rank source, lb::comm::HandlerId handler, std::span<const std::byte> payload);

 private:
  void open_epoch_if_needed();
  void deliver_held();

  struct Held {
    lb::Rank source;
    lb::comm::HandlerId handler;
    lb::comm::Payload bytes;
  };

  Runtime& rt_;
  Termination& termination_;
  ObjGroup<detail::LiveEndpoint> group_;
  std::vector<lb::Rank> self_;
  std::vector<lb::comm::RawHandler> handlers_;  // indexed by id; empty once removed
  std::vector<Held> held_;                      // messages for handlers not registered yet
  std::optional<EpochId> epoch_;                // open between a step and the next quiet point
};

}  // namespace tessera::lb
