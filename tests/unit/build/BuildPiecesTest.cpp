// The pieces of core/build: cache keys, progress lines, failure causes,
// wheel names, the steps and arch choice of a plan.
#include "core/build/BuildCache.h"
#include "core/build/BuildPlan.h"
#include "core/build/Builder.h"
#include "core/build/FailureCause.h"
#include "core/build/Wheel.h"
#include "core/manifest/ManifestLoader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

TEST(CacheKey, EveryInputAndItsBoundariesCount) {
  CacheKey A, B, C, D;
  A.add("archs", "sm_90");
  B.add("archs", "sm_80");
  C.add("archs", "sm_90");
  EXPECT_NE(A.hash(), B.hash());
  EXPECT_EQ(A.hash(), C.hash());
  EXPECT_EQ(A.hash().size(), 64u);
  // "a=b" + "c" is not "a" + "b=c": values cannot imitate other inputs.
  CacheKey E, F;
  E.add("a", "b\nc=d");
  F.add("a", "b");
  F.add("c", "d");
  EXPECT_NE(E.hash(), F.hash());
  D.add("archs", "sm_90");
  D.add("env.X", "1");
  EXPECT_NE(D.hash(), A.hash());
}

TEST(BuildCache, AnEntryWithoutItsRecordIsNotTrusted) {
  BuildCache Cache("/nonexistent/cache");
  EXPECT_EQ(Cache.lookup("abc"), std::nullopt);
  EXPECT_EQ(Cache.entryDir("abc"), "/nonexistent/cache/builds/abc");
  EXPECT_EQ(Cache.logPath("p", "1.0", "0123456789abcdef"),
            "/nonexistent/cache/logs/p-1.0-0123456789ab.log");
}

TEST(CompileProgress, NinjaAndMakeLines) {
  EXPECT_EQ(parseCompileProgress("[12/72] Building CUDA object k.o"),
            std::make_pair(12u, 72u));
  EXPECT_EQ(parseCompileProgress("  [ 45%] Building CXX object"),
            std::make_pair(45u, 0u));
  EXPECT_EQ(parseCompileProgress("[100%] Linking"), std::make_pair(100u, 0u));
  EXPECT_EQ(parseCompileProgress("[73/72] odd"), std::nullopt);
  EXPECT_EQ(parseCompileProgress("[x/y] no"), std::nullopt);
  EXPECT_EQ(parseCompileProgress("[140%] no"), std::nullopt);
  EXPECT_EQ(parseCompileProgress("nvcc -c k.cu"), std::nullopt);
}

TEST(FailureCause, KnownCausesFromLogLines) {
  auto Oom = detectFailureCause(
      "x\nc++: fatal error: Killed signal terminated program cc1plus\n", 8);
  ASSERT_TRUE(Oom);
  EXPECT_EQ(Oom->Cause, "the compiler ran out of memory");
  EXPECT_THAT(Oom->Hint, HasSubstr("--jobs 4 (this build ran 8)"));
  EXPECT_THAT(Oom->Line, HasSubstr("Killed signal"));
  auto Host = detectFailureCause(
      "#error -- unsupported GNU version! gcc versions later than 14 are not "
      "supported!",
      2);
  ASSERT_TRUE(Host);
  EXPECT_EQ(Host->Cause, "the toolkit rejects this host compiler");
  auto Py = detectFailureCause(
      "csrc/a.cpp:1:10: fatal error: Python.h: No such file or directory", 2);
  ASSERT_TRUE(Py);
  EXPECT_THAT(Py->Cause, HasSubstr("Python development headers"));
  EXPECT_EQ(detectFailureCause("error: something else", 2), std::nullopt);
}

TEST(FailureCause, LastLines) {
  EXPECT_EQ(lastLines("a\nb\nc\nd\n", 2), "c\nd");
  EXPECT_EQ(lastLines("a\nb", 5), "a\nb");
  EXPECT_EQ(lastLines("", 3), "");
}

TEST(Wheel, NamesAndLocalTags) {
  auto W = WheelName::parse("causal_conv1d-1.6.1-cp312-cp312-linux_x86_64.whl");
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Distribution, "causal_conv1d");
  EXPECT_EQ(W->Version, "1.6.1");
  EXPECT_EQ(W->Platform, "linux_x86_64");
  EXPECT_EQ(W->fileName(), "causal_conv1d-1.6.1-cp312-cp312-linux_x86_64.whl");
  auto B = WheelName::parse("x-1.0-1build-py3-none-any.whl");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Build, "1build");
  EXPECT_EQ(WheelName::parse("x-1.0.tar.gz"), std::nullopt);
  EXPECT_EQ(WheelName::parse("x--py3-none-any.whl"), std::nullopt);

  PackageResolution PR;
  NvccFacts N;
  N.Ver = *Version::parse("13.0.88");
  PR.Nvcc = N;
  PR.Archs = {"sm_90"};
  Facts F;
  TorchFacts T;
  T.Ver = *Version::parse("2.11.0+cu130");
  F.Torch = T;
  EXPECT_EQ(localTagFor(PR, F), "cu130torch2.11sm90");
  PR.Archs = {"sm_90a", "sm_120"};
  F.Torch.reset();
  EXPECT_EQ(localTagFor(PR, F), "cu130sm90a.120");
}

