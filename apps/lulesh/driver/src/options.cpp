// tessera-lulesh's command line: LULESH's single-dash options through CLI11, validated before the
// runtime starts; the --tessera_ flags pass through untouched to tessera::Context.
#include "tessera/lulesh/driver/options.hpp"

#include <tessera/apps/cli/spmd_app.hpp>
#include <tessera/apps/runtime_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace tessera::lulesh {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

}  // namespace

int cube_root(std::int64_t domains) {
  if (domains < 1) return 0;
  for (std::int64_t p = 1; p * p * p <= domains; ++p)
    if (p * p * p == domains) return static_cast<int>(p);
  return 0;
}

ParseResult parse_options(int argc, const char* const* argv) {
  Options options;
  Problem& problem = options.problem;
  std::int64_t domains = 27;
  std::int64_t cycles = options.max_cycles;
  std::string report = "text";

  CLI::App app{"tessera-lulesh: LULESH 2.0 (Sedov blast, Lagrangian hydrodynamics) with its domains as "
               "Tessera colors",
               "tessera-lulesh"};
  app.add_option("-s", problem.edge, "elements along each edge of one domain")->capture_default_str();
  app.add_option("-i", cycles, "stop after this many cycles (default: at the problem's stop time)");
  app.add_option("-r", problem.regions, "material regions")->capture_default_str();
  app.add_option("-b", problem.balance, "region balance: region r is drawn with weight (r + 1)^b")
      ->capture_default_str();
  app.add_option("-c", problem.cost, "extra EOS evaluations of the expensive regions")->capture_default_str();
  app.add_flag("-p", options.progress, "print every cycle's time and dt");
  app.add_flag("-q", options.quiet, "print neither the banner nor the verification block");
  app.add_option("--domains", domains, "domains (colors), a cube: 1, 8, 27, 64, ...")->capture_default_str();
  app.add_option("--report", report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--checkpoint_every", options.checkpoint_every,
                 "checkpoint every N cycles into --tessera_checkpoint_dir (0: never)")
      ->capture_default_str();
  app.add_option("--restart", options.restart, "continue from the newest complete checkpoint in DIR");

  return apps::parse_spmd_app_flags(app, argc, argv, options, 2, [&] {
    options.json = report == "json";
    require(cycles >= 0, fmt::format("-i {}: expected 0 or more cycles", cycles));
    options.max_cycles = cycles;
    problem.domains_per_side = cube_root(domains);
    require(problem.domains_per_side > 0,
            fmt::format("--domains {}: expected a positive cube (1, 8, 27, 64, ...)", domains));
    problem.validate();
    require(options.checkpoint_every >= 0,
            fmt::format("--checkpoint_every {}: expected 0 (never) or a positive interval", options.checkpoint_every));
    require(app.count("--restart") == 0 || !options.restart.empty(),
            "--restart: expected the checkpoint directory, e.g. --restart ck");
    require(options.checkpoint_every == 0 || apps::has_flag(options.tessera_args, "--tessera_checkpoint_dir"),
            fmt::format("--checkpoint_every {}: expected --tessera_checkpoint_dir=DIR to say where the checkpoints "
                        "go",
                        options.checkpoint_every));
    if (!options.restart.empty()) options.tessera_args.push_back("--tessera_restart=" + options.restart);
  });
}

}  // namespace tessera::lulesh
