//===- LockedBuildTest.cpp - build and install --locked --------------------===//
//
// `build --locked` builds exactly what the lock says: a machine that drifted
// from the lock builds nothing (exit 1, the drift listed); a tag that moved
// to another commit than the locked one is not built either.
//
//===----------------------------------------------------------------------===//
#include "tests/support/GitRepo.h"
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;

namespace {

class LockedBuild : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(Root.ok());
    Env["XDG_CACHE_HOME"] = Root.sub("cache");
    Env["HOME"] = Root.sub("home");
    Env["CUDADEPS_FACTS"] = "";
    ASSERT_TRUE(makeScriptProject(Repo, Root.sub("home"),
                                  "#!/bin/sh\nmkdir -p \"$1\" && echo built > "
                                  "\"$1/artifact\"\n"));
    ASSERT_TRUE(writeFile(Manifest,
                          "schema = 1\n[package]\nname = \"scripted\"\n"
                          "git = \"" + Repo +
                              "\"\nbuild = \"command\"\n[requires]\n"
                              "nvcc = \">=12\"\n[[release]]\nversion = "
                              "\"1.0\"\narchs = [\"sm_80\", \"sm_90\"]\n"
                              "[build]\ncommand = [\"./build.sh\", \"{out}\"]\n"));
    ASSERT_TRUE(writeFile(Facts, buildFacts("/opt/fake-cuda/bin/nvcc",
                                            "13.0.88", "/usr/bin/g++",
                                            "12.2.0")));
  }

  RunResult run(std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--facts", Facts});
    if (Args.front() != "resolve")
      Args.insert(Args.end(), {"--launcher", "none"});
    if (std::find(Args.begin(), Args.end(), "--arch") == Args.end())
      Args.insert(Args.end(), {"--arch", "sm_90"});
    return runCudadeps(Args, Env, 120);
  }

  TempDir Root{"cudadeps-locked-build"};
  std::string Repo = Root.sub("script");
  std::string Manifest = Root.sub("m.toml");
  std::string Facts = Root.sub("facts.toml");
  std::string Lock = Root.sub("cudadeps.lock");
  std::map<std::string, std::string> Env;
};

} // namespace

TEST_F(LockedBuild, BuildsWhenTheLockHoldsAndNothingWhenItDrifted) {
  ASSERT_EQ(run({"resolve", Manifest, "--lock", Lock}).Code, 0);

  RunResult Drift = run({"build", Manifest, "--locked", "--arch", "sm_80"});
  EXPECT_EQ(Drift.Code, 1) << Drift.Out << Drift.Err;
  EXPECT_THAT(Drift.Out, HasSubstr("drift: scripted archs: sm_90 → sm_80"));
  EXPECT_THAT(Drift.Out, HasSubstr("nothing was built: the lock does not "
                                   "hold"));
  EXPECT_FALSE(sys::fs::exists(Root.sub("cache/cudadeps/src")));

  RunResult Built = run({"build", Manifest, "--locked"});
  EXPECT_EQ(Built.Code, 0) << Built.Out << Built.Err;
  EXPECT_THAT(Built.Err, HasSubstr("locked: " + Lock + " holds"));
  EXPECT_THAT(Built.Out, HasSubstr("scripted 1.0: built for sm_90"));

  // A locked build never provisions, and says so.
  RunResult Provision = run({"build", Manifest, "--locked", "--provision"});
  EXPECT_EQ(Provision.Code, 0) << Provision.Out << Provision.Err;
  EXPECT_THAT(Provision.Err, HasSubstr("--provision is ignored with --locked"));
  EXPECT_THAT(Provision.Out, HasSubstr("scripted 1.0: cache hit"));
}

TEST_F(LockedBuild, ATagThatMovedFromTheLockedCommitIsNotBuilt) {
  // Fetched once, so the lock records the commit the tag is at.
  ASSERT_EQ(run({"build", Manifest}).Code, 0);
  ASSERT_EQ(run({"resolve", Manifest, "--lock", Lock}).Code, 0);
  std::string Head;
  ASSERT_TRUE(git(Repo, {"rev-parse", "v1.0"}, Root.sub("home"), &Head));
  Head = StringRef(Head).trim().str();
  EXPECT_THAT(readWhole(Lock), HasSubstr("commit = \"" + Head + "\""));

  // A lock made where the tag was elsewhere: another (here: an invented)
  // commit.
  std::string Other(40, 'a');
  std::string Text = readWhole(Lock);
  Text.replace(Text.find(Head), Head.size(), Other);
  writeFile(Lock, Text);
  // The cached clone is at the tag's commit, not the locked one: drift.
  RunResult R = run({"build", Manifest, "--locked"});
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("drift: scripted commit: " + Other + " → " +
                               Head));

  // Not in this cache: checked once fetched, and nothing is built.
  Env["XDG_CACHE_HOME"] = Root.sub("cache2");
  RunResult Fresh = run({"build", Manifest, "--locked"});
  EXPECT_EQ(Fresh.Code, 3) << Fresh.Out << Fresh.Err;
  EXPECT_THAT(Fresh.Err, HasSubstr("scripted: tag 'v1.0' of " + Repo +
                                   " is at commit " + Head + ", but " + Lock +
                                   " records " + Other +
                                   ": the tag moved since the lock was "
                                   "written; nothing was built"));
}

TEST_F(LockedBuild, LockWithoutLockedIsAUsageError) {
  RunResult R = run({"build", Manifest, "--lock", Lock});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("--lock FILE names the lock --locked checks"));
  RunResult Missing = run({"install", Manifest, "--locked"});
  EXPECT_EQ(Missing.Code, 2);
  EXPECT_THAT(Missing.Err, HasSubstr("no lock file " + Root.sub("cudadeps.lock")));
}
