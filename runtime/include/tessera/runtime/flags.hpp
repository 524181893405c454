#pragma once
/// Runtime flags: every flag starts with `--tessera_`, is removed from argv before the application
/// parses it, and is listed by `--tessera_help` with every flag of every layer.
///
/// Each layer contributes its flags as a FlagGroup, which describes them in a FlagTable: the name,
/// the help line, the variable the value lands in (its type says what a value may be) and any
/// further limits (a list of choices, an integer range, words standing for values). One function,
/// parse_flags (runtime/src/flags.cpp), turns the table into the parser's options, so the parser
/// (CLI11) is a detail of that file: this header and every layer's flag header are plain C++, and
/// a user's build never compiles the parser. The runtime never needs to know the names of flags of
/// layers above it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessera {

/// One flag: its spelling, its meaning, where its value goes and what the value may be.
struct Flag {
  /// The variable a value is stored in; its type is the type the value must parse as.
  using Target = std::variant<bool*, std::int32_t*, std::int64_t*, std::size_t*, double*, std::string*,
                              std::optional<std::string>*>;

  std::string name;  ///< the whole spelling, `--tessera_...`
  std::string help;  ///< one line for --tessera_help
  Target target;
  bool takes_value = true;           ///< false: a switch, a bool set to true by naming it
  std::vector<std::string> choices;  ///< the accepted values; empty: any value of the target's type
  std::optional<std::pair<std::int64_t, std::int64_t>> range;  ///< accepted integers, both ends included
  std::vector<std::pair<std::string, std::string>> words;       ///< a word given instead of a value -> that value
  std::string value_text;  ///< how help names the value (DIR, auto|US); empty: by the target's type

  /// Accepts only these values.
  Flag& one_of(std::vector<std::string> values) {
    choices = std::move(values);
    return *this;
  }
  /// Accepts integers in [low, high] only.
  Flag& within(std::int64_t low, std::int64_t high) {
    range = std::pair{low, high};
    return *this;
  }
  /// Accepts `word` in place of a value, standing for `value`.
  Flag& word(std::string word, std::string value) {
    words.emplace_back(std::move(word), std::move(value));
    return *this;
  }
  /// Help names the value `text` instead of by its type.
  Flag& shown_as(std::string text) {
    value_text = std::move(text);
    return *this;
  }
};

/// The flags of the groups handed to parse_flags, in the order help lists them.
class FlagTable {
 public:
  /// A flag taking a value (`--name=V` or `--name V`) stored in `value`, whose type is one of
  /// Flag::Target's; what `value` holds beforehand is the default.
  template <class T>
  Flag& option(std::string name, T& value, std::string help) {
    return add(std::move(name), &value, std::move(help), true);
  }
  /// A switch: naming it sets `value` to true.
  Flag& flag(std::string name, bool& value, std::string help) {
    return add(std::move(name), &value, std::move(help), false);
  }
  const std::vector<Flag>& flags() const { return flags_; }

 private:
  Flag& add(std::string name, Flag::Target target, std::string help, bool takes_value) {
    Flag& flag = flags_.emplace_back();
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.target = target;
    flag.takes_value = takes_value;
    return flag;
  }
  std::vector<Flag> flags_;
};

struct ParsedFlags;

/// A set of flags owned by one layer.
///
/// Values are parsed once, at start-up: the parser stores each flag's value in its target, then
/// validate() checks them and resolve() turns those given as text (an interval that is `N` or
/// `auto`, a load model, a strategy with its keys, a transport spec) into the typed values the
/// layer reads from then on. Every such conversion goes through parse_value(), which counts it, so
/// a test can check that nothing parses a flag after start-up (parses() does not grow).
class FlagGroup {
 public:
  virtual ~FlagGroup() = default;
  /// Adds this group's flags (all named `--tessera_...`) to `table`; their targets are members
  /// of this group, which must outlive the parse.
  virtual void describe(FlagTable& table) = 0;
  /// Checks values after parsing; throws tessera::Error naming the flag on a bad value.
  virtual void validate() const {}
  /// Converts text values into typed ones, after validate(); throws tessera::Error naming the flag.
  virtual void resolve() {}
  /// True when the values parsed need MPI_THREAD_MULTIPLE. A runtime that initializes MPI parses
  /// its flags first and asks MPI_Init_thread for it then; one that finds MPI initialized cannot.
  virtual bool needs_mpi_thread_multiple() const { return false; }

