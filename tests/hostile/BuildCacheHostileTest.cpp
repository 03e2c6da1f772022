// The build cache under concurrency and interruption: 16 cudadeps builds of
// one configuration at once give one build and 16 correct results; a build
// killed with SIGKILL leaves no entry a later run trusts; SIGINT exits 130
// and cleans up, its child killed.
#include "tests/support/GitRepo.h"
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <thread>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

/// A cudadeps started without waiting: stdout and stderr go to files.
struct Running {
  llvm::sys::ProcessInfo PI;
  std::string Out, Err;
};

Running start(const std::vector<std::string> &Args,
              const std::map<std::string, std::string> &Env,
              llvm::StringRef Dir, unsigned I) {
  Running R;
  R.Out = (Dir + "/out-" + llvm::Twine(I)).str();
  R.Err = (Dir + "/err-" + llvm::Twine(I)).str();
  std::vector<llvm::StringRef> Argv{CUDADEPS_BINARY};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::vector<std::string> EnvStore;
  for (const auto &[K, V] : RealEnvironment().all())
    if (!Env.count(K))
      EnvStore.push_back(K + "=" + V);
  for (const auto &[K, V] : Env)
    if (!V.empty())
      EnvStore.push_back(K + "=" + V);
  std::vector<llvm::StringRef> EnvRefs(EnvStore.begin(), EnvStore.end());
  llvm::Optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(R.Out), llvm::StringRef(R.Err)};
  std::string ErrMsg;
  R.PI = llvm::sys::ExecuteNoWait(CUDADEPS_BINARY, Argv,
                                  llvm::ArrayRef<llvm::StringRef>(EnvRefs),
                                  Redirects, 0, &ErrMsg);
  EXPECT_NE(R.PI.Pid, llvm::sys::ProcessInfo::InvalidPid) << ErrMsg;
  return R;
}

int finish(Running &R, unsigned Seconds = 120) {
  std::string ErrMsg;
  llvm::sys::ProcessInfo Done = llvm::sys::Wait(R.PI, Seconds, true, &ErrMsg);
  return Done.ReturnCode;
}

bool waitForFile(llvm::StringRef Path, unsigned Seconds = 60) {
  for (unsigned I = 0; I < Seconds * 20; ++I) {
    if (llvm::sys::fs::exists(Path))
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

bool alive(pid_t Pid) { return kill(Pid, 0) == 0; }

class BuildCacheHostile : public ::testing::Test {
protected:
  /// A command package whose build.sh appends to <root>/builds.txt, writes
  /// its pid to <root>/started, sleeps while <root>/slow exists, then
  /// writes {out}/artifact.
  void SetUp() override {
    ASSERT_TRUE(Root.ok());
    Env["XDG_CACHE_HOME"] = Root.sub("cache");
    Env["HOME"] = Root.sub("home");
    Env["CUDADEPS_FACTS"] = "";
    Cache = Root.sub("cache/cudadeps");
    std::string Script =
        "#!/bin/sh\n"
        "echo build >> '" + Root.sub("builds.txt") + "'\n"
        "echo $$ > '" + Root.sub("started.tmp") + "'\n"
        "mv '" + Root.sub("started.tmp") + "' '" + Root.sub("started") + "'\n"
        "while [ -e '" + Root.sub("slow") + "' ]; do sleep 0.1; done\n"
        "sleep 1\n"
        "echo done > \"$1/artifact\"\n";
    ASSERT_TRUE(makeScriptProject(Root.sub("repo"), Root.sub("home"), Script));
    ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                          "schema = 1\n[package]\nname = \"slow\"\ngit = \"" +
                              Root.sub("repo") +
                              "\"\nbuild = \"command\"\n[requires]\nnvcc = "
                              "\">=12\"\n[[release]]\n"
                              "version = \"1.0\"\n[build]\ncommand = "
                              "[\"./build.sh\", \"{out}\"]\n"));
    ASSERT_TRUE(writeFile(Root.sub("facts.toml"),
                          buildFacts("/opt/fake-cuda/bin/nvcc", "13.0.88",
                                     "/usr/bin/g++", "12.2.0")));
    Args = {"build", Root.sub("m.toml"), "--facts", Root.sub("facts.toml"),
            "--launcher", "none"};
  }

  std::vector<std::string> dirsIn(llvm::StringRef Dir, llvm::StringRef Prefix) {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC))
      if (llvm::sys::path::filename(It->path()).startswith(Prefix) &&
          llvm::sys::fs::is_directory(It->path()))
        Out.push_back(It->path());
    return Out;
  }
  unsigned builds() {
    std::string T = readWhole(Root.sub("builds.txt"));
    return std::count(T.begin(), T.end(), '\n');
  }
  /// Entries a run would trust.
  std::vector<std::string> trusted() {
    std::vector<std::string> Out;
    for (const std::string &D : dirsIn(Cache + "/builds", ""))
      if (!llvm::sys::path::filename(D).startswith(".tmp-") &&
          llvm::sys::fs::exists(D + "/entry.json"))
        Out.push_back(D);
    return Out;
  }

  TempDir Root{"cudadeps-hostile-build"};
  std::map<std::string, std::string> Env;
  std::string Cache;
  std::vector<std::string> Args;
};

