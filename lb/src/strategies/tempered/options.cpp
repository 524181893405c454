// TemperedLB and GrapevineLB keys: parsing, validation, and the rounds knowledge implies.

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "tessera/lb/tempered_lb.hpp"

namespace tessera::lb {

namespace {

using Options = TemperedOptions;

Options::Criterion criterion_of(const std::string& s) {
  return s == "grapevine" ? Options::Criterion::grapevine : Options::Criterion::relaxed;
}
Options::Cmf cmf_of(const std::string& s) {
  return s == "original" ? Options::Cmf::original : Options::Cmf::normbymax;
}
Options::Ordering ordering_of(const std::string& s) {
  if (s == "arbitrary") return Options::Ordering::arbitrary;
  if (s == "element_id") return Options::Ordering::element_id;
  if (s == "load_intensive") return Options::Ordering::load_intensive;
  if (s == "lightweight") return Options::Ordering::lightweight;
  return Options::Ordering::fewest_migrations;
}
Options::Transfer transfer_of(const std::string& s) {
  return s == "sequential" ? Options::Transfer::sequential : Options::Transfer::distributed;
}
Options::Knowledge knowledge_of(const std::string& s) {
  if (s == "complete") return Options::Knowledge::complete;
  if (s == "user") return Options::Knowledge::user;
  return Options::Knowledge::log;
}

// The keys both strategies share: how the inform stage gossips.
std::vector<KeySpec> gossip_keys() {
  return {
      integer_key("fanout", "6", "f: ranks each gossip message goes to (seed 003, Algorithm 1)", 1, 1 << 20),
      text_key("max_known", "auto",
               "underloaded ranks a gossip message carries and a forwarding rank keeps: a uniform sample of "
               "what it hears; overloaded ranks keep all they hear (0: all; auto: 0 up to 4096 ranks, 32 above; "
               "bounds gossip memory and traffic at large P)"),
      integer_key("rounds", "0",
                  "k: gossip rounds; only with knowledge=user (0: derived from knowledge)", 0, 1 << 20),
      choice_key("knowledge", "log",
                 "log: rounds = ceil(log P / log fanout); complete: every rank learns every "
                 "underloaded rank; user: the rounds key",
                 {"log", "complete", "user"}),
      real_key("threshold", "1", "h: a rank transfers objects while its load > h x average", 1.0),
      integer_key("seed", "0", "seed of every random choice (per rank, trial, iteration and round)", 0),
      boolean_key("deterministic", "false",
                  "synchronous gossip rounds and ordered inboxes: the plan is a pure function of "
                  "(input, keys, seed) on any backend"),
      choice_key("transfer", "distributed",
                 "distributed: overloaded ranks decide at once from the iteration's starting "
                 "placement; sequential: ranks take turns in rank order against current loads, "
                 "as LBAF simulated seed 003's tables",
                 {"distributed", "sequential"}),
  };
}

}  // namespace

static int max_known_of(const std::string& text, const char* who) {
  if (text == "auto") return Options::auto_known;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 0) {
    throw ArgumentError(fmt::format("{}: max_known={}: expected auto or an integer >= 0", who, text));
  }
  return value;
}

int Options::known_cap_for(std::int64_t ranks) const {
  if (max_known != auto_known) return max_known;
  return ranks <= 4096 ? 0 : 32;
}

Options Options::grapevine(int fanout, int rounds, Knowledge knowledge, double threshold,
                           std::uint64_t seed, bool deterministic, Transfer transfer) {
  Options o;
  o.transfer = transfer;
  o.fanout = fanout;
  o.rounds = rounds;
  o.knowledge = knowledge;
  o.threshold = threshold;
  o.seed = seed;
  o.deterministic = deterministic;
  o.admit = Admit::all;
  o.swaps = 0;
  o.keep_heaviest = false;
  o.iters = 1;
  o.trials = 1;
  o.criterion = Criterion::grapevine;
  o.cmf = Cmf::original;
  o.ordering = Ordering::arbitrary;
  return o;
}

int Options::rounds_for(std::int64_t ranks) const {
  switch (knowledge) {
    case Knowledge::complete: return 0;
    case Knowledge::user: return rounds;
    case Knowledge::log: break;
  }
  if (ranks <= 1 || fanout <= 1) return static_cast<int>(std::max<std::int64_t>(1, ranks - 1));
  // Integer search rather than a ratio of logarithms, which rounds 4096 / 4 up to 7 rounds.
  int k = 0;
  for (std::int64_t reach = 1; reach < ranks; reach *= fanout) ++k;
  return std::max(1, k);
}

