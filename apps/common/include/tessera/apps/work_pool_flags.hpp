#pragma once
// The command-line flags by which an application picks one of seed 002's work-pools
// (tessera/collections/steal/work_pool.hpp) or a plain sequential run:
// `--scheme=static|dynamic|sequential` and `--workers=N`, N in [1, 1024], by default the
// machine's hardware threads. Plain structs: cli/work_pool.hpp adds them to an app's CLI11
// command line, in the app's options.cpp.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include <tessera/collections/steal/work_pool.hpp>

namespace tessera::apps {

inline constexpr std::int64_t kMaxPoolWorkers = 1024;

// What the two flags select.
struct WorkPoolChoice {
  std::optional<collections::steal::WorkPoolScheme> scheme;  // empty: sequential
  std::size_t workers = 1;               // 1 when sequential

  const char* name() const { return scheme ? to_string(*scheme) : "sequential"; }
};

// The flags as given, before they are checked.
struct WorkPoolFlags {
  std::string scheme = "dynamic";
  std::int64_t workers = std::max<std::int64_t>(1, std::thread::hardware_concurrency());

  // Throws std::invalid_argument naming the flag when either is out of range.
  WorkPoolChoice choice() const {
    WorkPoolChoice choice;
    if (scheme != "sequential") {
      choice.scheme = collections::steal::parse_work_pool_scheme(scheme);
      if (!choice.scheme) {
        throw std::invalid_argument("--scheme is '" + scheme + "': expected static, dynamic or sequential");
      }
    }
    if (workers < 1 || workers > kMaxPoolWorkers) {
      throw std::invalid_argument("--workers is " + std::to_string(workers) + ": expected an integer in [1, " +
                                  std::to_string(kMaxPoolWorkers) + "]");
    }
    choice.workers = choice.scheme ? static_cast<std::size_t>(workers) : 1;
    return choice;
  }
};

}  // namespace tessera::apps
