//===- NvccProbeTest.cpp - the nvcc probe against fake and real toolkits --===//

#include "plugins/nvcc/NvccProbe.h"

#include "tests/support/FakeToolkit.h"

#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char *const Nvcc130Output =
    "nvcc: NVIDIA (R) Cuda compiler driver\n"
    "Copyright (c) 2005-2025 NVIDIA Corporation\n"
    "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
    "Cuda compilation tools, release 13.0, V13.0.88\n"
    "Build cuda_13.0.r13.0/compiler.36424714_0\n";

using ProbeRun = ProbeRunOf<createNvccProbe>;

} // namespace

// --- parsing -----------------------------------------------------------------

TEST(NvccParse, VersionOutputGivesTheFullVersion) {
  EXPECT_EQ(nvcc::parseVersionOutput(Nvcc130Output), "13.0.88");
  // CUDA 10.x printed four lines, still with the V number.
  EXPECT_EQ(nvcc::parseVersionOutput(
                "nvcc: NVIDIA (R) Cuda compiler driver\n"
                "Copyright (c) 2005-2019 NVIDIA Corporation\n"
                "Built on Wed_Oct_23_19:24:38_PDT_2019\n"
                "Cuda compilation tools, release 10.2, V10.2.89\n"),
            "10.2.89");
  EXPECT_EQ(nvcc::parseVersionOutput("Cuda compilation tools, release 11.0\n"),
            "11.0");
  EXPECT_EQ(nvcc::parseVersionOutput("nvcc fatal : something\n"), std::nullopt);
  // A number that does not fit in 64 bits is no version (found by fuzzing).
  EXPECT_EQ(nvcc::parseVersionOutput(
                "Cuda compilation tools, release 11.7333333333333333333333\n"),
            std::nullopt);
  EXPECT_EQ(nvcc::parseVersionOutput("Cuda compilation tools, release 12.8, "
                                     "V12.8.99999999999999999999999\n"),
            std::nullopt);
}

TEST(NvccParse, VersionJsonReadsCudaNvccNotTheSdkRelease) {
  EXPECT_EQ(nvcc::parseVersionJson(R"({"cuda": {"name": "CUDA SDK", "version": "12.1.20230222"},
      "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.1.66"}})"),
            "12.1.66");
  EXPECT_EQ(nvcc::parseVersionJson(R"({"cuda": {"version": "13.1.1"}})"),
            std::nullopt);
  EXPECT_EQ(nvcc::parseVersionJson("not json"), std::nullopt);
}

TEST(NvccParse, HostConfigLimitsIgnoreTheHosClangCheck) {
  nvcc::HostCompilerLimits L = nvcc::parseHostConfig(fakeHostConfig(13, 18));
  EXPECT_EQ(L.MaxGcc, 13u);
  EXPECT_EQ(L.MaxClang, 17u); // __clang_major__ >= 18 -> newest accepted 17
  nvcc::HostCompilerLimits None = nvcc::parseHostConfig("#define X 1\n");
  EXPECT_FALSE(None.MaxGcc);
  EXPECT_FALSE(None.MaxClang);
}

TEST(NvccParse, GpuCodeListKeepsNvccsOrderAndOnlySmLines) {
  EXPECT_THAT(nvcc::parseGpuCodeList("sm_75\nsm_100\nsm_110\nsm_103\r\n"
                                     "compute_90\nwarning: x\n\n"),
              ElementsAre("sm_75", "sm_100", "sm_110", "sm_103"));
}

// --- fake toolkits -----------------------------------------------------------

