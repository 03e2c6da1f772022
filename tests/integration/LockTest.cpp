//===- LockTest.cpp - resolve --lock FILE and --locked ---------------------===//
//
// A lock round trip, then each kind of drift, each reported precisely
// (which fact, old → new, from which source; which file; which part of
// which decision) with exit 1; and the lock file's own errors.
//
//===----------------------------------------------------------------------===//
#include "core/fetch/SourceFetcher.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/GitRepo.h"
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";

/// The demo project, its registry and the build-farm facts, copied so the
/// tests can change them.
struct LockedProject {
  TempDir Dir{"cudadeps-lock"};
  std::string Project = Dir.sub("cudadeps.toml");
  std::string Registry = Dir.sub("registry");
  std::string Facts = Dir.sub("facts.toml");
  std::string LockFile = Dir.sub("cudadeps.lock");

  LockedProject() {
    writeFile(Project, readWhole(Scenarios + "/demo-project.toml"));
    writeFile(Registry + "/demo-ext.toml",
              readWhole(Scenarios + "/registry/demo-ext.toml"));
    writeFile(Facts, readWhole(Scenarios + "/build-farm-no-gpu.toml"));
  }

  RunResult resolve(std::vector<std::string> Extra) const {
    std::vector<std::string> Args{"resolve", Project, "--registry", Registry,
                                  "--facts", Facts};
    if (std::find(Extra.begin(), Extra.end(), "--arch") == Extra.end())
      Extra.insert(Extra.end(), {"--arch", "sm_90"});
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return runCudadeps(Args);
  }

  /// Replaces the first \p From in \p File by \p To.
  void edit(const std::string &File, StringRef From, StringRef To) const {
    std::string Text = readWhole(File);
    size_t At = Text.find(From.str());
    ASSERT_NE(At, std::string::npos) << From.str();
    Text.replace(At, From.size(), To.str());
    writeFile(File, Text);
  }
};

} // namespace

TEST(Lock, RoundTripHolds) {
  LockedProject P;
  RunResult W = P.resolve({"--lock", P.LockFile});
  ASSERT_EQ(W.Code, 0) << W.Err;
  EXPECT_THAT(W.Out, HasSubstr("lock: wrote " + P.LockFile));
  std::string Lock = readWhole(P.LockFile);
  // The decision, the facts with their sources, the files with hashes.
  EXPECT_THAT(Lock, HasSubstr("lock_version = 1\n"));
  EXPECT_THAT(Lock, HasSubstr("[[package]]\nname = \"demo-ext\"\n"
                              "version = \"2.0.0\"\nstrategy = \"source\"\n"
                              "nvcc = \"/usr/local/cuda-12.8/bin/nvcc\"\n"
                              "nvcc_version = \"12.8.93\"\n"
                              "compiler = \"/usr/bin/g++-13\"\n"
                              "compiler_version = \"gcc 13.3.0\"\n"
                              "archs = [\"sm_90\"]\n"
                              "git = \"https://example.invalid/demo-ext.git\"\n"
                              "tag = \"v2.0.0\"\n"));
  EXPECT_THAT(Lock, HasSubstr("[[fact]]\nkey = \"torch.cuda\"\n"
                              "value = \"12.8\"\nsource = \"declared in " +
                              P.Facts));
  EXPECT_THAT(Lock, HasSubstr("[[file]]\npath = \"cudadeps.toml\"\n"
                              "sha256 = \""));
  EXPECT_THAT(Lock, HasSubstr("path = \"registry/demo-ext.toml\""));
  EXPECT_THAT(Lock, HasSubstr("path = \"{data}/cuda/toolkits.toml\""));

  RunResult C = P.resolve({"--locked"});
  EXPECT_EQ(C.Code, 0) << C.Out << C.Err;
  EXPECT_THAT(C.Out, HasSubstr("locked: " + P.LockFile +
                               " holds on this machine (1 package"));

  // Writing it again changes nothing, not even the mtime.
  RunResult Again = P.resolve({"--lock", P.LockFile});
  EXPECT_THAT(Again.Out, HasSubstr("lock: " + P.LockFile + " is up to date"));
  EXPECT_EQ(readWhole(P.LockFile), Lock);
}

