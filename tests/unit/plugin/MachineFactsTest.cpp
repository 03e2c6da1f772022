//===- MachineFactsTest.cpp - gatherFacts: facts files, overrides, probes -===//

#include "core/plugin/MachineFacts.h"

#include "core/support/Diagnostic.h"

#include "TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

std::atomic<int> FakeNvccCalls{0};

std::unique_ptr<Probe> createFakeNvcc() {
  return std::make_unique<FakeProbe>(
      "nvcc", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
        ++FakeNvccCalls;
        ProbeAnswer A;
        A.What = ProbeAnswer::Kind::Found;
        NvccFacts N;
        N.Path = "/usr/local/cuda-11.8/bin/nvcc";
        N.Ver = llvm::cantFail(Version::parse("11.8.89"));
        N.From = Source::probed("nvcc", N.Path + " --version");
        A.Found.Nvccs.push_back(N);
        return A;
      });
}

std::unique_ptr<Probe> createFakeDriver() {
  return std::make_unique<FakeProbe>(
      "driver", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
        return ProbeAnswer::notPresent("no NVIDIA driver",
                                       {"/proc/driver/nvidia/version"});
      });
}

const ProbeFactory FakeBuiltins[] = {createFakeNvcc, createFakeDriver};

class MachineFactsTest : public ::testing::Test {
protected:
  MachineFactsTest() { FakeNvccCalls = 0; }
  GatherOptions options() {
    GatherOptions O{Env, Runner};
    O.Builtins = FakeBuiltins;
    O.CacheDir = "-";
    return O;
  }
  TempDir Dir;
  MapEnvironment Env;
  NoProcessRunner Runner;
};

TEST_F(MachineFactsTest, ProbesBuiltinsAndReportsEach) {
  auto M = gatherFacts(options());
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(FakeNvccCalls, 1);
  ASSERT_EQ(M->F.Nvccs.size(), 1u);
  EXPECT_TRUE(M->FactsFile.empty());
  ASSERT_EQ(M->Reports.size(), 2u);
  EXPECT_EQ(M->Reports[0].Name, "nvcc");
  EXPECT_EQ(M->Reports[0].What, ProbeReport::Status::Found);
  EXPECT_EQ(M->Reports[1].Name, "driver");
  EXPECT_EQ(M->Reports[1].What, ProbeReport::Status::NotPresent);
  EXPECT_THAT(M->Reports[1].Searched,
              ::testing::ElementsAre("/proc/driver/nvidia/version"));
}

TEST_F(MachineFactsTest, FactsFileIsTheWholeMachineNothingProbed) {
  std::string F = Dir.write("m.toml", "[torch]\nversion = \"2.11.0+cu128\"\n"
                                      "cuda = \"12.8\"\n");
  GatherOptions O = options();
  O.FactsFile = F;
  auto M = gatherFacts(O);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(FakeNvccCalls, 0);
  EXPECT_TRUE(M->Reports.empty());
  EXPECT_TRUE(M->F.Nvccs.empty()); // not listed = absent
  ASSERT_TRUE(M->F.Torch.has_value());
  EXPECT_EQ(M->F.Torch->From.How, Source::Kind::Declared);
  EXPECT_EQ(M->FactsFile, F);
}

TEST_F(MachineFactsTest, CudadepsFactsEnvHasLowerPrecedenceThanOption) {
  std::string FromEnv = Dir.write("env.toml", "[python]\nversion = \"3.10.1\"\n");
  std::string FromOpt = Dir.write("opt.toml", "[python]\nversion = \"3.12.3\"\n");
  Env.set("CUDADEPS_FACTS", FromEnv);
  auto M = gatherFacts(options());
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(FakeNvccCalls, 0);
  EXPECT_EQ(M->F.Python->Ver.str(), "3.10.1");
  GatherOptions O = options();
  O.FactsFile = FromOpt;
  auto M2 = gatherFacts(O);
  ASSERT_TRUE(bool(M2)) << llvm::toString(M2.takeError());
  EXPECT_EQ(M2->F.Python->Ver.str(), "3.12.3");
}

