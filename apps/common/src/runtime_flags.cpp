#include <tessera/apps/runtime_flags.hpp>

#include <algorithm>

namespace tessera::apps {

SplitArguments split_tessera_flags(int argc, const char* const* argv) {
  SplitArguments split;
  if (argc > 0) split.own.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (!arg.starts_with("--tessera_")) {
      split.own.push_back(argv[i]);
      continue;
    }
    split.tessera.emplace_back(arg);
    if (arg.find('=') == std::string_view::npos && i + 1 < argc && argv[i + 1][0] != '-')
      split.tessera.emplace_back(argv[++i]);
  }
  return split;
}

bool has_flag(const std::vector<std::string>& args, std::string_view name) {
  return std::any_of(args.begin(), args.end(), [name](const std::string& a) {
    return a.starts_with(name) && (a.size() == name.size() || a[name.size()] == '=');
  });
}

}  // namespace tessera::apps