TEST(Lock, FactDriftSaysWhichFactOldNewAndSource) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  P.edit(P.Facts, "version = \"12.8.93\"", "version = \"12.8.61\"");
  RunResult R = P.resolve({"--locked"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("locked: " + P.LockFile +
                               " does not hold on this machine"));
  EXPECT_THAT(R.Out, HasSubstr("drift: nvcc /usr/local/cuda-12.8/bin/nvcc: "
                               "12.8.93 → 12.8.61 (now declared in " +
                               P.Facts + ":2; locked: declared in " + P.Facts +
                               ":2)"));
  EXPECT_THAT(R.Out, HasSubstr("drift: demo-ext nvcc: 12.8.93 "
                               "(/usr/local/cuda-12.8/bin/nvcc) → 12.8.61 "
                               "(/usr/local/cuda-12.8/bin/nvcc)"));
}

TEST(Lock, OverriddenFactDriftNamesTheOverride) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  RunResult R = P.resolve({"--locked", "--set", "torch=2.10.0+cu128"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("drift: torch: 2.11.0+cu128 → 2.10.0+cu128 "
                               "(now overridden by --set torch=2.10.0+cu128; "
                               "locked: declared in " +
                               P.Facts));
}

TEST(Lock, AppearingAndVanishingFactsAreDrift) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  RunResult R = P.resolve({"--locked", "--set", "python=", "--set",
                           "clang=18.1.0"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("drift: python: 3.12.3 → absent (locked: "
                               "declared in " +
                               P.Facts));
  EXPECT_THAT(R.Out, HasSubstr("drift: compiler (overridden): absent → clang "
                               "18.1.0 (now overridden by --set clang=18.1.0)"));
}

TEST(Lock, ManifestAndDecisionDrift) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  P.edit(P.Registry + "/demo-ext.toml", "version = \"2.0.0\"",
         "version = \"2.1.0\"");
  RunResult R = P.resolve({"--locked"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("drift: file registry/demo-ext.toml changed "
                               "(sha256 "));
  EXPECT_THAT(R.Out, HasSubstr("drift: demo-ext decision: 2.0.0 source → "
                               "2.1.0 source"));
  EXPECT_THAT(R.Out, HasSubstr("drift: demo-ext source: "
                               "https://example.invalid/demo-ext.git v2.0.0 → "
                               "https://example.invalid/demo-ext.git v2.1.0"));

  RunResult Archs = P.resolve({"--locked", "--arch", "sm_80"});
  EXPECT_EQ(Archs.Code, 1);
  EXPECT_THAT(Archs.Out, HasSubstr("drift: target archs: sm_90 → sm_80"));
  EXPECT_THAT(Archs.Out, HasSubstr("drift: demo-ext archs: sm_90 → sm_80"));
}

TEST(Lock, JsonCarriesTheCheck) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  RunResult R = P.resolve({"--locked", "--format", "json", "--set",
                           "torch.cuda=12.9"});
  EXPECT_EQ(R.Code, 1);
  Expected<json::Value> V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError()) << R.Out;
  const json::Object *L = V->getAsObject()->getObject("lock");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->getBoolean("holds"), false);
  const json::Array *Drift = L->getArray("drift");
  ASSERT_TRUE(Drift);
  ASSERT_FALSE(Drift->empty());
  EXPECT_THAT((*Drift)[0].getAsString()->str(),
              HasSubstr("torch.cuda: 12.8 → 12.9"));
}

TEST(Lock, DriftEmitsNothing) {
  LockedProject P;
  ASSERT_EQ(P.resolve({"--lock", P.LockFile}).Code, 0);
  std::string Hook = P.Dir.sub("hook.cmake");
  RunResult R = P.resolve({"--locked", "--set", "torch.cuda=12.9", "--emit",
                           "cmake", "-o", Hook});
  EXPECT_EQ(R.Code, 1);
  EXPECT_FALSE(sys::fs::exists(Hook));
  EXPECT_THAT(R.Err, HasSubstr("nothing written to " + Hook +
                               " (the lock does not hold)"));
  R = P.resolve({"--locked", "--emit", "cmake", "-o", Hook});
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_TRUE(sys::fs::exists(Hook));
}

TEST(Lock, UnsatisfiableWritesNoLock) {
  LockedProject P;
  RunResult R = P.resolve({"--lock", P.LockFile, "--set", "nvcc="});
  EXPECT_EQ(R.Code, 1);
  EXPECT_FALSE(sys::fs::exists(P.LockFile));
  EXPECT_THAT(R.Out, HasSubstr("lock: nothing written to " + P.LockFile +
                               " (no buildable configuration)"));
}