TEST_F(MachineFactsTest, OverridesApplyLastOnProbedAndDeclaredFacts) {
  GatherOptions O = options();
  O.Overrides = {"nvcc=", "torch=2.8.0+cu126"};
  auto M = gatherFacts(O);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_TRUE(M->F.Nvccs.empty());
  ASSERT_TRUE(M->F.Torch.has_value());
  EXPECT_EQ(M->F.Torch->From.How, Source::Kind::Overridden);

  O.FactsFile = Dir.write("m.toml", "[python]\nversion = \"3.12.3\"\n");
  O.Overrides = {"python=3.11.2"};
  auto M2 = gatherFacts(O);
  ASSERT_TRUE(bool(M2)) << llvm::toString(M2.takeError());
  EXPECT_EQ(M2->F.Python->Ver.str(), "3.11.2");
}

TEST_F(MachineFactsTest, BadInputIsAnError) {
  GatherOptions O = options();
  O.FactsFile = Dir.write("bad.toml", "[torch\nversion = 1\n");
  auto M = gatherFacts(O);
  ASSERT_FALSE(bool(M));
  EXPECT_TRUE(M.errorIsA<DiagnosticError>());
  llvm::consumeError(M.takeError());

  O.FactsFile = Dir.path("does-not-exist.toml");
  auto M2 = gatherFacts(O);
  ASSERT_FALSE(bool(M2));
  llvm::consumeError(M2.takeError());

  GatherOptions O3 = options();
  O3.Overrides = {"torch.cdua=12.4"};
  auto M3 = gatherFacts(O3);
  ASSERT_FALSE(bool(M3));
  EXPECT_THAT(llvm::toString(M3.takeError()), HasSubstr("torch.cdua"));
}

TEST_F(MachineFactsTest, ExternalPluginsJoinAndFailuresAreReported) {
  GatherOptions O = options();
  O.PluginPaths = {testPlugin("good"), testPlugin("wrong_abi")};
  Env.set("CUDADEPS_PLUGIN_PATH", testPlugin("no_entry"));
  auto M = gatherFacts(O);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->Reports.size(), 3u);
  EXPECT_EQ(M->Reports[2].Name, "test-good");
  EXPECT_EQ(M->Reports[2].Origin, testPlugin("good"));
  EXPECT_EQ(M->F.Nvccs.size(), 2u); // the fake built-in's and the plugin's
  EXPECT_EQ(M->F.Packages.count("test-good-pkg"), 1u);
  ASSERT_EQ(M->PluginFailures.size(), 2u);
  EXPECT_EQ(M->PluginFailures[0].What, PluginLoadError::Kind::WrongAbiVersion);
  EXPECT_EQ(M->PluginFailures[1].What, PluginLoadError::Kind::NoEntrySymbol);
}

TEST_F(MachineFactsTest, ProbeCacheIsUsedUnlessRefreshed) {
  GatherOptions O = options();
  O.CacheDir = Dir.path("cache");
  // The fake nvcc declares no inputs, so it is never cached; the plugin is.
  O.PluginPaths = {testPlugin("good")};
  auto M1 = gatherFacts(O);
  ASSERT_TRUE(bool(M1)) << llvm::toString(M1.takeError());
  auto M2 = gatherFacts(O);
  ASSERT_TRUE(bool(M2)) << llvm::toString(M2.takeError());
  EXPECT_FALSE(M1->Reports[2].FromCache);
  EXPECT_TRUE(M2->Reports[2].FromCache);
  EXPECT_EQ(M1->F, M2->F);
  O.Refresh = true;
  auto M3 = gatherFacts(O);
  ASSERT_TRUE(bool(M3)) << llvm::toString(M3.takeError());
  EXPECT_FALSE(M3->Reports[2].FromCache);
}

std::unique_ptr<Probe> createBuiltinNamedTestGood() {
  return std::make_unique<FakeProbe>(
      "test-good", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
        return ProbeAnswer::notPresent("built-in");
      });
}

TEST_F(MachineFactsTest, ExternalPluginReplacesBuiltinOfTheSameName) {
  const ProbeFactory Builtins[] = {createBuiltinNamedTestGood, createFakeNvcc};
  ProbeSet Alone = collectProbes(Builtins, PluginSearchPath{});
  ASSERT_EQ(Alone.Probes.size(), 2u);
  EXPECT_EQ(Alone.Probes[0]->origin(), "built-in");
  PluginSearchPath S;
  S.CommandLine = {testPlugin("good")};
  ProbeSet Set = collectProbes(Builtins, S);
  ASSERT_EQ(Set.Probes.size(), 2u);
  EXPECT_EQ(Set.Probes[0]->name(), "test-good");
  EXPECT_EQ(Set.Probes[0]->origin(), testPlugin("good"));
  EXPECT_EQ(Set.Probes[1]->name(), "nvcc");
}

