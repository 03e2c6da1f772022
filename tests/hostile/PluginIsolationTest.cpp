//===- PluginIsolationTest.cpp - plugins that crash, hang, exit, flood ----===//
//
// An external probe plugin is third-party code. It runs in an isolated child
// (core/support/IsolatedChild.h), so each way of misbehaving is a distinct,
// reported failure of that plugin and cudadeps carries on.
//
//===----------------------------------------------------------------------===//
#include "core/plugin/PluginLoader.h"
#include "core/support/IsolatedChild.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

const std::string HostilePlugin =
    std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/hostile_plugin.so";

/// The error of probing with the hostile plugin in \p Mode ("" when it
/// answered).
std::string probeError(const char *Mode) {
  setenv("CUDADEPS_HOSTILE_PLUGIN_MODE", Mode, 1);
  llvm::Expected<std::unique_ptr<Probe>> P = loadPlugin(HostilePlugin);
  if (!P)
    return "load: " + llvm::toString(P.takeError());
  MapEnvironment Env;
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(300)};
  llvm::Expected<ProbeAnswer> A = (*P)->probe(Ctx);
  unsetenv("CUDADEPS_HOSTILE_PLUGIN_MODE");
  return A ? std::string() : llvm::toString(A.takeError());
}

/// Runs probeError in a capped child and returns what it said, or why the
/// child itself died (which would mean the isolation failed).
std::string isolatedProbeError(const char *Mode) {
  IsolatedOptions Opts;
  Opts.Timeout = std::chrono::seconds(20);
  IsolatedOutcome O = runIsolated(
      [&] {
        std::string E = probeError(Mode);
        writeAnswer(E.data(), E.size());
        return 0;
      },
      Opts);
  if (O.What != IsolatedOutcome::Kind::Exited || O.ExitCode != 0)
    return "the test child " + O.describeFailure(Opts);
  return O.Output;
}

TEST(PluginIsolation, EachFailureIsReportedDistinctly) {
  struct Case {
    const char *Mode;
    const char *Says;
  } Cases[] = {
      {"segv", "crashed with signal 11"},
      {"hang", "did not finish within 1s and was killed"},
      {"exit7", "exited with status 7 before it answered"},
      {"flood", "its answer is larger than 4194304 bytes (killed)"},
      {"ctor_segv", "crashed with signal 11"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Mode);
    std::string E = isolatedProbeError(C.Mode);
    EXPECT_TRUE(llvm::StringRef(E).contains(C.Says)) << E;
    EXPECT_TRUE(llvm::StringRef(E).contains("hostile")) << E;
  }
  EXPECT_EQ(isolatedProbeError("ctor_segv").rfind("load: ", 0), 0u)
      << "a crash while loading is a load failure";
  EXPECT_EQ(isolatedProbeError("good"), "");
  // What a plugin prints does not reach cudadeps' output.
  EXPECT_EQ(isolatedProbeError("stdout"), "");
}

TEST(PluginIsolation, WhatAPluginForksIsKilledWithIt) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string PidFile = T.sub("pid");
  setenv("CUDADEPS_HOSTILE_PLUGIN_PIDFILE", PidFile.c_str(), 1);
  EXPECT_EQ(isolatedProbeError("fork"), "");
  unsetenv("CUDADEPS_HOSTILE_PLUGIN_PIDFILE");
  std::ifstream In(PidFile);
  int Pid = 0;
  ASSERT_TRUE(In >> Pid) << "the plugin did not fork";
  // Gone, or a zombie waiting for init to reap it.
  bool Alive = false;
  for (int I = 0; I < 100; ++I) {
    std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
    std::string Line;
    Alive = Stat && std::getline(Stat, Line) &&
            Line.find(") Z") == std::string::npos;
    if (!Alive)
      break;
    usleep(10000);
  }
  EXPECT_FALSE(Alive) << "the plugin's child " << Pid << " survived";
  if (Alive)
    kill(Pid, SIGKILL);
}

TEST(PluginIsolation, ResolveSurvivesACrashingPluginOnThePluginPath) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult R = runCudadeps({"probe", "--format", "json"},
                            {{"CUDADEPS_PLUGIN_PATH", HostilePlugin},
                             {"CUDADEPS_HOSTILE_PLUGIN_MODE", "segv"},
                             {"XDG_CACHE_HOME", T.path()}},
                            60);
  EXPECT_NE(R.Code, 139) << R.Err;
  EXPECT_TRUE(R.Code == 0 || R.Code == 1) << R.Code << "\n" << R.Err;
  EXPECT_TRUE(llvm::StringRef(R.Out + R.Err).contains("crashed with signal 11"))
      << R.Out << R.Err;
}

} // namespace
