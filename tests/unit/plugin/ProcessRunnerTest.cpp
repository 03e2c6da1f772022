//===- ProcessRunnerTest.cpp - the real process runner (no shell) ---------===//

#include "core/support/Process.h"

#include "TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

ProcessRequest req(std::vector<std::string> Argv) {
  ProcessRequest R;
  R.Argv = std::move(Argv);
  return R;
}

TEST(ProcessRunnerTest, CapturesStdoutStderrAndExitCode) {
  RealProcessRunner Runner;
  auto R = Runner.run(req({"sh", "-c", "echo out; echo err >&2; exit 3"}));
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->ExitCode, 3);
  EXPECT_FALSE(R->TimedOut);
  EXPECT_EQ(R->Out, "out\n");
  EXPECT_EQ(R->Err, "err\n");
}

TEST(ProcessRunnerTest, ArgvIsNotInterpretedByAShell) {
  RealProcessRunner Runner;
  auto R = Runner.run(req({"echo", "$HOME", "a;b", "*"}));
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Out, "$HOME a;b *\n");
}

TEST(ProcessRunnerTest, MissingProgramIsAnError) {
  RealProcessRunner Runner;
  auto R = Runner.run(req({"cudadeps-no-such-program-xyz"}));
  ASSERT_FALSE(bool(R));
  EXPECT_THAT(llvm::toString(R.takeError()), HasSubstr("not found"));
  auto R2 = Runner.run(req({"/nonexistent/bin/tool"}));
  ASSERT_FALSE(bool(R2));
  EXPECT_THAT(llvm::toString(R2.takeError()), HasSubstr("/nonexistent/bin/tool"));
  auto R3 = Runner.run(req({}));
  EXPECT_FALSE(bool(R3));
  llvm::consumeError(R3.takeError());
}

TEST(ProcessRunnerTest, TimeoutKillsTheChild) {
  RealProcessRunner Runner;
  ProcessRequest Req = req({"sleep", "30"});
  Req.Timeout = std::chrono::milliseconds(200);
  auto Start = std::chrono::steady_clock::now();
  auto R = Runner.run(Req);
  auto Took = std::chrono::steady_clock::now() - Start;
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->TimedOut);
  EXPECT_LT(Took, std::chrono::seconds(10));
}

TEST(ProcessRunnerTest, ConcurrentTimeoutsAreIndependent) {
  // alarm()-based timeouts would interfere across threads.
  RealProcessRunner Runner;
  bool SlowTimedOut = false, FastTimedOut = true;
  std::thread Slow([&] {
    ProcessRequest Req = req({"sleep", "30"});
    Req.Timeout = std::chrono::milliseconds(300);
    auto R = Runner.run(Req);
    SlowTimedOut = R && R->TimedOut;
    if (!R)
      llvm::consumeError(R.takeError());
  });
  std::thread Fast([&] {
    ProcessRequest Req = req({"sh", "-c", "sleep 0.1; echo done"});
    Req.Timeout = std::chrono::seconds(20);
    auto R = Runner.run(Req);
    FastTimedOut = !R || R->TimedOut || R->Out != "done\n";
    if (!R)
      llvm::consumeError(R.takeError());
  });
  Slow.join();
  Fast.join();
  EXPECT_TRUE(SlowTimedOut);
  EXPECT_FALSE(FastTimedOut);
}

TEST(ProcessRunnerTest, EnvironmentIsReplacedWhenGiven) {
  RealProcessRunner Runner;
  ProcessRequest Req = req({"/usr/bin/env"});
  Req.Env = std::map<std::string, std::string>{{"ONLY_THIS", "1"}};
  auto R = Runner.run(Req);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Out, "ONLY_THIS=1\n");
}

TEST(ProcessRunnerTest, ProgramIsSearchedOnTheChildsPath) {
  TempDir Dir;
  std::string Tool = Dir.write("bin/mytool", "#!/bin/sh\necho mine \"$@\"\n");
  llvm::sys::fs::setPermissions(Tool, llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_read |
                                          llvm::sys::fs::owner_write);
  RealProcessRunner Runner;
  ProcessRequest Req = req({"mytool", "x"});
  Req.Env = std::map<std::string, std::string>{{"PATH", Dir.path("bin") + ":/usr/bin:/bin"}};
  auto R = Runner.run(Req);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Out, "mine x\n");
  EXPECT_EQ(findProgramInPath("mytool", "/nonexistent:" + Dir.path("bin")), Tool);
  EXPECT_EQ(findProgramInPath("mytool", "/usr/bin"), "");
}

TEST(ProcessRunnerTest, WorkingDirectoryAndOutputFiles) {
  TempDir Dir;
  RealProcessRunner Runner;
  ProcessRequest Req = req({"sh", "-c", "pwd; echo e >&2"});
  Req.WorkingDir = Dir.path();
  Req.StdoutFile = Dir.path("out.log");
  Req.StderrFile = Dir.path("out.log");
  auto R = Runner.run(Req);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->ExitCode, 0);
  EXPECT_EQ(R->Out, ""); // went to the file
  llvm::SmallString<256> Real;
  llvm::sys::fs::real_path(Dir.path(), Real);
  auto Log = llvm::MemoryBuffer::getFile(Dir.path("out.log"));
  ASSERT_TRUE(bool(Log));
  EXPECT_EQ((*Log)->getBuffer(), (Real + "\ne\n").str());

  ProcessRequest Bad = req({"true"});
  Bad.WorkingDir = Dir.path("nope");
  auto B = Runner.run(Bad);
  ASSERT_FALSE(bool(B));
  EXPECT_THAT(llvm::toString(B.takeError()), HasSubstr("does not exist"));
}

TEST(EnvironmentTest, RealAndMap) {
  setenv("CUDADEPS_ENV_TEST", "v=1", 1);
  RealEnvironment Real;
  EXPECT_EQ(Real.get("CUDADEPS_ENV_TEST"), std::optional<std::string>("v=1"));
  EXPECT_EQ(Real.all().at("CUDADEPS_ENV_TEST"), "v=1");
  unsetenv("CUDADEPS_ENV_TEST");
  EXPECT_FALSE(Real.get("CUDADEPS_ENV_TEST"));
  MapEnvironment M(std::map<std::string, std::string>{{"A", "1"}});
  EXPECT_EQ(M.get("A"), std::optional<std::string>("1"));
  EXPECT_FALSE(M.get("B"));
  M.set("B", "");
  EXPECT_EQ(M.get("B"), std::optional<std::string>(""));
}

} // namespace
