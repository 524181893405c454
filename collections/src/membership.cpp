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
  // Each message runs, and sends, in the epoch of what released it (the current one), never in
  // its own: the held message counted as delivered when it arrived, so its own epoch may have
  // ended since, or may end at any moment, and this rank is no longer engaged in it. That is
  // so for a rooted epoch even while this rank has not seen it end (only its root learns of
  // the end), and a send into it would reach ranks that already let it end. The releasing
  // message or code is counted in the current epoch, which therefore covers what it sends.
  for (Held& message : messages) message.invoker(rt, message.envelope, message.payload);
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
