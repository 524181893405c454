#pragma once
/// SHA-256 of a checkpoint file, streamed (OpenSSL's EVP interface, which uses the processor's
/// SHA extensions where it has them). Restart recomputes it over the file and compares it with the
/// digest stored in the file's trailer and in the manifest.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace tessera::collections::checkpoint {

using Digest = std::array<std::uint8_t, 32>;

/// Lower-case hexadecimal, 64 characters.
std::string to_hex(const Digest& digest);

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const std::byte> bytes);
  /// The digest of everything passed to update(); the object may not be updated afterwards.
  Digest finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::collections::checkpoint
