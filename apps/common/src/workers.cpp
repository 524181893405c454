// The worker count from --tessera_workers and its deprecated spelling --workers.
#include "tessera/apps/workers.hpp"

#include <iostream>
#include <string>

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::apps {
namespace {
void check_range(const char* flag, std::int64_t workers) {
  if (workers < 1 || workers > kMaxWorkers)
    throw Error(fmt::format("{} is {}: expected an integer in [1, {}]", flag, workers, kMaxWorkers));
}
}  // namespace

std::optional<std::int64_t> resolve_workers(const WorkersFlags& flags, std::string_view program, bool speaking) {
  if (flags.deprecated && speaking)
    std::cerr << program << ": warning: --workers is deprecated, use --tessera_workers\n";
  if (flags.workers) check_range(collections::steal::WorkersFlag::name.data(), *flags.workers);
  if (flags.deprecated) check_range("--workers", *flags.deprecated);
  if (flags.workers && flags.deprecated && *flags.workers != *flags.deprecated) {
    throw Error(fmt::format("--workers {} and --tessera_workers {} disagree: give one (--workers is the older "
                            "spelling)",
                            *flags.deprecated, *flags.workers));
  }
  return flags.workers ? flags.workers : flags.deprecated;
}

}  // namespace tessera::apps
