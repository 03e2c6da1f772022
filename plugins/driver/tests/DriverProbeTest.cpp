//===- DriverProbeTest.cpp - the driver probe against a stub libcuda ------===//
//
// The tests build their own libcuda.so.1 from a small C file with the
// system's cc: one that reports a CUDA 12.8 driver with two GPUs, one whose
// cuInit never returns. The kernel module files come from a fake SysRoot.
//
//===----------------------------------------------------------------------===//

#include "plugins/driver/DriverProbe.h"
#include "plugins/driver/LibcudaQuery.h"

#include "tests/support/FakeToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <optional>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::Contains;
using ::testing::HasSubstr;

namespace {

const char *const StubSource = R"(
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int cuInit(unsigned flags) {
#ifdef STUB_HANG
  for (;;) sleep(1000);
#endif
  /* Like the real driver: an empty CUDA_VISIBLE_DEVICES hides every GPU. */
  if (getenv("CUDA_VISIBLE_DEVICES")) return 100;
  return flags == 0 ? 0 : 1;
}
int cuDriverGetVersion(int *v) { *v = 12080; return 0; }
int cuDeviceGetCount(int *n) { *n = 2; return 0; }
int cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal < 2 ? 0 : 101; }
int cuDeviceGetName(char *name, int len, int d) {
  const char *n = d == 0 ? "NVIDIA H100 80GB HBM3" : "NVIDIA RTX A6000";
  strncpy(name, n, len); name[len - 1] = 0; return 0;
}
int cuDeviceGetAttribute(int *v, int attr, int d) {
  if (attr == 75) { *v = d == 0 ? 9 : 8; return 0; }
  if (attr == 76) { *v = d == 0 ? 0 : 6; return 0; }
  return 1;
}
)";

/// Builds <Dir>/<Name>/libcuda.so.1 from the stub; "" when no cc is there.
std::string buildStub(const TempDir &T, llvm::StringRef Name, bool Hang) {
  llvm::ErrorOr<std::string> Cc = llvm::sys::findProgramByName("cc");
  if (!Cc)
    return {};
  std::string Src = T.sub("stub.c");
  std::string Lib = T.sub(Name) + "/libcuda.so.1";
  if (!writeFile(Src, StubSource) || !makeDirs(T.sub(Name)))
    return {};
  std::vector<llvm::StringRef> Args = {*Cc, "-shared", "-fPIC", "-o", Lib, Src};
  if (Hang)
    Args.push_back("-DSTUB_HANG");
  std::string Err;
  if (llvm::sys::ExecuteAndWait(*Cc, Args, llvm::None, {}, 60, 0, &Err) != 0)
    return {};
  return Lib;
}

using ProbeRun = ProbeRunOf<createDriverProbe>;

const char *const ProcProprietary =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 "
    "01:44:30 UTC 2024\n"
    "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n";

} // namespace

TEST(DriverParse, ProcVersionTakesTheFirstDottedNumberAfterModule) {
  EXPECT_EQ(driver::parseProcDriverVersion(ProcProprietary), "550.54.14");
  EXPECT_EQ(driver::parseProcDriverVersion(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                "570.195.03  Release Build  (dvs-builder@U22-I3-H04-03-1)  Sat "
                "Sep 20 00:47:16 UTC 2025\n"),
            "570.195.03");
  EXPECT_EQ(driver::parseProcDriverVersion(
                "NVRM version: NVIDIA UNIX Kernel Module for aarch64  34.1.1  "
                "Release Build\n"),
            "34.1.1");
  EXPECT_EQ(driver::parseProcDriverVersion("GCC version: gcc version 12.3.0\n"),
            std::nullopt);
}

