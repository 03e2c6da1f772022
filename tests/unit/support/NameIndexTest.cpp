//===- NameIndexTest.cpp - package names to their ids ---------------------===//

#include "core/support/NameIndex.h"

#include "gtest/gtest.h"

#include <string>
#include <string_view>
#include <vector>

using cudadeps::NameIndex;

namespace {

TEST(NameIndex, FindsEveryNameAddedAndNoOther) {
  NameIndex<std::string> Index;
  std::vector<std::string> Names;
  EXPECT_FALSE(Index.find("torch", Names));
  // Enough names to grow the table several times over.
  for (int K = 0; K < 5000; ++K) {
    EXPECT_EQ(Index.intern("pkg-" + std::to_string(K), Names),
              std::make_pair(uint32_t(K), true));
  }
  for (int K = 0; K < 5000; ++K) {
    std::optional<uint32_t> Id = Index.find("pkg-" + std::to_string(K), Names);
    ASSERT_TRUE(Id) << K;
    EXPECT_EQ(*Id, uint32_t(K));
  }
  EXPECT_FALSE(Index.find("pkg-5000", Names));
  // By a view of the name, as by the name itself.
  EXPECT_EQ(Index.find<std::string_view>("pkg-4321", Names),
            std::optional<uint32_t>(4321));
  EXPECT_FALSE(Index.find<std::string_view>("pkg-43210", Names));
  EXPECT_FALSE(Index.find("", Names));
  EXPECT_FALSE(Index.find("pkg-", Names));
}

/// A hash that sends every name to one slot: names that share a hash are
/// told apart by the names themselves.
struct Same {
  std::string S;
  bool operator==(const Same &) const = default;
};

} // namespace

template <> struct std::hash<Same> {
  size_t operator()(const Same &) const { return 42; }
};

namespace {

TEST(NameIndex, NamesWithOneHashAreToldApart) {
  // More than the first table holds: they move to a larger one together.
  NameIndex<Same> Index;
  std::vector<Same> Names;
  for (int K = 0; K < 700; ++K)
    EXPECT_EQ(Index.intern(Same{"n" + std::to_string(K)}, Names),
              std::make_pair(uint32_t(K), true));
  EXPECT_EQ(Index.intern(Same{"n5"}, Names), std::make_pair(5u, false));
  for (size_t K = 0; K < Names.size(); ++K)
    EXPECT_EQ(Index.find(Names[K], Names), std::optional<uint32_t>(K));
  EXPECT_FALSE(Index.find(Same{"z"}, Names));
}

} // namespace

namespace {

TEST(NameIndex, InternAddsANameOnceAndSaysWhen) {
  NameIndex<std::string> Index;
  std::vector<std::string> Names;
  EXPECT_EQ(Index.intern("torch", Names), std::make_pair(0u, true));
  EXPECT_EQ(Index.intern<std::string_view>("triton", Names),
            std::make_pair(1u, true));
  EXPECT_EQ(Index.intern<std::string_view>("torch", Names),
            std::make_pair(0u, false));
  EXPECT_EQ(Index.intern("triton", Names), std::make_pair(1u, false));
  EXPECT_EQ(Names, (std::vector<std::string>{"torch", "triton"}));
  EXPECT_EQ(Index.find("triton", Names), std::optional<uint32_t>(1));
}

} // namespace
