//===- OverridesTest.cpp - --set KEY=VALUE and CUDADEPS_FACTS -------------===//

#include "FactsTestUtil.h"

#include "core/facts/FactsFile.h"
#include "core/facts/Overrides.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace cudadeps;
using namespace cudadeps::testing;
using namespace llvm;

namespace {

class OverridesTest : public ::testing::Test {
protected:
  /// Applies "--set KV" to F and expects success.
  void set(StringRef KV) {
    Error E = applyOverride(F, KV, Source::overridden(("--set " + KV).str()));
    ASSERT_FALSE(bool(E)) << toString(std::move(E));
  }
  /// Applies "--set KV" and returns its diagnostics, expecting failure and
  /// no change to the facts.
  std::vector<Diagnostic> refuse(StringRef KV) {
    Facts Before = F;
    auto D = diagnosticsOf(
        applyOverride(F, KV, Source::overridden(("--set " + KV).str())));
    EXPECT_EQ(F, Before) << "a refused override changed the facts";
    EXPECT_EQ(D.size(), 1u);
    if (!D.empty())
      EXPECT_EQ(D[0].Loc.File, ("--set " + KV).str());
    else
      D.emplace_back(); // keep D[0] valid for the caller's checks
    return D;
  }
  static Source by(StringRef KV) {
    return Source::overridden(("--set " + KV).str());
  }

  Facts F = richFacts();
};

} // namespace

TEST_F(OverridesTest, Driver) {
  set("driver.version=575.51.03");
  EXPECT_EQ(*F.Driver->KernelVersion, ver("575.51.03"));
  EXPECT_EQ(F.Driver->KernelSource, by("driver.version=575.51.03"));
  set("driver.cuda=12.4");
  EXPECT_EQ(*F.Driver->Cuda, ver("12.4"));
  EXPECT_EQ(F.Driver->CudaSource, by("driver.cuda=12.4"));
  set("driver.cuda=");
  EXPECT_FALSE(F.Driver->Cuda);
  set("driver=");
  EXPECT_FALSE(F.Driver);
  set("driver.cuda=13.0"); // creates a driver
  ASSERT_TRUE(F.Driver);
  EXPECT_EQ(*F.Driver->Cuda, ver("13.0"));
  EXPECT_FALSE(F.Driver->KernelVersion);
  auto D = refuse("driver=570");
  EXPECT_EQ(D[0].Message,
            "'driver' takes only an empty value (no NVIDIA driver)");
  D = refuse("driver.version=five");
  EXPECT_TRUE(StringRef(D[0].Message)
                  .startswith("invalid version 'five' for 'driver.version'"))
      << D[0].Message;
}

TEST_F(OverridesTest, Gpu) {
  set("gpu=9.0,8.6");
  ASSERT_EQ(F.Gpus.size(), 2u);
  EXPECT_EQ(F.Gpus[0].smArch(), "sm_90");
  EXPECT_EQ(F.Gpus[1].smArch(), "sm_86");
  EXPECT_EQ(F.Gpus[1].From, by("gpu=9.0,8.6"));
  set("gpu=12.0");
  ASSERT_EQ(F.Gpus.size(), 1u);
  EXPECT_EQ(F.Gpus[0].smArch(), "sm_120");
  set("gpu=");
  EXPECT_TRUE(F.Gpus.empty());
  auto D = refuse("gpu=9.0,sm_90");
  EXPECT_TRUE(StringRef(D[0].Message)
                  .startswith("invalid value for 'gpu': invalid compute "
                              "capability 'sm_90'"))
      << D[0].Message;
}

