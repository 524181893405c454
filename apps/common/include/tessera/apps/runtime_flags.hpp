#pragma once
/// The `--tessera_` flags of an application's command line, set aside for tessera::Context.
///
/// An application that parses its own flags (with CLI11) hands the runtime's on unparsed:
///
///   const tessera::apps::SplitArguments split = tessera::apps::split_tessera_flags(argc, argv);
///   app.parse(static_cast<int>(split.own.size()), split.own.data());   // the app's own flags
///   tessera::Context ctx(runtime_args_with_program_name(split.tessera), comm);
///
/// A `--tessera_x` flag written without '=' takes the next argument as its value when that one
/// does not start with '-': the applications using this have no positional arguments, so such an
/// argument can only be that value.
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apps {

struct SplitArguments {
  std::vector<const char*> own;      ///< argv[0] and the application's own arguments, in order
  std::vector<std::string> tessera;  ///< the `--tessera_` flags (and their separate values), in order
};

SplitArguments split_tessera_flags(int argc, const char* const* argv);

/// Whether `args` holds flag `name` (as `name` or `name=value`).
bool has_flag(const std::vector<std::string>& args, std::string_view name);

}  // namespace tessera::apps