TEST(NvccProbe, FindsTwoToolkitsViaCudaHomePathAndSysRootAndDeduplicates) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string SysRoot = T.sub("root");
  std::string Tk124 = SysRoot + "/usr/local/cuda-12.4";
  makeFakeToolkit(Tk124, {.Release = "12.4",
                          .Full = "12.4.131",
                          .GnuAbove = 13,
                          .ClangAtLeast = 18,
                          .Archs = {"sm_50", "sm_90"}});
  // /usr/local/cuda -> cuda-12.4: the same toolkit a third time.
  ASSERT_TRUE(makeSymlink("cuda-12.4", SysRoot + "/usr/local/cuda"));
  std::string Tk128 = T.sub("elsewhere/cuda-12.8");
  makeFakeToolkit(Tk128, {.HeaderUnderTargets = true});

  ProbeRun R;
  R.SysRoot = SysRoot;
  R.Env.set("CUDA_HOME", Tk124);
  R.Env.set("PATH", T.sub("nothing-here") + ":" + Tk128 + "/bin");
  ProbeAnswer A = R.run();

  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_EQ(A.Found.Nvccs.size(), 2u) << joined(A.Warnings);
  const NvccFacts &First = A.Found.Nvccs[0];
  EXPECT_EQ(First.Path, Tk124 + "/bin/nvcc"); // $CUDA_HOME's spelling wins
  EXPECT_EQ(First.Ver.str(), "12.4.131");
  EXPECT_EQ(First.MaxGcc, 13u);
  EXPECT_EQ(First.MaxClang, 17u);
  EXPECT_THAT(First.Archs, ElementsAre("sm_50", "sm_90"));
  EXPECT_EQ(First.From, Source::probed("nvcc", Tk124 + "/bin/nvcc --version"));

  const NvccFacts &Second = A.Found.Nvccs[1];
  EXPECT_EQ(Second.Path, Tk128 + "/bin/nvcc");
  EXPECT_EQ(Second.Ver.str(), "12.8.93");
  EXPECT_EQ(Second.MaxGcc, 14u); // read from targets/x86_64-linux/include/crt
  EXPECT_EQ(Second.MaxClang, 19u);
  EXPECT_THAT(Second.Archs, Contains("sm_120"));

  EXPECT_TRUE(A.Warnings.empty()) << joined(A.Warnings);
  EXPECT_THAT(A.Inputs, Contains(Tk124 + "/bin/nvcc"));
  EXPECT_THAT(A.Inputs, Contains(Tk124 + "/include/crt/host_config.h"));
  // /usr/local's cuda* entries, not its modification time; what $PATH
  // finds, not its text.
  EXPECT_THAT(A.Listings, Contains(testing::Field(&DirListing::Dir,
                                                  SysRoot + "/usr/local")));
  EXPECT_THAT(A.EnvInputs, Contains("CUDA_HOME"));
  EXPECT_THAT(A.EnvInputs, Not(Contains("PATH")));
  EXPECT_THAT(A.Searches,
              Contains(PathSearch{"PATH", "nvcc", "", {Tk128 + "/bin/nvcc"}}));
}

TEST(NvccProbe, AWrapperScriptIsTheToolkitItRuns) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Tk = T.sub("cuda-12.8");
  makeFakeToolkit(Tk, {.VersionJson = "12.8.61"});
  writeFile(T.sub("bin/nvcc"), "#!/bin/sh\nexec " + Tk + "/bin/nvcc \"$@\"\n",
            /*Executable=*/true);
  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Env.set("PATH", T.sub("bin"));
  R.Env.set("CUDA_PATH", Tk);
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.Found.Nvccs.size(), 1u) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Nvccs[0].Path, Tk + "/bin/nvcc"); // $CUDA_PATH comes first
  // Seen from the wrapper alone, the toolkit's files are still read.
  R.Env = MapEnvironment();
  R.Env.set("PATH", T.sub("bin"));
  ProbeAnswer B = R.run();
  ASSERT_EQ(B.Found.Nvccs.size(), 1u) << joined(B.Warnings);
  EXPECT_EQ(B.Found.Nvccs[0].Path, T.sub("bin/nvcc"));
  EXPECT_EQ(B.Found.Nvccs[0].Ver.str(), "12.8.61");
  EXPECT_EQ(B.Found.Nvccs[0].MaxGcc, 14u);
}

TEST(NvccProbe, SysRootToolkitsComeDefaultFirstThenNewestFirst) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Root = T.sub("root");
  makeFakeToolkit(Root + "/usr/local/cuda-12.4", {.Release = "12.4", .Full = "12.4.131"});
  makeFakeToolkit(Root + "/usr/local/cuda-12.10", {.Release = "12.10", .Full = "12.10.5"});
  makeFakeToolkit(Root + "/usr/local/cuda-12.8", {});
  makeFakeToolkit(Root + "/opt/cuda", {.Release = "13.0", .Full = "13.0.88"});
  ASSERT_TRUE(makeSymlink("cuda-12.8", Root + "/usr/local/cuda"));

  ProbeRun R;
  R.SysRoot = Root;
  ProbeAnswer A = R.run();
  std::vector<std::string> Versions;
  for (const NvccFacts &F : A.Found.Nvccs)
    Versions.push_back(F.Ver.str());
  EXPECT_THAT(Versions, ElementsAre("12.8.93", "12.10.5", "12.4.131", "13.0.88"));
  ASSERT_FALSE(A.Found.Nvccs.empty());
  EXPECT_EQ(A.Found.Nvccs[0].Path, Root + "/usr/local/cuda/bin/nvcc");
}

