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

namespace {

/// The seed machine with a CUDA 13.0 torch and a driver for it: no nvcc,
/// but NVIDIA's wheels can assemble a 13.0 one.
std::string writeCuda13Facts(TempDir &T) {
  std::string Path = T.sub("facts.toml");
  std::string Text;
  {
    auto Buf = llvm::MemoryBuffer::getFile(CUDADEPS_FIXTURES_DIR
                                           "/scenarios/seed.toml");
    if (!Buf)
      return "";
    Text = (*Buf)->getBuffer().str();
  }
  auto Replace = [&](const std::string &From, const std::string &To) {
    for (size_t At; (At = Text.find(From)) != std::string::npos;)
      Text.replace(At, From.size(), To);
  };
  Replace("2.11.0+cu128", "2.11.0+cu130");
  Replace("cuda = \"12.8\"", "cuda = \"13.0\"");
  Replace("570.86.15", "580.65.06");
  std::FILE *F = std::fopen(Path.c_str(), "w");
  if (!F)
    return "";
  std::fputs(Text.c_str(), F);
  std::fclose(F);
  return Path;
}

const std::string Example =
    CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml";

TEST(BuildProvision, DryRunSaysWhichToolkitFromWhereAndHowLarge) {
  TempDir T("cudadeps-provision");
  ASSERT_TRUE(T.ok());
  ASSERT_TRUE(makeDirs(T.sub("wheels")));
  ASSERT_FALSE(llvm::errorToBool(makeSyntheticWheels(T.sub("wheels"))));
  std::string Facts = writeCuda13Facts(T);
  ASSERT_FALSE(Facts.empty());
  std::map<std::string, std::string> Env = {{"XDG_DATA_HOME", T.sub("data")},
                                            {"XDG_CACHE_HOME", T.sub("cache")}};
  std::string Store = T.sub("data/cudadeps/toolkits");

  // Without --provision: the fallback, and the exact command.
  RunResult Plain = runCudadeps(
      {"build", Example, "--facts", Facts, "--dry-run"}, Env);
  EXPECT_EQ(Plain.Code, 0) << Plain.Err;
  EXPECT_THAT(Plain.Out, Not(HasSubstr("provision:")));

  RunResult R = runCudadeps({"build", Example, "--facts", Facts, "--dry-run",
                             "--provision", "--provision-from",
                             T.sub("wheels")},
                            Env);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("provision: toolkit 13.0.88 from the wheels in " +
                               T.sub("wheels")));
  EXPECT_THAT(R.Out, HasSubstr("(about 266 MiB on disk) into " + Store +
                               "/13.0.88, for causal-conv1d (torch "
                               "2.11.0+cu130 is built with CUDA 13.0)"));
  // The plan goes on with the provisioned nvcc.
  EXPECT_THAT(R.Out, HasSubstr(Store + "/13.0.88/bin/nvcc"));
  EXPECT_FALSE(llvm::sys::fs::exists(Store)) << "a dry run installs nothing";
}

TEST(BuildProvision, ProvisionsBeforeBuilding) {
  TempDir T("cudadeps-provision");
  ASSERT_TRUE(T.ok());
  ASSERT_TRUE(makeDirs(T.sub("wheels")));
  ASSERT_FALSE(llvm::errorToBool(makeSyntheticWheels(T.sub("wheels"))));
  std::string Facts = writeCuda13Facts(T);
  ASSERT_FALSE(Facts.empty());
  std::map<std::string, std::string> Env = {{"XDG_DATA_HOME", T.sub("data")},
                                            {"XDG_CACHE_HOME", T.sub("cache")}};
  std::string Store = T.sub("data/cudadeps/toolkits");
  // --offline: the toolkit comes from the directory; the sources of
  // causal-conv1d are not in the empty cache, so the build itself stops
  // after provisioning.
  RunResult R = runCudadeps({"build", Example, "--facts", Facts, "--offline",
                             "--provision", "--provision-from",
                             T.sub("wheels")},
                            Env);
  EXPECT_NE(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("provisioned toolkit 13.0.88 in " + Store +
                               "/13.0.88"));
  EXPECT_THAT(R.Err, HasSubstr("offline"));
  EXPECT_TRUE(llvm::sys::fs::exists(Store + "/13.0.88/bin/nvcc"));
  RunResult L = runCudadeps({"toolkit", "list"}, Env);
  EXPECT_THAT(L.Out, HasSubstr("13.0.88    " + Store + "/13.0.88"));

  // Once it is there, nothing more is provisioned.
  RunResult Again = runCudadeps(
      {"build", Example, "--facts", Facts, "--offline", "--dry-run",
       "--provision", "--provision-from", T.sub("wheels"), "--set",
       "nvcc=" + Store + "/13.0.88/bin/nvcc"},
      Env);
  EXPECT_THAT(Again.Out, Not(HasSubstr("provision: toolkit")))
      << Again.Out << Again.Err;
}

TEST(BuildProvision, NothingToProvisionForCuda12IsSaid) {
  RunResult R = runCudadeps(
      {"build", Example, "--facts", CUDADEPS_FIXTURES_DIR "/scenarios/seed.toml",
       "--dry-run", "--provision"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("--provision: no CUDA 12 toolkit can be "
                               "provisioned without root"));
  RunResult Bad = runCudadeps({"build", Example, "--provision-from", "/nope"});
  EXPECT_EQ(Bad.Code, 2);
  EXPECT_THAT(Bad.Err, HasSubstr("--provision-from DIR goes with --provision"));
}

} // namespace