TEST_F(OverridesTest, Nvcc) {
  set("nvcc=12.4");
  ASSERT_EQ(F.Nvccs.size(), 1u);
  EXPECT_EQ(F.Nvccs[0].Ver, ver("12.4"));
  EXPECT_EQ(F.Nvccs[0].Path, "(overridden)");
  EXPECT_EQ(F.Nvccs[0].From, by("nvcc=12.4"));
  set("nvcc.path=/opt/cuda-12.4/bin/nvcc");
  EXPECT_EQ(F.Nvccs[0].Path, "/opt/cuda-12.4/bin/nvcc");
  set("nvcc.max_gcc=13");
  EXPECT_EQ(F.Nvccs[0].MaxGcc, 13u);
  set("nvcc.max_clang=17");
  EXPECT_EQ(F.Nvccs[0].MaxClang, 17u);
  set("nvcc.max_clang=");
  EXPECT_FALSE(F.Nvccs[0].MaxClang);
  set("nvcc.archs=sm_80, sm_90a");
  EXPECT_EQ(F.Nvccs[0].Archs, (std::vector<std::string>{"sm_80", "sm_90a"}));
  EXPECT_TRUE(StringRef(refuse("nvcc.archs=sm80")[0].Message)
                  .startswith("invalid value for 'nvcc.archs': invalid "
                              "architecture 'sm80'"));
  EXPECT_EQ(refuse("nvcc.max_gcc=-1")[0].Message,
            "'nvcc.max_gcc' must be a major version between 1 and 999, found "
            "-1");
  EXPECT_EQ(refuse("nvcc.max_gcc=13.2")[0].Message,
            "invalid value '13.2' for 'nvcc.max_gcc': expected a whole number");
  EXPECT_EQ(refuse("nvcc.max_gcc=5000")[0].Message,
            "'nvcc.max_gcc' must be a major version between 1 and 999, found "
            "5000");
  set("nvcc=");
  EXPECT_TRUE(F.Nvccs.empty());
  auto D = refuse("nvcc.path=/x");
  EXPECT_EQ(D[0].Message, "'nvcc.path' needs a CUDA toolkit and there is none");
  EXPECT_EQ(D[0].Hint, "set nvcc=VERSION first");
}

TEST_F(OverridesTest, NvccPathIsAmbiguousWithSeveralToolkits) {
  ASSERT_EQ(F.Nvccs.size(), 2u);
  auto D = refuse("nvcc.path=/x");
  EXPECT_EQ(D[0].Message, "'nvcc.path' is ambiguous: there are 2 toolkits");
}

TEST_F(OverridesTest, Compilers) {
  set("gcc=12.2.0");
  unsigned Gccs = 0;
  for (const CompilerFacts &C : F.Compilers) {
    if (C.Family == "gcc") {
      ++Gccs;
      EXPECT_EQ(C.Ver, ver("12.2.0"));
      EXPECT_EQ(C.From, by("gcc=12.2.0"));
    }
  }
  EXPECT_EQ(Gccs, 1u);
  EXPECT_EQ(F.Compilers.size(), 2u); // clang kept
  set("gcc.path=/usr/bin/g++-12");
  set("clang=");
  ASSERT_EQ(F.Compilers.size(), 1u);
  EXPECT_EQ(F.Compilers[0].Path, "/usr/bin/g++-12");
  set("clang=18.1");
  ASSERT_EQ(F.Compilers.size(), 2u);
  EXPECT_EQ(F.Compilers[1].Family, "clang");
  set("clang.path=/usr/bin/clang++-18");
  EXPECT_EQ(F.Compilers[1].Path, "/usr/bin/clang++-18");
  set("gcc=");
  set("clang=");
  EXPECT_TRUE(F.Compilers.empty());
  EXPECT_EQ(refuse("gcc.path=/x")[0].Message,
            "'gcc.path' needs exactly one gcc compiler, there are 0");
}

TEST_F(OverridesTest, Python) {
  set("python=3.11");
  EXPECT_EQ(F.Python->tag(), "cp311");
  EXPECT_EQ(F.Python->Path, richFacts().Python->Path); // kept
  set("python.path=/opt/py/bin/python");
  EXPECT_EQ(F.Python->Path, "/opt/py/bin/python");
  set("python=");
  EXPECT_FALSE(F.Python);
  EXPECT_EQ(refuse("python.path=/x")[0].Message,
            "'python.path' needs a Python and there is none");
  set("python=3.13.1");
  EXPECT_EQ(F.Python->Path, "(overridden)");
}