TEST(NvccProbe, VersionJsonIsPreferredOverRunningNvcc) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Tk = T.sub("cuda-12.8");
  // The script would say 12.8.93; version.json says 12.8.61.
  makeFakeToolkit(Tk, {.VersionJson = "12.8.61"});
  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Env.set("CUDA_PATH", Tk);
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.Found.Nvccs.size(), 1u) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Nvccs[0].Ver.str(), "12.8.61");
  EXPECT_EQ(A.Found.Nvccs[0].From, Source::probed("nvcc", Tk + "/version.json"));
  EXPECT_THAT(A.Inputs, Contains(Tk + "/version.json"));
  EXPECT_THAT(A.Found.Nvccs[0].Archs, Contains("sm_90"));
}

TEST(NvccProbe, HangingNvccIsSkippedWithAWarningAfterTheTimeout) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Hung = T.sub("hung");
  std::string Good = T.sub("good");
  makeFakeToolkit(Hung, {.SleepSeconds = 30});
  makeFakeToolkit(Good, {.Release = "12.4", .Full = "12.4.131"});
  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Timeout = std::chrono::milliseconds(1000);
  R.Env.set("CUDA_HOME", Hung);
  R.Env.set("PATH", Good + "/bin");

  auto Start = std::chrono::steady_clock::now();
  ProbeAnswer A = R.run();
  auto Took = std::chrono::steady_clock::now() - Start;

  EXPECT_LT(Took, std::chrono::seconds(5));
  EXPECT_THAT(A.Warnings,
              Contains(Hung + "/bin/nvcc --version timed out after 1s"));
  ASSERT_EQ(A.Found.Nvccs.size(), 1u);
  EXPECT_EQ(A.Found.Nvccs[0].Ver.str(), "12.4.131");
}

TEST(NvccProbe, OnlyAHangingNvccIsNotPresentWithTheWarning) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  makeFakeToolkit(T.sub("hung"), {.SleepSeconds = 30});
  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Timeout = std::chrono::milliseconds(1000);
  R.Env.set("CUDA_HOME", T.sub("hung"));
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A.NotPresentReason, "no usable nvcc found");
  EXPECT_THAT(A.Warnings, Contains(HasSubstr("timed out after 1s")));
}

TEST(NvccProbe, NothingFoundListsWhereItLooked) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeRun R;
  R.SysRoot = T.path();
  R.Env.set("PATH", T.sub("bin"));
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A.NotPresentReason, "no nvcc found");
  EXPECT_THAT(A.Searched, Contains("$CUDA_HOME (unset)"));
  EXPECT_THAT(A.Searched, Contains("$CUDA_PATH (unset)"));
  EXPECT_THAT(A.Searched, Contains("$PATH"));
  EXPECT_THAT(A.Searched, Contains(T.path() + "/usr/local/cuda*"));
  EXPECT_THAT(A.Searched, Contains(T.path() + "/opt/cuda*"));
  EXPECT_THAT(A.Searched, Contains("conda ($CONDA_PREFIX unset)"));
}

TEST(NvccProbe, MissingNvccUnderCudaHomeIsWarnedAbout) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeRun R;
  R.SysRoot = T.path();
  R.Env.set("CUDA_HOME", T.sub("stale"));
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_THAT(A.Searched, Contains("$CUDA_HOME=" + T.sub("stale")));
  EXPECT_THAT(A.Warnings, Contains(HasSubstr("$CUDA_HOME is " + T.sub("stale"))));
}

