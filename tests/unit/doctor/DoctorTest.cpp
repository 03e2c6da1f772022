#include "core/doctor/Doctor.h"
#include "core/doctor/InstalledDistribution.h"

#include "plugins/cuda-runtime/CudaRuntimeProbe.h"
#include "tests/support/SharedObjects.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

Version ver(llvm::StringRef S) {
  llvm::Expected<Version> V = Version::parse(S);
  EXPECT_TRUE(bool(V));
  return V ? *V : Version();
}

DoctorRequest requestFor(std::vector<std::string> Archs,
                         std::string Origin = "GPUs found") {
  DoctorRequest R;
  R.Packages.push_back({"ext-pkg", nullptr, std::nullopt});
  R.TargetArchs = std::move(Archs);
  R.TargetOrigin = std::move(Origin);
  return R;
}

const DoctorCheck *findCheck(const PackageDiagnosis &P, CheckKind K) {
  for (const DoctorCheck &C : P.Checks)
    if (C.Kind == K)
      return &C;
  return nullptr;
}

std::string describe(const PackageDiagnosis &P) {
  std::string S = std::string(verdictName(P.Result)) + "\n";
  for (const DoctorCheck &C : P.Checks)
    S += std::string(checkKindName(C.Kind)) + " " +
         std::string(checkStatusName(C.Status)) + ": " + C.Message + "\n";
  return S;
}

TEST(DoctorTest, OkWhenTheExtensionMatchesTorchAndTheGpu) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}})), "");
  DoctorReport R = diagnose(requestFor({"sm_90"}), S.F);
  ASSERT_EQ(R.Packages.size(), 1u);
  const PackageDiagnosis &P = R.Packages[0];
  EXPECT_EQ(P.Result, Verdict::Ok) << describe(P);
  EXPECT_TRUE(R.allOk());
  EXPECT_EQ(P.DistInfo, S.DistInfo);
  ASSERT_EQ(P.Objects.size(), 1u);
  EXPECT_EQ(P.Objects[0].TorchSymbols, 1u);
  EXPECT_EQ(P.Objects[0].CudartMajor, 12u);
  EXPECT_EQ(P.Objects[0].Cubins, std::vector<std::string>{"sm_90"});
  const DoctorCheck *Sym = findCheck(P, CheckKind::Symbols);
  ASSERT_TRUE(Sym);
  EXPECT_EQ(Sym->Status, CheckStatus::Ok) << Sym->Message;
  const DoctorCheck *Cuda = findCheck(P, CheckKind::Cuda);
  ASSERT_TRUE(Cuda);
  EXPECT_EQ(Cuda->Message, "_C.so links libcudart.so.12; torch 2.11.0+cu128 "
                           "uses CUDA 12.8");
  EXPECT_EQ(R.TorchLibDir, S.Site + "/torch/lib");
}

TEST(DoctorTest, AMissingTorchSymbolIsPredictedWithItsDemangledName) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}})), "");
  ASSERT_EQ(S.replaceLibc10(StubWithoutSymbol), "");
  DoctorReport R = diagnose(requestFor({"sm_90"}), S.F);
  const PackageDiagnosis &P = R.Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
  const DoctorCheck *Sym = findCheck(P, CheckKind::Symbols);
  ASSERT_TRUE(Sym);
  EXPECT_EQ(Sym->Status, CheckStatus::Problem);
  EXPECT_NE(Sym->Message.find("import will fail: _C.so: undefined symbol: "
                              "_ZN3c1011stubVersionEv (c10::stubVersion())"),
            std::string::npos)
      << Sym->Message;
  ASSERT_EQ(P.Objects[0].Missing.size(), 1u);
  EXPECT_EQ(P.Objects[0].Missing[0].Demangled, "c10::stubVersion()");
  EXPECT_FALSE(R.allOk());
}

TEST(DoctorTest, ALocalVersionTagForAnotherTorchIsStale) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0+cu12torch2.6cxx11abiTRUE.dist-info",
                    fatbinBytes({{false, 90}})),
            "");
  DoctorReport R = diagnose(requestFor({"sm_90"}), S.F);
  const PackageDiagnosis &P = R.Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
  const DoctorCheck *Tag = findCheck(P, CheckKind::TorchBuild);
  ASSERT_TRUE(Tag);
  EXPECT_EQ(Tag->Status, CheckStatus::Problem);
  EXPECT_EQ(Tag->Message,
            "built for torch 2.6, CUDA 12, the C++11 ABI (its version "
            "1.0+cu12torch2.6cxx11abitrue), but torch 2.11.0+cu128 is "
            "installed");
  EXPECT_EQ(P.InstallCommand, "cudadeps install ext-pkg");
}

TEST(DoctorTest, ALocalVersionTagForThisTorchIsOk) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0+cu12torch2.11cxx11abiTRUE.dist-info",
                    fatbinBytes({{false, 90}})),
            "");
  DoctorReport R = diagnose(requestFor({"sm_90"}), S.F);
  const PackageDiagnosis &P = R.Packages[0];
  EXPECT_EQ(P.Result, Verdict::Ok) << describe(P);
  const DoctorCheck *Tag = findCheck(P, CheckKind::TorchBuild);
  ASSERT_TRUE(Tag);
  EXPECT_EQ(Tag->Status, CheckStatus::Ok);
}

