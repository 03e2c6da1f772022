//===- CompilerProbeTest.cpp - the compiler probe against fake compilers --===//

#include "plugins/compiler/CompilerProbe.h"

#include "tests/support/FakeToolkit.h"

#include "llvm/Support/Program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

std::string fakeGcc(llvm::StringRef Name, llvm::StringRef Full) {
  return "#!/bin/sh\ncase \"$1\" in\n"
         "--version) echo '" + Name.str() + " (Ubuntu " + Full.str() +
         "-6ubuntu2~24.04) " + Full.str() + "'\n"
         "  echo 'Copyright (C) 2023 Free Software Foundation, Inc.'\n"
         "  echo 'This is free software; see the source for copying conditions.'"
         ";;\n-dumpfullversion) echo " + Full.str() + ";;\n"
         "-dumpversion) echo " + Full.str() + " | cut -d. -f1;;\n"
         "*) exit 1;;\nesac\n";
}

std::string fakeClang(llvm::StringRef Full) {
  return "#!/bin/sh\ncase \"$1\" in\n"
         "--version) echo 'Ubuntu clang version " + Full.str() + " (1ubuntu1)'\n"
         "  echo 'Target: x86_64-pc-linux-gnu'\n  echo 'Thread model: posix';;\n"
         "*) exit 1;;\nesac\n";
}

using ProbeRun = ProbeRunOf<createCompilerProbe>;

} // namespace

TEST(CompilerParse, FamiliesAndClangVersions) {
  EXPECT_EQ(compiler::familyFromVersionOutput(
                "g++ (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free "
                "Software Foundation, Inc.\n"),
            "gcc");
  EXPECT_EQ(compiler::familyFromVersionOutput(
                "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"),
            "clang");
  EXPECT_EQ(compiler::familyFromVersionOutput("nvc++ 24.1-0 64-bit target\n"), "");
  EXPECT_EQ(compiler::clangVersionFromOutput("Debian clang version 14.0.6\n"),
            "14.0.6");
  EXPECT_EQ(compiler::clangVersionFromOutput("gcc 12\n"), std::nullopt);
  EXPECT_TRUE(compiler::isCompilerName("g++"));
  EXPECT_TRUE(compiler::isCompilerName("g++-13"));
  EXPECT_TRUE(compiler::isCompilerName("clang++-18"));
  EXPECT_FALSE(compiler::isCompilerName("g++-13-wrapper"));
  EXPECT_FALSE(compiler::isCompilerName("x86_64-linux-gnu-g++"));
  EXPECT_FALSE(compiler::isCompilerName("clang"));
}

TEST(CompilerProbe, FindsGccAndClangDeduplicatesAndMarksNvccsDefault) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Bin = T.sub("bin"), Other = T.sub("other");
  writeFile(Bin + "/g++-13", fakeGcc("g++-13", "13.3.0"), true);
  ASSERT_TRUE(makeSymlink("g++-13", Bin + "/g++"));
  writeFile(Bin + "/clang++-18", fakeClang("18.1.3"), true);
  writeFile(Other + "/g++-14", fakeGcc("g++-14", "14.2.0"), true);
  writeFile(Bin + "/not-a-compiler", "#!/bin/sh\nexit 0\n", true);

  ProbeRun R;
  R.Env.set("PATH", Bin);
  R.Env.set("CXX", "clang++-18");
  R.Env.set("CUDAHOSTCXX", "ccache " + Other + "/g++-14");
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_EQ(A.Found.Compilers.size(), 3u) << joined(A.Warnings);

  const CompilerFacts &G13 = A.Found.Compilers[0];
  EXPECT_EQ(G13.Path, Bin + "/g++"); // nvcc's default, spelled as found
  EXPECT_TRUE(G13.NvccDefault);
  EXPECT_EQ(G13.Family, "gcc");
  EXPECT_EQ(G13.Ver.str(), "13.3.0");
  EXPECT_EQ(G13.From, Source::probed("compiler", Bin + "/g++ -dumpfullversion"));
  EXPECT_EQ(G13.ChosenBy, ""); // found on PATH, nobody named it

  const CompilerFacts &Clang = A.Found.Compilers[1];
  EXPECT_EQ(Clang.Path, Bin + "/clang++-18");
  EXPECT_FALSE(Clang.NvccDefault);
  EXPECT_EQ(Clang.Family, "clang");
  EXPECT_EQ(Clang.Ver.str(), "18.1.3");
  // Named by the user: the fact says by which variable.
  EXPECT_EQ(Clang.ChosenBy, "$CXX");
  EXPECT_EQ(Clang.From.describe(), "overridden by $CXX");

  EXPECT_EQ(A.Found.Compilers[2].Path, Other + "/g++-14");
  EXPECT_EQ(A.Found.Compilers[2].Ver.str(), "14.2.0");
  EXPECT_EQ(A.Found.Compilers[2].ChosenBy, "$CUDAHOSTCXX");
  EXPECT_TRUE(A.Warnings.empty()) << joined(A.Warnings);
  EXPECT_THAT(A.EnvInputs, Contains("NVCC_CCBIN"));
}

