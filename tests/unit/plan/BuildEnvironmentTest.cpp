// computeBuildEnvironment: the environment a package's build runs with.
#include "core/manifest/ManifestLoader.h"
#include "core/plan/BuildEnvironment.h"

#include "tests/support/FakeToolkit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::HasSubstr;

namespace {

const char *FlashLike = R"(schema = 1
[package]
name = "fa"
git = "https://e/fa.git"
build = "torch-extension"
[requires]
nvcc = ">=11.6"
[[release]]
version = "2.8.3.post1"
archs = ["sm_80", "sm_90", "sm_120"]
[build]
memory_per_job_gib = 9
[build.env]
FA_ARCHS = "{arch_numbers}"
FA_GENCODE = "{gencode}"
FA_TORCH = "{torch_arch_list}"
MAX_JOBS = "7"
WHERE = "{cuda_home}|{cxx}|{version}|{jobs}|{python.tag}"
)";

Package load(llvm::StringRef Text) {
  llvm::Expected<Manifest> M = parseManifest(Text, "m.toml");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Package();
  }
  return *M->Pkg;
}

PackageResolution decision() {
  PackageResolution PR;
  PR.Name = "fa";
  PR.Ver = *Version::parse("2.8.3.post1");
  PR.How = Strategy::Source;
  NvccFacts N;
  N.Path = "/opt/cuda-12.8/bin/nvcc";
  N.Ver = *Version::parse("12.8.93");
  PR.Nvcc = N;
  CompilerFacts C;
  C.Path = "/no/such/dir/g++-13";
  C.Family = "gcc";
  C.Ver = *Version::parse("13.3.0");
  PR.Compiler = C;
  PR.Archs = {"sm_90a", "sm_120"};
  return PR;
}

Facts machine(unsigned Cpus, double MemGib) {
  Facts F;
  PlatformFacts P;
  P.Os = "linux";
  P.Arch = "x86_64";
  P.Cpus = Cpus;
  P.MemoryGib = MemGib;
  F.Platform = P;
  PythonFacts Py;
  Py.Path = "/usr/bin/python3";
  Py.Ver = *Version::parse("3.12.3");
  F.Python = Py;
  return F;
}

std::string value(const BuildEnvironment &BE, llvm::StringRef Name) {
  const BuildVar *V = BE.find(Name);
  return V ? V->Value : "<unset>";
}

TEST(BuildEnvironment, ArchForms) {
  std::vector<std::string> A = {"sm_90", "sm_90a", "sm_100f", "sm_120"};
  EXPECT_EQ(torchArchList(A), "9.0;9.0a;10.0f;12.0");
  EXPECT_EQ(archNumbers(A), "90;90a;100f;120");
  EXPECT_EQ(gencodeFlags({"sm_80", "sm_90a"}),
            "-gencode arch=compute_80,code=sm_80 "
            "-gencode arch=compute_90a,code=sm_90a");
  EXPECT_EQ(torchArchList({}), "");
}

TEST(BuildEnvironment, ToolkitRoot) {
  EXPECT_EQ(toolkitRoot("/usr/local/cuda-12.8/bin/nvcc"),
            "/usr/local/cuda-12.8");
}

TEST(BuildEnvironment, JobsAreTheSmallerOfCpusAndMemory) {
  EXPECT_EQ(sizeJobs(64u, 100.0, 9).Jobs, 11u);   // memory bound
  EXPECT_EQ(sizeJobs(4u, 512.0, 9).Jobs, 4u);     // CPU bound
  EXPECT_EQ(sizeJobs(8u, 3.0, 9).Jobs, 1u);       // never zero
  EXPECT_EQ(sizeJobs(std::nullopt, 40.0, 9).Jobs, 4u);
  EXPECT_EQ(sizeJobs(6u, std::nullopt, 9).Jobs, 6u);
  EXPECT_EQ(sizeJobs(std::nullopt, std::nullopt, 9).Jobs, 1u);
  EXPECT_THAT(sizeJobs(64u, 100.0, 9).Reason,
              HasSubstr("64 CPUs, 100.0 GiB memory / 9 GiB per job"));
}

