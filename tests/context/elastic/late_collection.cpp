// tessera-elastic-late: a process joins a run whose collections changed after the start.
//
// On 2 ranks: an object group and a collection `Early` are created at the start; `Early` is
// destroyed after phase 0 and a collection `Late` is created after phase 1; phase 2's end expands
// by 1 (inline). A joined process creates what the running ranks hold, in their creation order
// (the group, then `Late`), so `Late` takes the same id on every rank. A balancing then puts Late
// elements on the new rank, and each element sends its index to its right neighbour: every
// element must receive exactly its left neighbour's index, on 3 ranks.
//
// --joiner=ok (default): the joined process does the above; rank 0 prints "late: ..." and the
// run exits 0. --joiner=wrong-type: the joined process creates `Early` again (destroyed before it
// joined) in `Late`'s place. --joiner=missing: it creates the group only. Both must stop the run
// with one message and a non-zero exit.
#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace tessera::collections;

constexpr std::int64_t kEarly = 8;
constexpr std::int64_t kLate = 16;

struct Counter {
  std::int64_t touched = 0;
};

struct Early : Element<Early, 1> {
  Early() = default;
  explicit Early(const Index1D&) {}
  void touch() {}
  template <class Archive>
  void serialize(Archive&) {}
};

struct Late : Element<Late, 1> {
  std::int64_t received = -1;
  std::int64_t messages = 0;
  Late() = default;
  explicit Late(const Index1D&) {}
  void pass() { proxy()[Index1D{(index()[0] + 1) % kLate}].send<&Late::take>(index()[0]); }
  void take(std::int64_t from) {
    received = from;
    ++messages;
  }
  template <class Archive>
  void serialize(Archive& archive) {
    archive(received, messages);
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string joiner = "ok";
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--joiner=", 0) == 0) joiner = std::string(argv[i]).substr(9);
  std::vector<std::string> args{argv[0]};
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--joiner=", 0) != 0) args.emplace_back(argv[i]);
  tessera::Context ctx(args);
  tessera::Runtime& rt = ctx.runtime();
  ctx.set_join_state([] { return std::vector<std::byte>(); });
  const bool joined = ctx.joined();
  if (!joined && rt.size() != 2) rt.stop("tessera-elastic-late runs on 2 ranks");

  auto group = tessera::make_objgroup<Counter>(rt);
  std::uint64_t late_id = 0;
  CollectionProxy<Late> late;
  if (!joined) {
    auto early = ctx.make_collection<Early>(Index1D{kEarly});
    for (std::int64_t i = rt.rank(); i < kEarly; i += rt.size()) early[Index1D{i}].send<&Early::touch>();
    ctx.phase_end();  // phase 0
    early.destroy();
    ctx.phase_end();  // phase 1
    late = ctx.make_collection<Late>(Index1D{kLate});
    ctx.request_expand(1);
    ctx.phase_end();  // phase 2: the expand
  } else if (joiner == "wrong-type") {
    ctx.make_collection<Early>(Index1D{kEarly});
    ctx.phase_end();
  } else if (joiner == "missing") {
    ctx.phase_end();
  } else {
    late = ctx.make_collection<Late>(Index1D{kLate});
  }
  late_id = late.id();
  // The same id on every rank, the joined one included.
  const auto lowest = rt.collectives().allreduce(late_id, tessera::op::min{});
  const auto highest = rt.collectives().allreduce(late_id, tessera::op::max{});
  ctx.lb().request("RotateLB");
  ctx.phase_end();  // phase 3: moves every Late element one rank up, onto the new rank among others
  std::int64_t held = 0;
  late.manager().for_each_local([&](const Late&) { ++held; });
  const std::int64_t on_new_rank = rt.collectives().allreduce(rt.rank() == 2 ? held : std::int64_t{0}, tessera::op::sum{});
  late.manager().for_each_local([&](Late& l) { l.pass(); });
  ctx.phase_end();  // phase 4
  std::int64_t right = 0;
  std::int64_t total = 0;
  late.manager().for_each_local([&](const Late& l) {
    ++total;
    right += l.messages == 1 && l.received == (l.index()[0] + kLate - 1) % kLate;
  });
  total = rt.collectives().allreduce(total, tessera::op::sum{});
  right = rt.collectives().allreduce(right, tessera::op::sum{});
  const bool ok = lowest == highest && rt.size() == 3 && total == kLate && right == kLate && on_new_rank > 0;
  if (rt.rank() == 0)
    fmt::print("late: {} ranks, collection id {} on every rank: {}, {} of {} elements, {} on the joined rank, {} received "
               "their left neighbour's index once: {}\n",
               rt.size(), late_id, lowest == highest ? "yes" : "no", total, kLate, on_new_rank, right, ok ? "ok" : "FAILED");
  late.destroy();
  (void)group;
  return ok ? 0 : 1;
}
