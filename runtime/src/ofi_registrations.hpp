#pragma once
// Internal to the libfabric transport: its memory-registration cache.
//
// Why: registering memory is a system call (and, on pinning providers, a page-table walk), and
// the transport sends and reads into the same pooled buffers over and over. Registrations are
// keyed by (address, capacity) and cover a buffer's whole capacity, for every access the
// transport uses, so a buffer met again is never registered again; the pool drops a buffer's
// entry (forget) before freeing it. A buffer freed elsewhere can leave a stale entry that is
// replaced only when its address comes back with another capacity: harmless where a
// registration is a key over virtual addresses (every provider here).
#include <tessera/runtime/buffer.hpp>
#include <tessera/runtime/error.hpp>

#include "ofi_library.hpp"

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include <fmt/format.h>

#include <cstdint>
#include <map>

namespace tessera {

class OfiRegistrations {
 public:
  explicit OfiRegistrations(fid_domain* domain) : domain_(domain) {}
  ~OfiRegistrations() {
    for (auto& [address, entry] : entries_) fi_close(&entry.mr->fid);
  }
  OfiRegistrations(const OfiRegistrations&) = delete;
  OfiRegistrations& operator=(const OfiRegistrations&) = delete;

  /// The registration of `buffer`'s whole capacity, from the cache when present. Throws
  /// tessera::Error when fi_mr_reg fails.
  fid_mr* get(const Buffer& buffer) {
    auto it = entries_.find(buffer.data());
    if (it != entries_.end() && it->second.capacity == buffer.capacity()) return it->second.mr;
    if (it != entries_.end()) forget(buffer);
    fid_mr* mr = nullptr;
    const int code = fi_mr_reg(domain_, buffer.data(), buffer.capacity(), FI_SEND | FI_RECV | FI_READ | FI_REMOTE_READ,
                               0, next_key_++, 0, &mr, nullptr);
    if (code != 0) throw Error(fmt::format("libfabric fi_mr_reg failed: {}", detail::ofi_library().strerror(-code)));
    entries_.emplace(buffer.data(), Entry{buffer.capacity(), mr});
    return mr;
  }

  /// Drops the registration of a buffer about to be freed.
  void forget(const Buffer& buffer) {
    auto it = entries_.find(buffer.data());
    if (it == entries_.end()) return;
    fi_close(&it->second.mr->fid);
    entries_.erase(it);
  }

 private:
  struct Entry {
    std::size_t capacity = 0;
    fid_mr* mr = nullptr;
  };
  fid_domain* domain_;
  std::map<const std::byte*, Entry> entries_;  // by address
  std::uint64_t next_key_ = 1;
};

}  // namespace tessera