TEST(DriverParse, NvidiaSmiCsvLines) {
  std::vector<driver::SmiGpu> G = driver::parseNvidiaSmi(
      "570.86.15, 9.0, NVIDIA H100 80GB HBM3\n570.86.15, 8.6, NVIDIA RTX A6000\n",
      true);
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].DriverVersion, "570.86.15");
  EXPECT_EQ(G[1].ComputeCap, "8.6");
  EXPECT_EQ(G[1].Name, "NVIDIA RTX A6000");
  std::vector<driver::SmiGpu> Old =
      driver::parseNvidiaSmi("470.256.02, Tesla K80\n", false);
  ASSERT_EQ(Old.size(), 1u);
  EXPECT_EQ(Old[0].Name, "Tesla K80");
  EXPECT_TRUE(Old[0].ComputeCap.empty());
}

TEST(DriverParse, ChildReportLines) {
  driver::LibcudaReport R = driver::parseLibcudaReport(
      "library /x/libcuda.so.1\ninit 0\ndriver-version 12080\ndevice-count 1\n"
      "gpu 0 9 0 NVIDIA H100 80GB HBM3\nend\n");
  EXPECT_EQ(R.Library, "/x/libcuda.so.1");
  EXPECT_EQ(R.InitResult, 0);
  EXPECT_EQ(R.DriverVersion, 12080);
  ASSERT_EQ(R.Gpus.size(), 1u);
  EXPECT_EQ(R.Gpus[0].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(R.Complete);
  EXPECT_FALSE(driver::parseLibcudaReport("library /x\ninit 0\n").Complete);
}

TEST(DriverProbe, StubLibcudaAndProcFileGiveBothVersionsAndTwoGpus) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Lib = buildStub(T, "ok", /*Hang=*/false);
  if (Lib.empty())
    GTEST_SKIP() << "no C compiler (cc) to build the stub libcuda";
  std::string Root = T.sub("root");
  writeFile(Root + "/proc/driver/nvidia/version", ProcProprietary);

  // The child must unset CUDA_VISIBLE_DEVICES; the stub fails cuInit if not.
  const char *Saved = std::getenv("CUDA_VISIBLE_DEVICES");
  std::optional<std::string> Before =
      Saved ? std::optional<std::string>(Saved) : std::nullopt;
  ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  ProbeRun R;
  R.SysRoot = Root;
  R.Env.set("CUDADEPS_LIBCUDA", Lib);
  R.Env.set("PATH", T.sub("no-bin"));
  ProbeAnswer A = R.run();
  if (Before)
    ::setenv("CUDA_VISIBLE_DEVICES", Before->c_str(), 1);
  else
    ::unsetenv("CUDA_VISIBLE_DEVICES");

  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  EXPECT_TRUE(A.Warnings.empty()) << joined(A.Warnings);
  ASSERT_TRUE(A.Found.Driver.has_value());
  const DriverFacts &D = *A.Found.Driver;
  ASSERT_TRUE(D.KernelVersion.has_value());
  EXPECT_EQ(D.KernelVersion->str(), "550.54.14");
  EXPECT_EQ(D.KernelSource,
            Source::probed("driver", Root + "/proc/driver/nvidia/version"));
  ASSERT_TRUE(D.Cuda.has_value());
  EXPECT_EQ(D.Cuda->str(), "12.8");
  EXPECT_EQ(D.CudaSource, Source::probed("driver", Lib + " cuDriverGetVersion"));

  ASSERT_EQ(A.Found.Gpus.size(), 2u);
  EXPECT_EQ(A.Found.Gpus[0].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(A.Found.Gpus[0].ComputeCapability.str(), "9.0");
  EXPECT_EQ(A.Found.Gpus[1].Name, "NVIDIA RTX A6000");
  EXPECT_EQ(A.Found.Gpus[1].ComputeCapability.str(), "8.6");
  EXPECT_THAT(A.Inputs, Contains(Lib));
  EXPECT_THAT(A.Inputs, Contains(Root + "/proc/driver/nvidia/version"));
  EXPECT_THAT(A.EnvInputs, Contains("CUDADEPS_LIBCUDA"));
}

TEST(DriverProbe, HangingCuInitIsKilledAfterTheTimeout) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Lib = buildStub(T, "hang", /*Hang=*/true);
  if (Lib.empty())
    GTEST_SKIP() << "no C compiler (cc) to build the stub libcuda";
  std::string Root = T.sub("root");
  writeFile(Root + "/sys/module/nvidia/version", "550.54.14\n");

  ProbeRun R;
  R.SysRoot = Root;
  R.Timeout = std::chrono::milliseconds(1000);
  R.Env.set("CUDADEPS_LIBCUDA", Lib);
  R.Env.set("PATH", T.sub("no-bin"));
  auto Start = std::chrono::steady_clock::now();
  ProbeAnswer A = R.run();
  auto Took = std::chrono::steady_clock::now() - Start;

  EXPECT_LT(Took, std::chrono::seconds(5));
  EXPECT_THAT(A.Warnings, Contains(Lib + ": cuInit timed out after 1s"));
  // The kernel module is still known; the user-mode driver is not.
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found);
  ASSERT_TRUE(A.Found.Driver.has_value());
  EXPECT_EQ(A.Found.Driver->KernelVersion->str(), "550.54.14");
  EXPECT_EQ(A.Found.Driver->KernelSource,
            Source::probed("driver", Root + "/sys/module/nvidia/version"));
  EXPECT_FALSE(A.Found.Driver->Cuda.has_value());
  EXPECT_TRUE(A.Found.Gpus.empty());
}

