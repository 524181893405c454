#pragma once
// The command-line flags by which an application picks one of seed 002's work-pools
// (work_pool.hpp) or a plain sequential run: `--scheme=static|dynamic|sequential` and
// `--workers=N`, N in [1, 1024], by default the machine's hardware threads.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "tessera/collections/steal/work_pool.hpp"

namespace tessera::collections::steal {

inline constexpr std::int64_t kMaxPoolWorkers = 1024;

// What the two flags select.
struct WorkPoolChoice {
  std::optional<WorkPoolScheme> scheme;  // empty: sequential
  std::size_t workers = 1;               // 1 when sequential

  const char* name() const { return scheme ? to_string(*scheme) : "sequential"; }
};

// The flags as given, before they are checked.
struct WorkPoolFlags {
  std::string scheme = "dynamic";
  std::int64_t workers = std::max<std::int64_t>(1, std::thread::hardware_concurrency());

  void add_to(CLI::App& cli) {
    cli.add_option("--scheme", scheme,
                   "static (generations split evenly), dynamic (ABP deques and stealing) or sequential (plain "
                   "recursion)")
        ->capture_default_str();
    cli.add_option("--workers", workers, "Worker threads, >= 1 (the static and dynamic schemes)")
        ->capture_default_str();
  }

  // Throws std::invalid_argument naming the flag when either is out of range.
  WorkPoolChoice choice() const {
    WorkPoolChoice choice;
    if (scheme != "sequential") {
      choice.scheme = parse_work_pool_scheme(scheme);
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

}  // namespace tessera::collections::steal