Package load(llvm::StringRef Text) {
  llvm::Expected<Manifest> M = parseManifest(Text, "m.toml");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Package();
  }
  return *M->Pkg;
}

const char *Ext = R"(schema = 1
[package]
name = "ext"
git = "https://e/ext.git"
build = "torch-extension"
[[release]]
version = "1.0"
archs = ["sm_75", "sm_80", "sm_90", "sm_120"]
)";

PackageResolution sourceDecision() {
  PackageResolution PR;
  PR.Name = "ext";
  PR.Ver = *Version::parse("1.0");
  PR.How = Strategy::Source;
  NvccFacts N;
  N.Path = "/cuda/bin/nvcc";
  N.Ver = *Version::parse("12.8");
  PR.Nvcc = N;
  CompilerFacts C;
  C.Path = "/usr/bin/g++";
  C.Family = "gcc";
  C.Ver = *Version::parse("13.3.0");
  PR.Compiler = C;
  PR.Archs = {"sm_90"};
  return PR;
}

TEST(BuildPlan, HardCodedArchListIsSaidWithItsCost) {
  ArchChoice A = chooseArchs(load(Ext), sourceDecision());
  EXPECT_FALSE(A.Selectable);
  EXPECT_THAT(A.Compiled, ElementsAre("sm_75", "sm_80", "sm_90", "sm_120"));
  EXPECT_THAT(A.Note, HasSubstr("hard-codes its arch list"));
  EXPECT_THAT(A.Note, HasSubstr("compiles 4 archs where 1 would do"));

  std::string Chooses = std::string(Ext) +
                        "[build.env]\nTORCH_CUDA_ARCH_LIST = "
                        "\"{torch_arch_list}\"\n";
  ArchChoice B = chooseArchs(load(Chooses), sourceDecision());
  EXPECT_TRUE(B.Selectable);
  EXPECT_THAT(B.Compiled, ElementsAre("sm_90"));
  ASSERT_TRUE(B.Saved);
  EXPECT_DOUBLE_EQ(*B.Saved, 0.75);
  EXPECT_THAT(B.Note, HasSubstr("about 75% of the full build saved"));
}

TEST(BuildPlan, StepsPerKindAreArgv) {
  PackageResolution PR = sourceDecision();
  BuildPaths Paths;
  Paths.Src = "/src";
  Paths.Out = "/out";
  Paths.Work = "/work";
  Paths.Python = "/py/bin/python";
  Paths.Ninja = "/usr/bin/ninja";
  Package P = load(Ext);
  auto BE = computeBuildEnvironment(P, PR, Facts(), {});
  ASSERT_TRUE(bool(BE)) << llvm::toString(BE.takeError());
  auto Torch = planBuildSteps(P, PR, *BE, Paths);
  ASSERT_TRUE(bool(Torch)) << llvm::toString(Torch.takeError());
  ASSERT_EQ(Torch->size(), 1u);
  EXPECT_THAT((*Torch)[0].Argv,
              ElementsAre("/py/bin/python", "-m", "pip", "wheel",
                          "--no-build-isolation", "--no-deps", "-v", "/src",
                          "-w", "/out"));

  std::string CMakeText = Ext;
  CMakeText.replace(CMakeText.find("torch-extension"), 15, "cmake");
  CMakeText += "[build]\ncmake_args = [\"-DWITH_X=ON\", \"-DARCHS={archs}\"]\n";
  Package C = load(CMakeText);
  auto Steps = planBuildSteps(C, PR, *BE, Paths);
  ASSERT_TRUE(bool(Steps)) << llvm::toString(Steps.takeError());
  ASSERT_EQ(Steps->size(), 3u);
  EXPECT_THAT((*Steps)[0].Argv,
              ElementsAre("cmake", "-S", "/src", "-B", "/work/build", "-G",
                          "Ninja", "-DCMAKE_MAKE_PROGRAM=/usr/bin/ninja",
                          "-DCMAKE_BUILD_TYPE=Release",
                          "-DCMAKE_INSTALL_PREFIX=/out",
                          "-DCMAKE_CUDA_COMPILER=/cuda/bin/nvcc",
                          "-DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++",
                          "-DCMAKE_CXX_COMPILER=/usr/bin/g++",
                          "-DCMAKE_CUDA_ARCHITECTURES=90", "-DWITH_X=ON",
                          "-DARCHS=sm_90"));
  EXPECT_EQ((*Steps)[1].Name, "compile");
  EXPECT_EQ((*Steps)[2].Argv.back(), "/out");

  Paths.Python.clear();
  auto NoPython = planBuildSteps(P, PR, *BE, Paths);
  ASSERT_FALSE(bool(NoPython));
  EXPECT_THAT(llvm::toString(NoPython.takeError()), HasSubstr("[python]"));
}

} // namespace
