#include <tessera/lb/manager/live_backend.hpp>
#include <tessera/runtime/collectives.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

namespace tessera::lb {

namespace detail {
void LiveEndpoint::on_message(int source, std::uint32_t handler, std::span<const std::byte> payload) {
  if (backend == nullptr) fatal("an LB message from rank {} arrived after its strategy's backend was destroyed", source);
  backend->deliver(static_cast<lb::Rank>(source), handler, payload);
}
}  // namespace detail

namespace {
template <class T>
void reduce_in_place(Collectives& collectives, lb::comm::ReduceOp op, std::span<T> values) {
  std::vector<T> mine(values.begin(), values.end());
  std::vector<T> result;
  switch (op) {
    case lb::comm::ReduceOp::sum: result = collectives.allreduce(std::move(mine), op::sum{}); break;
    case lb::comm::ReduceOp::min: result = collectives.allreduce(std::move(mine), op::min{}); break;
    case lb::comm::ReduceOp::max: result = collectives.allreduce(std::move(mine), op::max{}); break;
  }
  std::copy(result.begin(), result.end(), values.begin());
}
}  // namespace

LiveBackend::LiveBackend(Runtime& rt, Termination& termination)
    : rt_(rt),
      termination_(termination),
      group_(make_objgroup<detail::LiveEndpoint>(rt)),
      self_{static_cast<lb::Rank>(rt.rank())} {
  group_.local()->backend = this;
  // The runtime's node map, for strategies that charge bytes by node or shape trees by it.
  set_nodes(lb::NodeMap{std::vector<std::int32_t>(rt.node_map().nodes().begin(), rt.node_map().nodes().end())});
  tessera::detail::hooks(rt_).add_rescale_listener(this);
  if (const std::span<const std::byte> joined = rt_.joined_state("lb_backend"); joined.size() == sizeof(std::uint64_t)) {
    std::uint64_t registered = 0;
    std::memcpy(&registered, joined.data(), sizeof registered);
    handlers_.resize(registered);  // the running ranks' handlers, none of which runs here again
  }
}

void LiveBackend::join_state(JoinState& state) const {
  const std::uint64_t registered = handlers_.size();
  const auto* raw = reinterpret_cast<const std::byte*>(&registered);
  state["lb_backend"].assign(raw, raw + sizeof registered);
}

void LiveBackend::after_cut(const RankChange&) {
  self_ = {static_cast<lb::Rank>(rt_.rank())};
  set_nodes(lb::NodeMap{std::vector<std::int32_t>(rt_.node_map().nodes().begin(), rt_.node_map().nodes().end())});
}

LiveBackend::~LiveBackend() {
  tessera::detail::hooks(rt_).remove_rescale_listener(this);
  if (!held_.empty())
    fatal("{} LB message(s) arrived for handler {}, which this rank never registered", held_.size(),
          held_.front().handler);
  if (epoch_ && !rt_.left()) {
    termination_.finish(*epoch_);
    termination_.wait(*epoch_);
  }
  group_.local()->backend = nullptr;
}

lb::comm::HandlerId LiveBackend::add_handler(lb::comm::RawHandler handler) {
  handlers_.push_back(std::move(handler));
  return static_cast<lb::comm::HandlerId>(handlers_.size() - 1);
}

void LiveBackend::remove_handler(lb::comm::HandlerId id) {
  // Ids are never reused: a late message for a removed handler is reported, not misrouted.
  if (id < handlers_.size()) handlers_[id] = nullptr;
}

void LiveBackend::open_epoch_if_needed() {
  // Steps are collective, so every rank opens the same epoch here, in the same order.
  if (!epoch_) epoch_ = termination_.open_collective();
  deliver_held();
}

void LiveBackend::deliver_held() {
  if (held_.empty()) return;
  std::vector<Held> ready;
  std::erase_if(held_, [&](Held& m) {
    if (m.handler >= handlers_.size()) return false;
    ready.push_back(std::move(m));
    return true;
  });
  termination_.run_in(*epoch_, [&] {
    for (const Held& m : ready) deliver(m.source, m.handler, m.bytes);
  });
}

void LiveBackend::for_each_local(const std::function<void(lb::Rank)>& step) {
  open_epoch_if_needed();
  termination_.run_in(*epoch_, [&] { step(self_.front()); });
}

void LiveBackend::run_on(lb::Rank r, const std::function<void()>& step) {
  if (r < 0 || r >= size())
    throw std::out_of_range("run_on: rank " + std::to_string(r) + " is outside [0, " + std::to_string(size()) + ")");
  open_epoch_if_needed();
  if (r == self_.front()) termination_.run_in(*epoch_, step);
}

void LiveBackend::send(lb::Rank source, lb::Rank dest, lb::comm::HandlerId handler, lb::comm::Payload bytes) {
  if (dest < 0 || dest >= size())
    throw std::out_of_range("send destination: rank " + std::to_string(dest) + " is outside [0, " +
                            std::to_string(size()) + ")");
  if (source != self_.front())
    throw std::out_of_range("send source: rank " + std::to_string(source) + " is not hosted by this process");
  // A step runs in the strategy's epoch and a handler in its message's (which may be the next
  // epoch, opened by a faster rank): either way the send belongs where it is. A send from outside
  // both (allowed by comm.hpp) joins the strategy's epoch explicitly.
  const auto post = [&] {
    group_.send<&detail::LiveEndpoint::on_message>(static_cast<int>(dest), static_cast<int>(source), handler,
                                                   std::span<const std::byte>(bytes));
  };
  if (rt_.current_epoch() != kGlobalEpoch) {
    post();
  } else {
    open_epoch_if_needed();
    termination_.run_in(*epoch_, post);
  }
}

void LiveBackend::run_until_quiet() {
  if (!epoch_) return;  // nothing stepped since the last quiet point: nothing can be in flight
  // epoch_ stays set while waiting: handlers that run meanwhile send in their messages' epoch.
  termination_.finish(*epoch_);
  termination_.wait(*epoch_);
  epoch_.reset();
}

void LiveBackend::deliver(lb::Rank source, lb::comm::HandlerId handler, std::span<const std::byte> payload) {
  if (handler >= handlers_.size()) {
    held_.push_back(Held{source, handler, lb::comm::Payload(payload.begin(), payload.end())});
    return;
  }
  if (!handlers_[handler])
    fatal("LB message from rank {} names handler {}, which this rank does not have", source, handler);
  handlers_[handler](self_.front(), source, payload);
}

void LiveBackend::allreduce(lb::comm::ReduceOp op, std::span<double> values) {
  reduce_in_place(rt_.collectives(), op, values);
}

void LiveBackend::allreduce(lb::comm::ReduceOp op, std::span<std::int64_t> values) {
  reduce_in_place(rt_.collectives(), op, values);
}

void LiveBackend::broadcast(lb::Rank root, lb::comm::Payload& bytes) {
  if (root < 0 || root >= size())
    throw std::out_of_range("broadcast root: rank " + std::to_string(root) + " is outside [0, " +
                            std::to_string(size()) + ")");
  std::vector<std::uint8_t> mine;
  if (root == self_.front()) {
    mine.resize(bytes.size());
    std::memcpy(mine.data(), bytes.data(), bytes.size());
  }
  // Only the root contributes bytes, so "keep the non-empty side" yields the root's payload.
  auto keep = [](std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b) { return a.empty() ? b : a; };
  const std::vector<std::uint8_t> result = rt_.collectives().allreduce(std::move(mine), keep);
  bytes.resize(result.size());
  std::memcpy(bytes.data(), result.data(), result.size());
}

}  // namespace tessera::lb
