//===- ResolveScenarioTest.cpp - the Solver issue's acceptance scenarios ---===//
//
// Each scenario describes a machine with a facts file (no probing) and checks
// the decision, the explanation, the hints and the exit code. The seed
// scenario is also compared with a golden file in full.
//
//===----------------------------------------------------------------------===//
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/JSON.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Fixtures = CUDADEPS_FIXTURES_DIR "/scenarios";

/// Runs resolve on the demo project (or Project) with a scenario's facts.
RunResult resolveWith(const std::string &FactsName,
                      std::vector<std::string> Extra = {},
                      const std::string &Project = Fixtures +
                                                   "/demo-project.toml") {
  std::vector<std::string> Args{"resolve", Project, "--registry",
                                Fixtures + "/registry", "--facts",
                                Fixtures + "/" + FactsName + ".toml"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  RunResult R = runCudadeps(Args);
  // Paths under the source tree vary between checkouts.
  for (std::string *S : {&R.Out, &R.Err}) {
    size_t Pos;
    while ((Pos = S->find(CUDADEPS_SOURCE_DIR)) != std::string::npos)
      S->replace(Pos, StringRef(CUDADEPS_SOURCE_DIR).size(), "<src>");
  }
  return R;
}

std::string seedProject() {
  return CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml";
}

} // namespace

// 1. torch 2.11.0+cu128, python 3.12, driver CUDA 12.8, H100s, g++ 13, no
//    nvcc: fla needs no build; causal-conv1d falls back, with the reasons
//    and a hint naming nvcc 12.8.
TEST(ResolveScenario, SeedNoNvccFallsBackWithReasonAndHint) {
  RunResult R = resolveWith("seed", {}, seedProject());
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("flash-linear-attention"));
  EXPECT_THAT(R.Out, HasSubstr("no build needed"));
  EXPECT_THAT(R.Out, HasSubstr("causal-conv1d           cannot be built here; "
                               "using fallback"));
  EXPECT_THAT(R.Out, HasSubstr("because no nvcc was found on this machine"));
  EXPECT_THAT(R.Out, HasSubstr("and torch 2.11.0+cu128 needs an nvcc 12.x "
                               "(torch rejects a different CUDA major)"));
  EXPECT_THAT(R.Out, HasSubstr("no prebuilt wheel is published for torch 2.11 "
                               "/ cu12 / cp312"));
  EXPECT_THAT(R.Out, HasSubstr("hint: install an nvcc 12.8"));
  EXPECT_THAT(R.Out, HasSubstr("fallback: "));
  EXPECT_EQ(R.Out, readWhole(CUDADEPS_SOURCE_DIR
                             "/tests/integration/golden/seed.txt"));
}

TEST(ResolveScenario, SeedJsonFollowsTheDesignContract) {
  RunResult R = resolveWith("seed", {"--format", "json"}, seedProject());
  ASSERT_EQ(R.Code, 0) << R.Err;
  Expected<json::Value> V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError()) << R.Out;
  const json::Object *Doc = V->getAsObject();
  ASSERT_TRUE(Doc);
  EXPECT_EQ(Doc->getString("status"), StringRef("fallback"));
  const json::Array *Pkgs = Doc->getArray("packages");
  ASSERT_TRUE(Pkgs);
  std::map<std::string, std::string> Strategy;
  for (const json::Value &P : *Pkgs) {
    const json::Object *O = P.getAsObject();
    ASSERT_TRUE(O);
    for (StringRef Key : {"name", "version", "strategy", "nvcc", "compiler",
                          "archs", "prebuilt_url", "fallback", "explanation",
                          "hints"})
      EXPECT_TRUE(O->get(Key)) << "missing " << Key.str();
    Strategy[O->getString("name")->str()] = O->getString("strategy")->str();
  }
  EXPECT_EQ(Strategy["flash-linear-attention"], "no-build");
  EXPECT_EQ(Strategy["causal-conv1d"], "fallback");
  EXPECT_TRUE(Doc->getObject("facts"));
}

TEST(ResolveScenario, SeedNoFallbackIsExitOne) {
  RunResult R = resolveWith("seed", {"--no-fallback"}, seedProject());
  EXPECT_EQ(R.Code, 1);
  EXPECT_THAT(R.Out, HasSubstr("it was not used because of --no-fallback"));
}

// 2. Toolkits 12.4 and 12.8, an RTX 5090: 12.8 because sm_120 needs it.
TEST(ResolveScenario, Rtx5090ChoosesTheToolkitThatCompilesSm120) {
  RunResult R = resolveWith("rtx5090-two-toolkits");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("demo-ext  2.0.0  build from source with nvcc "
                               "12.8.93 (/usr/local/cuda-12.8/bin/nvcc)"));
  EXPECT_THAT(R.Out, HasSubstr("; archs sm_120\n"));
  EXPECT_THAT(R.Out, HasSubstr("nvcc 12.4.131 (/usr/local/cuda-12.4/bin/nvcc) "
                               "not used: the target sm_120 (NVIDIA GeForce "
                               "RTX 5090) needs nvcc >=12.8"));
}

TEST(ResolveScenario, Rtx5090WithOnly124IsUnsatisfiable) {
  RunResult R = resolveWith("rtx5090-only-12.4");
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("the target sm_120 (NVIDIA GeForce RTX 5090) "
                               "needs nvcc >=12.8"));
  EXPECT_THAT(R.Out, HasSubstr("hint: install an nvcc >=12.8 for sm_120"));
}

