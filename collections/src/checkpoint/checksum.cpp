#include <tessera/collections/checkpoint/checksum.hpp>

#include <openssl/evp.h>

#include <stdexcept>

namespace tessera::collections::checkpoint {

struct Sha256::Impl {
  EVP_MD_CTX* context = nullptr;
};

Sha256::Sha256() : impl_(std::make_unique<Impl>()) {
  impl_->context = EVP_MD_CTX_new();
  if (impl_->context == nullptr || EVP_DigestInit_ex(impl_->context, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL could not start a SHA-256 digest");
}

Sha256::~Sha256() { EVP_MD_CTX_free(impl_->context); }

void Sha256::update(std::span<const std::byte> bytes) {
  if (!bytes.empty()) EVP_DigestUpdate(impl_->context, bytes.data(), bytes.size());
}

Digest Sha256::finish() {
  Digest digest{};
  unsigned length = 0;
  EVP_DigestFinal_ex(impl_->context, digest.data(), &length);
  return digest;
}

std::string to_hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(digest.size() * 2);
  for (std::uint8_t b : digest) {
    text.push_back(kDigits[b >> 4]);
    text.push_back(kDigits[b & 15]);
  }
  return text;
}

}  // namespace tessera::collections::checkpoint