TEST(DoctorTest, TorchRequirementInMetadata) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}})), "");
  ASSERT_TRUE(
      writeFile(S.DistInfo + "/METADATA",
                "Name: ext-pkg\nVersion: 1.0\nRequires-Dist: torch "
                "(==2.6.0)\nRequires-Dist: torch>=3; extra == 'x'\n\n"));
  const PackageDiagnosis P = diagnose(requestFor({"sm_90"}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
  const DoctorCheck *Tag = findCheck(P, CheckKind::TorchBuild);
  ASSERT_TRUE(Tag);
  EXPECT_EQ(Tag->Message, "its metadata requires torch==2.6.0, but torch "
                          "2.11.0+cu128 is installed");
}

TEST(DoctorTest, ACudaMajorOtherThanTorchsIsStale) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}}),
                    "2.9.0+cu130", "13.0"),
            "");
  const PackageDiagnosis P = diagnose(requestFor({"sm_90"}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
  const DoctorCheck *Cuda = findCheck(P, CheckKind::Cuda);
  ASSERT_TRUE(Cuda);
  EXPECT_EQ(Cuda->Status, CheckStatus::Problem);
  EXPECT_NE(Cuda->Message.find("links libcudart.so.12, but torch 2.9.0+cu130 "
                               "uses CUDA 13.0"),
            std::string::npos)
      << Cuda->Message;
}

TEST(DoctorTest, KernelsForOtherGpusAreWrongArchs) {
  FakeSitePackages S;
  ASSERT_EQ(
      S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 80}, {false, 90}})),
      "");
  const PackageDiagnosis P = diagnose(requestFor({"sm_120"}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::WrongArchs) << describe(P);
  const DoctorCheck *A = findCheck(P, CheckKind::Archs);
  ASSERT_TRUE(A);
  EXPECT_NE(A->Message.find("_C.so: compiled for sm_80, sm_90; this machine "
                            "has sm_120 → the kernels will not load"),
            std::string::npos)
      << A->Message;
  const PackageDiagnosis Q =
      diagnose(requestFor({"sm_120"}, "--arch"), S.F).Packages[0];
  EXPECT_NE(findCheck(Q, CheckKind::Archs)
                ->Message.find("the target is sm_120 (--arch)"),
            std::string::npos);
  // sm_80 code runs on an 8.6 GPU.
  EXPECT_EQ(diagnose(requestFor({"sm_86"}), S.F).Packages[0].Result,
            Verdict::Ok);
}

TEST(DoctorTest, PtxForALowerArchJitCompilesWithAWarning) {
  FakeSitePackages S;
  ASSERT_EQ(
      S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}, {true, 90}})),
      "");
  const PackageDiagnosis P = diagnose(requestFor({"sm_120"}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Ok) << describe(P);
  const DoctorCheck *A = findCheck(P, CheckKind::Archs);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Status, CheckStatus::Warning);
  EXPECT_NE(A->Message.find("compiled for sm_90 + PTX compute_90; no sm_120 "
                            "code: the driver JIT-compiles the PTX for "
                            "compute_90 at first launch"),
            std::string::npos)
      << A->Message;
  EXPECT_NE(A->Message.find("PTX ISA 9.0"), std::string::npos);
}

TEST(DoctorTest, NoTargetsMeansArchsAreNotChecked) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", fatbinBytes({{false, 90}})), "");
  const PackageDiagnosis P = diagnose(requestFor({}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Ok);
  const DoctorCheck *A = findCheck(P, CheckKind::Archs);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Status, CheckStatus::Unknown);
  EXPECT_NE(A->Message.find("not checked"), std::string::npos);
}

TEST(DoctorTest, AMissingPackageSaysWhatItCostsAndHowToInstallIt) {
  Package Pkg;
  Pkg.Name = "causal-conv1d";
  Pkg.Fallbacks.push_back({"torch-conv",
                           "GatedDeltaNet layers run the PyTorch fallback",
                           "slower short convolution",
                           {},
                           {},
                           {}});
  DoctorRequest R;
  R.Packages.push_back({"causal-conv1d", &Pkg, std::nullopt});
  Facts F;
  DoctorReport Rep = diagnose(R, F);
  const PackageDiagnosis &P = Rep.Packages[0];
  EXPECT_EQ(P.Result, Verdict::Missing);
  EXPECT_EQ(P.InstallCommand, "cudadeps install causal-conv1d");
  ASSERT_EQ(P.Fallbacks.size(), 1u);
  EXPECT_EQ(P.Fallbacks[0].Summary,
            "GatedDeltaNet layers run the PyTorch fallback");
  EXPECT_FALSE(Rep.allOk());
}