// 3. nvcc 11.8 and g++ 12: explained; with g++-11 added, g++-11 is chosen.
TEST(ResolveScenario, Nvcc118RejectsGcc12) {
  RunResult R = resolveWith("nvcc118-gcc12");
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("because nvcc 11.8.89 supports gcc <= 11"));
  EXPECT_THAT(R.Out, HasSubstr("the only host compiler found is gcc 12.2.0"));
  EXPECT_THAT(R.Out, HasSubstr("hint: install a g++ that nvcc 11.8 accepts, "
                               "e.g. `apt install g++-11`"));
}

TEST(ResolveScenario, Nvcc118ChoosesGcc11) {
  RunResult R = resolveWith("nvcc118-gcc11-and-12");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("with nvcc 11.8.89 (/usr/local/cuda-11.8/bin/"
                               "nvcc), gcc 11.4.0 (/usr/bin/g++-11)"));
  EXPECT_THAT(R.Out, HasSubstr("gcc 12.2.0 (/usr/bin/g++-12) not used: nvcc "
                               "11.8.89 supports gcc <= 11"));
}

// 4. torch cu118 with only 12.x toolkits: the major-version rule.
TEST(ResolveScenario, TorchCu118WithNvcc12IsUnsatisfiable) {
  RunResult R = resolveWith("torch-cu118-nvcc12");
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("because torch 2.7.1+cu118 needs an nvcc 11.x "
                               "(torch rejects a different CUDA major)"));
  EXPECT_THAT(R.Out, HasSubstr("the toolkits found are 12.4.131"));
  EXPECT_THAT(R.Out, HasSubstr("hint: install an nvcc 11.8"));
  EXPECT_THAT(R.Out, HasSubstr("unsatisfiable: no buildable configuration"));
}

// 5. No GPU, --arch sm_90: resolves for sm_90 only.
TEST(ResolveScenario, BuildFarmTargetsTheDeclaredArch) {
  RunResult R = resolveWith("build-farm-no-gpu", {"--arch", "sm_90"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("; archs sm_90\n"));
  EXPECT_THAT(R.Out, HasSubstr("targets: sm_90 (--arch)"));
  RunResult Emit = resolveWith("build-farm-no-gpu",
                               {"--arch", "sm_90", "--emit", "cmake"});
  EXPECT_EQ(Emit.Code, 0);
  EXPECT_THAT(Emit.Out, HasSubstr("set(CMAKE_CUDA_ARCHITECTURES \"90\")"));
  EXPECT_THAT(Emit.Out, HasSubstr("set(CMAKE_CUDA_COMPILER "
                                  "\"/usr/local/cuda-12.8/bin/nvcc\")"));
}

TEST(ResolveScenario, BuildFarmWithoutTargetsWarns) {
  RunResult R = resolveWith("build-farm-no-gpu");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("warning: no GPU was found and no target archs"));
  EXPECT_THAT(R.Out, HasSubstr("archs sm_75 sm_80 sm_90 sm_100 sm_120"));
}

TEST(ResolveScenario, BadArchIsUsageError) {
  RunResult R = resolveWith("build-farm-no-gpu", {"--arch", "sm90"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("invalid --arch 'sm90'"));
}

// 6. A 13.x toolkit with a driver for CUDA 12.8.
TEST(ResolveScenario, Nvcc13WithDriver128IsExplained) {
  RunResult R = resolveWith("nvcc13-driver128");
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("the driver (570.86.15) supports CUDA 12.8 at "
                               "most; a 13.x runtime needs a driver >= 580"));
  EXPECT_THAT(R.Out, HasSubstr("hint: upgrade the NVIDIA driver to >= 580"));
  EXPECT_THAT(R.Out, Not(HasSubstr("install an nvcc 13.0")));
}

TEST(Explain, PrintsDerivationAndFacts) {
  RunResult R = runCudadeps({"explain", Fixtures + "/demo-project.toml",
                             "demo-ext", "--registry", Fixtures + "/registry",
                             "--facts", Fixtures + "/nvcc118-gcc12.toml"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("derivation:\n"));
  EXPECT_THAT(R.Out, HasSubstr("version solving failed"));
  EXPECT_THAT(R.Out, HasSubstr("facts used:\n  nvcc 11.8.89 at "
                               "/usr/local/cuda-11.8/bin/nvcc: declared in"));
}

TEST(Explain, UnknownPackageSuggestsNearest) {
  RunResult R = runCudadeps({"explain", Fixtures + "/demo-project.toml",
                             "demo-xet", "--registry", Fixtures + "/registry",
                             "--facts", Fixtures + "/build-farm-no-gpu.toml"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("did you mean 'demo-ext'?"));
}

TEST(Resolve, MissingManifestForRequirementIsLocated) {
  RunResult R = runCudadeps({"resolve", Fixtures + "/demo-project.toml",
                             "--facts", Fixtures + "/seed.toml"},
                            {{"CUDADEPS_REGISTRY", "/nonexistent"}});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("demo-project.toml:5:"));
  EXPECT_THAT(R.Err, HasSubstr("no manifest for package 'demo-ext'"));
}

TEST(Resolve, BadFactsFileIsLocatedInputError) {
  std::string Dir = CUDADEPS_FIXTURES_DIR "/facts/bad";
  std::error_code EC;
  unsigned Seen = 0;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    if (sys::path::extension(I->path()) != ".toml")
      continue;
    ++Seen;
    SCOPED_TRACE(I->path());
    std::string P = I->path();
    std::string Expect =
        StringRef(readWhole(P.substr(0, P.size() - 5) + ".expect")).trim().str();
    RunResult R = runCudadeps({"resolve", Fixtures + "/demo-project.toml",
                               "--registry", Fixtures + "/registry", "--facts",
                               P});
    EXPECT_EQ(R.Code, 2) << R.Out;
    EXPECT_THAT(R.Err, HasSubstr(Dir + "/" + Expect));
    EXPECT_EQ(R.Out, "");
  }
  EXPECT_GE(Seen, 10u);
}
