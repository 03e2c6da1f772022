//===- DriverHostileTest.cpp - a libcuda that lies, forks or shouts -------===//
#include "plugins/driver/DriverProbe.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

const std::string FakeLibcuda =
    std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/fake_libcuda.so.1";

ProbeAnswer probeWith(const char *Mode, const TempDir &T) {
  setenv("CUDADEPS_FAKE_LIBCUDA_MODE", Mode, 1);
  ProbeRunOf<createDriverProbe> R;
  R.Env.set("CUDADEPS_LIBCUDA", FakeLibcuda);
  R.Env.set("PATH", T.sub("no-bin"));
  R.SysRoot = T.sub("root");
  R.Timeout = std::chrono::milliseconds(5000);
  ProbeAnswer A = R.run();
  unsetenv("CUDADEPS_FAKE_LIBCUDA_MODE");
  return A;
}

bool anyContains(const std::vector<std::string> &L, llvm::StringRef Part) {
  for (const std::string &S : L)
    if (llvm::StringRef(S).contains(Part))
      return true;
  return false;
}

TEST(DriverHostile, IntMaxDevicesIsBounded) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  BoundedOutcome O = runBounded(
      [&] {
        ProbeAnswer A = probeWith("many", T);
        if (A.Found.Gpus.size() != 256u)
          return 1;
        if (!anyContains(A.Warnings, "reported 2147483647 devices; only the "
                                     "first 256 were asked about"))
          return 2;
        return 0;
      },
      20, 1024);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(DriverHostile, NegativeComputeCapabilityIsRefusedNotWrapped) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeAnswer A = probeWith("cc_minus_one", T);
  EXPECT_TRUE(A.Found.Gpus.empty());
  EXPECT_TRUE(anyContains(A.Warnings, "invalid compute capability -1.-1"))
      << joined(A.Warnings);
  for (const std::string &W : A.Warnings)
    EXPECT_FALSE(llvm::StringRef(W).contains("18446744073709551615")) << W;
}

TEST(DriverHostile, ALibcudaThatForksLeavesNothingBehind) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string PidFile = T.sub("pid");
  setenv("CUDADEPS_FAKE_LIBCUDA_PIDFILE", PidFile.c_str(), 1);
  ProbeAnswer A = probeWith("fork", T);
  unsetenv("CUDADEPS_FAKE_LIBCUDA_PIDFILE");
  EXPECT_EQ(A.Found.Gpus.size(), 1u) << joined(A.Warnings);
  std::ifstream In(PidFile);
  int Pid = 0;
  ASSERT_TRUE(In >> Pid) << "the fake libcuda did not fork";
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
  EXPECT_FALSE(Alive) << "libcuda's child " << Pid << " survived";
  if (Alive)
    kill(Pid, SIGKILL);
}

} // namespace
