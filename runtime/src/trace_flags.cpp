#include <tessera/runtime/error.hpp>
#include <tessera/runtime/trace.hpp>

#include <fmt/format.h>

#include <charconv>

namespace tessera {
namespace {

bool parse_number(std::string_view text, double& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

double TraceFlags::flow_fraction() const {
  const std::string_view text = flow_sample;
  const auto slash = text.find('/');
  double value = 0;
  bool ok = false;
  if (slash == std::string_view::npos) {
    ok = parse_number(text, value);
  } else {
    double numerator = 0, denominator = 0;
    ok = parse_number(text.substr(0, slash), numerator) && parse_number(text.substr(slash + 1), denominator) &&
         denominator > 0;
    if (ok) value = numerator / denominator;
  }
  if (!ok || !(value >= 0.0 && value <= 1.0))
    throw Error(fmt::format("--tessera_trace_flow_sample={} is invalid: expected a fraction in [0, 1] such as "
                            "1/64, 0.25, 0 or 1",
                            flow_sample));
  return value;
}

void TraceFlags::describe(FlagTable& table) {
  table
      .option("--tessera_trace", dir,
              "Write a timeline trace (Chrome trace-event JSON, for Perfetto or chrome://tracing) into DIR: "
              "DIR/rank.<r>.json per rank, joined into DIR/trace.json at the end")
      .shown_as("DIR");
  table
      .option("--tessera_trace_flow_sample", flow_sample,
              "Fraction of messages whose send and handler run the trace joins by a flow arrow (1/64 by "
              "default; 0 to 1)")
      .shown_as("FRACTION");
  table.option("--tessera_trace_max_mb", max_mb,
               "MiB of trace per rank (written and buffered) at which that rank stops tracing with one warning");
}

void TraceFlags::validate() const {
  flow_fraction();
  if (!(max_mb > 0))
    throw Error(fmt::format("--tessera_trace_max_mb={} is invalid: expected a positive number of MiB", max_mb));
}

}  // namespace tessera
