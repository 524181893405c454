#pragma once
// Load models: what a strategy takes an object's load in the next phase to be, predicted from the
// loads it measured in the phases so far (seconds). The live LB manager (--tessera_lb_model) and
// lbsim (--model, and every row of `lbsim advise`) use the same code.
//
//   persistence   the last measured load             (vt's NaivePersistence; the principle of
//                                                      persistence of Kale's Charm++ balancers)
//   median:N      the median of the last N loads      (vt's PersistenceMedianLastN; an even count
//                                                      takes the mean of the two middle loads)
//   linear:N      the least-squares line through the  (vt's LinearModel) extrapolated one phase
//                 last N loads, at the next phase,     ahead; clamped at 0, since a load cannot be
//                                                      negative
//
// With fewer than N loads measured, median and linear use those there are (one load predicts
// itself). An object with no history predicts 0. N is an integer in [1, 1000]; linear:1 is
// persistence.
//
// Errors: parse_load_model throws ArgumentError naming the text and the accepted forms.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tessera/lb/args.hpp"
#include "tessera/lb/model.hpp"

namespace tessera::lb {

struct LoadModelSpec {
  enum class Kind { persistence, median, linear };
  Kind kind = Kind::persistence;
  std::int64_t n = 1;  // loads the model looks back on (1 for persistence)

  // Phases of history the model reads: 1 for persistence, N otherwise.
  std::size_t window() const { return kind == Kind::persistence ? 1 : static_cast<std::size_t>(n); }
  bool operator==(const LoadModelSpec&) const = default;
};

// "persistence", "median:N" or "linear:N". Throws ArgumentError, e.g.
// "load model 'median:0': expected persistence, median:N or linear:N with N an integer in [1, 1000]".
LoadModelSpec parse_load_model(std::string_view text);
// The form parse_load_model reads: "persistence", "median:3", "linear:5".
std::string to_string(const LoadModelSpec& spec);

// The prediction of `spec` for the phase after `history` (oldest first, seconds); only its last
// window() entries are read. 0 for an empty history.
double predict_load(const LoadModelSpec& spec, std::span<const double> history);

// Every object's recent loads, for predictions phase after phase. Keeps at most `window` loads per
// object (the spec's window, so memory stays bounded over long runs).
class LoadHistory {
 public:
  explicit LoadHistory(LoadModelSpec spec) : spec_(spec) {}

  const LoadModelSpec& spec() const { return spec_; }
  // Appends `load` (seconds) to the object's history.
  void record(const ObjectId& object, double load);
  // The model's prediction for the object's next phase; 0 when it has no history.
  double predict(const ObjectId& object) const;
  // The object's loads, oldest first, removed from here: what a rank hands over with an object
  // that migrates, so the model keeps its history on the object's new rank.
  std::vector<double> take(const ObjectId& object);
  // Replaces the object's loads with `loads` (oldest first; only the window's last ones are kept).
  void restore(const ObjectId& object, std::span<const double> loads);

 private:
  LoadModelSpec spec_;
  std::unordered_map<ObjectId, std::deque<double>, ObjectIdHash> loads_;
};

}  // namespace tessera::lb
