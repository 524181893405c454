#pragma once
// SHA-1 digests of short messages, from OpenSSL's libcrypto.
//
// UTS spends almost all of its time here: one digest per tree node. OpenSSL offers two
// ways to compute one, and their cost per 24-byte message differs by 2x on the machines
// we measured (Xeon with SHA-NI, OpenSSL 3.0; `tessera-bench-steal` prints both):
//
//   direct  SHA1_Init / SHA1_Update / SHA1_Final   ~95 ns   (deprecated since OpenSSL 3.0)
//   evp     EVP_DigestInit_ex2 / Update / Final     ~195 ns  (provider dispatch per call)
//
// (The one-shot SHA1() of OpenSSL 3.0 looks the algorithm up on every call: ~830 ns.)
// `direct` is therefore the default wherever the library still ships it; `evp` is the
// fallback for a libcrypto built without the deprecated API, and a second, independent
// path that the tests compare against.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace tessera::uts {

using Sha1Digest = std::array<std::uint8_t, 20>;

enum class Sha1Backend { direct, evp };

// True when this libcrypto still provides the deprecated SHA1_* functions.
bool sha1_direct_available() noexcept;

// `direct` when available, else `evp`.
Sha1Backend default_sha1_backend() noexcept;

// Computes SHA-1 digests. Holds per-object OpenSSL state for the `evp` backend, so use one
// hasher per thread. Not copyable; movable.
class Sha1Hasher {
 public:
  // Throws std::runtime_error if the backend is unavailable or OpenSSL fails to set it up.
  explicit Sha1Hasher(Sha1Backend backend = default_sha1_backend());
  ~Sha1Hasher();
  Sha1Hasher(Sha1Hasher&&) noexcept;
  Sha1Hasher& operator=(Sha1Hasher&&) noexcept;
  Sha1Hasher(const Sha1Hasher&) = delete;
  Sha1Hasher& operator=(const Sha1Hasher&) = delete;

  Sha1Backend backend() const noexcept { return backend_; }

  // The digest of `message`. Throws std::runtime_error if OpenSSL reports a failure.
  Sha1Digest digest(std::span<const std::uint8_t> message);

 private:
  struct EvpState;
  Sha1Backend backend_;
  std::unique_ptr<EvpState> evp_;
};

}  // namespace tessera::uts