TEST(DriverProbe, NvidiaSmiIsTheLastResort) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("bin/nvidia-smi"),
            "#!/bin/sh\n"
            "if [ \"$1\" = --query-gpu=driver_version,compute_cap,name ]; then\n"
            "  echo '570.86.15, 9.0, NVIDIA H100 80GB HBM3'; exit 0; fi\n"
            "exit 2\n",
            /*Executable=*/true);
  ProbeRun R;
  R.SysRoot = T.sub("root");
  R.Env.set("CUDADEPS_LIBCUDA", T.sub("missing/libcuda.so.1"));
  R.Env.set("PATH", T.sub("bin"));
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_TRUE(A.Found.Driver && A.Found.Driver->KernelVersion);
  EXPECT_EQ(A.Found.Driver->KernelVersion->str(), "570.86.15");
  EXPECT_THAT(A.Found.Driver->KernelSource.From, HasSubstr("nvidia-smi"));
  EXPECT_FALSE(A.Found.Driver->Cuda.has_value());
  ASSERT_EQ(A.Found.Gpus.size(), 1u);
  EXPECT_EQ(A.Found.Gpus[0].smArch(), "sm_90");
}

TEST(DriverProbe, NoDriverIsNotPresent) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeRun R;
  R.SysRoot = T.sub("root");
  R.Env.set("CUDADEPS_LIBCUDA", T.sub("missing/libcuda.so.1"));
  R.Env.set("PATH", T.sub("bin"));
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A.NotPresentReason, "no NVIDIA driver found");
  EXPECT_THAT(A.Searched, Contains(HasSubstr("libcuda.so.1 (")));
  EXPECT_THAT(A.Searched, Contains(T.sub("root") + "/proc/driver/nvidia/version"));
  EXPECT_THAT(A.Searched, Contains("nvidia-smi on $PATH"));
}

TEST(DriverProbeReal, TheRealDriverIfThereIsOne) {
  if (!llvm::sys::fs::exists("/proc/driver/nvidia/version"))
    GTEST_SKIP() << "no NVIDIA kernel module loaded on this machine";
  RealEnvironment Env;
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(30000), ""};
  llvm::Expected<ProbeAnswer> A = createDriverProbe()->probe(Ctx);
  ASSERT_TRUE(static_cast<bool>(A)) << llvm::toString(A.takeError());
  ASSERT_EQ(A->What, ProbeAnswer::Kind::Found) << joined(A->Warnings);
  ASSERT_TRUE(A->Found.Driver && A->Found.Driver->KernelVersion);
  EXPECT_GE(A->Found.Driver->KernelVersion->major(), 300u);
}