TEST(BuildEnvironment, ToolchainArchsAndKnobs) {
  Package P = load(FlashLike);
  auto BE = computeBuildEnvironment(P, decision(), machine(64, 100), {});
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  EXPECT_EQ(value(*BE, "CUDA_HOME"), "/opt/cuda-12.8");
  EXPECT_EQ(value(*BE, "CUDA_PATH"), "/opt/cuda-12.8");
  ASSERT_NE(BE->find("PATH"), nullptr);
  EXPECT_TRUE(BE->find("PATH")->Prepend);
  EXPECT_EQ(value(*BE, "PATH"), "/opt/cuda-12.8/bin");
  // No gcc-13 beside this g++-13: CC falls back to the C++ driver.
  EXPECT_EQ(value(*BE, "CC"), "/no/such/dir/g++-13");
  EXPECT_EQ(value(*BE, "CXX"), "/no/such/dir/g++-13");
  EXPECT_EQ(value(*BE, "CUDAHOSTCXX"), "/no/such/dir/g++-13");
  EXPECT_EQ(value(*BE, "NVCC_CCBIN"), "/no/such/dir/g++-13");
  EXPECT_EQ(value(*BE, "TORCH_CUDA_ARCH_LIST"), "9.0a;12.0");
  EXPECT_EQ(value(*BE, "CUDAARCHS"), "90a;120");
  EXPECT_EQ(value(*BE, "FA_ARCHS"), "90a;120");
  EXPECT_EQ(value(*BE, "FA_GENCODE"),
            "-gencode arch=compute_90a,code=sm_90a "
            "-gencode arch=compute_120,code=sm_120");
  EXPECT_EQ(value(*BE, "FA_TORCH"), "9.0a;12.0");
  // 100 GiB / 9 GiB per job = 11 jobs, written into {jobs}.
  EXPECT_EQ(value(*BE, "WHERE"),
            "/opt/cuda-12.8|/no/such/dir/g++-13|2.8.3.post1|11|cp312");
  EXPECT_EQ(value(*BE, "CMAKE_BUILD_PARALLEL_LEVEL"), "11");
  // The package's own MAX_JOBS knob wins over the computed one ...
  EXPECT_EQ(value(*BE, "MAX_JOBS"), "7");
  EXPECT_THAT(BE->find("MAX_JOBS")->Origin, HasSubstr("[build.env] at m.toml:"));
  // ... and is the same variable, not a second one.
  unsigned Count = 0;
  for (const BuildVar &V : BE->Vars)
    Count += V.Name == "MAX_JOBS";
  EXPECT_EQ(Count, 1u);
}

TEST(BuildEnvironment, UserChoicesWin) {
  Package P = load(FlashLike);
  BuildEnvironmentOptions O;
  O.Jobs = 3;
  O.Overrides["MAX_JOBS"] = "2";
  O.Overrides["CUDA_HOME"] = "/elsewhere";
  auto BE = computeBuildEnvironment(P, decision(), machine(64, 100), O);
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  EXPECT_EQ(BE->Jobs.Jobs, 3u);
  EXPECT_EQ(BE->Jobs.Reason, "--jobs 3");
  EXPECT_EQ(value(*BE, "CMAKE_BUILD_PARALLEL_LEVEL"), "3");
  EXPECT_EQ(value(*BE, "MAX_JOBS"), "2");
  EXPECT_EQ(BE->find("MAX_JOBS")->Origin, "override");
  EXPECT_EQ(value(*BE, "CUDA_HOME"), "/elsewhere");
}

TEST(BuildEnvironment, CDriverBesideTheCompiler) {
  test::TempDir D;
  ASSERT_TRUE(D.ok());
  ASSERT_TRUE(test::writeFile(D.sub("bin/g++-13"), "#!/bin/sh\n", true));
  ASSERT_TRUE(test::writeFile(D.sub("bin/gcc-13"), "#!/bin/sh\n", true));
  PackageResolution PR = decision();
  PR.Compiler->Path = D.sub("bin/g++-13");
  auto BE = computeBuildEnvironment(load(FlashLike), PR, machine(2, 8), {});
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  EXPECT_EQ(value(*BE, "CC"), D.sub("bin/gcc-13"));
  EXPECT_EQ(value(*BE, "CXX"), D.sub("bin/g++-13"));
}

