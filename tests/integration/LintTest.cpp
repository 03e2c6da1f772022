//===- LintTest.cpp - cudadeps lint on shipped data and the bad corpus -----===//
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/ADT/StringExtras.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;

static std::vector<std::string> filesIn(StringRef Dir, StringRef Ext) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    if (sys::path::extension(I->path()) == Ext)
      Files.push_back(I->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

TEST(Lint, ShippedManifestsAreClean) {
  std::vector<std::string> Args{"lint"};
  for (const std::string &F :
       filesIn(CUDADEPS_SOURCE_DIR "/manifests", ".toml"))
    Args.push_back(F);
  ASSERT_GE(Args.size(), 3u) << "expected shipped manifests under manifests/";
  Args.push_back(CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml");
  RunResult R = runCudadeps(Args);
  EXPECT_EQ(R.Code, 0) << R.Err;
  // The only warnings allowed are releases whose arch list was not re-read
  // (resolve says it assumes the targets for them).
  SmallVector<StringRef, 64> Lines;
  StringRef(R.Err).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    if (L.contains(": warning: ") || L.contains(": error: ")) {
      EXPECT_TRUE(L.contains(": warning: release ") &&
                  L.endswith(" lists no archs: resolve assumes it compiles "
                             "the targets"))
          << L.str();
    }
}

TEST(Lint, MissingFileIsInputError) {
  RunResult R = runCudadeps({"lint", "/nonexistent/cudadeps.toml"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("/nonexistent/cudadeps.toml"));
}

// Every malformed manifest in the corpus: exit 2 and a diagnostic that
// names file:line:col as its sibling .expect file says.
TEST(Lint, RejectsEveryCorpusFileWithLocatedDiagnostic) {
  std::string Dir = CUDADEPS_FIXTURES_DIR "/manifests/bad";
  std::vector<std::string> Files = filesIn(Dir, ".toml");
  ASSERT_GE(Files.size(), 20u);
  for (const std::string &F : Files) {
    SCOPED_TRACE(F);
    std::string Expect =
        StringRef(readWhole(F.substr(0, F.size() - 5) + ".expect")).trim().str();
    ASSERT_FALSE(Expect.empty()) << "missing .expect for " << F;
    RunResult R = runCudadeps({"lint", F});
    EXPECT_EQ(R.Code, 2) << R.Out << R.Err;
    // The .expect holds "name.toml:LINE:COL"; the message names the path.
    EXPECT_THAT(R.Err, HasSubstr(Dir + "/" + Expect)) << R.Err;
    EXPECT_THAT(R.Err, HasSubstr("error: "));
    EXPECT_EQ(R.Out, "");
  }
}
