#include <tessera/collections/checkpoint/checksum.hpp>

#include <isa-l/crc.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tessera::collections::checkpoint {

void Crc32c::update(std::span<const std::byte> bytes) {
  // crc32_iscsi takes an int length.
  constexpr std::size_t kMost = std::size_t{1} << 30;
  for (std::size_t at = 0; at < bytes.size(); at += kMost) {
    const std::size_t n = std::min(kMost, bytes.size() - at);
    auto* data = reinterpret_cast<unsigned char*>(const_cast<std::byte*>(bytes.data() + at));
    state_ = crc32_iscsi(data, static_cast<int>(n), state_);
  }
}

std::string to_hex(Checksum checksum) { return fmt::format("{:08x}", checksum); }

std::optional<Checksum> checksum_from_hex(const std::string& text) {
  if (text.size() != 8 || !std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  return static_cast<Checksum>(std::stoul(text, nullptr, 16));
}

}  // namespace tessera::collections::checkpoint