TEST_F(OverridesTest, Torch) {
  set("torch.cuda=12.4");
  EXPECT_EQ(*F.Torch->Cuda, ver("12.4"));
  EXPECT_EQ(F.Torch->From, by("torch.cuda=12.4"));
  set("torch.cuda=");
  EXPECT_FALSE(F.Torch->Cuda);
  set("torch.cxx11_abi=false");
  EXPECT_EQ(F.Torch->Cxx11Abi, false);
  set("torch.cxx11_abi=TRUE");
  EXPECT_EQ(F.Torch->Cxx11Abi, true);
  set("torch.cxx11_abi=");
  EXPECT_FALSE(F.Torch->Cxx11Abi);
  EXPECT_EQ(refuse("torch.cxx11_abi=maybe")[0].Message,
            "invalid value 'maybe' for 'torch.cxx11_abi': expected true or "
            "false");
  // A local label +cuXYZ carries torch.cuda along; +cpu clears it.
  set("torch=2.6.0+cu124");
  EXPECT_EQ(F.Torch->Ver, ver("2.6.0+cu124"));
  EXPECT_EQ(*F.Torch->Cuda, ver("12.4"));
  set("torch=2.7.0+cpu");
  EXPECT_FALSE(F.Torch->Cuda);
  set("torch.cuda=11.8");
  set("torch=2.7.1"); // no label: torch.cuda kept
  EXPECT_EQ(*F.Torch->Cuda, ver("11.8"));
  set("torch=2.11.0+cu130");
  EXPECT_EQ(*F.Torch->Cuda, ver("13.0"));
  set("torch=");
  EXPECT_FALSE(F.Torch);
  EXPECT_EQ(refuse("torch.cuda=12.8")[0].Message,
            "'torch.cuda' needs torch and there is none");
}

TEST_F(OverridesTest, Platform) {
  set("platform.cpus=8");
  EXPECT_EQ(F.Platform->Cpus, 8u);
  set("platform.memory_gib=31.5");
  EXPECT_EQ(F.Platform->MemoryGib, 31.5);
  set("platform.arch=aarch64");
  EXPECT_EQ(F.Platform->tag(), "linux_aarch64");
  set("platform.os=linux");
  set("platform.glibc=2.28");
  EXPECT_EQ(*F.Platform->Glibc, ver("2.28"));
  EXPECT_EQ(F.Platform->From, by("platform.glibc=2.28"));
  set("platform.cpus=");
  EXPECT_FALSE(F.Platform->Cpus);
  EXPECT_EQ(refuse("platform.cpus=0")[0].Message,
            "'cpus' must be between 1 and 1048576, found 0");
  EXPECT_TRUE(StringRef(refuse("platform.memory_gib=lots")[0].Message)
                  .contains("expected a number"));
  EXPECT_TRUE(StringRef(refuse("platform.memory_gib=-1")[0].Message)
                  .contains("must be more than 0"));
  set("platform=");
  EXPECT_FALSE(F.Platform);
  set("platform.cpus=2"); // creates the platform
  EXPECT_EQ(F.Platform->Cpus, 2u);
}

TEST_F(OverridesTest, Packages) {
  set("packages.einops=0.8.1");
  EXPECT_EQ(F.Packages.at("einops").Ver, ver("0.8.1"));
  EXPECT_EQ(F.Packages.at("einops").From, by("packages.einops=0.8.1"));
  set("packages.flash-linear-attention=0.4.0");
  EXPECT_EQ(F.Packages.at("flash-linear-attention").Ver, ver("0.4.0"));
  set("triton=3.6.0"); // triton is a fact of its own
  EXPECT_EQ(F.Packages.at("triton").Ver, ver("3.6.0"));
  set("triton=");
  EXPECT_FALSE(F.Packages.count("triton"));
  set("packages.zope.interface=");
  EXPECT_FALSE(F.Packages.count("zope.interface"));
  EXPECT_TRUE(StringRef(refuse("packages.einops=latest")[0].Message)
                  .startswith("invalid version 'latest' for 'einops'"));
}