Facts torchFacts(const char *Torch, const char *Cuda) {
  Facts F;
  TorchFacts T;
  T.Ver = llvm::cantFail(Version::parse(Torch));
  T.Cuda = llvm::cantFail(Version::parse(Cuda));
  T.Cxx11Abi = true;
  F.Torch = T;
  return F;
}

NvccFacts nvcc(const char *Path, const char *Ver) {
  NvccFacts N;
  N.Path = Path;
  N.Ver = llvm::cantFail(Version::parse(Ver));
  return N;
}

TEST(InconsistenciesTest, TorchCudaMajorDiffersFromEveryNvcc) {
  Facts F = torchFacts("2.11.0+cu128", "12.8");
  F.Nvccs = {nvcc("/usr/local/cuda-11.8/bin/nvcc", "11.8.89")};
  F.Compilers.push_back({});
  std::vector<std::string> I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 1u);
  EXPECT_THAT(I[0], HasSubstr("torch 2.11.0+cu128 was built for CUDA 12.8 but "
                              "no nvcc 12.x was found"));
  EXPECT_THAT(I[0], HasSubstr("11.8.89 at /usr/local/cuda-11.8/bin/nvcc"));
  F.Nvccs.push_back(nvcc("/usr/local/cuda-12.4/bin/nvcc", "12.4.131"));
  EXPECT_TRUE(findInconsistencies(F).empty());
}

TEST(InconsistenciesTest, TorchCudaWithoutAnyNvcc) {
  Facts F = torchFacts("2.11.0+cu128", "12.8");
  std::vector<std::string> I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 1u);
  EXPECT_THAT(I[0], HasSubstr("no nvcc was found"));
}

TEST(InconsistenciesTest, DriverOlderThanToolkitOrTorch) {
  Facts F = torchFacts("2.11.0+cu128", "12.8");
  F.Nvccs = {nvcc("/usr/local/cuda-12.8/bin/nvcc", "12.8.93")};
  F.Compilers.push_back({});
  DriverFacts D;
  D.Cuda = llvm::cantFail(Version::parse("11.4"));
  F.Driver = D;
  std::vector<std::string> I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_THAT(I[0], HasSubstr("the driver supports CUDA up to 11.4, older than "
                              "the CUDA 12.8 torch"));
  EXPECT_THAT(I[1], HasSubstr("older than nvcc 12.8.93"));
  F.Driver->Cuda = llvm::cantFail(Version::parse("12.8"));
  EXPECT_TRUE(findInconsistencies(F).empty());
}

TEST(InconsistenciesTest, UnknownAbiAndUnknownCuda) {
  Facts F = torchFacts("2.11.0", "12.8");
  F.Nvccs = {nvcc("/usr/local/cuda-12.8/bin/nvcc", "12.8.93")};
  F.Compilers.push_back({});
  F.Torch->Cxx11Abi.reset();
  std::vector<std::string> I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 1u);
  EXPECT_THAT(I[0], HasSubstr("the C++ ABI (_GLIBCXX_USE_CXX11_ABI) of torch "
                              "2.11.0 is unknown"));
  F.Torch->Cuda.reset();
  F.Torch->CudaUnknown = true;
  I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_THAT(I[0], HasSubstr("torch 2.11.0 names no CUDA version"));
}

TEST(InconsistenciesTest, NvccWithoutHostCompilerAndUnsupportedGpu) {
  Facts F;
  NvccFacts N = nvcc("/usr/local/cuda-11.8/bin/nvcc", "11.8.89");
  N.Archs = {"sm_80", "sm_90"};
  F.Nvccs = {N};
  GpuFacts G;
  G.Name = "NVIDIA B200";
  G.ComputeCapability = llvm::cantFail(Version::parse("10.0"));
  F.Gpus = {G, G};
  std::vector<std::string> I = findInconsistencies(F);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_THAT(I[0], HasSubstr("no host C++ compiler"));
  EXPECT_THAT(I[1], HasSubstr("NVIDIA B200 (sm_100)"));
}

} // namespace
