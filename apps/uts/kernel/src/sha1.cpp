// The direct backend calls the SHA1_* functions that OpenSSL 3.0 deprecated; see sha1.hpp
// for why they are still the default. Suppressing the warning is confined to this file.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "tessera/uts/sha1.hpp"

#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace tessera::uts {

struct Sha1Hasher::EvpState {
  EVP_MD* md = nullptr;
  EVP_MD_CTX* ctx = nullptr;
  ~EvpState() {
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
  }
};

bool sha1_direct_available() noexcept {
#ifdef OPENSSL_NO_DEPRECATED_3_0
  return false;
#else
  return true;
#endif
}

Sha1Backend default_sha1_backend() noexcept {
  return sha1_direct_available() ? Sha1Backend::direct : Sha1Backend::evp;
}

Sha1Hasher::Sha1Hasher(Sha1Backend backend) : backend_(backend) {
  if (backend == Sha1Backend::direct) {
    if (!sha1_direct_available()) {
      throw std::runtime_error("SHA-1 backend 'direct': this OpenSSL was built without SHA1_Init");
    }
    return;
  }
  evp_ = std::make_unique<EvpState>();
  // Fetching once here rather than per digest is what makes EVP usable at all.
  evp_->md = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  evp_->ctx = EVP_MD_CTX_new();
  if (evp_->md == nullptr || evp_->ctx == nullptr) {
    throw std::runtime_error("SHA-1 backend 'evp': OpenSSL could not provide SHA1");
  }
}

Sha1Hasher::~Sha1Hasher() = default;
Sha1Hasher::Sha1Hasher(Sha1Hasher&&) noexcept = default;
Sha1Hasher& Sha1Hasher::operator=(Sha1Hasher&&) noexcept = default;

Sha1Digest Sha1Hasher::digest(std::span<const std::uint8_t> message) {
  Sha1Digest out{};
#ifndef OPENSSL_NO_DEPRECATED_3_0
  if (backend_ == Sha1Backend::direct) {
    SHA_CTX ctx;
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, message.data(), message.size());
    SHA1_Final(out.data(), &ctx);
    return out;
  }
#endif
  unsigned int length = 0;
  if (EVP_DigestInit_ex2(evp_->ctx, evp_->md, nullptr) != 1 ||
      EVP_DigestUpdate(evp_->ctx, message.data(), message.size()) != 1 ||
      EVP_DigestFinal_ex(evp_->ctx, out.data(), &length) != 1 || length != out.size()) {
    throw std::runtime_error("SHA-1 backend 'evp': OpenSSL digest failed");
  }
  return out;
}

}  // namespace tessera::uts
