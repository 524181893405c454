// tessera-uts's flags: the reference's tree flags, each overriding the same parameter of --tree.
#include "options.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <tessera/apps/cli/search.hpp>

namespace tessera::uts::app {
namespace {

// Flags given on the command line; each overrides the same parameter of --tree.
struct Overrides {
  std::optional<std::string> type;
  std::optional<double> b;
  std::optional<std::int32_t> r;
  std::optional<std::int32_t> m;
  std::optional<double> q;
  std::optional<std::int32_t> d;
  std::optional<std::string> a;
  std::optional<double> f;
  std::optional<std::int32_t> g;
};

TreeParams resolve(const std::optional<std::string>& tree, const Overrides& o) {
  TreeParams p = tree ? named_tree(*tree).params : TreeParams{};
  if (o.type) p.type = parse_tree_type(*o.type);
  if (o.b) p.root_branching = *o.b;
  if (o.r) p.root_seed = *o.r;
  if (o.m) p.nonleaf_children = *o.m;
  if (o.q) p.nonleaf_probability = *o.q;
  if (o.d) p.depth = *o.d;
  if (o.a) p.shape = parse_shape(*o.a);
  if (o.f) p.shift_depth = *o.f;
  if (o.g) p.granularity = *o.g;
  validate(p);
  return p;
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv, const apps::SearchJob& job) {
  CLI::App cli{"tessera-uts: count the nodes, leaves and depth of an Unbalanced Tree Search "
               "(UTS 2.1) tree. Tree flags take the reference's meanings and defaults; with "
               "--tree they override that tree's values."};
  std::optional<std::string> tree;
  Overrides o;
  apps::SearchFlags search;
  std::string sha1 = sha1_direct_available() ? "direct" : "evp";
  cli.add_option("--tree", tree, "A UTS sample tree: T1 (geometric fixed), T2 (geometric cyclic), "
                                 "T3 (binomial), T4 (hybrid), T5 (geometric linear)");
  cli.add_option("-t", o.type, "Tree type: 0 binomial, 1 geometric, 2 hybrid (default 1)");
  cli.add_option("-b", o.b, "Root branching factor b (default 4)");
  cli.add_option("-r", o.r, "Root seed (default 0)");
  cli.add_option("-m", o.m, "Binomial: children of a non-leaf node, >= 1 (default 4)");
  cli.add_option("-q", o.q, "Binomial: probability of a non-leaf node, in [0, 1] (default 15/64)");
  cli.add_option("-d", o.d, "Geometric: depth parameter d of the shape function, >= 1 (default 6)");
  cli.add_option("-a", o.a, "Geometric shape: 0 linear, 1 expdec, 2 cyclic, 3 fixed (default 0)");
  cli.add_option("-f", o.f, "Hybrid: switch to binomial at depth f * d (default 0.5)");
  cli.add_option("-g", o.g, "SHA-1 evaluations per child: compute granularity, >= 1 (default 1)");
  apps::add_search_flags(cli, search);
  cli.add_option("--sha1", sha1, "SHA-1 implementation: direct (SHA1_*) or evp")
      ->check(CLI::IsMember({"direct", "evp"}));
  apps::add_report_flag(cli, search.report);
  return apps::parse_command_line<Options>(cli, argc, argv, kProgram, job.speaking, [&] {
    Options options;
    options.params = resolve(tree, o);  // a bad tree is reported before the steal flags
    static_cast<apps::SearchOptions&>(options) =
        apps::resolve_search_options(search, job, kProgram);
    options.tree_name = tree ? *tree : "custom";
    options.sha1 = sha1 == "direct" ? Sha1Backend::direct : Sha1Backend::evp;
    return options;
  });
}

}  // namespace tessera::uts::app
