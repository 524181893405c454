#include "tessera/lb/schedule.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "tessera/lb/registry.hpp"

namespace tessera::lb {

Schedule Schedule::parse(std::string_view text, const std::string& origin, const Registry* registry) {
  Schedule schedule;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const auto fail = [&](const std::string& what) {
      throw ArgumentError(origin + ":" + std::to_string(number) + ": " + what);
    };
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string when;
    if (!(words >> when)) continue;  // blank or comment-only line
    ScheduleEntry entry;
    entry.line = number;
    entry.every = when.front() == '%';
    entry.automatic = when == "auto";
    const std::string digits = entry.every ? when.substr(1) : when;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), entry.phase);
    if (!entry.automatic &&
        (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || entry.phase < 0)) {
      fail("expected a phase number, %N or auto at the start of the line, got '" + when + "'");
    }
    if (entry.every && entry.phase < 1) fail("%N needs N >= 1, got '" + when + "'");
    if (!(words >> entry.strategy)) fail("expected a strategy name after '" + when + "'");
    std::string word;
    while (words >> word) entry.args += (entry.args.empty() ? "" : " ") + word;
    if (registry) {
      try {
        entry.make = registry->parse(entry.strategy, entry.args).make;
      } catch (const ArgumentError& e) {
        fail(e.what());
      }
    }
    schedule.entries_.push_back(std::move(entry));
  }
  return schedule;
}

Schedule Schedule::read(const std::filesystem::path& file, const Registry* registry) {
  std::ifstream in(file);
  if (!in) throw ArgumentError(file.string() + ": cannot open LB schedule file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), file.string(), registry);
}

std::optional<ScheduleEntry> Schedule::at(PhaseId phase) const {
  for (const auto& entry : entries_) {
    if (!entry.every && !entry.automatic && entry.phase == phase) return entry;
  }
  for (const auto& entry : entries_) {
    if (entry.every && phase % entry.phase == 0) return entry;
  }
  for (const auto& entry : entries_) {
    if (entry.automatic) return entry;
  }
  return std::nullopt;
}

}  // namespace tessera::lb
