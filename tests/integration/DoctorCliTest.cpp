//===- DoctorCliTest.cpp - cudadeps doctor end to end ---------------------===//
#include "tests/support/RunCli.h"
#include "tests/support/SharedObjects.h"

#include "llvm/Support/JSON.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string fixture(llvm::StringRef Rel) {
  return std::string(CUDADEPS_FIXTURES_DIR) + "/" + Rel.str();
}

const char *ExtManifest = R"(schema = 1
[package]
name = "ext-pkg"
summary = "a test extension"
git = "https://example.invalid/ext-pkg.git"
build = "torch-extension"
[requires]
torch = ">=2.0"
[[release]]
version = "1.0"
[[fallback]]
name = "torch-ops"
summary = "the layers run their PyTorch implementation"
impact = "slower"
)";

/// A machine with only this virtualenv: the probes run for real, the
/// Python environment is the fake one.
std::map<std::string, std::string> envFor(const FakeSitePackages &S) {
  return {{"VIRTUAL_ENV", S.Dir.path()},
          {"CONDA_PREFIX", ""},
          {"XDG_CACHE_HOME", S.Dir.sub("cache")}};
}

TEST(DoctorCli, AMissingPackageOfAProjectSaysItsFallbackAndInstallCommand) {
  RunResult R = runCudadeps(
      {"doctor", CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml",
       "--facts", fixture("scenarios/seed.toml")});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("causal-conv1d           missing"));
  EXPECT_THAT(R.Out, HasSubstr("without it: fallback 'torch-conv': "
                               "transformers runs the GatedDeltaNet short "
                               "convolution in plain PyTorch"));
  EXPECT_THAT(R.Out, HasSubstr("install: cudadeps install causal-conv1d"));
  EXPECT_THAT(R.Out, HasSubstr("targets: sm_90 (GPUs found)"));
  EXPECT_THAT(R.Out, HasSubstr("0 of 2 packages ok; 2 missing"));
}

TEST(DoctorCli, RequirementArgumentsAndJson) {
  RunResult R = runCudadeps({"doctor", "causal_conv1d>=1.5", "--facts",
                             fixture("scenarios/seed.toml"), "--format", "json",
                             "--arch", "sm_120"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << R.Out;
  const llvm::json::Object *O = V->getAsObject();
  ASSERT_TRUE(O);
  EXPECT_EQ(O->getString("status"), llvm::StringRef("problems"));
  EXPECT_EQ(O->getString("target_origin"), llvm::StringRef("--arch"));
  const llvm::json::Array *P = O->getArray("packages");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->size(), 1u);
  const llvm::json::Object *C = (*P)[0].getAsObject();
  EXPECT_EQ(C->getString("name"), llvm::StringRef("causal-conv1d"));
  EXPECT_EQ(C->getString("verdict"), llvm::StringRef("missing"));
  EXPECT_EQ(C->getString("install_command"),
            llvm::StringRef("cudadeps install causal-conv1d"));
}

TEST(DoctorCli, BadInputIsExitTwo) {
  RunResult Spec = runCudadeps({"doctor", "causal-conv1d>>1", "--facts",
                                fixture("scenarios/seed.toml")});
  EXPECT_EQ(Spec.Code, 2);
  EXPECT_THAT(Spec.Err, HasSubstr("<command line>:"));
  EXPECT_THAT(Spec.Err, HasSubstr("unknown operator '>>'"));
  RunResult Arch = runCudadeps({"doctor", "causal-conv1d", "--arch", "sm9",
                                "--facts", fixture("scenarios/seed.toml")});
  EXPECT_EQ(Arch.Code, 2);
  EXPECT_THAT(Arch.Err, HasSubstr("invalid --arch 'sm9'"));
  RunResult Missing = runCudadeps({"doctor", "no/such/manifest.toml"});
  EXPECT_EQ(Missing.Code, 2);
  EXPECT_TRUE(Missing.Out.empty());
  RunResult Quote = runCudadeps({"doctor", std::string("a\"b\x01", 4),
                                 "--facts", fixture("scenarios/seed.toml")});
  EXPECT_EQ(Quote.Code, 2);
}

// The real probes read a virtualenv holding torch with a stub libc10.so
// and an extension whose _C.so needs c10::stubVersion().
TEST(DoctorCli, ProbedVirtualenvOkThenStaleAfterTorchChanges) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}})), "");
  std::string Reg = S.Dir.sub("registry");
  ASSERT_TRUE(writeFile(Reg + "/ext-pkg.toml", ExtManifest));

  RunResult Ok = runCudadeps(
      {"doctor", "ext-pkg", "--registry", Reg, "--arch", "sm_90"}, envFor(S));
  EXPECT_EQ(Ok.Code, 0) << Ok.Out << Ok.Err;
  EXPECT_THAT(Ok.Out, HasSubstr("ext-pkg  1.0  ok"));
  EXPECT_THAT(Ok.Out, HasSubstr("installed: 1.0 from " + S.DistInfo));
  EXPECT_THAT(Ok.Out, HasSubstr("_C.so: compiled for sm_90; runs natively "
                                "on sm_90 (--arch)"));

  // No arguments: every registry package installed here.
  RunResult All =
      runCudadeps({"doctor", "--registry", Reg, "--arch", "sm_120"}, envFor(S));
  EXPECT_EQ(All.Code, 1) << All.Out << All.Err;
  EXPECT_THAT(All.Out, HasSubstr("wrong archs (rebuild for these GPUs: "
                                 "`cudadeps install ext-pkg`)"));
  EXPECT_THAT(All.Out, HasSubstr("the kernels will not load"));

  ASSERT_EQ(S.replaceLibc10(StubWithoutSymbol), "");
  RunResult Stale = runCudadeps(
      {"doctor", "ext-pkg", "--registry", Reg, "--arch", "sm_90"}, envFor(S));
  EXPECT_EQ(Stale.Code, 1) << Stale.Out << Stale.Err;
  EXPECT_THAT(Stale.Out,
              HasSubstr("stale (rebuild: `cudadeps install ext-pkg`)"));
  EXPECT_THAT(Stale.Out, HasSubstr("undefined symbol: _ZN3c1011stubVersionEv "
                                   "(c10::stubVersion())"));
  EXPECT_THAT(Stale.Out, HasSubstr("0 of 1 package ok; 1 stale"));
  EXPECT_THAT(Stale.Out, Not(HasSubstr("ext-pkg  1.0  ok")));
}

} // namespace
