//===- ProcessHostileTest.cpp - tools that hang, fork, flood or crash -----===//
//
// RealProcessRunner against tools that misbehave: a timeout ends what the
// tool started too (its process group), an endless output is cut at the cap
// in memory and in a log file and said to be, a child that exits while
// something it started still holds its stdout is noticed at once, and a
// tool killed by a signal says which. Each case runs bounded in time and
// memory.
//
//===----------------------------------------------------------------------===//
#include "core/support/Process.h"
#include "plugins/nvcc/NvccProbe.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

using Clock = std::chrono::steady_clock;

std::string readSmall(const std::string &Path) {
  std::ifstream In(Path);
  std::string S;
  std::getline(In, S);
  return S;
}

/// True when \p Pid no longer runs: gone, or a zombie waiting for its
/// (new) parent to reap it.
bool notRunning(pid_t Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  if (!Stat)
    return true;
  std::string Line;
  std::getline(Stat, Line);
  size_t Close = Line.rfind(')');
  return Close == std::string::npos || Close + 2 >= Line.size() ||
         Line[Close + 2] == 'Z' || Line[Close + 2] == 'X';
}

bool waitNotRunning(pid_t Pid, std::chrono::milliseconds Within) {
  auto Until = Clock::now() + Within;
  while (!notRunning(Pid)) {
    if (Clock::now() > Until)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::string script(const TempDir &T, llvm::StringRef Name,
                   llvm::StringRef Body) {
  std::string Path = T.sub(Name);
  writeFile(Path, ("#!/bin/sh\n" + Body).str(), /*Executable=*/true);
  return Path;
}

TEST(ProcessHostile, TimeoutKillsWhatTheToolStarted) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string PidFile = T.sub("grandchild.pid");
  // The grandchild keeps neither stdout nor stderr: only the process group
  // ties it to the tool.
  std::string Tool =
      script(T, "tool",
             "sleep 300 </dev/null >/dev/null 2>&1 &\necho $! > '" + PidFile +
                 "'\nsleep 300\n");
  ProcessRequest Req;
  Req.Argv = {Tool};
  Req.Timeout = std::chrono::milliseconds(500);
  BoundedOutcome O = runBounded(
      [&] {
        RealProcessRunner Runner;
        auto R = Runner.run(Req);
        if (!R || !R->TimedOut)
          return 1;
        return 0;
      },
      20, 512);
  ASSERT_TRUE(O.Exited) << O.describe();
  ASSERT_EQ(O.Code, 0) << "the tool did not time out";
  std::string Text = readSmall(PidFile);
  ASSERT_FALSE(Text.empty()) << "the tool did not start its child";
  pid_t Grandchild = std::stoi(Text);
  bool Gone = waitNotRunning(Grandchild, std::chrono::seconds(3));
  if (!Gone)
    ::kill(Grandchild, SIGKILL);
  EXPECT_TRUE(Gone) << "the tool's child " << Grandchild
                    << " survived the timeout";
}

TEST(ProcessHostile, EndlessOutputIsCutAtTheCap) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Log = T.sub("step.log");
  BoundedOutcome O = runBounded(
      [&] {
        RealProcessRunner Runner;
        ProcessRequest Req;
        Req.Argv = {"cat", "/dev/zero"};
        Req.Timeout = std::chrono::seconds(30);
        Req.OutputCap = 1u << 20;
        auto Start = Clock::now();
        auto R = Runner.run(Req);
        if (!R || !R->OutputExceeded || R->TimedOut)
          return 1;
        if (R->Out.size() != Req.OutputCap)
          return 2;
        if (describeProblem(Req, *R) !=
            "output exceeded 1048576 bytes (stopped)")
          return 3;
        if (Clock::now() - Start > std::chrono::seconds(10))
          return 4;
        // Into a file (build logs): the file stops at the cap too.
        Req.StdoutFile = Log;
        Req.StderrFile = Log;
        auto F = Runner.run(Req);
        if (!F || !F->OutputExceeded || !F->Out.empty())
          return 5;
        uint64_t Size = 0;
        if (llvm::sys::fs::file_size(Log, Size) || Size != Req.OutputCap)
          return 6;
        // Stderr is capped as well, apart from stdout.
        Req.StdoutFile.clear();
        Req.StderrFile.clear();
        Req.Argv = {"sh", "-c", "echo small; exec cat /dev/zero >&2"};
        auto E = Runner.run(Req);
        if (!E || !E->OutputExceeded || E->Out != "small\n" ||
            E->Err.size() != Req.OutputCap)
          return 7;
        return 0;
      },
      30, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(ProcessHostile, ExitIsNoticedWhileItsChildHoldsTheOutput) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string PidFile = T.sub("held.pid");
  std::string Tool =
      script(T, "tool",
             "echo answer\nsleep 300 &\necho $! > '" + PidFile + "'\nexit 4\n");
  BoundedOutcome O = runBounded(
      [&] {
        RealProcessRunner Runner;
        ProcessRequest Req;
        Req.Argv = {Tool};
        Req.Timeout = std::chrono::seconds(60);
        auto Start = Clock::now();
        auto R = Runner.run(Req);
        if (!R || R->TimedOut || R->ExitCode != 4 || R->Out != "answer\n")
          return 1;
        if (Clock::now() - Start > std::chrono::seconds(5))
          return 2;
        return 0;
      },
      20, 512);
  std::string Text = readSmall(PidFile);
  if (!Text.empty())
    ::kill(std::stoi(Text), SIGKILL);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(ProcessHostile, ASignalIsNamed) {
  RealProcessRunner Runner;
  ProcessRequest Req;
  Req.Argv = {"sh", "-c", "kill -SEGV $$"};
  auto R = Runner.run(Req);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->ExitCode, -2);
  EXPECT_EQ(R->Signal, SIGSEGV);
  EXPECT_TRUE(llvm::StringRef(describeProblem(Req, *R))
                  .startswith("was killed by signal 11"))
      << describeProblem(Req, *R);
}

TEST(ProcessHostile, AnNvccThatFloodsIsAWarningNotAHang) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Root = T.sub("cuda");
  // An nvcc whose --version never stops printing, and no version.json.
  writeFile(Root + "/bin/nvcc", "#!/bin/sh\nexec /bin/cat /dev/zero\n",
            /*Executable=*/true);
  BoundedOutcome O = runBounded(
      [&] {
        ProbeRunOf<createNvccProbe> P;
        P.Env.set("CUDA_HOME", Root);
        P.Env.set("PATH", T.sub("no-bin"));
        P.SysRoot = T.sub("root");
        P.Timeout = std::chrono::seconds(30);
        auto Start = Clock::now();
        ProbeAnswer A = P.run();
        bool Warned = false;
        for (const std::string &W : A.Warnings)
          Warned |= llvm::StringRef(W).contains("--version: output exceeded");
        if (!Warned)
          return 1;
        if (Clock::now() - Start > std::chrono::seconds(20))
          return 2;
        return 0;
      },
      40, 512);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

} // namespace
