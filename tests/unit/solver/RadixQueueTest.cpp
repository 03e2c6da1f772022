//===- RadixQueueTest.cpp - the monotone queue against a binary heap -----===//

#include "core/solver/RadixQueue.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

using cudadeps::solver::RadixQueue;

namespace {

/// As pruning's candidates: a key, and three numbers that order one key's.
struct Item {
  uint64_t Key;
  uint32_t A, B, C;
  bool operator>(const Item &O) const {
    return std::tie(Key, A, B, C) > std::tie(O.Key, O.A, O.B, O.C);
  }
  bool operator==(const Item &O) const {
    return std::tie(Key, A, B, C) == std::tie(O.Key, O.A, O.B, O.C);
  }
};
struct KeyOf {
  uint64_t operator()(const Item &I) const { return I.Key; }
};
struct Less {
  bool operator()(const Item &X, const Item &Y) const {
    return std::tie(X.A, X.B, X.C) < std::tie(Y.A, Y.B, Y.C);
  }
};
using Queue = RadixQueue<Item, KeyOf, Less>;
using Heap = std::priority_queue<Item, std::vector<Item>, std::greater<>>;

/// Runs a search-like sequence on both: pushes a few items, then takes one
/// (top(), then pop()), looks at the next one of the same key, and pushes
/// more whose keys are at least the taken one's (plus a step that may be
/// 0), capped at Cap, until both are empty. Each item taken must be the
/// same.
void sameOrder(std::mt19937_64 &Rng, uint64_t Cap, uint64_t MaxStep,
               unsigned Spread) {
  Queue Q;
  Heap H;
  auto Push = [&](const Item &I) {
    Q.push(I);
    H.push(I);
  };
  auto Pick = [&](uint64_t From) {
    uint64_t Step = std::uniform_int_distribution<uint64_t>(0, MaxStep)(Rng);
    uint64_t Key = Cap - From < Step ? Cap : From + Step;
    // Few distinct tie-breakers, so that whole items repeat too.
    return Item{Key, uint32_t(Rng() % Spread), uint32_t(Rng() % Spread),
                uint32_t(Rng() % 3)};
  };
  for (int K = 0; K < 20; ++K)
    Push(Pick(0));
  size_t Taken = 0;
  while (!H.empty()) {
    ASSERT_FALSE(Q.empty());
    ASSERT_EQ(Q.size(), H.size());
    Item Want = H.top();
    Item Got = Q.top();
    ASSERT_EQ(Got, Want) << "item " << Taken << ": key " << Got.Key
                         << " where the heap took " << Want.Key;
    H.pop();
    Q.pop();
    ++Taken;
    // A look at the next item of the same key moves nothing on: what is
    // pushed next may still be smaller than the next key.
    const Item *Same = Q.peekSameKey();
    if (!H.empty() && H.top().Key == Want.Key) {
      ASSERT_NE(Same, nullptr);
      EXPECT_EQ(*Same, H.top());
    } else {
      EXPECT_EQ(Same, nullptr);
    }
    if (Taken < 3000) {
      unsigned More = unsigned(Rng() % 4);
      for (unsigned M = 0; M < More; ++M)
        Push(Pick(Want.Key));
    }
  }
  EXPECT_TRUE(Q.empty());
}

TEST(RadixQueue, TakesItemsAsABinaryHeapOrderedByKeyThenLess) {
  std::mt19937_64 Rng(20261208);
  for (int Round = 0; Round < 40; ++Round) {
    SCOPED_TRACE(Round);
    // Small steps (many equal keys, taken by Less), large ones (keys that
    // differ in high bits), and keys that stop at a cap, where a key equal
    // to the last one taken is pushed.
    sameOrder(Rng, ~uint64_t(0), 3, 4);
    sameOrder(Rng, ~uint64_t(0), uint64_t(1) << 40, 50);
    sameOrder(Rng, uint64_t(1) << 62, uint64_t(1) << 61, 6);
    sameOrder(Rng, 1000, 40, 3);
  }
}

TEST(RadixQueue, AKeyEqualToTheLastTakenIsTakenByLessAmongItsKey) {
  Queue Q;
  Q.push({5, 2, 0, 0});
  Q.push({5, 4, 0, 0});
  Q.push({9, 0, 0, 0});
  EXPECT_EQ(Q.top(), (Item{5, 2, 0, 0}));
  Q.pop();
  // The cap: a key equal to the last one taken, before and after the
  // one left of that key.
  Q.push({5, 3, 0, 0});
  Q.push({5, 7, 0, 0});
  Q.push({5, 1, 0, 0});
  std::vector<uint32_t> Order;
  while (!Q.empty()) {
    Order.push_back(Q.top().A);
    Q.pop();
  }
  EXPECT_EQ(Order, (std::vector<uint32_t>{1, 3, 4, 7, 0}));
}

} // namespace
