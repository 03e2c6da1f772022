#include "core/manifest/Template.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::ElementsAre;

namespace {

std::optional<std::string> lookup(llvm::StringRef Name) {
  if (Name == "version")
    return std::string("1.6.1");
  if (Name == "python.tag")
    return std::string("cp312");
  return std::nullopt;
}

TEST(Template, ExpandsKnownPlaceholdersAndEscapes) {
  llvm::Expected<std::string> S =
      expandTemplate("v{version}-{python.tag}-{{x}}", lookup);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(*S, "v1.6.1-cp312-{x}");
}

TEST(Template, MissingValueIsAnError) {
  llvm::Expected<std::string> S = expandTemplate("{nvcc} -V", lookup);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "in template '{nvcc} -V': placeholder '{nvcc}' has no value here");
}

TEST(Template, CheckReportsEveryProblemWithItsOffset) {
  std::vector<TemplateProblem> P = checkTemplate("a{versoin}b}c{src");
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[0].Offset, 1u);
  EXPECT_EQ(P[0].Message, "unknown placeholder '{versoin}'");
  EXPECT_EQ(P[0].Hint, "did you mean '{version}'?");
  EXPECT_EQ(P[1].Offset, 11u);
  EXPECT_EQ(P[2].Offset, 13u);
  EXPECT_TRUE(checkTemplate("{torch.cuda_major}{{}}{gencode}").empty());
}

TEST(Template, PlaceholdersIn) {
  EXPECT_THAT(placeholdersIn("{src}/{{x}}/{out}"), ElementsAre("src", "out"));
  EXPECT_EQ(knownPlaceholders().size(), 18u);
  EXPECT_TRUE(llvm::is_contained(knownPlaceholders(), "release_tag"));
  EXPECT_TRUE(llvm::is_contained(knownPlaceholders(), "arch_numbers"));
}

} // namespace
