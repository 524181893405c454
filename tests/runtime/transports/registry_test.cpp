// The transport registry: the names the test suites run over are the registry's, each transport's
// keys are validated with one message naming the flag and the key, and the deprecated ofi flags
// become keys.
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/transport_registry.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> g_tested;  // the names tests/runtime/transports/CMakeLists.txt read

std::string message(const auto& f) {
  try {
    f();
  } catch (const tessera::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TransportRegistry, TheSuitesRunOverEveryRegisteredTransport) {
  EXPECT_EQ(tessera::TransportRegistry::builtin().names(), g_tested);
  EXPECT_EQ(g_tested, (std::vector<std::string>{"mpi", "ofi"}));
}

TEST(TransportRegistry, KeysHaveDefaultsAndAreValidated) {
  const auto& registry = tessera::TransportRegistry::builtin();
  const tessera::Args mpi = registry.parse("mpi", "");
  EXPECT_EQ(mpi.integer("eager_bytes"), 262144);
  EXPECT_FALSE(mpi.given("eager_bytes"));
  const tessera::Args ofi = registry.parse("ofi", "provider=tcp;ofi_rxm peer_timeout=3");
  EXPECT_EQ(ofi.text("provider"), "tcp;ofi_rxm");
  EXPECT_EQ(ofi.real("peer_timeout"), 3.0);
  EXPECT_EQ(ofi.integer("eager_bytes"), 65536);
  EXPECT_EQ(message([&] { registry.parse("mpi", "provider=tcp"); }),
            "--tessera_transport_args (mpi): unknown key 'provider'; valid keys: eager_bytes");
  EXPECT_EQ(message([&] { registry.parse("ofi", "eager_bytes=16"); }),
            "--tessera_transport_args (ofi): eager_bytes=16: expected an integer in [32, 1073741824]");
  EXPECT_EQ(message([&] { registry.parse("ofi", "peer_timeout"); }),
            "--tessera_transport_args (ofi): malformed argument 'peer_timeout': expected key=value");
  EXPECT_EQ(message([&] { registry.parse("carrier-pigeon", ""); }),
            "--tessera_transport: unknown transport 'carrier-pigeon'; valid transports: mpi, ofi");
}

TEST(TransportRegistry, HelpListsEveryTransportWithItsKeys) {
  const std::string help = tessera::TransportRegistry::builtin().help();
  for (const char* expected : {"mpi\n", "  eager_bytes=262144  (an integer in [64, 1073741824])", "ofi\n",
                               "  provider=  (text)", "  peer_timeout=60  (a number >= 0)"})
    EXPECT_NE(help.find(expected), std::string::npos) << expected << " not in:\n" << help;
}

TEST(TransportRegistry, DeprecatedOfiFlagsBecomeKeysWithAWarning) {
  tessera::RuntimeFlags flags;
  flags.transport = "ofi";
  flags.transport_args = "eager_bytes=256";
  flags.ofi_provider = "tcp";
  flags.ofi_peer_timeout = 3;
  std::vector<std::string> warnings;
  EXPECT_EQ(flags.network_args(&warnings), "eager_bytes=256 provider=tcp peer_timeout=3");
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "--tessera_ofi_provider is deprecated: use --tessera_transport_args=provider=tcp",
                          "--tessera_ofi_peer_timeout is deprecated: use --tessera_transport_args=peer_timeout=3"}));
  flags.validate();
  flags.ofi_eager_bytes = 512;  // the key given twice: one message naming it
  EXPECT_EQ(message([&] { flags.validate(); }), "--tessera_transport_args (ofi): key 'eager_bytes' given twice");
  flags.transport = "mpi";  // as before the registry: the ofi flags mean nothing over mpi
  EXPECT_EQ(flags.network_args(), "eager_bytes=256");
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) g_tested.emplace_back(argv[i]);
  return RUN_ALL_TESTS();
}
