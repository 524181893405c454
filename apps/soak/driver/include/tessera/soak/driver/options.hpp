#pragma once
/// The command line of tessera-soak (README.md has the table with defaults).
///
///   --seconds S          stop after the first phase that ends S seconds after the start (> 0)
///   --phases N           stop after phase N at the latest (1 to 10^9; 20 when neither is given)
///   --seed N             everything random is drawn from it (0 to 2^63 - 1)
///   --elements N         elements in each of the two collections (1 to 10^6)
///   --fanout F           messages each element sends on each phase's broadcast (0 to 1000)
///   --ttl T              a message is passed on by handlers up to T times (0 to 16)
///   --spmd_messages M    messages the rank-side code sends per phase (0 to 10^6)
///   --migrate_one_in Q   a receiver moves itself after one in Q deliveries (0: never)
///   --dynamic            a third collection, dynamic: every phase inserts and destroys elements
///   --tasks D            per phase, a task collection with stealing runs a binary tree of depth D (0: none, at most 24)
///   --checkpoint_every K checkpoint after every K-th phase into --tessera_checkpoint_dir
///   --restart DIR        continue from the newest complete checkpoint in DIR, on any rank count
///   --kill_every S       a random rank kills itself at a random moment within 0.5 S to 1.5 S
///                        (needs --checkpoint_every and --tessera_checkpoint_dir)
///   --inject KIND        tests only: drop, duplicate or corrupt the first message of the run's
///                        first phase, which the ledger must then report; or hang: rank 0 waits
///                        in that phase for a collective epoch no other rank opens
///   --report text|json
///
/// `--tessera_` flags go to tessera::Context unparsed. Errors name the flag, its value and what
/// was expected; every rank gets the same result.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tessera/apps/spmd_app.hpp>

namespace tessera::soak {

enum class Inject { none, drop, duplicate, corrupt, hang };

struct Options {
  double seconds = 0;  ///< 0: no time limit
  std::int64_t phases = 0;
  std::uint64_t seed = 1;
  std::int64_t elements = 64;
  std::int64_t fanout = 4;
  std::int64_t ttl = 3;
  std::int64_t spmd_messages = 64;
  std::int64_t migrate_one_in = 256;
  std::int64_t tasks = 10;
  bool dynamic = false;
  std::int64_t checkpoint_every = 0;
  std::string restart;
  double kill_every = 0;  ///< seconds; 0: no kill
  std::int64_t shrink_every = 0;  ///< an elastic shrink after every K-th phase; 0: never
  std::int64_t expand_every = 0;  ///< an elastic expand after every K-th phase (unless it shrinks); 0: never
  Inject inject = Inject::none;
  bool json = false;
  bool lb_from_flags = false;  ///< --tessera_lb_name or --tessera_lb_file given: no rotation
  std::vector<std::string> tessera_args;
};

/// Options to run, or a message (help text, or the error) and the exit code (help 0, error 2).
using ParseResult = apps::ParseResult<Options>;

ParseResult parse_options(int argc, const char* const* argv);

}  // namespace tessera::soak
