// LBAF's affine work model over strategy inputs.

#include "tessera/lbsim/work_model.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "pairs.hpp"

namespace tessera::lbsim {

WorkModel WorkModel::parse(std::string_view text) {
  constexpr std::string_view flag = "--work";
  WorkModel model;
  for (const auto& [key, value] : detail::split_pairs(text, flag)) {
    double* field = key == "alpha" ? &model.alpha : key == "beta" ? &model.beta : key == "gamma" ? &model.gamma : nullptr;
    if (!field) throw InputError(std::string(flag) + ": unknown key '" + key + "'; valid keys: alpha, beta, gamma");
    if (!detail::parse_number(value, *field)) detail::bad_value(flag, key, value, "a number");
  }
  return model;
}

std::vector<double> WorkModel::rank_work(std::span<const lb::StrategyInput> ranks) const {
  std::vector<double> work(ranks.size(), gamma);
  for (std::size_t r = 0; r < ranks.size(); ++r) work[r] += alpha * ranks[r].load();
  if (beta == 0.0) return work;

  std::unordered_map<lb::ObjectId, std::size_t, lb::ObjectIdHash> where;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    for (const auto& object : ranks[r].objects) where[object.id] = r;
  }
  std::map<std::pair<lb::ObjectId, lb::ObjectId>, double> edges;  // one volume per (sender, receiver)
  for (const auto& rank : ranks) {
    for (const auto& edge : rank.edges) edges[{edge.from, edge.to}] = edge.bytes;
  }
  std::vector<double> sent(ranks.size(), 0.0), received(ranks.size(), 0.0);
  for (const auto& [ends, bytes] : edges) {
    const auto from = where.find(ends.first);
    const auto to = where.find(ends.second);
    if (from == where.end() || to == where.end() || from->second == to->second) continue;
    sent[from->second] += bytes;
    received[to->second] += bytes;
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) work[r] += beta * std::max(sent[r], received[r]);
  return work;
}

}  // namespace tessera::lbsim
