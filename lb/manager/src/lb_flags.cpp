#include <tessera/lb/manager/lb_flags.hpp>
#include <tessera/runtime/error.hpp>

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace tessera::lb {

void LbFlags::describe(FlagTable& table) {
  table.option("--tessera_lb_name", name, "Balance with this LB strategy (see --tessera_help_lb)");
  table
      .option("--tessera_lb_interval", interval,
              "Balance after every phase p with p % N == 0, or auto: when the imbalance since the last "
              "balancing has cost more than that balancing")
      .shown_as("N|auto");
  table.option("--tessera_lb_args", args, "Strategy arguments, \"key=value ...\"");
  table
      .option("--tessera_lb_model", model,
              "Load model: what a strategy takes an object's next load to be, persistence (the last phase's), "
              "median:N (median of the last N) or linear:N (least-squares line of the last N, one phase ahead)")
      .shown_as("persistence|median:N|linear:N");
  table.option("--tessera_lb_file", file,
               "Per-phase LB schedule file (lines \"2 GreedyLB\", \"%100 TemperedLB fanout=4\")");
  table.option("--tessera_lb_stats_file", stats_file, "Append one JSON line of LB statistics per balanced phase");
  table.option("--tessera_lb_split_above", split_above,
               "Before the strategy runs, split the elements heavier than F x the average rank load (dynamic "
               "collections whose element type has split(); 0: never)")
      .shown_as("F");
  table.option("--tessera_lb_merge_below", merge_below,
               "Before the strategy runs, merge co-located elements lighter than F x the average element load that "
               "name the same merge target (element types with merge_into() and merge(); 0: never)")
      .shown_as("F");
  table.flag("--tessera_help_lb", help_lb, "Print every LB strategy with its keys, defaults and meaning");
}

void LbFlags::validate() const {
  const auto factor = [](const char* flag, double value) {
    if (!std::isfinite(value) || value < 0.0)
      throw Error(fmt::format("{}={}: expected a factor F >= 0 (0: off)", flag, value));
  };
  factor("--tessera_lb_split_above", split_above);
  factor("--tessera_lb_merge_below", merge_below);
}

void LbFlags::resolve() {
  if (!name.empty() && !file.empty())
    throw Error("--tessera_lb_name=" + name + " and --tessera_lb_file=" + file +
                ": expected one of them (the file names a strategy on each line)");
  if (!args.empty() && name.empty())
    throw Error("--tessera_lb_args=\"" + args + "\": expected --tessera_lb_name to say which strategy takes them");
  automatic_ = interval == "auto";
  every_ = automatic_ ? 1 : parse_value([&] {
    std::int64_t n = 0;
    const char* end = interval.data() + interval.size();
    const auto [stop, ec] = std::from_chars(interval.data(), end, n);
    if (interval.empty() || ec != std::errc() || stop != end || n < 1)
      throw Error("--tessera_lb_interval=" + interval + ": expected an integer N >= 1 (balance every N phases) or "
                  "auto (balance when the imbalance has cost more than balancing)");
    return n;
  });
  load_model_ = parse_value([&] {
    try {
      return lb::parse_load_model(model);
    } catch (const lb::ArgumentError&) {
      throw Error("--tessera_lb_model=" + model + ": expected persistence, median:N or linear:N (N an integer in [1, 1000])");
    }
  });
  const lb::Registry registry = lb::Registry::builtin();
  strategy_.reset();
  if (!name.empty()) {
    strategy_ = parse_value([&] {
      try {
        return registry.parse(name, args);
      } catch (const lb::ArgumentError& e) {
        throw Error(std::string("--tessera_lb_name/--tessera_lb_args: ") + e.what());
      }
    });
  }
  schedule_.reset();
  if (!file.empty()) {
    schedule_ = parse_value([&] {
      try {
        return lb::Schedule::read(file, &registry);
      } catch (const lb::ArgumentError& e) {
        throw Error(std::string("--tessera_lb_file: ") + e.what());
      }
    });
  }
}

}  // namespace tessera::lb
