#include "options.hpp"

#include <iostream>
#include <stdexcept>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tessera/connect4/minimax.hpp"

namespace tessera::connect4::app {
namespace {

constexpr std::int64_t kMaxWorkers = 1024;

Scheme parse_scheme(const std::string& name) {
  if (name == "sequential") return Scheme::sequential;
  if (name == "static") return Scheme::static_assignment;
  if (name == "dynamic") return Scheme::dynamic;
  throw std::invalid_argument(fmt::format("--scheme is '{}': expected static, dynamic or sequential", name));
}

}  // namespace

const char* to_string(Scheme scheme) {
  switch (scheme) {
    case Scheme::sequential: return "sequential";
    case Scheme::static_assignment: return "static";
    case Scheme::dynamic: return "dynamic";
  }
  return "?";
}

CommandLine parse_command_line(int argc, char** argv) {
  CLI::App cli{"tessera-connect4: the four-in-a-row computer opponent of Cederman and Tsigas (seed 002, "
               "section 35.4.1): minimax over the next moves, every node of the tree a task."};
  Options options;
  std::string scheme = "dynamic";
  std::int64_t workers = std::max<std::int64_t>(1, std::thread::hardware_concurrency());
  std::string report = "text";
  cli.add_option("--position", options.position,
                 "Columns played so far, digits 1-7 from the left, first player first (Pascal Pons' notation; "
                 "empty: the empty board)")
      ->capture_default_str();
  cli.add_option("--lookahead", options.lookahead, "Moves to look ahead, in [1, 42]")->capture_default_str();
  cli.add_option("--scheme", scheme, "static (generations split evenly), dynamic (ABP deques and stealing) or "
                                     "sequential (plain recursion)")
      ->capture_default_str();
  cli.add_option("--workers", workers, "Worker threads, >= 1 (the static and dynamic schemes)")->capture_default_str();
  cli.add_option("--report", report, "Output: text, or json for one JSON object on the last line")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, cli.exit(error) == 0 ? 0 : 2};
  }
  try {
    options.board = Board::from_moves(options.position);
    check_lookahead(options.lookahead);
    options.scheme = parse_scheme(scheme);
    if (workers < 1 || workers > kMaxWorkers) {
      throw std::invalid_argument(fmt::format("--workers is {}: expected an integer in [1, {}]", workers, kMaxWorkers));
    }
    options.workers = options.scheme == Scheme::sequential ? 1 : static_cast<std::size_t>(workers);
    options.json = report == "json";
    return {options, 0};
  } catch (const std::exception& error) {
    std::cerr << "tessera-connect4: " << error.what() << "\n";
    return {std::nullopt, 2};
  }
}

}  // namespace tessera::connect4::app
