// The ofi transport's error when no provider fits, for the cases this machine cannot produce:
// every provider Debian's libfabric offers here has all the capabilities the transport needs, so
// a provider lacking one is modelled by what `offers` answers.
#include "ofi_transport.hpp"

#include <gtest/gtest.h>
#include <rdma/fabric.h>

namespace {

const std::string kHere = "tcp;ofi_rxm, shm";

TEST(OfiProviderChoice, AProviderWithoutRmaIsNamedWithTheCapability) {
  const auto without_rma = [](std::uint64_t caps) { return (caps & FI_RMA) == 0; };
  EXPECT_EQ(tessera::explain_no_provider("udp", without_rma, kHere),
            "--tessera_transport_args (ofi): provider 'udp' lacks FI_RMA, which the ofi transport needs; providers with "
            "FI_EP_RDM endpoints: tcp;ofi_rxm, shm");
}

TEST(OfiProviderChoice, TheFirstMissingCapabilityInOrderIsNamed) {
  const auto messages_only = [](std::uint64_t caps) { return (caps & ~std::uint64_t{FI_MSG}) == 0; };
  EXPECT_NE(tessera::explain_no_provider("x", messages_only, kHere).find("lacks FI_RMA,"), std::string::npos);
  const auto no_remote_read = [](std::uint64_t caps) { return (caps & FI_REMOTE_READ) == 0; };
  EXPECT_NE(tessera::explain_no_provider("x", no_remote_read, kHere).find("lacks FI_REMOTE_READ,"),
            std::string::npos);
  const auto nothing = [](std::uint64_t caps) { return caps == 0; };
  EXPECT_EQ(tessera::explain_no_provider("", nothing, kHere),
            "--tessera_transport=ofi: no libfabric provider here has FI_MSG, which the ofi transport needs; "
            "providers with FI_EP_RDM endpoints: tcp;ofi_rxm, shm");
}

TEST(OfiProviderChoice, AnUnknownNameListsTheProviders) {
  const auto none = [](std::uint64_t) { return false; };
  EXPECT_EQ(tessera::explain_no_provider("verbs", none, kHere),
            "--tessera_transport_args (ofi): provider=verbs: no such libfabric provider with FI_EP_RDM endpoints here; providers "
            "with FI_EP_RDM endpoints: tcp;ofi_rxm, shm");
  EXPECT_EQ(tessera::explain_no_provider("", none, kHere),
            "--tessera_transport=ofi: no libfabric provider offers FI_EP_RDM endpoints on this machine");
}

TEST(OfiProviderChoice, EveryCapabilityButUnusableModesSaysSo) {
  const auto all = [](std::uint64_t) { return true; };
  EXPECT_NE(tessera::explain_no_provider("odd", all, kHere).find("only in combinations the ofi transport cannot use"),
            std::string::npos);
}

}  // namespace
