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

namespace {

/// Every length the hash reads differently (none, up to 3 bytes, one word
/// or two halves, two overlapping words, four words, std::hash beyond),
/// each name changed in each byte in turn.
TEST(NameIndex, TextHashAndEqualityReadEveryByte) {
  for (size_t N = 0; N <= 40; ++N) {
    std::string Name;
    for (size_t K = 0; K < N; ++K)
      Name.push_back(char('a' + K % 26));
    // The same text in another string, and a view of it, hash alike.
    std::string Copy = Name;
    EXPECT_EQ(cudadeps::textHash(Name), cudadeps::textHash(Copy)) << N;
    EXPECT_EQ(cudadeps::nameHash<std::string>(Name),
              cudadeps::nameHash<std::string_view>(std::string_view(Copy)));
    EXPECT_TRUE(cudadeps::textEqual(Name, Copy)) << N;
    for (size_t At = 0; At < N; ++At) {
      std::string Other = Name;
      Other[At] = char(Other[At] ^ 0x20);
      EXPECT_NE(cudadeps::textHash(Name), cudadeps::textHash(Other))
          << N << " " << At;
      EXPECT_FALSE(cudadeps::textEqual(Name, Other)) << N << " " << At;
    }
    // One byte longer or shorter: other text.
    EXPECT_FALSE(cudadeps::textEqual(Name, Name + "x")) << N;
    EXPECT_NE(cudadeps::textHash(Name), cudadeps::textHash(Name + "a")) << N;
  }
}

/// Many names that share their first and last bytes (the registry's
/// numbered names): the index finds each, whatever their hashes share.
TEST(NameIndex, NumberedNamesOfEveryLengthAreFound) {
  NameIndex<std::string> Index;
  std::vector<std::string> Names;
  std::vector<std::string> Made;
  for (int Width = 1; Width <= 24; Width += 3)
    for (int K = 0; K < 300; ++K) {
      std::string Digits = std::to_string(K);
      Made.push_back("p" + std::string(size_t(Width), '0') + Digits + "z");
    }
  for (size_t K = 0; K < Made.size(); ++K)
    EXPECT_EQ(Index.intern(Made[K], Names), std::make_pair(uint32_t(K), true));
  for (size_t K = 0; K < Made.size(); ++K)
    EXPECT_EQ(Index.find<std::string_view>(Made[K], Names),
              std::optional<uint32_t>(K));
  EXPECT_FALSE(Index.find("p0z", Names));
}

} // namespace