TEST(CompilerProbe, NvccCcbinDirectoryIsTheDefault) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("bin/g++-13"), fakeGcc("g++-13", "13.3.0"), true);
  ASSERT_TRUE(makeSymlink("g++-13", T.sub("bin/g++")));
  writeFile(T.sub("old/g++"), fakeGcc("g++", "11.4.0"), true);
  ProbeRun R;
  R.Env.set("PATH", T.sub("bin"));
  R.Env.set("NVCC_CCBIN", T.sub("old"));
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.Found.Compilers.size(), 2u) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Compilers[0].Path, T.sub("old/g++"));
  EXPECT_TRUE(A.Found.Compilers[0].NvccDefault);
  EXPECT_EQ(A.Found.Compilers[0].Ver.str(), "11.4.0");
  EXPECT_EQ(A.Found.Compilers[0].ChosenBy, "$NVCC_CCBIN");
  EXPECT_EQ(A.Found.Compilers[0].From.describe(),
            "overridden by $NVCC_CCBIN");
  EXPECT_FALSE(A.Found.Compilers[1].NvccDefault);
  EXPECT_EQ(A.Found.Compilers[1].ChosenBy, "");
}

TEST(CompilerProbe, OneCompilerNamedTwiceKeepsTheStrongestChoice) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("bin/g++-13"), fakeGcc("g++-13", "13.3.0"), true);
  writeFile(T.sub("bin/clang++-18"), fakeClang("18.1.3"), true);
  ProbeRun R;
  R.Env.set("PATH", T.sub("bin"));
  R.Env.set("CXX", T.sub("bin/clang++-18"));
  R.Env.set("CUDAHOSTCXX", "clang++-18");
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.Found.Compilers.size(), 2u) << joined(A.Warnings);
  const CompilerFacts &Clang = A.Found.Compilers[0];
  EXPECT_EQ(Clang.Family, "clang");
  EXPECT_EQ(Clang.ChosenBy, "$CUDAHOSTCXX");
}

TEST(CompilerProbe, HangingCompilerIsSkippedWithAWarning) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("bin/clang++"), "#!/bin/sh\nexec /bin/sleep 30\n", true);
  writeFile(T.sub("bin/g++-12"), fakeGcc("g++-12", "12.2.0"), true);
  ProbeRun R;
  R.Timeout = std::chrono::milliseconds(1000);
  R.Env.set("PATH", T.sub("bin"));
  auto Start = std::chrono::steady_clock::now();
  ProbeAnswer A = R.run();
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(5));
  EXPECT_THAT(A.Warnings,
              Contains(T.sub("bin/clang++") + " --version timed out after 1s"));
  ASSERT_EQ(A.Found.Compilers.size(), 1u);
  EXPECT_EQ(A.Found.Compilers[0].Ver.str(), "12.2.0");
  EXPECT_FALSE(A.Found.Compilers[0].NvccDefault); // no g++ or c++ on PATH
}

TEST(CompilerProbe, NoneIsNotPresent) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeRun R;
  R.Env.set("PATH", T.sub("bin"));
  R.Env.set("CXX", "no-such-compiler");
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A.NotPresentReason, "no host C++ compiler found");
  EXPECT_THAT(A.Warnings, Contains(HasSubstr("$CXX is no-such-compiler")));
}

TEST(CompilerProbeReal, TheSystemGxxIsFound) {
  if (llvm::sys::findProgramByName("g++", {"/usr/bin"}).getError())
    GTEST_SKIP() << "no /usr/bin/g++ on this machine";
  ProbeRun R;
  R.Env.set("PATH", "/usr/bin:/bin");
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  const CompilerFacts &First = A.Found.Compilers.front();
  EXPECT_TRUE(First.NvccDefault);
  EXPECT_EQ(First.Family, "gcc");
  EXPECT_GE(First.Ver.major(), 5u);
  EXPECT_EQ(First.Ver.release().size(), 3u); // -dumpfullversion: X.Y.Z
}
