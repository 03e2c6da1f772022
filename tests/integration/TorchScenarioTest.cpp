//===- TorchScenarioTest.cpp - torch's own checks on real-looking installs -===//
//
// Machines described by facts files (tests/fixtures/scenarios) where what
// torch itself checks decides: its host-compiler table per CUDA release
// (manifests/cuda/torch-host-compilers.toml) and torch.cuda from a +cuXYZ
// local version.
//
//===----------------------------------------------------------------------===//
#include "tests/support/RunCli.h"
#include "tests/support/TorchLayout.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Fixtures = CUDADEPS_FIXTURES_DIR "/scenarios";

RunResult run(const std::string &Command, const std::string &FactsName,
              std::vector<std::string> Extra = {},
              const std::string &Project = Fixtures + "/demo-project.toml") {
  std::vector<std::string> Args{Command, Project, "--registry",
                                Fixtures + "/registry", "--facts",
                                Fixtures + "/" + FactsName + ".toml"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runCudadeps(Args);
}

const std::string Seed =
    CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml";

} // namespace

TEST(TorchHostCompilers, Torch211RejectsGcc14WithCuda128) {
  RunResult R = run("resolve", "torch211-nvcc128-gcc14");
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("torch 2.11 rejects gcc 14 with CUDA 12.8: its "
                               "torch/utils/cpp_extension.py accepts gcc "
                               ">=6.0.0, <14.0 for CUDA 12.8"));
  // One hint, that both nvcc and torch accept: never g++-14, which torch
  // rejects though nvcc 12.8 takes it.
  EXPECT_THAT(R.Out, HasSubstr("hint: install a g++ that nvcc 12.8 and torch "
                               "2.11 (gcc >=6.0.0, <14.0 with CUDA 12.8) "
                               "accept, e.g. `apt install g++-13`"));
  EXPECT_THAT(R.Out, Not(HasSubstr("g++-14`")));
}

TEST(TorchHostCompilers, ExplainNamesTheRejection) {
  RunResult R = run("explain", "torch211-nvcc128-gcc14", {"demo-ext"});
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("torch 2.11 rejects gcc 14 with CUDA 12.8"));
}

TEST(TorchHostCompilers, Torch211ChoosesGcc13OverGcc14) {
  RunResult R = run("resolve", "torch211-nvcc128-gcc13-and-14");
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("gcc 13.3.0 (/usr/bin/g++-13)"));
  EXPECT_THAT(R.Out, HasSubstr("gcc 14.2.0 (/usr/bin/g++-14) not used: torch "
                               "2.11 rejects gcc 14 with CUDA 12.8"));
}

TEST(TorchHostCompilers, Torch212AcceptsGcc14WithCuda128) {
  RunResult R = run("resolve", "torch212-nvcc128-gcc14");
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("gcc 14.2.0 (/usr/bin/g++-14)"));
  EXPECT_THAT(R.Out, Not(HasSubstr("rejects gcc")));
}

TEST(TorchCudaFromLocalTag, CuTagWithoutCudaKeyIsACudaBuild) {
  RunResult R = run("resolve", "torch-local-tag-no-cuda", {}, Seed);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("torch 2.11.0+cu128 needs an nvcc 12.x"));
  EXPECT_THAT(R.Out, Not(HasSubstr("CPU build")));
  RunResult P = runCudadeps(
      {"probe", "--facts", Fixtures + "/torch-local-tag-no-cuda.toml"});
  EXPECT_EQ(P.Code, 0) << P.Err;
  EXPECT_THAT(P.Out, HasSubstr("2.11.0+cu128 (CUDA 12.8)"));
}

TEST(TorchCudaFromLocalTag, NoLabelAndNoCudaKeyIsUnknownNotCpu) {
  RunResult R = run("resolve", "torch-no-cuda-label", {}, Seed);
  EXPECT_THAT(R.Out, Not(HasSubstr("CPU build")));
  EXPECT_THAT(R.Out, HasSubstr("torch 2.11.0 names no CUDA version"));
  RunResult P =
      runCudadeps({"probe", "--facts", Fixtures + "/torch-no-cuda-label.toml"});
  EXPECT_THAT(P.Out, HasSubstr("2.11.0 (CUDA unknown)"));
  EXPECT_THAT(P.Out, HasSubstr("whether it is a CUDA build is unknown"));
}

TEST(TorchAbi, ProbeSaysWhichFileTheAbiCameFrom) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Venv = realTorchLayout(T, 1);
  RunResult R = runCudadeps({"probe"}, {{"VIRTUAL_ENV", Venv},
                                        {"CONDA_PREFIX", ""},
                                        {"XDG_CACHE_HOME", T.sub("cache")},
                                        {"CUDADEPS_FACTS", ""},
                                        {"CUDADEPS_PLUGIN_PATH", ""}});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("2.11.0+cu130 (CUDA 13.0), cxx11 abi"));
  EXPECT_THAT(R.Out, HasSubstr("C++ ABI probed by cuda-runtime from " + Venv +
                               "/lib/python3.11/site-packages/torch/lib/"
                               "libc10.so (std::__cxx11 symbols)"));
  EXPECT_THAT(R.Out, Not(HasSubstr("C++ ABI (_GLIBCXX_USE_CXX11_ABI)")));
}
