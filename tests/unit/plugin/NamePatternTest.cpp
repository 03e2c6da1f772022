//===- NamePatternTest.cpp - the prefix pre-check never changes a match ---===//

#include "core/plugin/NamePattern.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

namespace {

TEST(NamePattern, PrefixesOfTheProbesPatterns) {
  EXPECT_THAT(*requiredPrefixes("^(g\\+\\+|clang\\+\\+)(-[0-9]+(\\.[0-9]+)*)?$"),
              UnorderedElementsAre("g++", "clang++"));
  EXPECT_THAT(*requiredPrefixes("^cuda"), ElementsAre("cuda"));
  EXPECT_THAT(*requiredPrefixes("^nvidia$"), ElementsAre("nvidia"));
  EXPECT_THAT(*requiredPrefixes("^(cu[0-9]+|cuda_nvcc)$"),
              UnorderedElementsAre("cu", "cuda_nvcc"));
  EXPECT_THAT(*requiredPrefixes("^libcudart\\.so\\."),
              ElementsAre("libcudart.so."));
  EXPECT_THAT(*requiredPrefixes("^ab+c"), ElementsAre("ab"));
  EXPECT_THAT(*requiredPrefixes("^abc?"), ElementsAre("ab"));
  EXPECT_THAT(*requiredPrefixes("^x(a|b)+y"), UnorderedElementsAre("xa", "xb"));
  EXPECT_THAT(*requiredPrefixes("^x(a|b)?y"), ElementsAre("x"));
  EXPECT_THAT(*requiredPrefixes("^x(a|bc)d"), UnorderedElementsAre("xa", "xbc"));
}

TEST(NamePattern, NoPrefixWhereTheStartIsNotCertain) {
  for (const char *P :
       {"", "cuda", "\\.dist-info$", "^a|b", "^(a|b)|c", "^a*b", "^(ab)?c",
        "^[gc]\\+\\+", "^.cuda", "^\\dfoo", "^(a|)", "^(a|b", "^[ab"})
    EXPECT_FALSE(requiredPrefixes(P).has_value()) << P;
}

TEST(NamePattern, SuffixesBeforeAFinalDollar) {
  EXPECT_EQ(requiredSuffix("\\.(dist|egg)-info$"), "-info");
  EXPECT_EQ(requiredSuffix("^nvidia$"), "nvidia");
  EXPECT_EQ(requiredSuffix("a\\.b$"), "b");
  for (const char *P : {"", "abc", "^(torch|nvidia)$", "ab+$", "abc?$",
                        "a{2}$", "a\\$", "[ab]$", "a.$", "$"})
    EXPECT_EQ(requiredSuffix(P), "") << P;
}

/// Every string over \p Alphabet up to \p Length characters.
std::vector<std::string> allStrings(llvm::StringRef Alphabet, size_t Length) {
  std::vector<std::string> Out{""};
  for (size_t Begin = 0, L = 0; L < Length; ++L) {
    size_t End = Out.size();
    for (size_t I = Begin; I < End; ++I)
      for (char C : Alphabet)
        Out.push_back(Out[I] + C);
    Begin = End;
  }
  return Out;
}

TEST(NamePattern, MatchesExactlyWhatTheRegularExpressionMatches) {
  std::vector<std::string> Names = allStrings("gc+l-1.x|a(", 5);
  for (const char *Extra :
       {"g++", "g++-12", "g++-12.2", "clang++", "clang++-16", "clang++-",
        "c++", "gcc", "xg++", "g++x", "cuda", "cuda-13.0", "cu128", "cuda_nvcc",
        "nvidia", "libcudart.so.13", "ab", "abbc", "xay", "xby", "xy",
        "torch", "torchx", "xtorch", "numpy-2.1.dist-info", "six.egg-info",
        "a.dist-info", "a-info", "dist-info", "x.dist-infos", "nvidia.dist-info"})
    Names.push_back(Extra);
  // And the names of real directories: programs, and Python packages.
  for (const char *Dir : {"/usr/bin", "/usr/lib/python3/dist-packages"}) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End;
         !EC && It != End; It.increment(EC))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
  }
  for (const char *P :
       {"^(g\\+\\+|clang\\+\\+)(-[0-9]+(\\.[0-9]+)*)?$", "^cuda", "^nvidia$",
        "^(cu[0-9]+|cuda_nvcc)$", "^libcudart\\.so\\.", "^ab+c", "^abc?",
        "^x(a|b)+y", "^x(a|b)?y", "^x(a|bc)d", "^g\\+", "^(g|c)\\+\\+",
        "^a|g", "^[|(]a", "^\\|", "^\\(a",
        // Alternatives anchored at the end, or at either end.
        "\\.(dist|egg)-info$|^(torch|nvidia)$", "a-x$", "^g.*x$", "(a|c)x$",
        "a\\.x$", "^x(a|b)+y$", "l$|^c", "1$|a", "\\($", "x\\|$"}) {
    llvm::Regex Re(P);
    ASSERT_TRUE(Re.isValid()) << P;
    NamePattern N(P);
    for (const std::string &Name : Names)
      EXPECT_EQ(N.match(Name), Re.match(Name)) << P << " on " << Name;
  }
}

} // namespace
