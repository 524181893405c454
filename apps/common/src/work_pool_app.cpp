// The flags and report lines every work-pool app shares. tests/apps/connect4 and
// tests/apps/octree match these lines and keys: change their wording only with those tests.
#include "tessera/apps/work_pool_app.hpp"
#include "tessera/apps/cli/work_pool.hpp"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

namespace tessera::apps {

WorkPoolChoice WorkPoolFlags::choice(std::string_view program) const {
  WorkPoolChoice choice;
  if (scheme != "sequential") {
    choice.scheme = collections::steal::parse_work_pool_scheme(scheme);
    if (!choice.scheme) throw Error("--scheme is '" + scheme + "': expected static, dynamic or sequential");
  }
  // One process and no runtime: the default is every hardware thread (a runtime's default is
  // one thread per rank, as its ranks already fill the cores).
  const std::int64_t hardware = std::max<std::int64_t>(1, std::thread::hardware_concurrency());
  const std::int64_t workers = resolve_workers(this->workers, program, true).value_or(hardware);
  choice.workers = choice.scheme ? static_cast<std::size_t>(workers) : 1;
  return choice;
}

void add_work_pool_flags(CLI::App& cli, WorkPoolFlags& flags) {
  cli.add_option("--scheme", flags.scheme,
                 "static (generations split evenly), dynamic (ABP deques and stealing) or sequential (plain "
                 "recursion)")
      ->capture_default_str();
  add_workers_flags(cli, flags.workers, true, "The static and dynamic schemes' threads (default: the hardware threads)");
}

void print_scheme_line(std::ostream& out, const WorkPoolChoice& pool) {
  out << fmt::format("scheme     {} ({} worker{})\n", pool.name(), pool.workers, pool.workers == 1 ? "" : "s");
}

void print_run_lines(std::ostream& out, const WorkPoolChoice& pool, std::int64_t peak_tasks, double seconds) {
  if (pool.scheme) out << fmt::format("peak tasks {}\n", peak_tasks);
  out << fmt::format("seconds    {:.4f}\n", seconds);
}

void add_run_keys(nlohmann::ordered_json& json, const WorkPoolChoice& pool, double seconds) {
  json["scheme"] = pool.name();
  json["workers"] = pool.workers;
  json["seconds"] = seconds;
}

}  // namespace tessera::apps
