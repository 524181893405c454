#include <tessera/collections/membership.hpp>
#include <tessera/runtime/hooks.hpp>
#include <tessera/runtime/runtime.hpp>

#include <spdlog/spdlog.h>

namespace tessera::collections {

void Membership::hold(std::uint64_t element, detail::Invoker invoker, const Envelope& envelope,
                      std::span<const std::byte> payload) {
  held_[element].push_back(Held{invoker, envelope, {payload.begin(), payload.end()}});
  ++held_count_;
}

std::vector<Membership::Held> Membership::release(std::uint64_t element) {
  auto it = held_.find(element);
  if (it == held_.end()) return {};
  std::vector<Held> messages = std::move(it->second);
  held_.erase(it);
  held_count_ -= messages.size();
  return messages;
}

void Membership::replay(Runtime& rt, std::vector<Held>& messages) {
  const EpochId outer = rt.current_epoch();
  for (Held& message : messages) {
    // What the held message sends belongs to its own epoch, as if it had run when it arrived;
    // but a held message counted as delivered, so its epoch may have ended since (a rooted epoch
    // inside the collective one that carries the insertion): then it sends in the epoch of what
    // released it, which is open, instead of into an ended one.
    if (!detail::hooks(rt).epoch_ended(message.envelope.epoch)) detail::hooks(rt).set_current_epoch(message.envelope.epoch);
    else detail::hooks(rt).set_current_epoch(outer);
    message.invoker(rt, message.envelope, message.payload);
  }
  detail::hooks(rt).set_current_epoch(outer);
}

void Membership::dead_letter(Runtime& rt, std::uint64_t collection, const std::string& index, std::string_view what) {
  ++phase_.dead_letters;
  ++total_.dead_letters;
  if (logged_ < kLoggedDeadLetters) {
    rt.log().warn("dead letter: a message to element {} of collection {} {}", index, collection, what);
    if (++logged_ == kLoggedDeadLetters)
      rt.log().warn("further dead letters of collection {} on this rank are counted, not logged", collection);
  }
}

}  // namespace tessera::collections
