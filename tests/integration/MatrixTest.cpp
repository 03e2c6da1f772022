//===- MatrixTest.cpp - cudadeps matrix on the shipped causal-conv1d -------===//
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/JSON.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Conv = CUDADEPS_SOURCE_DIR "/manifests/causal-conv1d.toml";

std::string field(const json::Object &O, StringRef K) {
  if (auto S = O.getString(K))
    return S->str();
  return "?";
}

/// "torch/cuda_major/python/platform" of each object.
std::vector<std::string> rowKeys(const json::Array &Rows) {
  std::vector<std::string> Out;
  for (const json::Value &V : Rows) {
    const json::Object *O = V.getAsObject();
    if (!O)
      continue;
    auto S = [&](StringRef K) {
      return field(*O, K);
    };
    Out.push_back(S("torch") + "/" + S("cuda") + "/" + S("python") + "/" +
                  S("platform") + "/" + S("nvcc") + "/" + S("gcc"));
  }
  return Out;
}

TEST(Matrix, TextOneRowPerLine) {
  RunResult R = runCudadeps({"matrix", Conv});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("torch 2.8   cu12  python 3.12  cxx11abi TRUE"
                               "      linux_x86_64   nvcc 12.9  gcc 14\n"));
  EXPECT_THAT(R.Out, Not(HasSubstr("torch 2.8   cu13")));
  EXPECT_THAT(R.Out, Not(HasSubstr("torch 2.8   cu11")));
  EXPECT_THAT(R.Out, Not(HasSubstr("torch 2.6   cu13")));
}

TEST(Matrix, JsonArray) {
  RunResult R = runCudadeps({"matrix", Conv, "--format", "json"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  Expected<json::Value> V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  const json::Array *A = V->getAsArray();
  ASSERT_NE(A, nullptr);
  std::vector<std::string> K = rowKeys(*A);
  EXPECT_THAT(K, ::testing::Contains("2.8/12.9/3.12/linux_x86_64/12.9/14"));
  EXPECT_THAT(K, ::testing::Contains("2.10/13.5/3.13/linux_aarch64/13.5/16"));
  EXPECT_THAT(K, ::testing::Contains("2.7/11.8/3.10/linux_x86_64/11.8/11"));
  for (const std::string &Key : K) {
    // torch 2.8 was published for CUDA 12 only; 2.6/2.7 never for CUDA 13.
    EXPECT_THAT(Key, Not(::testing::StartsWith("2.8/11")));
    EXPECT_THAT(Key, Not(::testing::StartsWith("2.8/13")));
    EXPECT_THAT(Key, Not(::testing::StartsWith("2.6/13")));
    EXPECT_THAT(Key, Not(::testing::StartsWith("2.7/13")));
  }
  const json::Object *First = (*A)[0].getAsObject();
  ASSERT_NE(First, nullptr);
  EXPECT_EQ(field(*First, "cuda_major"), "11");
  EXPECT_EQ(field(*First, "cxx11_abi"), "TRUE");
}

TEST(Matrix, GitHubInclude) {
  RunResult R = runCudadeps({"matrix", Conv, "--format", "github"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  Expected<json::Value> V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  const json::Object *O = V->getAsObject();
  ASSERT_NE(O, nullptr);
  const json::Array *Include = O->getArray("include");
  ASSERT_NE(Include, nullptr);
  EXPECT_GT(Include->size(), 10u);
  std::vector<std::string> K = rowKeys(*Include);
  EXPECT_THAT(K, ::testing::Contains("2.9/12.9/3.11/linux_x86_64/12.9/14"));
  for (const std::string &Key : K)
    EXPECT_THAT(Key, Not(::testing::StartsWith("2.8/13")));
}

TEST(Matrix, OlderReleaseAndNoMatrix) {
  RunResult Old =
      runCudadeps({"matrix", Conv, "--release", "1.5.4", "--format", "json"});
  ASSERT_EQ(Old.Code, 0) << Old.Err;
  EXPECT_THAT(Old.Out, HasSubstr("\"cxx11_abi\": \"FALSE\""));
  // torch 2.9 has no cp39 wheels.
  EXPECT_THAT(Old.Out, Not(HasSubstr("\"python_tag\": \"cp39\",\n    "
                                     "\"torch\": \"2.9\"")));
  RunResult None = runCudadeps({"matrix", Conv, "--release", "1.6.0"});
  EXPECT_EQ(None.Code, 2);
  EXPECT_THAT(None.Err, HasSubstr("declares no [release.prebuilt] matrix"));
  RunResult Fla = runCudadeps(
      {"matrix", CUDADEPS_SOURCE_DIR "/manifests/flash-linear-attention.toml"});
  EXPECT_EQ(Fla.Code, 2);
  EXPECT_THAT(Fla.Err, HasSubstr("no release of 'flash-linear-attention'"));
  EXPECT_EQ(Fla.Out, "");
}

TEST(Lint, WarningsGoToStderrWithExitZero) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("cudadeps-lintwarn", Dir));
  std::string Path = (Dir + "/p.toml").str();
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << "schema = 1\n[package]\nname = \"p\"\nbuild = \"python\"\n"
          "[[release]]\nversion = \"1\"\n[release.prebuilt]\n"
          "torch = [\"2.20\"]\ncuda = [\"12\"]\n"
          "[prebuilt]\nurl = \"https://e/{version}.whl\"\n";
  }
  RunResult R = runCudadeps({"lint", Path});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, HasSubstr(Path + ":8:10: warning: torch 2.20 is not in"));
  EXPECT_THAT(R.Out, HasSubstr(": ok"));
  sys::fs::remove(Path);
  sys::fs::remove(Dir);
}

} // namespace