TEST_F(OverridesTest, UnknownKeysSuggestTheNearest) {
  auto D = refuse("torhc=2.6");
  EXPECT_EQ(D[0].Message, "unknown key 'torhc'");
  EXPECT_TRUE(StringRef(D[0].Hint).startswith("did you mean 'torch'?"))
      << D[0].Hint;
  EXPECT_TRUE(StringRef(D[0].Hint).contains("packages.torhc=2.6"));
  D = refuse("torch.cdua=12.4");
  EXPECT_EQ(D[0].Message, "unknown key 'torch.cdua'");
  EXPECT_EQ(D[0].Hint, "did you mean 'torch.cuda'?");
  D = refuse("platform.memory=12");
  EXPECT_EQ(D[0].Hint, "did you mean 'platform.memory_gib'?");
  D = refuse("tortch=2.6");
  EXPECT_TRUE(StringRef(D[0].Hint).startswith("did you mean 'torch'?"));
  D = refuse("nvc=12.8");
  EXPECT_TRUE(StringRef(D[0].Hint).startswith("did you mean 'nvcc'?"));
  D = refuse("driver.cuda.major=12");
  EXPECT_EQ(D[0].Message, "unknown key 'driver.cuda.major'");
  D = refuse("bad key!=1");
  EXPECT_EQ(D[0].Message, "invalid key 'bad key!'");
  D = refuse("torch.cuda");
  EXPECT_EQ(D[0].Message, "expected KEY=VALUE, found 'torch.cuda'");
  D = refuse("=12.8");
  EXPECT_EQ(D[0].Message, "missing key before '='");
}

TEST_F(OverridesTest, BareUnknownNamesAreErrors) {
  // A bare name that is no key is a typo, not a package of that name.
  auto D = refuse("tirton=3.6.0");
  EXPECT_EQ(D[0].Message, "unknown key 'tirton'");
  EXPECT_TRUE(StringRef(D[0].Hint).startswith("did you mean 'triton'?"))
      << D[0].Hint;
  EXPECT_TRUE(StringRef(D[0].Hint).contains("packages.tirton=3.6.0"));
  D = refuse("foo=1");
  EXPECT_EQ(D[0].Message, "unknown key 'foo'");
  EXPECT_EQ(D[0].Hint,
            "(for a Python distribution named 'foo', write packages.foo=1)");
  EXPECT_FALSE(F.Packages.count("foo"));
  // The installed distributions are suggested by their explicit key.
  set("packages.transformers=5.2.0");
  D = refuse("transformer=5.3");
  EXPECT_TRUE(
      StringRef(D[0].Hint).startswith("did you mean 'packages.transformers'?"))
      << D[0].Hint;
  EXPECT_EQ(refuse("torchvision=0.26.0")[0].Message,
            "unknown key 'torchvision'");
}

TEST_F(OverridesTest, ValueMayContainEquals) {
  set("python.path=/opt/a=b/python3");
  EXPECT_EQ(F.Python->Path, "/opt/a=b/python3");
}

TEST_F(OverridesTest, EveryKeyIsKnownAndReachable) {
  // Each documented key is accepted with an empty value or a plain one.
  for (StringRef Key : overrideKeys()) {
    Facts G = richFacts();
    Error E = applyOverride(G, (Key + "=").str(), Source::overridden("t"));
    if (E) {
      // Only the path keys refuse an empty value.
      std::string Message = toString(std::move(E));
      EXPECT_TRUE(Key.endswith(".path")) << Key.str() << ": " << Message;
    }
  }
}

TEST_F(OverridesTest, ApplyOverridesReportsAllAndKeepsOrder) {
  Error E = applyOverrides(F, {"nvcc=12.6", "nvcc.path=/cuda/bin/nvcc"});
  ASSERT_FALSE(bool(E)) << toString(std::move(E));
  EXPECT_EQ(F.Nvccs[0].Path, "/cuda/bin/nvcc");
  EXPECT_EQ(F.Nvccs[0].From, by("nvcc.path=/cuda/bin/nvcc"));
  auto D =
      diagnosticsOf(applyOverrides(F, {"torhc=1", "python=3.12", "gpu=x"}));
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].Loc.File, "--set torhc=1");
  EXPECT_EQ(D[1].Loc.File, "--set gpu=x");
  EXPECT_EQ(F.Python->Ver, ver("3.12")); // the good one still applied
}

