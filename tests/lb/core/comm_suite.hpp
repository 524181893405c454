#pragma once
// One typed test suite for the LB communication interface (tessera/lb/comm.hpp). A backend joins
// it with
//   struct MyFactory { static std::unique_ptr<tessera::lb::comm::Backend> make(); };
//   INSTANTIATE_TYPED_TEST_SUITE_P(My, CommSuite, MyFactory);
// Every test holds for any rank count P >= 1 and asserts only on hosted ranks, so the same suite
// runs over virtual ranks in one process and over one rank per MPI process.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/lb/comm.hpp"

namespace tessera::lb::comm::testing {

template <class Factory>
class CommSuite : public ::testing::Test {
 protected:
  std::unique_ptr<Backend> backend_ = Factory::make();
};

TYPED_TEST_SUITE_P(CommSuite);

struct Token {
  std::int32_t hops = 0;
};

struct RingRank {
  Handler<Token> on_token_handler;
  std::vector<std::int32_t> seen;
  void on_token(Communicator& ctx, const Token& token) {
    seen.push_back(token.hops);
    if (token.hops < ctx.size()) ctx.send((ctx.rank() + 1) % ctx.size(), on_token_handler, Token{token.hops + 1});
  }
};

TYPED_TEST_P(CommSuite, TokenCirclesTheRingOnceUntilQuiet) {
  Team<RingRank> team(*this->backend_, [](Rank) { return RingRank{}; });
  const auto h = team.template handler<&RingRank::on_token>();
  team.step([&](RingRank& self, Communicator&) { self.on_token_handler = h; });
  team.step_on(0, [&](RingRank&, Communicator& ctx) { ctx.send(1 % ctx.size(), h, Token{1}); });
  team.run_until_quiet();
  const Rank p = team.size();
  team.step([&](RingRank& self, Communicator& ctx) {
    if (ctx.rank() == 0) {
      EXPECT_EQ(self.seen, (p == 1 ? std::vector<std::int32_t>{1} : std::vector<std::int32_t>{p}));
    } else {
      EXPECT_EQ(self.seen, std::vector<std::int32_t>{ctx.rank()});
    }
  });
}

struct Hello {
  std::int32_t from = 0;
  std::int32_t seq = 0;
};

struct PairRank {
  std::vector<Hello> got;
  std::vector<Rank> sources;
  void on_hello(Communicator& ctx, const Hello& m) {
    got.push_back(m);
    sources.push_back(ctx.source());
  }
};

TYPED_TEST_P(CommSuite, HandlerRunsOnDestinationAndKeepsPerPairOrder) {
  constexpr int count = 50;
  Team<PairRank> team(*this->backend_, [](Rank) { return PairRank{}; });
  const auto h = team.template handler<&PairRank::on_hello>();
  team.step([&](PairRank&, Communicator& ctx) {
    for (int i = 0; i < count; ++i) ctx.send((ctx.rank() + 1) % ctx.size(), h, Hello{ctx.rank(), i});
  });
  team.run_until_quiet();
  team.step([&](PairRank& self, Communicator& ctx) {
    const Rank left = (ctx.rank() + ctx.size() - 1) % ctx.size();
    ASSERT_EQ(self.got.size(), static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      EXPECT_EQ(self.got[i].from, left);
      EXPECT_EQ(self.sources[i], left);
      EXPECT_EQ(self.got[i].seq, i);
    }
  });
}

struct Spawn {
  std::int32_t depth = 0;
};

struct CascadeRank {
  Handler<Spawn> spawn;
  std::int64_t handled = 0;
  void on_spawn(Communicator& ctx, const Spawn& m) {
    ++handled;
    if (m.depth == 0) return;
    // Each message causes two more, to ranks further round the ring: a binary tree of messages.
    ctx.send((ctx.rank() + 1) % ctx.size(), spawn, Spawn{m.depth - 1});
    ctx.send((ctx.rank() + 2) % ctx.size(), spawn, Spawn{m.depth - 1});
  }
};

TYPED_TEST_P(CommSuite, RunUntilQuietDeliversMessagesCausedByMessages) {
  constexpr int depth = 6;
  Team<CascadeRank> team(*this->backend_, [](Rank) { return CascadeRank{}; });
  const auto h = team.template handler<&CascadeRank::on_spawn>();
  team.step([&](CascadeRank& self, Communicator& ctx) {
    self.spawn = h;
    ctx.send(ctx.rank(), h, Spawn{depth});
  });
  team.run_until_quiet();
  const auto total = team.allreduce(ReduceOp::sum, [](CascadeRank& self) { return self.handled; });
  EXPECT_EQ(total, static_cast<std::int64_t>(team.size()) * ((std::int64_t{1} << (depth + 1)) - 1));
}

TYPED_TEST_P(CommSuite, QuietWithoutMessagesReturns) {
  Team<CascadeRank> team(*this->backend_, [](Rank) { return CascadeRank{}; });
  team.run_until_quiet();
  const auto total = team.allreduce(ReduceOp::sum, [](CascadeRank& self) { return self.handled; });
  EXPECT_EQ(total, 0);
}

struct Plain {
  Rank rank = 0;
};

TYPED_TEST_P(CommSuite, AllreduceScalarsAndVectors) {
  Team<Plain> team(*this->backend_, [](Rank r) { return Plain{r}; });
  const std::int64_t p = team.size();
  EXPECT_DOUBLE_EQ(team.allreduce(ReduceOp::sum, [](Plain& s) { return 0.5 * (s.rank + 1); }),
                   0.25 * static_cast<double>(p * (p + 1)));
  EXPECT_EQ(team.allreduce(ReduceOp::min, [](Plain& s) { return 3.0 - s.rank; }), 3.0 - static_cast<double>(p - 1));
  EXPECT_EQ(team.allreduce(ReduceOp::max, [](Plain& s) { return 3.0 - s.rank; }), 3.0);
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(team.allreduce(ReduceOp::sum, [&](Plain& s) { return big + s.rank; }), big * p + p * (p - 1) / 2);
  EXPECT_EQ(team.allreduce(ReduceOp::max, [](Plain& s) { return std::int64_t{s.rank} * 7; }), (p - 1) * 7);
  EXPECT_EQ(team.allreduce(ReduceOp::min, [](Plain& s) { return std::int32_t{s.rank} - 4; }), -4);

  const auto sums = team.allreduce(ReduceOp::sum, [](Plain& s) {
    return std::vector<double>{1.0, static_cast<double>(s.rank), -2.0 * s.rank};
  });
  EXPECT_EQ(sums, (std::vector<double>{static_cast<double>(p), p * (p - 1) / 2.0, -1.0 * p * (p - 1)}));
  const auto maxima = team.allreduce(ReduceOp::max, [](Plain& s) {
    return std::vector<std::int64_t>{s.rank, -s.rank};
  });
  EXPECT_EQ(maxima, (std::vector<std::int64_t>{p - 1, 0}));
  const auto minima = team.allreduce(ReduceOp::min, [](Plain& s) {
    return std::vector<std::int64_t>{s.rank, -s.rank};
  });
  EXPECT_EQ(minima, (std::vector<std::int64_t>{0, -(p - 1)}));
}

struct Announcement {
  std::string text;
  std::vector<std::int64_t> values;
  template <class A>
  void serialize(A& ar) {
    ar(text, values);
  }
};

TYPED_TEST_P(CommSuite, BroadcastFromEveryRoot) {
  Team<Plain> team(*this->backend_, [](Rank r) { return Plain{r}; });
  for (Rank root = 0; root < team.size(); ++root) {
    const auto got = team.broadcast(root, [](Plain& s) {
      return Announcement{"from " + std::to_string(s.rank), {s.rank, s.rank * 10, -1}};
    });
    EXPECT_EQ(got.text, "from " + std::to_string(root));
    EXPECT_EQ(got.values, (std::vector<std::int64_t>{root, root * 10, -1}));
  }
}

struct Batch {
  std::vector<Announcement> items;
  double weight = 0.0;
  template <class A>
  void serialize(A& ar) {
    ar(items, weight);
  }
};

struct BatchRank {
  std::vector<Batch> got;
  void on_batch(Communicator&, const Batch& b) { got.push_back(b); }
};

TYPED_TEST_P(CommSuite, NestedSerializableMessageArrivesIntact) {
  Team<BatchRank> team(*this->backend_, [](Rank) { return BatchRank{}; });
  const auto h = team.template handler<&BatchRank::on_batch>();
  team.step([&](BatchRank&, Communicator& ctx) {
    Batch b{{{"a", {ctx.rank()}}, {"", {}}, {std::string(300, 'x'), {1, 2, 3}}}, 0.125 * ctx.rank()};
    ctx.send((ctx.rank() + ctx.size() - 1) % ctx.size(), h, b);
  });
  team.run_until_quiet();
  team.step([&](BatchRank& self, Communicator& ctx) {
    const Rank right = (ctx.rank() + 1) % ctx.size();
    ASSERT_EQ(self.got.size(), 1u);
    const Batch& b = self.got[0];
    ASSERT_EQ(b.items.size(), 3u);
    EXPECT_EQ(b.items[0].text, "a");
    EXPECT_EQ(b.items[0].values, std::vector<std::int64_t>{right});
    EXPECT_TRUE(b.items[1].text.empty());
    EXPECT_EQ(b.items[2].text, std::string(300, 'x'));
    EXPECT_EQ(b.items[2].values, (std::vector<std::int64_t>{1, 2, 3}));
    EXPECT_EQ(b.weight, 0.125 * right);
  });
}

TYPED_TEST_P(CommSuite, SendToRankOutsideRangeThrows) {
  Team<BatchRank> team(*this->backend_, [](Rank) { return BatchRank{}; });
  const auto h = team.template handler<&BatchRank::on_batch>();
  team.step([&](BatchRank&, Communicator& ctx) {
    EXPECT_THROW(ctx.send(ctx.size(), h, Batch{}), std::out_of_range);
    EXPECT_THROW(ctx.send(-1, h, Batch{}), std::out_of_range);
  });
  team.run_until_quiet();
}

REGISTER_TYPED_TEST_SUITE_P(CommSuite, TokenCirclesTheRingOnceUntilQuiet,
                            HandlerRunsOnDestinationAndKeepsPerPairOrder,
                            RunUntilQuietDeliversMessagesCausedByMessages,
                            QuietWithoutMessagesReturns, AllreduceScalarsAndVectors,
                            BroadcastFromEveryRoot, NestedSerializableMessageArrivesIntact,
                            SendToRankOutsideRangeThrows);

}  // namespace tessera::lb::comm::testing
