// SourcePath: one stored string per name, read as the name it stands for.
#include "core/support/BinaryCodec.h"
#include "core/support/SourcePath.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace cudadeps;

namespace {

TEST(SourcePath, EqualNamesShareOneStringAndOthersDoNot) {
  std::string Name = "registry/p0001.toml";
  SourcePath A(Name), B(llvm::StringRef("registry/p0001.toml")),
      C("registry/p0002.toml");
  EXPECT_EQ(&A.str(), &B.str());
  EXPECT_NE(&A.str(), &C.str());
  EXPECT_TRUE(A == B);
  EXPECT_FALSE(A == C);
  EXPECT_EQ(A.str(), Name);
  Name = "changed"; // the stored name is a copy
  EXPECT_EQ(A.str(), "registry/p0001.toml");
}

TEST(SourcePath, ReadsAsTheNameItStandsFor) {
  SourcePath P("a/b.toml");
  EXPECT_TRUE(P == "a/b.toml");
  EXPECT_TRUE(P == std::string("a/b.toml"));
  EXPECT_TRUE(P == llvm::StringRef("a/b.toml"));
  EXPECT_FALSE(P == "a/c.toml");
  EXPECT_EQ(P + ":1", "a/b.toml:1");
  EXPECT_EQ("in " + P, "in a/b.toml");
  EXPECT_EQ(llvm::StringRef(P).size(), 8u);
  EXPECT_STREQ(P.c_str(), "a/b.toml");
  std::string S;
  llvm::raw_string_ostream(S) << P;
  EXPECT_EQ(S, "a/b.toml");
}

TEST(SourcePath, DefaultAndEmptyNamesAreTheSameEmptyName) {
  SourcePath D, E(""), F{std::string()};
  EXPECT_TRUE(D.empty());
  EXPECT_TRUE(D == E);
  EXPECT_TRUE(D == F);
  EXPECT_EQ(D.size(), 0u);
  EXPECT_FALSE(SourcePath("x").empty());
}

TEST(SourcePath, ThreadsInterningTheSameNamesGetTheSameStrings) {
  constexpr unsigned Threads = 4, Names = 200;
  std::vector<std::vector<const std::string *>> Seen(Threads);
  std::vector<std::thread> Ts;
  for (unsigned T = 0; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      for (unsigned I = 0; I < Names; ++I)
        Seen[T].push_back(
            &SourcePath("thread-name-" + std::to_string(I)).str());
    });
  for (std::thread &T : Ts)
    T.join();
  for (unsigned T = 1; T < Threads; ++T)
    EXPECT_EQ(Seen[T], Seen[0]);
}

TEST(SourcePath, ALocationInTheBlobsOwnFileDecodesToThatFile) {
  SourceLocation Own{"own.toml", 3, 4}, Other{"other.toml", 5, 6};
  BinaryEncoder E("own.toml");
  E(Own, Other);
  std::string Bytes = E.take();
  BinaryDecoder D(Bytes, "moved.toml");
  SourceLocation A, B;
  D(A, B);
  ASSERT_TRUE(D.ok());
  EXPECT_EQ(A.File, "moved.toml");
  EXPECT_EQ(A.Line, 3u);
  EXPECT_EQ(A.Column, 4u);
  EXPECT_EQ(B.File, "other.toml");
  EXPECT_EQ(B.Line, 5u);
}

} // namespace
