// The libfabric transport on its own, under a plain MPI main: every rank sends every other rank
// messages on both sides of the eager threshold (and one of 100 MiB to the next rank), each byte
// a function of (source, message, offset), and checks that each source's messages arrive in
// send order with exactly those bytes. The eager threshold comes from the command line, so the
// same test covers the default (64 KiB) and a small one where nearly everything is a rendezvous.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/transport.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string g_provider = "tcp";  // for FI_EP_RDM: tcp;ofi_rxm
std::size_t g_eager = 65536;

std::byte pattern(int source, std::size_t message, std::size_t offset) {
  return static_cast<std::byte>((source * 131 + message * 31 + offset * 7 + offset / 4093) & 0xff);
}

// Sizes sent to every peer, in order; the 100 MiB one only to the next rank.
std::vector<std::size_t> sizes_to(int source, int dest, int ranks) {
  std::vector<std::size_t> sizes{1, 16, g_eager - 1, g_eager, g_eager + 1, 3 * g_eager + 5, (1 << 20) + 3, 8};
  if (dest == (source + 1) % ranks) sizes.push_back(std::size_t{100} << 20);
  sizes.push_back(40);
  return sizes;
}

tessera::TransportOptions options(const std::string& provider = g_provider) {
  tessera::TransportOptions o;
  o.network = "ofi";
  o.shared_memory = false;
  o.network_args = "provider=" + provider + " eager_bytes=" + std::to_string(g_eager);
  return o;
}

TEST(OfiTransport, MessagesAcrossTheEagerThresholdArriveExactAndInOrder) {
  MPI_Comm comm = MPI_COMM_WORLD;
  auto transport = tessera::make_transport(comm, options());
  const int me = transport->rank();
  const int ranks = transport->size();
  std::size_t expected = 0;
  for (int dest = 0; dest < ranks; ++dest) {
    if (dest == me) continue;
    const auto sizes = sizes_to(me, dest, ranks);
    expected += sizes_to(dest, me, ranks).size();
    for (std::size_t m = 0; m < sizes.size(); ++m) {
      tessera::Buffer bytes = transport->acquire(sizes[m]);
      bytes.resize(sizes[m]);
      for (std::size_t i = 0; i < sizes[m]; ++i) bytes.data()[i] = pattern(me, m, i);
      transport->send(dest, std::move(bytes));
    }
  }
  std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);  // by source: next message index
  std::size_t received = 0;
  std::size_t bad_bytes = 0;
  std::vector<tessera::Incoming> held;  // a few messages held, as a handler that runs the scheduler
  while (received < expected) {
    transport->progress();
    tessera::Incoming in;
    if (!transport->poll(in)) continue;
    const auto source = static_cast<std::size_t>(in.source);
    const auto sizes = sizes_to(in.source, me, ranks);
    ASSERT_LT(next[source], sizes.size()) << "too many messages from rank " << in.source;
    const std::size_t m = next[source]++;
    ASSERT_EQ(in.bytes.size(), sizes[m]) << "message " << m << " from rank " << in.source;
    for (std::size_t i = 0; i < in.bytes.size(); ++i) bad_bytes += in.bytes[i] != pattern(in.source, m, i);
    ++received;
    held.push_back(std::move(in));
    if (held.size() == 4) {
      for (auto& h : held) transport->release(std::move(h));
      held.clear();
    }
  }
  for (auto& h : held) transport->release(std::move(h));
  EXPECT_EQ(bad_bytes, 0u);
  for (int source = 0; source < ranks; ++source) {
    if (source == me) continue;
    EXPECT_EQ(next[static_cast<std::size_t>(source)], sizes_to(source, me, ranks).size());
  }
  while (transport->progress() != 0) {
  }
  tessera::Incoming extra;
  EXPECT_FALSE(transport->poll(extra));
}

TEST(OfiTransport, AnUnknownProviderFailsAlikeOnEveryRankListingTheProviders) {
  MPI_Comm comm = MPI_COMM_WORLD;
  auto o = options("no-such-provider");
  try {
    tessera::make_transport(comm, o);
    FAIL() << "no error";
  } catch (const tessera::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--tessera_transport_args (ofi): provider=no-such-provider: no such libfabric provider"), std::string::npos)
        << what;
    EXPECT_NE(what.find("providers with FI_EP_RDM endpoints: "), std::string::npos) << what;
    EXPECT_NE(what.find(g_provider), std::string::npos) << what;
  }
}

}  // namespace

// Arguments: [provider] [eager bytes].
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) g_provider = argv[1];
  if (argc > 2) g_eager = std::strtoull(argv[2], nullptr, 10);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
