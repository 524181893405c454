#pragma once
// CLI11 glue, for an app's options.cpp only: adds --scheme and --workers (work_pool_flags.hpp) to
// the app's command line. The headers under apps/common/cli/ (outside include/: not public) are
// the only app headers that include CLI11; every other header describes options as plain structs.

#include <CLI/CLI.hpp>

#include "tessera/apps/work_pool_flags.hpp"

namespace tessera::apps {

inline void add_work_pool_flags(CLI::App& cli, WorkPoolFlags& flags) {
  cli.add_option("--scheme", flags.scheme,
                 "static (generations split evenly), dynamic (ABP deques and stealing) or sequential (plain "
                 "recursion)")
      ->capture_default_str();
  cli.add_option("--workers", flags.workers, "Worker threads, >= 1 (the static and dynamic schemes)")
      ->capture_default_str();
}

}  // namespace tessera::apps
