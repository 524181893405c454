#include "tessera/lb/virtual_backend.hpp"

#include <chrono>
#include <ctime>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tessera::lb::comm {

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

VirtualBackend::VirtualBackend(Rank ranks, CpuTiming timing, NodeMap nodes) : timing_(timing) {
  if (ranks < 1) {
    throw std::invalid_argument("VirtualBackend: number of ranks must be >= 1, got " +
                                std::to_string(ranks));
  }
  ranks_.resize(static_cast<std::size_t>(ranks));
  std::iota(ranks_.begin(), ranks_.end(), Rank{0});
  accounts_.resize(ranks_.size());
  clocks_.resize(ranks_.size());
  for (Rank span = 1; span < ranks; span *= 2) wave_ += 2;
  set_nodes(std::move(nodes));
}

HandlerId VirtualBackend::add_handler(RawHandler handler) {
  handlers_.push_back(std::move(handler));
  return static_cast<HandlerId>(handlers_.size() - 1);
}

void VirtualBackend::remove_handler(HandlerId id) {
  // Ids are never reused, so a message left over for a removed handler is reported, not misrouted.
  if (id < handlers_.size()) handlers_[id] = nullptr;
}

template <class F>
void VirtualBackend::charge(Rank r, F&& work) {
  // Nested charging (a step that itself runs another rank) would double-count; the Team API
  // never nests, so the simple start/stop pair is exact.
  if (timing_ == CpuTiming::off) {
    work();
    return;
  }
  const double start = timing_ == CpuTiming::on ? thread_cpu_seconds() : wall_seconds();
  work();
  const double end = timing_ == CpuTiming::on ? thread_cpu_seconds() : wall_seconds();
  accounts_[static_cast<std::size_t>(r)].cpu_seconds += end - start;
}

void VirtualBackend::for_each_local(const std::function<void(Rank)>& step) {
  for (Rank r : ranks_) charge(r, [&] { step(r); });
}

void VirtualBackend::run_on(Rank r, const std::function<void()>& step) {
  check_rank(r, "run_on");
  charge(r, step);
}

void VirtualBackend::send(Rank source, Rank dest, HandlerId handler, Payload bytes) {
  check_rank(source, "send source");
  check_rank(dest, "send destination");
  auto& sender = accounts_[static_cast<std::size_t>(source)];
  sender.messages_sent += 1;
  sender.bytes_sent += static_cast<std::int64_t>(bytes.size());
  queue_.push_back(Envelope{source, dest, handler, stamp(source), std::make_shared<const Payload>(std::move(bytes))});
}

void VirtualBackend::send_to_many(Rank source, std::span<const Rank> dests, HandlerId handler, Payload bytes) {
  check_rank(source, "send source");
  for (Rank dest : dests) check_rank(dest, "send destination");
  auto& sender = accounts_[static_cast<std::size_t>(source)];
  sender.messages_sent += static_cast<std::int64_t>(dests.size());
  sender.bytes_sent += static_cast<std::int64_t>(bytes.size() * dests.size());
  const auto shared = std::make_shared<const Payload>(std::move(bytes));
  const std::int64_t at = stamp(source);
  for (Rank dest : dests) queue_.push_back(Envelope{source, dest, handler, at, shared});
}

