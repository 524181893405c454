#pragma once
/// CLI11 glue, for an MPI application's options.cpp only (spmd_app.hpp says what they share).
#include <string>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <tessera/runtime/error.hpp>

#include "tessera/apps/runtime_flags.hpp"
#include "tessera/apps/spmd_app.hpp"

namespace tessera::apps {

/// Parses argv: the --tessera_ flags go unparsed into `options.tessera_args`, the rest to `cli`
/// (whose name is the program's, and whose options write into `options`), then `validate()`
/// checks what the flags' own checks cannot see and throws tessera::Error naming the flag or
/// file. Help gives its text and exit 0; a bad flag or value gives one message
/// "<program>: <what>" and `bad_input_code`.
template <class Options, class Validate>
ParseResult<Options> parse_spmd_app_flags(CLI::App& cli, int argc, const char* const* argv, Options& options,
                                          int bad_input_code, Validate&& validate) {
  const SplitArguments split = split_tessera_flags(argc, argv);
  options.tessera_args = split.tessera;
  ParseResult<Options> result;
  try {
    cli.parse(static_cast<int>(split.own.size()), split.own.data());
    std::forward<Validate>(validate)();
  } catch (const CLI::CallForHelp&) {
    result.message = cli.help();
    return result;
  } catch (const CLI::ParseError& e) {
    result.message = fmt::format("{}: {} (run with --help for the flags)", cli.get_name(), e.what());
    result.exit_code = bad_input_code;
    return result;
  } catch (const Error& e) {
    result.message = fmt::format("{}: {}", cli.get_name(), e.what());
    result.exit_code = bad_input_code;
    return result;
  }
  result.options = options;
  return result;
}

}  // namespace tessera::apps
