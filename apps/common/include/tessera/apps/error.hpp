#pragma once
/// The one error type of the applications: bad input (a flag, its value, a file) is a
/// tessera::Error whose message names that input and what was expected, as the runtime's own flag
/// errors are. An app's parser turns it into one message "<program>: <what>" and exit code 2 on
/// every rank (cli/tessera/apps/cli/command_line.hpp); every rank parses the same arguments, so
/// every rank stops alike and nothing waits on a rank that left.
#include <string>
#include <string_view>
#include <utility>

#include <tessera/runtime/error.hpp>

namespace tessera::apps {

/// Runs `check` and rethrows a tessera::Error it throws with `flag` in front. A kernel's check
/// names the quantity ("lookahead is 0: expected ...") but cannot know which flag carried it;
/// the app can, so the message names what the user typed ("--lookahead: lookahead is 0: ...").
template <class Check>
decltype(auto) for_flag(std::string_view flag, Check&& check) {
  try {
    return std::forward<Check>(check)();
  } catch (const Error& error) {
    throw Error(std::string(flag) + ": " + error.what());
  }
}

}  // namespace tessera::apps
