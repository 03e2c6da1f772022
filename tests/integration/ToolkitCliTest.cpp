//===- ToolkitCliTest.cpp - cudadeps toolkit install/list/remove, end to end ===//
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"
#include "tests/support/SyntheticWheels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

TEST(ToolkitCli, InstallListProbeRemoveFromAWheelDirectory) {
  TempDir T("cudadeps-toolkit-cli");
  ASSERT_TRUE(T.ok());
  ASSERT_TRUE(makeDirs(T.sub("wheels")));
  ASSERT_FALSE(llvm::errorToBool(makeSyntheticWheels(T.sub("wheels"))));
  std::map<std::string, std::string> Env = {{"XDG_DATA_HOME", T.sub("data")},
                                            {"XDG_CACHE_HOME", T.sub("cache")}};
  std::string Store = T.sub("data/cudadeps/toolkits");

  RunResult I = runCudadeps(
      {"toolkit", "install", "13.0", "--from", T.sub("wheels")}, Env);
  ASSERT_EQ(I.Code, 0) << I.Out << I.Err;
  EXPECT_THAT(I.Err, HasSubstr("installing toolkit 13.0.88 from the wheels in " +
                               T.sub("wheels") +
                               ": nvidia-cuda-nvcc 13.0.88, nvidia-cuda-crt "
                               "13.0.88, nvidia-nvvm 13.0.88, "
                               "nvidia-cuda-runtime 13.0.88, nvidia-cuda-cccl "
                               "13.0.85 (about 266 MiB on disk)"));
  EXPECT_THAT(I.Err, HasSubstr("unpacking nvidia_cuda_nvcc-13.0.88"));
  EXPECT_THAT(I.Out, HasSubstr("installed toolkit 13.0.88 in " + Store +
                               "/13.0.88"));
  EXPECT_THAT(I.Out, HasSubstr("a test kernel for sm_75"));

  RunResult L = runCudadeps({"toolkit", "list"}, Env);
  ASSERT_EQ(L.Code, 0) << L.Err;
  EXPECT_THAT(L.Out, HasSubstr("13.0.88    " + Store + "/13.0.88"));
  EXPECT_THAT(L.Out, HasSubstr("from NVIDIA's wheels from " + T.sub("wheels")));

  RunResult P = runCudadeps({"probe", "--format", "json"}, Env);
  ASSERT_EQ(P.Code, 0) << P.Err;
  EXPECT_THAT(P.Out, HasSubstr(Store + "/13.0.88/bin/nvcc"));
  EXPECT_THAT(P.Out, HasSubstr("provisioned by `cudadeps toolkit install`"));

  RunResult Again = runCudadeps(
      {"toolkit", "install", "13.0.88", "--from", T.sub("wheels")}, Env);
  ASSERT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_THAT(Again.Out, HasSubstr("already installed"));

  RunResult R = runCudadeps({"toolkit", "remove", "13.0"}, Env);
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("removed toolkit 13.0.88"));
  RunResult Empty = runCudadeps({"toolkit", "list"}, Env);
  EXPECT_THAT(Empty.Out, HasSubstr("no toolkits installed"));
  RunResult P2 = runCudadeps({"probe", "--format", "json"}, Env);
  EXPECT_THAT(P2.Out, Not(HasSubstr(Store + "/13.0.88/bin/nvcc")));
}

TEST(ToolkitCli, ErrorsAreUsageErrorsOrFailures) {
  TempDir T("cudadeps-toolkit-cli");
  ASSERT_TRUE(T.ok());
  std::map<std::string, std::string> Env = {{"XDG_DATA_HOME", T.sub("data")}};
  RunResult NoSub = runCudadeps({"toolkit"}, Env);
  EXPECT_EQ(NoSub.Code, 2);
  EXPECT_THAT(NoSub.Err, HasSubstr("toolkit needs a subcommand"));
  RunResult Bad = runCudadeps({"toolkit", "instal", "13.0"}, Env);
  EXPECT_EQ(Bad.Code, 2);
  RunResult Twelve = runCudadeps({"toolkit", "install", "12.8"}, Env);
  EXPECT_EQ(Twelve.Code, 2);
  EXPECT_THAT(Twelve.Err, HasSubstr("hold ptxas and headers but no nvcc"));
  EXPECT_THAT(Twelve.Err, HasSubstr("--from cuda_12.8"));
  RunResult Missing = runCudadeps({"toolkit", "remove", "13.0"}, Env);
  EXPECT_EQ(Missing.Code, 2);
  EXPECT_THAT(Missing.Err, HasSubstr("not installed"));
  // Verification failure: exit 3, nothing in the store.
  ASSERT_TRUE(makeDirs(T.sub("wheels")));
  SyntheticWheelOptions O;
  O.NvccReports = "13.0.48";
  ASSERT_FALSE(llvm::errorToBool(makeSyntheticWheels(T.sub("wheels"), O)));
  RunResult V = runCudadeps(
      {"toolkit", "install", "13.0", "--from", T.sub("wheels")}, Env);
  EXPECT_EQ(V.Code, 3);
  EXPECT_THAT(V.Err, HasSubstr("verification failed"));
  RunResult L = runCudadeps({"toolkit", "list"}, Env);
  EXPECT_THAT(L.Out, HasSubstr("no toolkits installed"));
}

} // namespace

namespace {

RunResult resolveSeed(std::vector<std::string> Extra) {
  std::vector<std::string> Args{
      "resolve", CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml",
      "--facts", CUDADEPS_FIXTURES_DIR "/scenarios/seed.toml"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runCudadeps(Args);
}

// Without a toolkit, resolve names the exact provisioning command: for a
// CUDA 13 torch the wheels on PyPI, with their cost.
TEST(ToolkitHints, Cuda13TorchWithoutNvccNamesTheInstallCommand) {
  RunResult R = resolveSeed({"--set", "torch.cuda=13.0"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("hint: install an nvcc 13.0 without root: "
                               "`cudadeps toolkit install 13.0` (NVIDIA's "
                               "wheels from PyPI: nvcc 13.0.88, download about "
                               "100 MiB, 266 MiB on disk; the nvcc probe then "
                               "finds it)"));
}

// For CUDA 12 on Linux: PyPI has no nvcc 12, what does, and that a cu130
// torch would make a provisioned nvcc 13 usable.
TEST(ToolkitHints, Cuda12TorchSaysPypiHasNoNvcc12AndWhatDoes) {
  RunResult R = resolveSeed({});
  EXPECT_THAT(R.Out, HasSubstr("hint: install an nvcc 12.8: PyPI has no nvcc "
                               "12 for Linux (NVIDIA's Linux wheels of CUDA "
                               "12, nvidia-cuda-nvcc-cu12 12.0.76 to 12.9.86, "
                               "hold ptxas and headers but no nvcc)"));
  EXPECT_THAT(R.Out, HasSubstr("`conda install -c nvidia cuda-nvcc=12.8`"));
  EXPECT_THAT(R.Out, HasSubstr("`cudadeps toolkit install 12.8 --from "
                               "cuda_12.8.<update>_<driver>_linux.run`"));
  EXPECT_THAT(R.Out, HasSubstr("NVIDIA's apt repository (package "
                               "cuda-nvcc-12-8)"));
  EXPECT_THAT(R.Out, HasSubstr("hint: or use a cu130 build of torch 2.11 (the "
                               "plain PyPI wheel, `pip install torch==2.11.*`, "
                               "is one): then `cudadeps toolkit install 13.0` "
                               "provisions a usable nvcc 13.0 without root"));
}

} // namespace