TEST_F(BuildCacheHostile, SixteenConcurrentBuildsOfOneKeyBuildOnce) {
  std::vector<Running> Runs;
  for (unsigned I = 0; I < 16; ++I)
    Runs.push_back(start(Args, Env, Root.path(), I));
  std::string Dir;
  for (Running &R : Runs) {
    EXPECT_EQ(finish(R), 0) << readWhole(R.Out) << readWhole(R.Err);
    std::string Out = readWhole(R.Out);
    EXPECT_THAT(Out, HasSubstr("slow 1.0: "));
    size_t At = Out.find("-> ");
    ASSERT_NE(At, std::string::npos) << Out;
    std::string This = llvm::StringRef(Out).substr(At + 3).trim().str();
    if (Dir.empty())
      Dir = This;
    EXPECT_EQ(This, Dir); // one entry for all 16
  }
  EXPECT_EQ(builds(), 1u);
  EXPECT_EQ(readWhole(Dir + "/artifact"), "done\n");
  EXPECT_EQ(trusted().size(), 1u);
  EXPECT_TRUE(dirsIn(Cache + "/builds", ".tmp-").empty());
}

TEST_F(BuildCacheHostile, SigkillLeavesNoTrustedEntryAndTheNextRunWorks) {
  ASSERT_TRUE(writeFile(Root.sub("slow"), ""));
  Running R = start(Args, Env, Root.path(), 0);
  ASSERT_TRUE(waitForFile(Root.sub("started")));
  kill(R.PI.Pid, SIGKILL);
  finish(R);
  // The orphaned build script is ours to stop too.
  pid_t Child = 0;
  llvm::StringRef(readWhole(Root.sub("started"))).trim().getAsInteger(10,
                                                                      Child);
  if (Child > 0)
    kill(Child, SIGKILL);
  EXPECT_TRUE(trusted().empty());
  EXPECT_FALSE(dirsIn(Cache + "/builds", ".tmp-").empty()); // half-done

  ASSERT_FALSE(llvm::sys::fs::remove(Root.sub("slow")));
  ASSERT_FALSE(llvm::sys::fs::remove(Root.sub("started")));
  RunResult Next = runCudadeps(Args, Env, 120);
  ASSERT_EQ(Next.Code, 0) << Next.Out << Next.Err;
  EXPECT_THAT(Next.Out, HasSubstr("slow 1.0: built"));
  EXPECT_EQ(builds(), 2u);
  EXPECT_EQ(trusted().size(), 1u);
  EXPECT_TRUE(dirsIn(Cache + "/builds", ".tmp-").empty()); // cleaned up
}

TEST_F(BuildCacheHostile, SigintExits130KillsTheStepAndCleansUp) {
  ASSERT_TRUE(writeFile(Root.sub("slow"), ""));
  Running R = start(Args, Env, Root.path(), 0);
  ASSERT_TRUE(waitForFile(Root.sub("started")));
  pid_t Child = 0;
  llvm::StringRef(readWhole(Root.sub("started"))).trim().getAsInteger(10,
                                                                      Child);
  kill(R.PI.Pid, SIGINT);
  EXPECT_EQ(finish(R, 30), 130) << readWhole(R.Err);
  EXPECT_THAT(readWhole(R.Err), HasSubstr("interrupted while building slow"));
  EXPECT_TRUE(trusted().empty());
  EXPECT_TRUE(dirsIn(Cache + "/builds", ".tmp-").empty());
  ASSERT_GT(Child, 0);
  // The build script was stopped, not left running.
  for (int I = 0; I < 40 && alive(Child); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(alive(Child));
  if (alive(Child))
    kill(Child, SIGKILL);
}

} // namespace