TEST(DoctorTest, ADamagedSharedObjectIsStale) {
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", ""), "");
  ASSERT_TRUE(writeFile(S.Site + "/ext_pkg/_C.so", "\x7f"
                                                   "ELF truncated"));
  const PackageDiagnosis P = diagnose(requestFor({}), S.F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
}

TEST(DoctorTest, DeclaredPackagesAreNotInspected) {
  Facts F;
  F.Packages["ext-pkg"] = PackageFact{ver("1.0"), Source::declared("f.toml")};
  DoctorRequest R = requestFor({"sm_90"});
  Requirement Want;
  Want.Key = "ext-pkg";
  Want.Text = ">=2";
  Want.Range = *VersionSet::parse(">=2");
  R.Packages[0].Wanted = Want;
  const PackageDiagnosis P = diagnose(R, F).Packages[0];
  EXPECT_EQ(P.Result, Verdict::Stale) << describe(P);
  const DoctorCheck *V = findCheck(P, CheckKind::Version);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "1.0 does not satisfy the requirement ext-pkg>=2");
  EXPECT_NE(findCheck(P, CheckKind::Installed)->Message.find("not inspected"),
            std::string::npos);
}

TEST(BuildTagTest, LocalLabels) {
  BuildTag T = parseBuildTag("cu12torch2.6cxx11abiFALSE");
  EXPECT_EQ(T.Torch, ver("2.6"));
  EXPECT_EQ(T.CudaMajor, 12u);
  EXPECT_FALSE(T.Cuda);
  EXPECT_EQ(T.Cxx11Abi, false);
  BuildTag V = parseBuildTag("pt26cu124");
  EXPECT_EQ(V.Torch, ver("2.6"));
  EXPECT_EQ(V.Cuda, ver("12.4"));
  EXPECT_EQ(parseBuildTag("cu118").CudaMajor, 11u);
  EXPECT_TRUE(parseBuildTag("local1").empty());
  EXPECT_EQ(wheelLocalLabel("https://x/causal_conv1d-1.6.1%2Bcu12torch2.9"
                            "cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"),
            "cu12torch2.9cxx11abiTRUE");
  EXPECT_EQ(wheelLocalLabel("flash_attn-2.8.3-cp312-cp312-linux_x86_64.whl"),
            "");
}

// The real nvcc builds the extension against a stub libc10.so; torch's
// libc10.so with and without the symbol decides ok or stale.
TEST(DoctorTest, RealNvccExtensionAgainstStubTorch) {
  if (realNvcc().empty())
    GTEST_SKIP() << "no nvcc at /usr/local/cuda/bin/nvcc";
  FakeSitePackages S;
  ASSERT_EQ(S.build("ext_pkg-1.0.dist-info", "", "2.9.0+cu130", "13.0"), "");
  ASSERT_EQ(buildCudaExtension(S.Dir, S.Site + "/ext_pkg/_C.so",
                               S.Site + "/torch/lib",
                               {"-gencode", "arch=compute_90,code=sm_90"},
                               /*SharedCudart=*/true),
            "");
  DoctorReport Good = diagnose(requestFor({"sm_90"}), S.F);
  EXPECT_EQ(Good.Packages[0].Result, Verdict::Ok) << describe(Good.Packages[0]);
  ASSERT_EQ(Good.Packages[0].Objects.size(), 1u);
  EXPECT_EQ(Good.Packages[0].Objects[0].Cubins,
            std::vector<std::string>{"sm_90"});
  EXPECT_EQ(Good.Packages[0].Objects[0].CudartMajor, 13u);
  EXPECT_EQ(diagnose(requestFor({"sm_120"}), S.F).Packages[0].Result,
            Verdict::WrongArchs);
  ASSERT_EQ(S.replaceLibc10(StubWithoutSymbol), "");
  DoctorReport Bad = diagnose(requestFor({"sm_90"}), S.F);
  EXPECT_EQ(Bad.Packages[0].Result, Verdict::Stale)
      << describe(Bad.Packages[0]);
  EXPECT_NE(describe(Bad.Packages[0]).find("c10::stubVersion()"),
            std::string::npos);
}

// Where a real torch is installed, its extensions are checked against it.
TEST(DoctorTest, RealTorchInstall) {
  RealEnvironment Env;
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(10000), ""};
  llvm::Expected<ProbeAnswer> A = createCudaRuntimeProbe()->probe(Ctx);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  if (!A->Found.Torch)
    GTEST_SKIP() << "no torch installed in the Python environment here";
  DoctorRequest R;
  for (const auto &[Name, Fact] : A->Found.Packages)
    if (Name != "torch")
      R.Packages.push_back({Name, nullptr, std::nullopt});
  DoctorReport Rep = diagnose(R, A->Found);
  unsigned NeedTorch = 0;
  for (const PackageDiagnosis &P : Rep.Packages) {
    EXPECT_NE(P.Result, Verdict::Missing) << P.Name;
    for (const InspectedObject &O : P.Objects) {
      EXPECT_EQ(O.Error, "") << O.Path;
      NeedTorch += O.TorchSymbols != 0;
    }
  }
  if (NeedTorch) {
    EXPECT_FALSE(Rep.TorchLibDir.empty());
  }
  std::cout << "[ note ] checked " << Rep.Packages.size()
            << " installed packages, " << NeedTorch
            << " shared objects that need torch\n";
}

} // namespace