TEST(Lock, LockFileErrorsAreInputErrors) {
  LockedProject P;
  RunResult Missing = P.resolve({"--locked"});
  EXPECT_EQ(Missing.Code, 2);
  EXPECT_THAT(Missing.Err, HasSubstr("no lock file " + P.LockFile +
                                     " (write one with --lock " + P.LockFile +
                                     ")"));

  writeFile(P.LockFile, "lock_version = 1\nstatus = \"resolved\"\n"
                        "[[package]]\nname = \"demo-ext\"\nstrategy = 3\n"
                        "archz = []\n");
  RunResult Bad = P.resolve({"--locked"});
  EXPECT_EQ(Bad.Code, 2);
  EXPECT_THAT(Bad.Err, HasSubstr(P.LockFile + ":5:12: error: 'strategy' must "
                                 "be a string, not an integer"));
  EXPECT_THAT(Bad.Err, HasSubstr(P.LockFile + ":6:1: error: unknown key "
                                 "'archz' in the lock"));
  EXPECT_THAT(Bad.Err, HasSubstr("did you mean 'archs'?"));

  writeFile(P.LockFile, "lock_version = 7\n");
  RunResult Version = P.resolve({"--locked"});
  EXPECT_EQ(Version.Code, 2);
  EXPECT_THAT(Version.Err, HasSubstr("lock_version 7 is not the version this "
                                     "cudadeps reads (1)"));

  writeFile(P.LockFile, "lock_version = [\n");
  RunResult Toml = P.resolve({"--locked"});
  EXPECT_EQ(Toml.Code, 2);
  EXPECT_THAT(Toml.Err, HasSubstr("invalid TOML"));
}

// The commit a source build's tag is at, once cudadeps has fetched it into
// the source cache: resolve records it without touching the network.
TEST(Lock, RecordsTheCommitOfACachedSource) {
  TempDir Root("cudadeps-lock-git");
  KernelProject KP;
  ASSERT_TRUE(makeKernelProject(Root.sub("src"), Root.sub("home"), KP));
  std::string Registry = Root.sub("registry");
  writeFile(Registry + "/kernel.toml",
            "schema = 1\n[package]\nname = \"kernel-project\"\n"
            "git = \"file://" + KP.Repo + "\"\nbuild = \"cmake\"\n"
            "[requires]\nnvcc = \">=12\"\n"
            "[[release]]\nversion = \"1.0\"\narchs = [\"sm_90\"]\n");
  std::string Project = Root.sub("cudadeps.toml");
  writeFile(Project, "schema = 1\n[project]\nname = \"p\"\n"
                     "requires = [\"kernel-project\"]\n");
  std::string Cache = Root.sub("cache");
  cudadeps::FetchRequest Req;
  Req.Package = "kernel-project";
  Req.VersionText = "1.0";
  Req.Url.Value = "file://" + KP.Repo;
  Req.Tag.Value = "v1.0";
  cudadeps::FetchOptions Opts;
  Opts.CacheDir = Cache + "/cudadeps";
  Expected<cudadeps::FetchedSource> S = cudadeps::fetchSource(Req, Opts);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());

  std::string LockFile = Root.sub("cudadeps.lock");
  std::vector<std::string> Args{"resolve",  Project, "--registry", Registry,
                                "--facts",  Scenarios + "/build-farm-no-gpu.toml",
                                "--arch",   "sm_90", "--lock", LockFile};
  RunResult R = runCudadeps(Args, {{"XDG_CACHE_HOME", Cache}});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(readWhole(LockFile), HasSubstr("tag = \"v1.0\"\ncommit = \"" +
                                             KP.CommitV10 + "\"\n"));

  // Not fetched here (another cache): the commit is not known, which is
  // not drift; nothing is fetched to find out.
  Args.push_back("--locked");
  RunResult Other = runCudadeps(Args, {{"XDG_CACHE_HOME", Root.sub("other")}});
  EXPECT_EQ(Other.Code, 0) << Other.Out;
  EXPECT_FALSE(sys::fs::exists(Root.sub("other/cudadeps/src")));

  // A lock made where the tag was at another commit: drift.
  std::string Lock = readWhole(LockFile);
  Lock.replace(Lock.find(KP.CommitV10), KP.CommitV10.size(), KP.CommitV11);
  writeFile(LockFile, Lock);
  RunResult Moved = runCudadeps(Args, {{"XDG_CACHE_HOME", Cache}});
  EXPECT_EQ(Moved.Code, 1);
  EXPECT_THAT(Moved.Out, HasSubstr("drift: kernel-project commit: " +
                                   KP.CommitV11 + " → " + KP.CommitV10));
}