TEST(BuildEnvironment, LauncherPerBuildKind) {
  BuildEnvironmentOptions O;
  O.Launcher = "/usr/bin/ccache";
  auto Torch = computeBuildEnvironment(load(FlashLike), decision(),
                                       machine(2, 8), O);
  ASSERT_TRUE(bool(Torch)) << llvm::toString(Torch.takeError());
  EXPECT_EQ(value(*Torch, "PYTORCH_NVCC"),
            "/usr/bin/ccache /opt/cuda-12.8/bin/nvcc");
  EXPECT_EQ(Torch->find("CMAKE_CUDA_COMPILER_LAUNCHER"), nullptr);

  std::string CMake = FlashLike;
  CMake.replace(CMake.find("torch-extension"), 15, "cmake");
  auto C = computeBuildEnvironment(load(CMake), decision(), machine(2, 8), O);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  for (const char *V : {"CMAKE_C_COMPILER_LAUNCHER",
                        "CMAKE_CXX_COMPILER_LAUNCHER",
                        "CMAKE_CUDA_COMPILER_LAUNCHER"})
    EXPECT_EQ(value(*C, V), "/usr/bin/ccache") << V;
  EXPECT_EQ(C->find("PYTORCH_NVCC"), nullptr);
}

TEST(BuildEnvironment, ApplyToPrependsPath) {
  auto BE = computeBuildEnvironment(load(FlashLike), decision(),
                                    machine(2, 8), {});
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  auto Env = BE->applyTo({{"PATH", "/usr/bin:/bin"},
                          {"HOME", "/home/u"},
                          {"CUDA_HOME", "/stale"}});
  EXPECT_EQ(Env["PATH"], "/opt/cuda-12.8/bin:/usr/bin:/bin");
  EXPECT_EQ(Env["HOME"], "/home/u");
  EXPECT_EQ(Env["CUDA_HOME"], "/opt/cuda-12.8");
  EXPECT_EQ(BE->applyTo({})["PATH"], "/opt/cuda-12.8/bin");
}

TEST(BuildEnvironment, PlaceholderWithoutValueIsLocatedError) {
  const char *Text = R"(schema = 1
[package]
name = "p"
git = "https://e/p.git"
build = "command"
[[release]]
version = "1.0"
[build]
command = ["make"]
[build.env]
WHERE = "{src}/include"
)";
  PackageResolution PR = decision();
  auto BE = computeBuildEnvironment(load(Text), PR, machine(2, 8), {});
  ASSERT_FALSE(bool(BE));
  std::string Msg = llvm::toString(BE.takeError());
  EXPECT_THAT(Msg, HasSubstr("m.toml:11:"));
  EXPECT_THAT(Msg, HasSubstr("WHERE"));
  EXPECT_THAT(Msg, HasSubstr("{src}"));

  BuildEnvironmentOptions O;
  O.SrcDir = "/cache/src/p";
  auto Ok = computeBuildEnvironment(load(Text), PR, machine(2, 8), O);
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());
  EXPECT_EQ(value(*Ok, "WHERE"), "/cache/src/p/include");
}

TEST(BuildEnvironment, NoToolkitNoCompilerVariables) {
  PackageResolution PR;
  PR.Name = "py";
  PR.How = Strategy::NoBuild;
  auto BE = computeBuildEnvironment(Package(), PR, machine(2, 8), {});
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  EXPECT_EQ(BE->find("CUDA_HOME"), nullptr);
  EXPECT_EQ(BE->find("CXX"), nullptr);
  EXPECT_EQ(BE->find("TORCH_CUDA_ARCH_LIST"), nullptr);
  EXPECT_EQ(value(*BE, "MAX_JOBS"), "2");
}

} // namespace
