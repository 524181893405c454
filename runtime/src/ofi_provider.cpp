// Provider selection for the libfabric transport: one fi_getinfo query with the capabilities the
// transport needs, and, when it finds nothing, further queries that say why (no such provider,
// or which capability is missing), agreed on by every rank so all of them fail with one message.
#include <tessera/runtime/error.hpp>

#include "ofi_library.hpp"
#include "ofi_transport.hpp"

#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace tessera {
namespace {

constexpr std::uint64_t kCaps = FI_MSG | FI_RMA | FI_READ | FI_REMOTE_READ;

// RDM hints, with the capabilities, modes and registration modes the transport copes with.
fi_info* make_hints(const std::string& name, std::uint64_t caps) {
  fi_info* hints = detail::ofi_library().dupinfo(nullptr);
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = caps;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;  // every context starts with an fi_context2
  hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;  // one thread drives the transport
  hints->tx_attr->msg_order = FI_ORDER_SAS;  // asked for; order is also kept by sequence numbers
  if (!name.empty()) hints->fabric_attr->prov_name = strdup(name.c_str());
  return hints;
}

fi_info* query(const std::string& name, std::uint64_t caps) {
  fi_info* hints = make_hints(name, caps);
  fi_info* found = nullptr;
  const int code = detail::ofi_library().getinfo(FI_VERSION(1, 9), nullptr, nullptr, 0, hints, &found);
  detail::ofi_library().freeinfo(hints);
  return code == 0 ? found : nullptr;
}

std::string rdm_providers() {
  fi_info* all = query("", 0);
  std::vector<std::string> names;
  for (fi_info* i = all; i != nullptr; i = i->next) {
    const std::string provider = i->fabric_attr->prov_name;
    if (std::find(names.begin(), names.end(), provider) == names.end()) names.push_back(provider);
  }
  detail::ofi_library().freeinfo(all);
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

bool offers(const std::string& name, std::uint64_t caps) {
  fi_info* found = query(name, caps);
  detail::ofi_library().freeinfo(found);
  return found != nullptr;
}

std::string choose(const std::string& name, fi_info*& chosen) {
  fi_info* found = query(name, kCaps);
  for (fi_info* i = found; i != nullptr; i = i->next) {
    if (i->domain_attr->cq_data_size < 8) continue;
    chosen = detail::ofi_library().dupinfo(i);
    detail::ofi_library().freeinfo(found);
    return {};
  }
  if (found != nullptr) {
    detail::ofi_library().freeinfo(found);
    return fmt::format("--tessera_transport_args (ofi): provider '{}' carries fewer than 8 bytes of remote CQ data "
                       "(FI_REMOTE_CQ_DATA), which the ofi transport needs", name);
  }
  return explain_no_provider(name, [&name](std::uint64_t caps) { return offers(name, caps); }, rdm_providers());
}

}  // namespace

std::string explain_no_provider(const std::string& name, const std::function<bool(std::uint64_t caps)>& offers,
                                const std::string& rdm_providers) {
  if (!offers(0) && name.empty())
    return "--tessera_transport=ofi: no libfabric provider offers FI_EP_RDM endpoints on this machine";
  if (!offers(0))
    return fmt::format("--tessera_transport_args (ofi): provider={}: no such libfabric provider with FI_EP_RDM endpoints here; "
                       "providers with FI_EP_RDM endpoints: {}", name, rdm_providers);
  const std::pair<std::uint64_t, const char*> needed[] = {
      {FI_MSG, "FI_MSG"}, {FI_RMA, "FI_RMA"}, {FI_READ, "FI_READ"}, {FI_REMOTE_READ, "FI_REMOTE_READ"}};
  for (const auto& [cap, cap_name] : needed)
    if (!offers(cap))
      return fmt::format("{} {}, which the ofi transport needs; providers with FI_EP_RDM endpoints: {}",
                         name.empty() ? "--tessera_transport=ofi: no libfabric provider here has"
                                      : fmt::format("--tessera_transport_args (ofi): provider '{}' lacks", name),
                         cap_name, rdm_providers);
  return fmt::format("{} FI_MSG and FI_RMA only in combinations the ofi transport cannot use (memory registration "
                     "or context modes); providers with FI_EP_RDM endpoints: {}",
                     name.empty() ? "--tessera_transport=ofi: the libfabric providers here offer"
                                  : fmt::format("--tessera_transport_args (ofi): provider '{}' offers", name),
                     rdm_providers);
}

OfiSetup select_provider(MPI_Comm comm, const std::string& name) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  fi_info* chosen = nullptr;
  std::string error = choose(name, chosen);
  int failing = error.empty() ? std::numeric_limits<int>::max() : rank;
  MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, comm);
  if (failing == std::numeric_limits<int>::max()) return OfiSetup{chosen};
  detail::ofi_library().freeinfo(chosen);
  int length = static_cast<int>(error.size());
  MPI_Bcast(&length, 1, MPI_INT, failing, comm);
  error.resize(static_cast<std::size_t>(length));
  MPI_Bcast(error.data(), length, MPI_CHAR, failing, comm);
  throw Error(error);
}

}  // namespace tessera
