#pragma once
/// The end of every application's run: tessera::Context::finalize() (LB data, report, advice),
/// and on failure one message from the rank that met it and exit status 1 on every rank, so a
/// run whose LB data could not be written does not look like a success.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <string_view>

namespace tessera::apps {

/// Collective. Returns 0, or 1 after the failing rank printed "<program>: <what failed>".
inline int finish(std::string_view program, Context& ctx) {
  const FinalizeStatus status = ctx.finalize();
  if (status) return 0;
  if (status.rank == ctx.runtime().rank())
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.size()), program.data(), status.message.c_str());
  return 1;
}

}  // namespace tessera::apps
