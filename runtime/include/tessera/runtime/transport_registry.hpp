#pragma once
/// Network transports by name: what `--tessera_transport` chooses and `--tessera_transport_args`
/// configures, as the LB registry does for strategies (lb/registry.hpp).
///
/// A transport is one entry: a name, a one-line summary, its keys (tessera/keys.hpp: kind,
/// default, meaning; `--tessera_help_transports` prints them) and a factory. The built-in list is
/// runtime/src/transport_registry.cpp, one line per transport; the test suites that run over a
/// network (tests/runtime/CMakeLists.txt) read the names from that list, and a test checks that
/// they are the registry's. A new transport is a folder of files and one line there
/// (runtime/README.md, "Adding a transport").
#include <tessera/keys.hpp>
#include <tessera/named_registry.hpp>
#include <tessera/runtime/transport.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct TransportEntry {
  std::string name;
  std::string summary;
  std::vector<KeySpec> keys;
  /// Collective over `comm`: the transport, from the options every transport gets and its own
  /// validated keys. Throws tessera::Error, on every rank alike, when it cannot start (naming the
  /// key or what is missing).
  std::function<std::unique_ptr<Transport>(MPI_Comm comm, const TransportOptions& options, const Args& keys)> make;
};

/// find, get, names and help (--tessera_help_transports) come from NamedRegistry, as the LB
/// registry's do.
class TransportRegistry : public NamedRegistry<TransportEntry> {
 public:
  explicit TransportRegistry(std::vector<TransportEntry> entries)
      : NamedRegistry(std::move(entries), "transport", "transports") {}

  /// Every transport this build has (mpi, ofi; ofi refuses to start where libfabric was not found).
  static const TransportRegistry& builtin();

  /// `text` checked against `name`'s keys, defaults filled in. Throws ArgumentError naming
  /// `--tessera_transport` for an unknown transport, and `--tessera_transport_args` and the key
  /// for a bad key.
  Args parse(std::string_view name, std::string_view text) const;
};

}  // namespace tessera