  /// Where a value came from: true when `name` (`--tessera_...`) was on the command line, false
  /// when it holds what the program set (ContextOptions) or the built-in default.
  bool given(std::string_view name) const {
    for (const auto& flag : given_)
      if (flag == name) return true;
    return false;
  }
  /// How many values resolve() has parsed from text, over every parse of this group.
  std::int64_t parses() const { return parses_; }

 protected:
  /// Runs `parse` (one flag value's conversion) and counts it.
  template <class F>
  auto parse_value(F&& parse) {
    ++parses_;
    return parse();
  }

 private:
  friend ParsedFlags parse_flags(int& argc, char** argv, const std::vector<FlagGroup*>& groups);
  std::vector<std::string> given_;
  std::int64_t parses_ = 0;
};

/// Flags of the runtime layer itself.
struct RuntimeFlags : FlagGroup {
  std::string log_level = "warn";  ///< trace, debug, info, warn, error, critical, off
  // The spin window, by default (auto, stored as kIdleSpinAuto), follows what the node allows:
  // ranks that each have a core of their own (the node's ranks are no more than the CPUs in the
  // union of their affinity masks and within their cgroup's quota) spin for kIdleSpinOwnCoreUs,
  // as MPI does in a blocking call, so a rank waiting for the slowest one wakes within a poll;
  // ranks that share cores spin kIdleSpinSharedUs and give the core away within a fraction of a
  // millisecond. A rank seen descheduled while spinning long (other hosts' ranks or jobs on the
  // same cores) spins kIdleSpinSharedUs for a hold of 1 s to 64 s (idle_policy.hpp).
  static constexpr double kIdleSpinAuto = -1;
  static constexpr double kIdleSpinOwnCoreUs = 10000;
  static constexpr double kIdleSpinSharedUs = 50;
  double idle_spin_us = kIdleSpinAuto;  ///< busy-poll this long after the last work before yielding
  double idle_yield_us = 200;      ///< then sched_yield this long before sleeping
  double idle_sleep_max_us = 250;  ///< sleeps grow from 10 us up to this bound while idle
  int tree_fanout = 4;             ///< branching factor of the spanning tree for collectives
  std::size_t coalesce_bytes = 16384;  ///< a destination's batch leaves once it holds this much
  bool shm = true;                     ///< shared-memory rings between the ranks of a node
  std::size_t shm_ring_bytes = 0;      ///< bytes per ring; 0: automatic (up to 16 MiB)
  std::string transport = "mpi";       ///< network between ranks: a transport registry name
  std::string transport_args;          ///< its keys, "key=value ..." (transport_registry.hpp)
  // Before the transport registry: the ofi keys as flags of their own. Still accepted with
  // --tessera_transport=ofi, with a deprecation warning; unset when empty or negative.
  std::string ofi_provider;
  double ofi_eager_bytes = -1;
  double ofi_peer_timeout = -1;
  bool help = false;
  bool help_transports = false;  ///< --tessera_help_transports: every transport and its keys
  bool help_markdown = false;  ///< --tessera_help_markdown: the flags reference (docs/flags.md)

  void describe(FlagTable& table) override;
  void validate() const override;
  /// --tessera_transport_args with the deprecated --tessera_ofi_* flags given appended as keys
  /// (with --tessera_transport=ofi only, as before), and one warning per deprecated flag.
  std::string network_args(std::vector<std::string>* warnings = nullptr) const;
};

/// Outcome of parsing: whether help was requested (--tessera_help, or --tessera_help_markdown for
/// the Markdown reference), and its text.
struct ParsedFlags {
  bool help = false;
  std::string help_text;
};

/// Parses and removes every `--tessera_` argument from argc/argv (a value may follow as the next
/// argument or after '='). Throws tessera::Error for an unknown `--tessera_` flag (naming the
/// closest valid one) or a bad value.
ParsedFlags parse_flags(int& argc, char** argv, const std::vector<FlagGroup*>& groups);

/// The valid flag closest to `name` by edit distance, for "did you mean" messages.
std::string closest_flag(const std::string& name, const std::vector<std::string>& valid);

}  // namespace tessera
