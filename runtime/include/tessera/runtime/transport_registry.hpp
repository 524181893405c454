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
  /// Collective over `*mpi_comm` (an MPI_Comm*): the transport, from the options every transport
  /// gets and its own validated keys. Throws tessera::Error, on every rank alike, when it cannot
  /// start (naming the key or what is missing).
  std::function<std::unique_ptr<Transport>(void* mpi_comm, const TransportOptions& options, const Args& keys)> make;
};

class TransportRegistry {
 public:
  explicit TransportRegistry(std::vector<TransportEntry> entries) : entries_(std::move(entries)) {}

  /// Every transport this build has (mpi, ofi; ofi refuses to start where libfabric was not found).
  static const TransportRegistry& builtin();

  /// The entry named `name`, or nullptr.
  const TransportEntry* find(std::string_view name) const;
  std::vector<std::string> names() const;
  /// `text` checked against `name`'s keys, defaults filled in. Throws tessera::Error for an
  /// unknown transport, and ArgumentError (naming `--tessera_transport_args` and the key) for a
  /// bad key.
  Args parse(std::string_view name, std::string_view text) const;
  /// Every transport with its summary and keys, for --tessera_help_transports.
  std::string help() const;

 private:
  std::vector<TransportEntry> entries_;
};

}  // namespace tessera
