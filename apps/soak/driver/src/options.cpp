// tessera-soak's command line: CLI11 for the soak's flags, validated before the runtime starts.
#include "tessera/soak/driver/options.hpp"

#include <tessera/apps/cli/spmd_app.hpp>
#include <tessera/apps/runtime_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <string>

namespace tessera::soak {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

void in_range(const char* flag, std::int64_t value, std::int64_t lo, std::int64_t hi) {
  require(value >= lo && value <= hi, fmt::format("{} {}: expected {} to {}", flag, value, lo, hi));
}

// Parsed by hand: CLI11 clamps an integer that overflows instead of refusing it.
std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  require(ec == std::errc{} && end == text.data() + text.size() && !text.empty() && value <= (std::uint64_t{1} << 63) - 1,
          fmt::format("--seed {}: expected an integer from 0 to 2^63-1", text));
  return value;
}

void validate(Options& o, const CLI::App& app) {
  if (app.count("--seconds"))
    require(o.seconds > 0 && o.seconds <= 1e7, fmt::format("--seconds {}: expected more than 0 (and at most 10^7)", o.seconds));
  if (app.count("--phases")) in_range("--phases", o.phases, 1, 1'000'000'000);
  if (o.seconds == 0 && o.phases == 0) o.phases = 20;
  if (o.phases == 0) o.phases = 1'000'000'000;
  in_range("--elements", o.elements, 1, 1'000'000);
  in_range("--fanout", o.fanout, 0, 1000);
  in_range("--ttl", o.ttl, 0, 16);
  in_range("--spmd_messages", o.spmd_messages, 0, 1'000'000);
  in_range("--migrate_one_in", o.migrate_one_in, 0, 1'000'000'000);
  in_range("--tasks", o.tasks, 0, 24);
  in_range("--checkpoint_every", o.checkpoint_every, 0, 1'000'000'000);
  in_range("--shrink_every", o.shrink_every, 0, 1'000'000'000);
  in_range("--expand_every", o.expand_every, 0, 1'000'000'000);
  require(o.shrink_every == 0 || !app.count("--kill_every"),
          "--shrink_every: expected no --kill_every (a restart after a kill starts on a fixed rank count)");
  require(o.expand_every == 0 || !app.count("--kill_every"),
          "--expand_every: expected no --kill_every (a restart after a kill starts on a fixed rank count)");
  require(o.inject == Inject::none || o.spmd_messages > 0,
          "--inject: expected --spmd_messages of at least 1 (the injected message is the SPMD side's first)");
  const bool has_dir = apps::has_flag(o.tessera_args, "--tessera_checkpoint_dir");
  require(o.checkpoint_every == 0 || has_dir,
          fmt::format("--checkpoint_every {}: expected --tessera_checkpoint_dir=DIR to say where the checkpoints go",
                      o.checkpoint_every));
  if (app.count("--kill_every")) {
    require(o.kill_every > 0, fmt::format("--kill_every {}: expected more than 0 seconds", o.kill_every));
    require(has_dir, fmt::format("--kill_every {}: expected --tessera_checkpoint_dir=DIR, where the restart finds "
                                 "the newest checkpoint",
                                 o.kill_every));
    require(o.checkpoint_every > 0, fmt::format("--kill_every {}: expected --checkpoint_every K as well (a restart "
                                                "continues from the newest checkpoint)",
                                                o.kill_every));
  }
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  std::string report = "text";
  std::string inject = "none";
  std::string seed = std::to_string(o.seed);
  CLI::App app{"tessera-soak: a seeded random workload that checks every message arrived exactly once", "tessera-soak"};
  app.add_option("--seconds", o.seconds, "stop after the first phase ending this many seconds after the start");
  app.add_option("--phases", o.phases, "stop after this many phases at the latest (20 when neither is given)");
  app.add_option("--seed", seed, "seed of every random choice (0 to 2^63-1)")->capture_default_str();
  app.add_option("--elements", o.elements, "elements in each of the two collections")->capture_default_str();
  app.add_option("--fanout", o.fanout, "messages each element sends per phase on the broadcast")->capture_default_str();
  app.add_option("--ttl", o.ttl, "how many times handlers pass a message on, at most")->capture_default_str();
  app.add_option("--spmd_messages", o.spmd_messages, "messages the rank-side code sends per phase")->capture_default_str();
  app.add_option("--migrate_one_in", o.migrate_one_in, "a receiver moves itself after one in Q deliveries (0: never)")
      ->capture_default_str();
  app.add_option("--tasks", o.tasks, "depth of the binary tree of stolen tasks per phase (0: none)")->capture_default_str();
  app.add_flag("--dynamic", o.dynamic,
               "a third collection, of sparks, dynamic: every phase inserts and destroys some of them");
  app.add_option("--checkpoint_every", o.checkpoint_every, "checkpoint after every K-th phase (0: never)")
      ->capture_default_str();
  app.add_option("--restart", o.restart, "continue from the newest complete checkpoint in DIR");
  app.add_option("--shrink_every", o.shrink_every,
                 "after every K-th phase 1 or 2 ranks drawn from the seed leave the run (never rank 0; 0: never)")
      ->capture_default_str();
  app.add_option("--expand_every", o.expand_every,
                 "after every K-th phase that does not shrink, 1 or 2 new processes (drawn from the seed) join "
                 "(0: never; needs free slots: mpirun --host HOST:SLOTS)")
      ->capture_default_str();
  app.add_option("--kill_every", o.kill_every, "a random rank kills itself within 0.5 S to 1.5 S (seconds)");
  app.add_option("--inject", inject, "tests only: drop, duplicate or corrupt one message, or hang a phase")
      ->check(CLI::IsMember({"none", "drop", "duplicate", "corrupt", "hang"}));
  app.add_option("--report", report, "text, or json: one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));

  return apps::parse_spmd_app_flags(app, argc, argv, o, 2, [&] {
    o.seed = parse_seed(seed);
    o.json = report == "json";
    o.inject = inject == "drop" ? Inject::drop : inject == "duplicate" ? Inject::duplicate
             : inject == "corrupt" ? Inject::corrupt : inject == "hang" ? Inject::hang : Inject::none;
    validate(o, app);
    require(app.count("--restart") == 0 || !o.restart.empty(), "--restart: expected the checkpoint directory");
    if (!o.restart.empty()) o.tessera_args.push_back("--tessera_restart=" + o.restart);
    o.lb_from_flags = apps::has_flag(o.tessera_args, "--tessera_lb_name") ||
                      apps::has_flag(o.tessera_args, "--tessera_lb_file");
    // A phase that does not end is reported (open epochs, ranks, counts) well before a CI timeout.
    if (!apps::has_flag(o.tessera_args, "--tessera_hang_timeout")) o.tessera_args.push_back("--tessera_hang_timeout=60");
  });
}

}  // namespace tessera::soak
