// Load models (lb/load_model.hpp): exact predictions on hand-computed histories, the window each
// keeps, and the errors of their flag text.

#include <gtest/gtest.h>

#include <vector>

#include "tessera/lb/load_model.hpp"

namespace tessera::lb {
namespace {

double predict(std::string_view model, std::vector<double> history) {
  return predict_load(parse_load_model(model), history);
}

TEST(LoadModel, PersistencePredictsTheLastLoad) {
  EXPECT_EQ(predict("persistence", {3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(predict("persistence", {}), 0.0);
}

TEST(LoadModel, MedianOfTheLastN) {
  EXPECT_EQ(predict("median:3", {100.0, 3.0, 1.0, 2.0}), 2.0);     // 100 is outside the window
  EXPECT_EQ(predict("median:4", {1.0, 4.0, 2.0, 8.0}), 3.0);       // even: mean of 2 and 4
  EXPECT_EQ(predict("median:5", {7.0, 1.0}), 4.0);                  // fewer than N: those there are
  EXPECT_EQ(predict("median:1", {7.0, 1.0}), 1.0);
}

TEST(LoadModel, LinearExtrapolatesTheLeastSquaresLineOnePhaseAhead) {
  EXPECT_EQ(predict("linear:3", {1.0, 2.0, 3.0}), 4.0);
  EXPECT_EQ(predict("linear:3", {9.0, 1.0, 2.0, 3.0}), 4.0);       // 9 is outside the window
  EXPECT_EQ(predict("linear:2", {4.0, 2.0}), 0.0);
  EXPECT_EQ(predict("linear:3", {5.0, 3.0, 1.0}), 0.0);            // -1 clamped at 0
  EXPECT_EQ(predict("linear:4", {1.0, 3.0, 2.0, 4.0}), 4.5);       // slope 0.8 through mean 2.5 at x 1.5
  EXPECT_EQ(predict("linear:4", {6.0}), 6.0);                      // one load predicts itself
  EXPECT_EQ(predict("linear:1", {6.0, 2.0}), 2.0);
}

TEST(LoadModel, HistoryKeepsTheWindowPerObject) {
  LoadHistory history(parse_load_model("median:2"));
  const ObjectId a = ObjectId::sequential(1, 0), b = ObjectId::sequential(2, 0);
  EXPECT_EQ(history.predict(a), 0.0);
  for (double load : {10.0, 1.0, 3.0}) history.record(a, load);
  history.record(b, 5.0);
  EXPECT_EQ(history.predict(a), 2.0);  // median of the last two: 1 and 3
  EXPECT_EQ(history.predict(b), 5.0);
}

TEST(LoadModel, HistoryTravelsWithAMigratingObject) {
  LoadHistory from(parse_load_model("linear:3")), to(parse_load_model("linear:3"));
  const ObjectId a = ObjectId::sequential(1, 0);
  for (double load : {5.0, 1.0, 2.0, 3.0}) from.record(a, load);
  const std::vector<double> loads = from.take(a);
  EXPECT_EQ(loads, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_EQ(from.predict(a), 0.0);
  to.restore(a, loads);
  EXPECT_EQ(to.predict(a), 4.0);
  to.restore(a, std::vector<double>{9.0, 9.0, 2.0, 4.0, 6.0});  // only the window's last three are kept
  EXPECT_EQ(to.predict(a), 8.0);
}

TEST(LoadModel, ParsesAndPrintsTheFlagForms) {
  EXPECT_EQ(parse_load_model("persistence"), LoadModelSpec{});
  EXPECT_EQ(parse_load_model("median:7"), (LoadModelSpec{LoadModelSpec::Kind::median, 7}));
  EXPECT_EQ(to_string(parse_load_model("linear:12")), "linear:12");
  EXPECT_EQ(to_string(parse_load_model("persistence")), "persistence");
}

TEST(LoadModel, RejectsMalformedText) {
  for (const char* text : {"median", "median:0", "linear:-1", "linear:x", "median:1001", "mean:3", "", "linear:3x"}) {
    try {
      parse_load_model(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const ArgumentError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("load model '") + text +
                                           "': expected persistence, median:N or linear:N with N an integer in [1, 1000]");
    }
  }
}

}  // namespace
}  // namespace tessera::lb
