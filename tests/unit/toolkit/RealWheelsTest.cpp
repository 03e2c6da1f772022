//===- RealWheelsTest.cpp - a toolkit from NVIDIA's real wheels -------------===//
//
// Runs when CUDADEPS_TEST_CUDA_WHEELS names a directory holding NVIDIA's
// CUDA 13 wheels (nvidia-cuda-nvcc, -crt, nvidia-nvvm, -runtime, -cccl),
// e.g. after
//   pip download --no-deps nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88
//     nvidia-nvvm==13.0.88 nvidia-cuda-runtime==13.0.88
//     nvidia-cuda-cccl==13.0.85 -d /tmp/wheels
// (one command).
// CUDADEPS_TEST_CUDA_VERSION picks the version (default: the newest nvcc
// wheel there). The toolkit is installed into a temporary store, verified
// by the installer, then used to compile and link a kernel that includes
// CUB for sm_90.
//
//===----------------------------------------------------------------------===//
#include "core/manifest/KnowledgeBase.h"
#include "core/toolkit/ToolkitInstaller.h"

#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

using namespace cudadeps;
using namespace llvm;
using namespace cudadeps::test;

namespace {

TEST(RealWheels, AssemblesAToolkitThatCompilesAKernel) {
  const char *Dir = std::getenv("CUDADEPS_TEST_CUDA_WHEELS");
  if (!Dir || !*Dir)
    GTEST_SKIP() << "set CUDADEPS_TEST_CUDA_WHEELS to a directory of NVIDIA's "
                    "CUDA 13 wheels to assemble a real toolkit";
  if (findProgram("g++").empty())
    GTEST_SKIP() << "no g++ on PATH for nvcc's host compilation";
  Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  ASSERT_TRUE(bool(KB)) << toString(KB.takeError());
  TempDir T("cudadeps-real-wheels");
  ASSERT_TRUE(T.ok());
  InstallRequest R;
  const char *V = std::getenv("CUDADEPS_TEST_CUDA_VERSION");
  R.Version = V && *V ? V : "13";
  R.From = Dir;
  R.Store = T.sub("store");
  Expected<InstallPlan> P = planToolkitInstall(R, *KB);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  RealProcessRunner Runner;
  InstallObserver Observer;
  Expected<InstallResult> Done = installToolkit(R, *P, Runner, Observer);
  ASSERT_TRUE(bool(Done)) << toString(Done.takeError());
  std::string Nvcc = Done->Root + "/bin/nvcc";

  RunResult Version = runProgram(Nvcc, {"--version"});
  ASSERT_EQ(Version.Code, 0) << Version.Err;
  EXPECT_THAT(Version.Out, ::testing::HasSubstr("V" + P->Version));

  std::string Src = T.sub("scan.cu");
  ASSERT_TRUE(writeFile(Src, R"(#include <cub/cub.cuh>
__global__ void scan(const int *In, int *Out) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage Tmp;
  int V = In[threadIdx.x];
  Scan(Tmp).InclusiveSum(V, V);
  Out[threadIdx.x] = V;
}
int main() { return cudaDeviceSynchronize() == cudaSuccess ? 0 : 0; }
)"));
  RunResult Compile = runProgram(
      Nvcc, {"-arch=sm_90", "-lcudart", "--cudart", "shared", Src, "-o",
             T.sub("scan")});
  ASSERT_EQ(Compile.Code, 0) << Compile.Out << Compile.Err;
  EXPECT_TRUE(llvm::sys::fs::can_execute(T.sub("scan")));
  std::vector<InstalledToolkit> All = listInstalledToolkits(R.Store);
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Ver.str(), P->Version);
}

} // namespace
