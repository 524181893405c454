#include <tessera/runtime/error.hpp>
#include <tessera/runtime/flags.hpp>
#include <tessera/runtime/transport_registry.hpp>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace tessera {
namespace {

constexpr std::string_view kPrefix = "--tessera_";

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string flag_name(const std::string& arg) { return arg.substr(0, arg.find('=')); }

// The CLI11 option of one described flag. The parser lives here only: headers describe flags in
// FlagTable's terms (flags.hpp).
void add_option(CLI::App& app, const Flag& flag) {
  CLI::Option* option = std::visit(
      [&](auto* target) -> CLI::Option* {
        using T = std::remove_pointer_t<decltype(target)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (!flag.takes_value) return app.add_flag(flag.name, *target, flag.help);
        }
        if (!flag.takes_value) throw std::logic_error(flag.name + ": only a bool flag can be a switch");
        CLI::Option* added = app.add_option(flag.name, *target, flag.help);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          // The range in the target's own type, so help and messages read as they always did.
          if (flag.range) added->check(CLI::Range(static_cast<T>(flag.range->first), static_cast<T>(flag.range->second)));
        } else {
          if (flag.range) throw std::logic_error(flag.name + ": only an integer flag can have a range");
        }
        return added;
      },
      flag.target);
  if (!flag.words.empty()) option->transform(CLI::Transformer(flag.words));
  if (!flag.choices.empty()) option->check(CLI::IsMember(flag.choices));
  if (!flag.value_text.empty()) option->option_text(flag.value_text);
}

// "mpi (...), or ofi (...)" from the registry, so the help cannot miss a transport.
std::string registry_summary() {
  std::string out;
  const auto& registry = TransportRegistry::builtin();
  const auto names = registry.names();
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{} ({})", i == 0 ? "" : (i + 1 == names.size() ? ", or " : ", "), names[i],
                       registry.find(names[i])->summary);
  return out;
}

// "mpi: eager_bytes; ofi: provider, eager_bytes, peer_timeout".
std::string registry_keys() {
  std::string out;
  for (const auto& name : TransportRegistry::builtin().names()) {
    std::string keys;
    for (const auto& key : TransportRegistry::builtin().find(name)->keys) keys += (keys.empty() ? "" : ", ") + key.name;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", name, keys.empty() ? "(none)" : keys);
  }
  return out;
}

// The value a flag holds before parsing, as a user would write it (a word such as `auto` when the
// default is the value that word stands for).
std::string default_text(const Flag& flag) {
  std::string text = std::visit(
      [](auto* target) -> std::string {
        using T = std::remove_pointer_t<decltype(target)>;
        if constexpr (std::is_same_v<T, bool>) {
          return *target ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return *target;
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          return target->value_or("");
        } else {
          return fmt::format("{}", *target);
        }
      },
      flag.target);
  for (const auto& [word, value] : flag.words) {
    if (value == text) return word;
    // Words stand for numbers written by std::to_string ("-1.000000"); compare them as numbers.
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end != value.c_str() && *end == '\0' && fmt::format("{}", number) == text) return word;
  }
  return text;
}

std::string value_text(const Flag& flag) {
  if (!flag.takes_value) return "";
  if (!flag.value_text.empty()) return flag.value_text;
  if (!flag.choices.empty()) {
    std::string joined;
    for (const auto& choice : flag.choices) joined += (joined.empty() ? "" : "|") + choice;
    return joined;
  }
  return std::visit(
      [](auto* target) -> std::string {
        using T = std::remove_pointer_t<decltype(target)>;
        if constexpr (std::is_same_v<T, bool>) return "true|false";
        else if constexpr (std::is_integral_v<T>) return "N";
        else if constexpr (std::is_floating_point_v<T>) return "X";
        else return "TEXT";
      },
      flag.target);
}

