#pragma once
/// The flags by which an application picks one of seed 002's work-pools
/// (tessera/collections/steal/work_pool.hpp) or a plain sequential run:
/// `--scheme=static|dynamic|sequential` and `--tessera_workers=N` (or its deprecated spelling
/// `--workers=N`; workers.hpp), by default the machine's hardware threads. Plain structs:
/// cli/work_pool.hpp adds them to an app's CLI11 command line, in the app's options.cpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <tessera/collections/steal/work_pool.hpp>

#include "tessera/apps/workers.hpp"

namespace tessera::apps {

/// What the flags select.
struct WorkPoolChoice {
  std::optional<collections::steal::WorkPoolScheme> scheme;  ///< empty: sequential
  std::size_t workers = 1;                                   ///< 1 when sequential

  const char* name() const { return scheme ? to_string(*scheme) : "sequential"; }
};

/// The flags as given, before they are checked.
struct WorkPoolFlags {
  std::string scheme = "dynamic";
  WorkersFlags workers;

  /// Throws tessera::Error naming the flag when either is out of range; warns (as `program`)
  /// once that --workers is deprecated.
  WorkPoolChoice choice(std::string_view program) const;
};

}  // namespace tessera::apps
