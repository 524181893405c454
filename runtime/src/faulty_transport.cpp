// The test-only `faults` transport layer (transport_layers.hpp), for the chaos soak: a transport in
// front of the runtime's own that delays messages and refuses sends for a while, the way a slow or
// congested network does (FI_EAGAIN), while keeping what the runtime relies on: every message
// arrives once, bytes intact, and the messages from one rank to another in the order they were
// sent. Its keys: delay_us (hold each message 0 to D microseconds, drawn per message),
// refuse_every_ms and refuse_for_ms (every E milliseconds refuse every send for R; the refused
// messages leave, in order, once it ends), seed (of the delays, default 1).
//
// Held messages wait in one FIFO per destination, so releasing a FIFO's head first is all it
// takes to keep a pair's order. They leave only from this rank's own transport calls (poll,
// probe, await, progress): unlike a real network, nothing delivers them while the rank blocks in
// MPI outside Tessera, so a program that does that right after a send can stall here.
// Compiled only into builds configured with -DTESSERA_FAULT_INJECTION=ON (runtime/CMakeLists.txt).
#include "transport_layers.hpp"

#include <tessera/keys.hpp>
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/timer.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::detail {

namespace {

struct TransportFaults {
  double delay_s = 0;         // most a message is held, seconds
  double refuse_every_s = 0;  // period of the refusal windows, seconds (0: none)
  double refuse_for_s = 0;    // length of each refusal window, seconds
  std::uint64_t seed = 1;
};

std::uint64_t next_random(std::uint64_t& state) {
  state += 0x9e3779b97f4a7c15ull;
  std::uint64_t x = state;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class FaultyTransport final : public Transport {
 public:
  FaultyTransport(std::unique_ptr<Transport> inner, const TransportFaults& faults)
      : inner_(std::move(inner)), faults_(faults), held_(static_cast<std::size_t>(inner_->size())),
        random_(faults.seed * 0x100000001b3ull + static_cast<std::uint64_t>(inner_->rank())), start_(wall_time()) {}

  // What is still held leaves before the transport behind goes (destroying it waits for its
  // sends): a message held at shutdown would otherwise never arrive.
  ~FaultyTransport() override {
    for (std::size_t dest = 0; dest < held_.size(); ++dest)
      for (Held& held : held_[dest]) inner_->send(static_cast<int>(dest), std::move(held.bytes));
  }
  FaultyTransport(const FaultyTransport&) = delete;
  FaultyTransport& operator=(const FaultyTransport&) = delete;

  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }

  void send(int dest, Buffer&& bytes) override {
    const double now = wall_time();
    double due = now;
    if (faults_.delay_s > 0)
      due += faults_.delay_s * static_cast<double>(next_random(random_) >> 11) * 0x1.0p-53;
    if (refusing(now)) due = std::max(due, window_end(now));
    auto& queue = held_[static_cast<std::size_t>(dest)];
    if (queue.empty() && due <= now) {
      inner_->send(dest, std::move(bytes));
      return;
    }
    // Behind the pair's earlier messages: a later one never overtakes them.
    if (!queue.empty()) due = std::max(due, queue.back().due);
    queue.push_back(Held{due, std::move(bytes)});
    ++holding_;
  }

  bool poll(Incoming& out) override {
    release_due();
    return inner_->poll(out);
  }
  void release(Incoming&& in) override { inner_->release(std::move(in)); }
  bool probe() override {
    release_due();
    return inner_->probe();
  }
  bool await(int tries) override {
    release_due();
    // Spinning long on the network would hold messages past their time.
    return inner_->await(holding_ > 0 ? std::min(tries, 16) : tries);
  }
  std::size_t progress() override {
    release_due();
    return inner_->progress() + holding_;
  }
  Buffer acquire(std::size_t capacity) override { return inner_->acquire(capacity); }
  void recycle(Buffer&& bytes) override { inner_->recycle(std::move(bytes)); }
  std::string description() const override { return inner_->description(); }

 private:
  struct Held {
    double due;
    Buffer bytes;
  };

  bool refusing(double now) const {
    if (faults_.refuse_every_s <= 0) return false;
    return std::fmod(now - start_, faults_.refuse_every_s) < faults_.refuse_for_s;
  }
  double window_end(double now) const {
    const double into = std::fmod(now - start_, faults_.refuse_every_s);
    return now - into + faults_.refuse_for_s;
  }

  void release_due() {
    if (holding_ == 0) return;
    const double now = wall_time();
    if (refusing(now)) return;
    for (std::size_t dest = 0; dest < held_.size(); ++dest) {
      auto& queue = held_[dest];
      while (!queue.empty() && queue.front().due <= now) {
        inner_->send(static_cast<int>(dest), std::move(queue.front().bytes));
        queue.pop_front();
        --holding_;
      }
    }
  }

  std::unique_ptr<Transport> inner_;
  TransportFaults faults_;
  std::vector<std::deque<Held>> held_;  // per destination, in send order
  std::size_t holding_ = 0;
  std::uint64_t random_;
  double start_;
};

}  // namespace

TransportLayerEntry fault_layer_entry() {
  TransportLayerEntry entry;
  entry.name = "faults";
  entry.summary = "tests only: messages held and sends refused for a while, order and bytes kept";
  entry.keys = {
      real_key("delay_us", "0", "every send waits up to this long before it leaves", 0),
      real_key("refuse_every_ms", "0", "the network refuses sends for a while this often (0: never)", 0),
      real_key("refuse_for_ms", "0", "how long each refusal lasts", 0),
      integer_key("seed", "1", "the delays' random stream", 0),
  };
  entry.wrap = [](std::unique_ptr<Transport> inner, const Args& args) -> std::unique_ptr<Transport> {
    TransportFaults faults;
    faults.delay_s = args.real("delay_us") * 1e-6;
    faults.refuse_every_s = args.real("refuse_every_ms") * 1e-3;
    faults.refuse_for_s = args.real("refuse_for_ms") * 1e-3;
    faults.seed = static_cast<std::uint64_t>(args.integer("seed"));
    if (faults.refuse_every_s > 0 && faults.refuse_for_s >= faults.refuse_every_s)
      throw Error("faults: refuse_for_ms must be below refuse_every_ms, or sends would never leave");
    return std::make_unique<FaultyTransport>(std::move(inner), faults);
  };
  return entry;
}

}  // namespace tessera::detail
