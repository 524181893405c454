#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/hooks.hpp>

namespace tessera {
namespace {

void on_partial(Runtime& rt, std::uint64_t seq, int child, std::span<const std::byte> value) {
  rt.collectives().absorb_partial(seq, child, value);
}

void on_result(Runtime& rt, std::uint64_t seq, int root, std::span<const std::byte> value) {
  rt.collectives().receive_result(seq, root, value);
}

}  // namespace

// Here rather than in runtime.cpp: the runtime owns its collectives without including them.
Collectives& Runtime::collectives() {
  if (!collectives_) collectives_ = std::make_unique<Collectives>(*this);
  return static_cast<Collectives&>(*collectives_);
}

void Collectives::absorb_partial(std::uint64_t seq, int child, std::span<const std::byte> value) {
  Buffer copy(value.size());
  copy.append(value.data(), value.size());
  pending_[seq].partials.emplace(child, std::move(copy));
  complete_if_ready(seq);
}

void Collectives::complete_if_ready(std::uint64_t seq) {
  auto it = pending_.find(seq);
  if (it == pending_.end()) return;
  Pending& pending = it->second;
  if (!pending.contributed || pending.partials.size() < pending.expected) return;
  Pending ready = std::move(pending);
  pending_.erase(it);
  ready.finish(ready.partials);
}

void Collectives::send_partial(int parent, std::uint64_t seq, const Buffer& encoded) {
  detail::hooks(rt_).send_to<&on_partial, detail::invoke_free<&on_partial>>(parent, 0, Envelope::kSystem, seq, rt_.rank(),
                                                              encoded.view());
}

void Collectives::send_result_down(std::uint64_t seq, int root, std::span<const std::byte> encoded) {
  for (int child : spanning_tree_children(rt_.rank(), root, rt_.size(), rt_.flags().tree_fanout))
    detail::hooks(rt_).send_to<&on_result, detail::invoke_free<&on_result>>(child, 0, Envelope::kSystem, seq, root, encoded);
}

void Collectives::receive_result(std::uint64_t seq, int root, std::span<const std::byte> value) {
  send_result_down(seq, root, value);
  auto it = results_.find(seq);
  if (it == results_.end()) fatal("allreduce result {} arrived at a rank that never contributed", seq);
  auto done = std::move(it->second);
  results_.erase(it);
  done(value);
}

}  // namespace tessera