TEST_F(OverridesTest, OverridesSurviveJsonAndToml) {
  set("torch.cuda=12.4");
  Expected<Facts> Back = factsFromJson(factsToJson(F), "x");
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(Back->Torch->From.describe(),
            "overridden by --set torch.cuda=12.4");
  std::string Text = writeFactsToml(F);
  EXPECT_NE(Text.find("# overridden by --set torch.cuda=12.4\n[torch]"),
            std::string::npos)
      << Text;
}

//===----------------------------------------------------------------------===//
// CUDADEPS_FACTS and precedence
//===----------------------------------------------------------------------===//

namespace {

class FactsEnvTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("cudadeps-facts", Dir));
    Saved = getenv("CUDADEPS_FACTS")
                ? std::optional<std::string>(getenv("CUDADEPS_FACTS"))
                : std::nullopt;
  }
  void TearDown() override {
    if (Saved)
      setenv("CUDADEPS_FACTS", Saved->c_str(), 1);
    else
      unsetenv("CUDADEPS_FACTS");
    sys::fs::remove_directories(Dir);
  }
  std::string write(StringRef Name, StringRef Text) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }

  SmallString<256> Dir;
  std::optional<std::string> Saved;
};

} // namespace

TEST_F(FactsEnvTest, UnsetOrEmptyMeansProbe) {
  unsetenv("CUDADEPS_FACTS");
  Expected<std::optional<Facts>> F = loadFactsFromEnv();
  ASSERT_TRUE(bool(F));
  EXPECT_FALSE(*F);
  setenv("CUDADEPS_FACTS", "", 1);
  F = loadDeclaredFacts("");
  ASSERT_TRUE(bool(F));
  EXPECT_FALSE(*F);
}

TEST_F(FactsEnvTest, ReadsTheFileAndSaysSo) {
  std::string Path = write("env.toml", "[torch]\nversion = \"2.8.0\"\n");
  setenv("CUDADEPS_FACTS", Path.c_str(), 1);
  Expected<std::optional<Facts>> F = loadFactsFromEnv();
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  ASSERT_TRUE(*F);
  EXPECT_EQ((*F)->Torch->Ver, ver("2.8.0"));
  EXPECT_EQ((*F)->Torch->From.describe(),
            "declared in " + Path + ":1 via CUDADEPS_FACTS");
}

TEST_F(FactsEnvTest, ReadByNameOfAnyVariable) {
  std::string Path = write("f.toml", "[python]\nversion = \"3.10\"\n");
  Expected<Facts> F = readFactsFileNamedBy(Path, "MY_FACTS");
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ(F->Python->From.describe(),
            "declared in " + Path + ":1 via MY_FACTS");
}

TEST_F(FactsEnvTest, FactsOptionWinsOverEnvironment) {
  std::string EnvPath = write("env.toml", "[torch]\nversion = \"2.8.0\"\n");
  std::string OptPath = write("opt.toml", "[torch]\nversion = \"2.9.0\"\n");
  setenv("CUDADEPS_FACTS", EnvPath.c_str(), 1);
  Expected<std::optional<Facts>> F = loadDeclaredFacts(OptPath);
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ((*F)->Torch->Ver, ver("2.9.0"));
  EXPECT_EQ((*F)->Torch->From, Source::declared(OptPath, OptPath + ":1"));
  F = loadDeclaredFacts("");
  ASSERT_TRUE(bool(F));
  EXPECT_EQ((*F)->Torch->Ver, ver("2.8.0"));
}

TEST_F(FactsEnvTest, BadFileIsLocatedAndNamesTheVariable) {
  std::string Path = write("bad.toml", "[torch]\nversion = 2\n");
  setenv("CUDADEPS_FACTS", Path.c_str(), 1);
  auto D = diagnosticsOf(loadFactsFromEnv());
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(locationOf(D[0]), Path + ":2:11");
  EXPECT_EQ(D[1].Level, Severity::Note);
  EXPECT_EQ(D[1].Message, "the facts file was named by CUDADEPS_FACTS=" + Path);
  setenv("CUDADEPS_FACTS", (Path + ".missing").c_str(), 1);
  D = diagnosticsOf(loadFactsFromEnv());
  ASSERT_EQ(D.size(), 2u);
  EXPECT_TRUE(StringRef(D[0].Message).startswith("cannot read facts file"));
}