std::string markdown_cell(std::string text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

// The flags reference (docs/flags.md is this table, regenerated at build time and compared by a
// test): one row per flag, in help order, with the default each flag had before parsing.
std::string markdown_reference(const FlagTable& table, const std::vector<std::string>& defaults) {
  std::string out =
      "| flag | value | default | meaning |\n"
      "| --- | --- | --- | --- |\n";
  for (std::size_t i = 0; i < table.flags().size(); ++i) {
    const Flag& flag = table.flags()[i];
    const std::string value = value_text(flag);
    const std::string fallback = defaults[i];
    out += fmt::format("| `{}` | {} | {} | {} |\n", flag.name, value.empty() ? "" : "`" + markdown_cell(value) + "`",
                       !flag.takes_value || fallback.empty() ? "" : "`" + markdown_cell(fallback) + "`",
                       markdown_cell(flag.help));
  }
  return out;
}

}  // namespace

void RuntimeFlags::describe(FlagTable& table) {
  table.flag("--tessera_help", help, "Print every Tessera flag and exit");
  table.flag("--tessera_help_markdown", help_markdown,
             "Print every Tessera flag as a Markdown table (flag, value, default, meaning) and exit");
  table.option("--tessera_log_level", log_level, "Log level: trace, debug, info, warn, error, critical, off")
      .one_of({"trace", "debug", "info", "warn", "error", "critical", "off"});
  table
      .option("--tessera_idle_spin_us", idle_spin_us,
              "Microseconds an idle rank busy-polls before yielding its core; auto (default): "
              "10000 when the node's ranks have a CPU each (affinity masks, cgroup quota), else 50; a rank "
              "seen descheduled while spinning spins 50 for 1-64 s")
      .word("auto", std::to_string(kIdleSpinAuto))
      .shown_as("auto|US");
  table.option("--tessera_idle_yield_us", idle_yield_us,
               "Microseconds an idle rank yields (sched_yield) before it starts sleeping");
  table.option("--tessera_idle_sleep_max_us", idle_sleep_max_us,
               "Longest sleep, in microseconds, of an idle rank between polls");
  table.option("--tessera_coalesce_bytes", coalesce_bytes,
               "Bytes of small messages to one rank packed into one network message before it "
               "leaves early (it always leaves by the end of the scheduler turn); 0 sends each at once");
  table.option("--tessera_shm", shm,
               "Ranks on one node exchange messages through shared-memory rings (true) or MPI only (false)");
  table.option("--tessera_shm_ring_bytes", shm_ring_bytes,
               "Bytes of each shared-memory ring between two ranks of a node (0: automatic, up to 16 MiB; "
               "else at least 4096, a multiple of 64); messages above a quarter of it go through MPI");
  table
      .option("--tessera_transport", transport,
              "Network between ranks (behind the shared-memory rings of a node): " +
                  registry_summary())
      .one_of(TransportRegistry::builtin().names());
  table.option("--tessera_transport_args", transport_args,
               "The transport's keys, \"key=value ...\" (--tessera_help_transports lists them): " + registry_keys());
  table.flag("--tessera_help_transports", help_transports, "Print every transport with its keys and exit");
  table.option("--tessera_ofi_provider", ofi_provider,
               "Deprecated: --tessera_transport_args=provider=NAME (with --tessera_transport=ofi)");
  table.option("--tessera_ofi_eager_bytes", ofi_eager_bytes,
               "Deprecated: --tessera_transport_args=eager_bytes=N (with --tessera_transport=ofi)")
      .shown_as("N");
  table.option("--tessera_ofi_peer_timeout", ofi_peer_timeout,
               "Deprecated: --tessera_transport_args=peer_timeout=S (with --tessera_transport=ofi)")
      .shown_as("S");
  table.option("--tessera_tree_fanout", tree_fanout,
               "Branching factor of the spanning tree used by broadcasts and reductions (>= 2)");
}

void RuntimeFlags::validate() const {
  if (tree_fanout < 2)
    throw Error(fmt::format("--tessera_tree_fanout={} is invalid: the branching factor must be at least 2",
                            tree_fanout));
  if (shm_ring_bytes != 0 && (shm_ring_bytes < 4096 || shm_ring_bytes % 64 != 0))
    throw Error(fmt::format("--tessera_shm_ring_bytes={} is invalid: use 0 (automatic) or at least 4096, a "
                            "multiple of 64", shm_ring_bytes));
  try {
    TransportRegistry::builtin().parse(transport, network_args());
  } catch (const ArgumentError& e) {
    throw Error(e.what());  // names --tessera_transport_args and the key
  }
  if ((idle_spin_us < 0 && idle_spin_us != kIdleSpinAuto) || idle_yield_us < 0 || idle_sleep_max_us < 0)
    throw Error("--tessera_idle_* durations must be non-negative microseconds (--tessera_idle_spin_us "
                "also takes auto)");
}