void Options::validate(std::string_view who) const {
  if (fanout < 1) throw ArgumentError(fmt::format("{}: fanout={}: expected an integer >= 1", who, fanout));
  if (iters < 1) throw ArgumentError(fmt::format("{}: iters={}: expected an integer >= 1", who, iters));
  if (trials < 1) throw ArgumentError(fmt::format("{}: trials={}: expected an integer >= 1", who, trials));
  if (max_known < auto_known) {
    throw ArgumentError(fmt::format("{}: max_known={}: expected auto or an integer >= 0", who, max_known));
  }
  if (!(threshold >= 1.0)) {
    throw ArgumentError(fmt::format("{}: threshold={}: expected a number >= 1", who, threshold));
  }
  if (swaps < 0) throw ArgumentError(fmt::format("{}: swaps={}: expected an integer >= 0", who, swaps));
  if (knowledge == Knowledge::user && rounds < 1) {
    throw ArgumentError(fmt::format("{}: knowledge=user needs rounds=N with N >= 1", who));
  }
  if (knowledge != Knowledge::user && rounds != 0) {
    throw ArgumentError(fmt::format(
        "{}: rounds={} is only used with knowledge=user (knowledge={} derives the rounds)", who,
        rounds, knowledge == Knowledge::log ? "log" : "complete"));
  }
}

std::vector<KeySpec> TemperedLB::grapevine_keys() {
  auto keys = gossip_keys();
  for (auto& key : WorkModel::keys()) keys.push_back(std::move(key));
  return keys;
}

std::vector<KeySpec> TemperedLB::keys() {
  auto keys = gossip_keys();
  keys.push_back(integer_key("iters", "8", "iterations of inform + transfer per trial (seed 003, Algorithm 3)", 1, 1 << 20));
  keys.push_back(integer_key("trials", "2", "independent trials from the starting placement; the best proposal wins", 1, 1 << 20));
  keys.push_back(integer_key("patience", "1",
                             "a trial ends once this many iterations in a row lower neither its imbalance nor the number of "
                             "ranks at its maximum, and a further "
                             "trial starts only after one that ended so (0: every iteration and trial runs, as in seed 003)",
                             0, 1 << 20));
  keys.push_back(choice_key("criterion", "relaxed",
                            "grapevine: l_x + load(o) < l_ave; relaxed: load(o) < l_p - l_x (seed 003, Lemma 1)",
                            {"grapevine", "relaxed"}));
  keys.push_back(choice_key("cmf", "normbymax",
                            "original: built once from l_ave; normbymax: rebuilt after every accepted "
                            "transfer, normalised by max(l_ave, max known load)",
                            {"original", "normbymax"}));
  keys.push_back(choice_key("admit", "receiver",
                            "transfer=distributed: receiver re-checks the criterion against its own load "
                            "and returns what fails; all takes every proposal (as published)",
                            {"receiver", "all"}));
  keys.push_back(choice_key("ordering", "fewest_migrations",
                            "order objects are tried in: arbitrary, element_id, load_intensive (Alg. 4), "
                            "fewest_migrations (Alg. 5), lightweight (Alg. 6)",
                            {"arbitrary", "element_id", "load_intensive", "fewest_migrations", "lightweight"}));
  keys.push_back(integer_key("swaps", "0",
                             "load only, transfer=distributed: a rank that could move no object alone offers up to N "
                             "too heavy to its least loaded peer, which takes one and gives back lighter ones when "
                             "that lowers the larger of their loads by 5 % of the load moved (0: off, as in seed 003; try 4)",
                             0, 64));
  keys.push_back(boolean_key("keep_heaviest", "true",
                             "transfer=distributed: a rank whose heaviest object is above the average keeps it and "
                             "sends the rest (some rank must carry that load, and a receiver that has any ends above "
                             "it); false: it is tried like the others, as in seed 003"));
  for (auto& key : WorkModel::keys()) keys.push_back(std::move(key));
  return keys;
}

TemperedLB TemperedLB::from_args(const Args& args) {
  Options o;
  o.fanout = static_cast<int>(args.integer("fanout"));
  o.max_known = max_known_of(args.text("max_known"), "TemperedLB");
  o.rounds = static_cast<int>(args.integer("rounds"));
  o.knowledge = knowledge_of(args.text("knowledge"));
  o.threshold = args.real("threshold");
  o.seed = static_cast<std::uint64_t>(args.integer("seed"));
  o.deterministic = args.boolean("deterministic");
  o.transfer = transfer_of(args.text("transfer"));
  o.iters = static_cast<int>(args.integer("iters"));
  o.trials = static_cast<int>(args.integer("trials"));
  o.patience = static_cast<int>(args.integer("patience"));
  o.criterion = criterion_of(args.text("criterion"));
  o.cmf = cmf_of(args.text("cmf"));
  o.ordering = ordering_of(args.text("ordering"));
  o.admit = args.text("admit") == "all" ? Options::Admit::all : Options::Admit::receiver;
  o.swaps = static_cast<int>(args.integer("swaps"));
  o.keep_heaviest = args.boolean("keep_heaviest");
  o.work = WorkModel::from_args(args);
  return TemperedLB(o);
}

TemperedLB TemperedLB::grapevine_from_args(const Args& args) {
  Options o = Options::grapevine(static_cast<int>(args.integer("fanout")), static_cast<int>(args.integer("rounds")),
                                 knowledge_of(args.text("knowledge")), args.real("threshold"),
                                 static_cast<std::uint64_t>(args.integer("seed")), args.boolean("deterministic"),
                                 transfer_of(args.text("transfer")));
  o.work = WorkModel::from_args(args);
  o.max_known = max_known_of(args.text("max_known"), "GrapevineLB");
  return TemperedLB(o, "GrapevineLB");
}

}  // namespace tessera::lb
