// Loading libfabric (ofi_library.hpp).
#include "ofi_library.hpp"

#include <tessera/runtime/error.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

namespace tessera::detail {
namespace {

template <class Function>
Function entry(void* library, const char* name) {
  void* address = dlsym(library, name);
  if (address == nullptr)
    throw Error(fmt::format("--tessera_transport=ofi: {} has no {} ({})", kOfiLibraryName, name, dlerror()));
  return reinterpret_cast<Function>(address);
}

OfiLibrary load() {
  void* library = dlopen(kOfiLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    throw Error(fmt::format("--tessera_transport=ofi: cannot load libfabric ({}): install libfabric1, or choose "
                            "--tessera_transport=mpi",
                            dlerror()));
  OfiLibrary api;
  api.getinfo = entry<decltype(api.getinfo)>(library, "fi_getinfo");
  api.freeinfo = entry<decltype(api.freeinfo)>(library, "fi_freeinfo");
  api.dupinfo = entry<decltype(api.dupinfo)>(library, "fi_dupinfo");
  api.fabric = entry<decltype(api.fabric)>(library, "fi_fabric");
  api.strerror = entry<decltype(api.strerror)>(library, "fi_strerror");
  return api;
}

}  // namespace

const OfiLibrary& ofi_library() {
  // The one access point to process-wide state: the loaded library is the same for every runtime.
  static const OfiLibrary api = load();
  return api;
}

}  // namespace tessera::detail