std::string RuntimeFlags::network_args(std::vector<std::string>* warnings) const {
  std::string args = transport_args;
  if (transport != "ofi") return args;
  const auto alias = [&](const char* flag, const char* key, const std::string& value) {
    args += fmt::format("{}{}={}", args.empty() ? "" : " ", key, value);
    if (warnings)
      warnings->push_back(fmt::format("{} is deprecated: use --tessera_transport_args={}={}", flag, key, value));
  };
  if (!ofi_provider.empty()) alias("--tessera_ofi_provider", "provider", ofi_provider);
  if (ofi_eager_bytes >= 0) alias("--tessera_ofi_eager_bytes", "eager_bytes", fmt::format("{}", ofi_eager_bytes));
  if (ofi_peer_timeout >= 0) alias("--tessera_ofi_peer_timeout", "peer_timeout", fmt::format("{}", ofi_peer_timeout));
  return args;
}

std::string closest_flag(const std::string& name, const std::vector<std::string>& valid) {
  std::string best;
  std::size_t best_distance = static_cast<std::size_t>(-1);
  for (const auto& candidate : valid) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

ParsedFlags parse_flags(int& argc, char** argv, const std::vector<FlagGroup*>& groups) {
  FlagTable table;
  std::vector<std::size_t> first_of_group;  // index of each group's first flag in the table
  for (FlagGroup* group : groups) {
    first_of_group.push_back(table.flags().size());
    group->describe(table);
  }
  std::vector<std::string> defaults;
  for (const Flag& flag : table.flags()) defaults.push_back(default_text(flag));
  CLI::App app{"Tessera runtime flags", "tessera"};
  app.set_help_flag();  // --tessera_help replaces CLI11's -h/--help, which belong to the application
  for (const Flag& flag : table.flags()) add_option(app, flag);

  std::vector<std::string> known;
  for (const Flag& flag : table.flags()) known.push_back(flag.name);

  // Pick the --tessera_ arguments (and the value that follows one given without '='),
  // leave the application's arguments in argv in their order.
  std::vector<std::string> ours;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(kPrefix, 0) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    const std::string name = flag_name(arg);
    const auto found = std::find_if(table.flags().begin(), table.flags().end(),
                                    [&](const Flag& flag) { return flag.name == name; });
    if (found == table.flags().end())
      throw Error(fmt::format("unknown flag '{}'; did you mean '{}'? (--tessera_help lists every flag)",
                              name, closest_flag(name, known)));
    ours.push_back(arg);
    if (found->takes_value && arg.find('=') == std::string::npos && i + 1 < argc) ours.push_back(argv[++i]);
  }
  argc = kept;
  argv[argc] = nullptr;

  std::vector<std::string> reversed(ours.rbegin(), ours.rend());  // CLI11 parses a reversed vector
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw Error(fmt::format("bad Tessera flag: {}", e.what()));
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::size_t end = g + 1 < groups.size() ? first_of_group[g + 1] : table.flags().size();
    groups[g]->given_.clear();
    for (std::size_t i = first_of_group[g]; i < end; ++i)
      if (app.get_option(table.flags()[i].name)->count() > 0) groups[g]->given_.push_back(table.flags()[i].name);
  }
  for (FlagGroup* group : groups) group->validate();
  for (FlagGroup* group : groups) group->resolve();

  ParsedFlags parsed;
  parsed.help = app.get_option("--tessera_help")->count() > 0;
  if (parsed.help) parsed.help_text = app.help();
  if (app.get_option("--tessera_help_transports")->count() > 0) {
    parsed.help = true;
    parsed.help_text = TransportRegistry::builtin().help();
  }
  if (app.get_option("--tessera_help_markdown")->count() > 0) {
    parsed.help = true;
    parsed.help_text = markdown_reference(table, defaults);
  }
  return parsed;
}

}  // namespace tessera
