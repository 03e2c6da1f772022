//===- PlatformProbeTest.cpp - the platform probe -------------------------===//

#include "plugins/platform/HostFiles.h"
#include "plugins/platform/PlatformProbe.h"

#include "tests/support/FakeToolkit.h"

#include <gtest/gtest.h>

#include <sys/utsname.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

ProbeAnswer runPlatform(const std::string &SysRoot) {
  MapEnvironment Env;
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(10000), SysRoot};
  llvm::Expected<ProbeAnswer> A = createPlatformProbe()->probe(Ctx);
  if (!A) {
    ADD_FAILURE() << llvm::toString(A.takeError());
    return {};
  }
  return std::move(*A);
}

} // namespace

TEST(PlatformParse, MemTotalInGib) {
  EXPECT_EQ(platform::memTotalGib("MemTotal:       131891532 kB\n"
                                  "MemFree:        1000 kB\n"),
            125.8);
  EXPECT_EQ(platform::memTotalGib("MemFree:        1000 kB\n"), std::nullopt);
  EXPECT_EQ(platform::memTotalGib("MemTotal: lots\n"), std::nullopt);
}

TEST(PlatformProbe, MemoryComesFromTheSysRootsMeminfo) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("proc/meminfo"), "MemTotal:       536870912 kB\n");
  ProbeAnswer A = runPlatform(T.path());
  ASSERT_TRUE(A.Found.Platform.has_value());
  EXPECT_EQ(A.Found.Platform->MemoryGib, 512.0);
}

TEST(PlatformProbeReal, LinuxX86_64WithCpusMemoryAndGlibc) {
  struct utsname U;
  ASSERT_EQ(uname(&U), 0);
  if (std::string(U.sysname) != "Linux" || std::string(U.machine) != "x86_64")
    GTEST_SKIP() << "not a linux/x86_64 machine";
  ProbeAnswer A = runPlatform("");
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found);
  ASSERT_TRUE(A.Found.Platform.has_value());
  const PlatformFacts &P = *A.Found.Platform;
  EXPECT_EQ(P.Os, "linux");
  EXPECT_EQ(P.Arch, "x86_64");
  ASSERT_TRUE(P.Cpus.has_value());
  EXPECT_GE(*P.Cpus, 1u);
  ASSERT_TRUE(P.MemoryGib.has_value());
  EXPECT_GT(*P.MemoryGib, 0.1);
  ASSERT_TRUE(P.Glibc.has_value());
  EXPECT_EQ(P.Glibc->major(), 2u);
  EXPECT_EQ(P.From.By, "platform");
}

TEST(HostFiles, FormatSecondsAndJoinPath) {
  EXPECT_EQ(probes::formatSeconds(std::chrono::milliseconds(1000)), "1s");
  EXPECT_EQ(probes::formatSeconds(std::chrono::milliseconds(1500)), "1.5s");
  EXPECT_EQ(probes::formatSeconds(std::chrono::milliseconds(250)), "0.25s");
  EXPECT_EQ(probes::joinPath("/a", "b", "", "c"), "/a/b/c");
  EXPECT_EQ(probes::underRoot("", "/proc/x"), "/proc/x");
  EXPECT_EQ(probes::underRoot("/tmp/r", "/proc/x"), "/tmp/r/proc/x");
}

TEST(HostFiles, ReadsProcFilesDespiteTheirZeroSize) {
  std::optional<std::string> Self = probes::readTextFile("/proc/self/status");
  if (!Self)
    GTEST_SKIP() << "no /proc on this machine";
  EXPECT_NE(Self->find("Name:"), std::string::npos);
}
