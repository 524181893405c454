// Reading a GossipMessage in place (messages.hpp: GossipView).

#include <cstring>
#include <stdexcept>

#include "messages.hpp"

namespace tessera::lb::tempered {

GossipView::GossipView(std::span<const std::byte> bytes) : encoding_(bytes) {
  std::size_t at = 0;
  const auto take = [&](void* into, std::size_t size) {
    if (size > bytes.size() - at) throw std::out_of_range("GossipMessage payload truncated");
    std::memcpy(into, bytes.data() + at, size);
    at += size;
  };
  // A vector's elements: where they start, after checking they all lie inside the payload.
  const auto elements = [&](std::size_t width, std::size_t& count) {
    std::uint64_t n = 0;
    take(&n, sizeof n);
    if (n > (bytes.size() - at) / width) throw std::out_of_range("GossipMessage payload truncated");
    count = static_cast<std::size_t>(n);
    const std::byte* start = bytes.data() + at;
    at += count * width;
    return start;
  };
  take(&round_, sizeof round_);
  std::size_t loads = 0, headrooms = 0;
  ranks_ = elements(sizeof(Rank), size_);
  loads_ = elements(sizeof(double), loads);
  headrooms_ = elements(sizeof(double), headrooms);
  if (headrooms == 0) headrooms_ = nullptr;
  if (loads != size_ || (headrooms != 0 && headrooms != size_)) throw std::out_of_range("GossipMessage payload malformed");
  if (at == bytes.size()) return;  // no block tail
  std::size_t working = 0, counts = 0, flat = 0, sizes = 0, loads_of = 0;
  working_ = elements(sizeof(double), working);
  counts_ = elements(sizeof(std::uint32_t), counts);
  blocks_ = elements(sizeof(std::int64_t), flat);
  bytes_ = elements(sizeof(double), sizes);
  block_loads_ = elements(sizeof(double), loads_of);
  if (working != size_ || counts != size_ || at != bytes.size()) throw std::out_of_range("GossipMessage payload malformed");
  std::size_t total = 0;
  for (std::size_t i = 0; i < size_; ++i) total += element<std::uint32_t>(counts_, i);
  if (2 * total != flat || total != sizes || sizes != loads_of) throw std::out_of_range("GossipMessage payload malformed");
  total_blocks_ = total;
}

PeerBlocks GossipView::blocks(std::size_t i) const {
  PeerBlocks out;
  out.working = element<double>(working_, i);
  if (total_blocks_ == 0) return out;
  if (block_start_.empty()) {
    block_start_.resize(size_ + 1, 0);
    for (std::size_t k = 0; k < size_; ++k) block_start_[k + 1] = block_start_[k] + element<std::uint32_t>(counts_, k);
  }
  for (std::size_t j = block_start_[i]; j < block_start_[i + 1]; ++j) {
    out.blocks.push_back(element<std::int64_t>(blocks_, 2 * j));
    out.blocks.push_back(element<std::int64_t>(blocks_, 2 * j + 1));
    out.bytes.push_back(element<double>(bytes_, j));
    out.loads.push_back(element<double>(block_loads_, j));
  }
  return out;
}

}  // namespace tessera::lb::tempered