void VirtualBackend::run_until_quiet() {
  if (delivering_) {
    throw std::logic_error("run_until_quiet is collective and cannot be called from a handler");
  }
  delivering_ = true;
  try {
    while (!queue_.empty()) {
      group_by_destination();
      const std::size_t count = wave_in_.size();
      for (std::size_t i = 0; i < count; ++i) {
        Envelope& envelope = wave_in_[i];
        prefetch_payloads(i);
        if (envelope.handler >= handlers_.size() || !handlers_[envelope.handler]) {
          throw std::logic_error("message from rank " + std::to_string(envelope.source) +
                                 " to rank " + std::to_string(envelope.dest) +
                                 " names unregistered handler " + std::to_string(envelope.handler));
        }
        auto& receiver = accounts_[static_cast<std::size_t>(envelope.dest)];
        receiver.messages_received += 1;
        receiver.bytes_received += static_cast<std::int64_t>(envelope.bytes->size());
        auto& clock = clocks_[static_cast<std::size_t>(envelope.dest)];
        clock = std::max({clock, base_, envelope.stamp});
        latest_ = std::max(latest_, clock);
        const RawHandler& handler = handlers_[envelope.handler];
        charge(envelope.dest, [&] { handler(envelope.dest, envelope.source, *envelope.bytes); });
        envelope.bytes.reset();  // the payload goes back as soon as its last receiver is done
      }
      wave_in_.clear();
    }
  } catch (...) {
    delivering_ = false;
    queue_.clear();
    wave_in_.clear();
    throw;
  }
  delivering_ = false;
  wave();
}

void VirtualBackend::prefetch_payloads(std::size_t i) const {
  // Payloads are written long before they are read and are cold by then: a handler that parses
  // one (a gossip message: lengths and lists spread over ~1 KB, each read depending on the last)
  // waited on a cache miss per field. The next payload's bytes and the one after's vector header
  // are requested ahead, so the misses overlap the current handler.
  if (i + 2 < wave_in_.size()) __builtin_prefetch(wave_in_[i + 2].bytes.get());
  if (i + 1 < wave_in_.size()) {
    const Payload& next = *wave_in_[i + 1].bytes;
    const std::size_t lines = std::min<std::size_t>(next.size(), 2048) / 64 + 1;
    for (std::size_t line = 0; line < lines; ++line) __builtin_prefetch(next.data() + line * 64);
  }
}

void VirtualBackend::group_by_destination() {
  // A counting sort on the destination: stable, so each destination keeps send order; O(n + P).
  starts_.assign(ranks_.size() + 1, 0);
  for (const Envelope& e : queue_) ++starts_[static_cast<std::size_t>(e.dest) + 1];
  for (std::size_t r = 1; r < starts_.size(); ++r) starts_[r] += starts_[r - 1];
  wave_in_.resize(queue_.size());
  for (Envelope& e : queue_) wave_in_[starts_[static_cast<std::size_t>(e.dest)]++] = std::move(e);
  queue_.clear();
}

void VirtualBackend::wave() {
  latest_ += wave_;
  base_ = latest_;
}

void VirtualBackend::allreduce(ReduceOp, std::span<double>) { wave(); }
void VirtualBackend::allreduce(ReduceOp, std::span<std::int64_t>) { wave(); }
void VirtualBackend::broadcast(Rank root, Payload&) {
  check_rank(root, "broadcast root");
  wave();
}

const RankAccount& VirtualBackend::account(Rank r) const {
  check_rank(r, "account");
  return accounts_[static_cast<std::size_t>(r)];
}

Rank VirtualBackend::busiest_rank() const {
  Rank best = 0;
  for (Rank r = 1; r < size(); ++r) {
    if (accounts_[static_cast<std::size_t>(r)].cpu_seconds >
        accounts_[static_cast<std::size_t>(best)].cpu_seconds) {
      best = r;
    }
  }
  return best;
}

double VirtualBackend::total_cpu_seconds() const {
  double total = 0.0;
  for (const auto& a : accounts_) total += a.cpu_seconds;
  return total;
}

void VirtualBackend::reset_accounts() {
  accounts_.assign(accounts_.size(), RankAccount{});
  clocks_.assign(clocks_.size(), 0);
  base_ = latest_ = 0;
}

void VirtualBackend::check_rank(Rank r, const char* what) const {
  if (r < 0 || r >= size()) {
    throw std::out_of_range(std::string(what) + ": rank " + std::to_string(r) +
                            " is outside [0, " + std::to_string(size()) + ")");
  }
}

}  // namespace tessera::lb::comm