TEST(NvccProbe, FindsCondaAndPipWheelToolkits) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
  std::string Site = Venv + "/lib/python3.12/site-packages";
  makeFakeToolkit(Site + "/nvidia/cu13", {.Release = "13.0", .Full = "13.0.88",
                                          .GnuAbove = 15, .ClangAtLeast = 21});
  std::string Conda = T.sub("conda");
  makeFakeToolkit(Conda, {.Release = "12.6", .Full = "12.6.85",
                          .HeaderUnderTargets = true});

  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Env.set("VIRTUAL_ENV", Venv);
  R.Env.set("CONDA_PREFIX", Conda);
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.Found.Nvccs.size(), 2u) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Nvccs[0].Path, Conda + "/bin/nvcc");
  EXPECT_EQ(A.Found.Nvccs[1].Path, Site + "/nvidia/cu13/bin/nvcc");
  EXPECT_EQ(A.Found.Nvccs[1].Ver.str(), "13.0.88");
  EXPECT_EQ(A.Found.Nvccs[1].MaxGcc, 15u);
  EXPECT_EQ(A.Found.Nvccs[1].MaxClang, 20u);
  EXPECT_THAT(A.Searched, Contains("pip nvidia-cuda-nvcc in " + Site));
  // nvidia/'s toolkit flavours, not its modification time.
  EXPECT_THAT(A.Listings,
              Contains(DirListing{
                  Site + "/nvidia", "^(cu[0-9]+|cuda_nvcc)$", {"cu13"}}));
}

// --- the real machine --------------------------------------------------------

TEST(NvccProbeReal, FindsTheInstalledToolkitAndReadsItsLimits) {
  if (!llvm::sys::fs::can_execute("/usr/local/cuda/bin/nvcc"))
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  ProbeRun R;
  R.Env.set("PATH", "/usr/bin:/bin");
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_FALSE(A.Found.Nvccs.empty());
  const NvccFacts &F = A.Found.Nvccs[0];
  EXPECT_EQ(F.Path, "/usr/local/cuda/bin/nvcc");
  // The local machine has CUDA 13.0: check what its own files say.
  if (F.Ver.major() != 13 || F.Ver.minor() != 0)
    GTEST_SKIP() << "the installed toolkit is " << F.Ver.str() << ", not 13.0";
  EXPECT_EQ(F.MaxGcc, 15u);
  EXPECT_EQ(F.MaxClang, 20u);
  for (const char *Arch : {"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89",
                           "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"})
    EXPECT_THAT(F.Archs, Contains(Arch));
  // /usr/local/cuda and /usr/local/cuda-13.0 are one toolkit.
  for (size_t I = 1; I < A.Found.Nvccs.size(); ++I)
    EXPECT_NE(llvm::StringRef(A.Found.Nvccs[I].Path).startswith("/usr/local/cuda-13.0"),
              true);
}

// Toolkits provisioned by `cudadeps toolkit install` are found in the store,
// with their origin; half-installed ones (hidden .partial-*) are not.
TEST(NvccProbe, ProvisionedToolkitsAreFoundWithTheirOrigin) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Store = T.sub("data/cudadeps/toolkits");
  makeFakeToolkit(Store + "/13.0.88", {.Release = "13.0", .Full = "13.0.88"});
  ASSERT_TRUE(writeFile(Store + "/13.0.88/cudadeps-toolkit.json",
                        R"({"version": "13.0.88", "origin": "pypi", "from": "PyPI"})"));
  makeFakeToolkit(Store + "/.partial-13.1.80-abcdef/toolkit",
                  {.Release = "13.1", .Full = "13.1.80"});
  ProbeRun R;
  R.SysRoot = T.sub("empty-root");
  R.Env.set("XDG_DATA_HOME", T.sub("data"));
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_EQ(A.Found.Nvccs.size(), 1u);
  const NvccFacts &N = A.Found.Nvccs[0];
  EXPECT_EQ(N.Path, Store + "/13.0.88/bin/nvcc");
  EXPECT_EQ(N.Ver.str(), "13.0.88");
  EXPECT_THAT(N.From.From, HasSubstr("provisioned by `cudadeps toolkit install` "
                                     "from NVIDIA's wheels from PyPI"));
  EXPECT_THAT(A.Searched, Contains("cudadeps toolkits in " + Store));
  EXPECT_THAT(A.Inputs, Contains(Store));
  EXPECT_THAT(A.EnvInputs, Contains("XDG_DATA_HOME"));
}
