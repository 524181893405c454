#include <tessera/context/elastic.hpp>
#include <tessera/runtime/error.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <sstream>

namespace tessera {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<long long> whole_number(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

ElasticRequest parse_elastic_request(const std::string& written) {
  const std::string text = trim(written);
  std::istringstream words(text);
  std::string verb, first, second, extra;
  words >> verb >> first >> second >> extra;
  ElasticRequest request;
  request.text = text;
  if (verb == "shrink" && !first.empty() && second.empty()) {
    request.kind = ElasticRequest::Kind::shrink;
    std::istringstream ranks(first);
    for (std::string item; std::getline(ranks, item, ',');) {
      const auto rank = whole_number(item);
      if (!rank || *rank < 0 || *rank > 1 << 30)
        throw Error(fmt::format("'{}': expected rank numbers after shrink, separated by commas (e.g. 'shrink 1,3')", text));
      request.ranks.push_back(static_cast<int>(*rank));
    }
    return request;
  }
  if (verb == "expand" && !first.empty() && extra.empty()) {
    const auto count = whole_number(first);
    if (!count || *count <= 0 || *count > 1 << 20)
      throw Error(fmt::format("'{}': expected a positive number of processes after expand (e.g. 'expand 2')", text));
    request.kind = ElasticRequest::Kind::expand;
    request.processes = static_cast<int>(*count);
    request.host = second;
    return request;
  }
  throw Error(fmt::format("'{}': expected 'shrink R,R' or 'expand N [HOST]'", text));
}

void ElasticFlags::describe(FlagTable& table) {
  table.option("--tessera_elastic_plan", plan, "Rescales at phase ends: \"PHASE:shrink R,R;PHASE:expand N\"")
      .shown_as("PLAN");
  table.option("--tessera_elastic_control", control,
               "A file rank 0 reads at every phase end for rescale requests (\"shrink 1,3\"), then removes")
      .shown_as("PATH");
  table.option("--tessera_elastic_spawn", spawn,
               "How an expand starts its processes: inline (at the phase end; the run waits for the spawn) or "
               "background (a helper thread, while phases run; needs MPI_THREAD_MULTIPLE, which the runtime "
               "then asks MPI_Init_thread for)")
      .shown_as("inline|background");
  table.flag("--tessera_elastic_joined", joined, "Set by an expand on the processes it starts (not for users)");
}

void ElasticFlags::validate() const {
  if (spawn != "inline" && spawn != "background")
    throw Error(fmt::format("--tessera_elastic_spawn={}: expected inline or background", spawn));
}

void ElasticFlags::resolve() {
  schedule_.clear();
  if (plan.empty()) return;
  std::istringstream entries(plan);
  for (std::string entry; std::getline(entries, entry, ';');) {
    entry = trim(entry);
    if (entry.empty()) continue;
    const auto colon = entry.find(':');
    const auto phase = colon == std::string::npos ? std::nullopt : whole_number(trim(entry.substr(0, colon)));
    if (!phase || *phase < 0)
      throw Error(fmt::format("--tessera_elastic_plan={}: '{}': expected PHASE:request, e.g. '10:shrink 1'", plan, entry));
    try {
      schedule_.emplace(*phase, parse_value([&] { return parse_elastic_request(entry.substr(colon + 1)); }));
    } catch (const Error& e) {
      throw Error(fmt::format("--tessera_elastic_plan={}: {}", plan, e.what()));
    }
  }
}

std::string RescaleReport::line() const {
  if (joining > 0)
    return fmt::format(
        "tessera elastic: phase {} expand {} -> {} ranks ({} process(es) joined): decision {:.3f} ms, spawn {}, "
        "quiescence {:.3f} ms, merge {:.3f} ms; the next phase end balances",
        phase, old_size, new_size, joining, decision_s * 1e3,
        background ? fmt::format("{:.3f} ms in the background over {} phase end(s)", spawn_s * 1e3, overlapped_phases)
                   : fmt::format("{:.3f} ms", spawn_s * 1e3),
        quiescence_s * 1e3, cut_s * 1e3);
  return fmt::format(
      "tessera elastic: phase {} shrink {} -> {} ranks (rank(s) {} left): decision {:.3f} ms, evacuation {:.3f} ms "
      "({} migrations), quiescence {:.3f} ms, cut {:.3f} ms",
      phase, old_size, new_size, fmt::join(leaving, ","), decision_s * 1e3, evacuation_s * 1e3, migrations,
      quiescence_s * 1e3, cut_s * 1e3);
}

std::string RescaleReport::json() const {
  const nlohmann::json out = {{"rescale", joining > 0 ? "expand" : "shrink"}, {"phase", phase},
                              {"old_size", old_size},         {"new_size", new_size},
                              {"leaving", leaving},           {"decision_s", decision_s},
                              {"evacuation_s", evacuation_s}, {"quiescence_s", quiescence_s},
                              {"cut_s", cut_s},               {"first_phase_s", first_phase_s},
                              {"migrations", migrations},     {"joining", joining},
                              {"spawn_s", spawn_s},           {"spawn_background", background},
                              {"overlapped_phases", overlapped_phases}};
  return out.dump();
}

}  // namespace tessera
