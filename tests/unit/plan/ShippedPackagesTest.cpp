// The shipped package manifests (manifests/*.toml) resolved against the
// shipped knowledge base: the values read from each release's own files
// (archs per nvcc, checkout tags, prebuilt URLs and excludes, pure-Python
// dependencies, extras, fallbacks) and the schema that expresses them.
#include "core/facts/FactsFile.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"
#include "core/manifest/Registry.h"
#include "core/plan/FactProvider.h"
#include "core/plan/Resolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

struct Shipped {
  std::vector<Manifest> Ms;
  KnowledgeBase KB;
  std::vector<Manifest> Extra; // test-only packages
  std::string DerivationOf;    // ResolveRequest::DerivationOf

  Shipped() {
    auto R = loadRegistry({CUDADEPS_SOURCE_DIR "/manifests"});
    EXPECT_TRUE(bool(R)) << llvm::toString(R.takeError());
    if (R)
      Ms = std::move(*R);
    auto K = KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
    EXPECT_TRUE(bool(K)) << llvm::toString(K.takeError());
    if (K)
      KB = std::move(*K);
  }

  const Package *find(llvm::StringRef Name) const {
    for (const auto *List : {&Extra, &Ms})
      for (const Manifest &M : *List)
        if (M.Pkg && M.Pkg->canonicalName() == canonicalPackageName(Name))
          return &*M.Pkg;
    return nullptr;
  }
  const Release &release(llvm::StringRef Pkg, llvm::StringRef V) const {
    const Package *P = find(Pkg);
    EXPECT_NE(P, nullptr) << Pkg.str();
    const Release *R = P->findRelease(cantFail(Version::parse(V)));
    EXPECT_NE(R, nullptr) << Pkg.str() << " " << V.str();
    return *R;
  }
  PackageLookup lookup() const {
    return [this](llvm::StringRef N) { return find(N); };
  }
  Resolution resolveWith(const std::string &FactsText,
                         std::vector<std::pair<std::string, std::string>> Reqs,
                         std::vector<std::string> Targets = {"sm_80"}) {
    auto F = parseFactsToml(FactsText, "facts.toml");
    EXPECT_TRUE(bool(F)) << llvm::toString(F.takeError());
    Facts = std::move(*F);
    ResolveRequest Req;
    Req.TargetArchs = std::move(Targets);
    Req.DerivationOf = DerivationOf;
    for (auto &[Spec, Key] : Reqs) {
      (void)Spec;
      std::string Text = "schema = 1\n[project]\nname = \"t\"\nrequires = [\"" +
                         Spec + "\"]\n";
      auto M = parseManifest(Text, "p.toml");
      EXPECT_TRUE(bool(M)) << llvm::toString(M.takeError());
      for (auto &[K, R] : M->Proj->Requires)
        Req.Requires.emplace(K, R);
    }
    auto R = resolve(Req, lookup(), Facts, KB);
    EXPECT_TRUE(bool(R)) << llvm::toString(R.takeError());
    return std::move(*R);
  }
  struct Facts Facts;
};

std::vector<std::string> archsWith(Shipped &S, llvm::StringRef Pkg,
                                   llvm::StringRef Rel, llvm::StringRef Nvcc) {
  Facts F;
  ResolveRequest Req;
  PackageLookup L = S.lookup();
  FactProvider P(Req, L, F, S.KB, {});
  NvccFacts N;
  N.Ver = cantFail(Version::parse(Nvcc));
  return P.archsFor(S.release(Pkg, Rel), &N);
}

std::string facts(llvm::StringRef Torch, llvm::StringRef TorchCuda,
                  std::vector<std::string> Nvccs, bool Abi = true) {
  std::string T = "[[compiler]]\npath = \"/usr/bin/g++-11\"\nfamily = "
                  "\"gcc\"\nversion = \"11.4.0\"\n";
  for (const std::string &N : Nvccs)
    T += "[[nvcc]]\npath = \"/opt/cuda-" + N + "/bin/nvcc\"\nversion = \"" + N +
         "\"\n";
  T += "[torch]\nversion = \"" + Torch.str() + "\"\ncuda = \"" +
       TorchCuda.str() + "\"\ncxx11_abi = " + (Abi ? "true" : "false") + "\n";
  T += "[packages]\ntriton = \"3.5.1\"\ntransformers = \"5.7.0\"\n";
  T += "[python]\npath = \"/usr/bin/python3\"\nversion = \"3.12.3\"\n";
  T += "[platform]\nos = \"linux\"\narch = \"x86_64\"\ncpus = 8\nmemory_gib = "
       "64\n";
  return T;
}

const PackageResolution *find(const Resolution &R, llvm::StringRef Name) {
  for (const PackageResolution &P : R.Packages)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

// --- archs per nvcc, as setup.py passes them -------------------------------

TEST(ShippedPackages, CausalConv1dArchsFollowTheNvccThatBuildsIt) {
  Shipped S;
  // setup.py at v1.6.1.post4: sm_62/70/72 up to 12.9 (12.9.86 is "12.9"),
  // sm_90 from 11.8, sm_100/120 from 12.8, sm_103/110/121 from 13.0.
  EXPECT_THAT(archsWith(S, "causal-conv1d", "1.6.1", "12.9.86"),
              ElementsAre("sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_87",
                          "sm_90", "sm_100", "sm_120"));
  EXPECT_THAT(archsWith(S, "causal-conv1d", "1.6.1", "13.0.88"),
              ElementsAre("sm_75", "sm_80", "sm_87", "sm_90", "sm_100",
                          "sm_120", "sm_103", "sm_110", "sm_121"));
  EXPECT_THAT(archsWith(S, "causal-conv1d", "1.6.1", "11.8.89"),
              ElementsAre("sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_87",
                          "sm_90"));
  // 1.7.0 (sdist setup.py): no Pascal/Volta with any nvcc.
  EXPECT_THAT(archsWith(S, "causal-conv1d", "1.7.0", "12.4.131"),
              ElementsAre("sm_75", "sm_80", "sm_87", "sm_90"));
  // 1.5.2 passes sm_53..sm_72 always, sm_100 from 12.8, no sm_120.
  EXPECT_THAT(archsWith(S, "causal-conv1d", "1.5.2", "12.8.93"),
              ElementsAre("sm_53", "sm_62", "sm_70", "sm_72", "sm_80", "sm_87",
                          "sm_90", "sm_100"));
}

TEST(ShippedPackages, MambaAndFlashAttnArchsFollowTheNvcc) {
  Shipped S;
  EXPECT_THAT(archsWith(S, "mamba-ssm", "2.3.2.post1", "12.9.86"),
              ElementsAre("sm_75", "sm_80", "sm_87", "sm_90", "sm_100",
                          "sm_120"));
  EXPECT_THAT(archsWith(S, "mamba-ssm", "2.3.1", "12.9.86"),
              ElementsAre("sm_53", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
                          "sm_87", "sm_90", "sm_100", "sm_120"));
  EXPECT_THAT(archsWith(S, "flash-attn", "2.8.3.post2", "12.4.131"),
              ElementsAre("sm_80", "sm_90"));
  EXPECT_THAT(archsWith(S, "flash-attn", "2.6.3", "12.8.93"),
              ElementsAre("sm_80", "sm_90"));
}

TEST(ShippedPackages, EveryCompiledReleaseDeclaresItsArchs) {
  Shipped S;
  for (const Manifest &M : S.Ms) {
    if (!M.Pkg || M.Pkg->Kind == BuildKind::Python)
      continue;
    for (const Release &R : M.Pkg->Releases)
      EXPECT_FALSE(R.Archs.empty()) << M.Pkg->Name << " " << R.VersionText;
  }
}

// --- an arch passed with every nvcc needs an nvcc that compiles it ----------

TEST(ShippedPackages, AHardCodedArchKeepsNvcc13AwayFromCausalConv1d152) {
  Shipped S;
  // torch for CUDA 13 needs nvcc 13, which cannot compile sm_53..sm_72.
  Resolution R = S.resolveWith(facts("2.9.1+cu130", "13.0", {"13.0.88"}),
                               {{"causal-conv1d==1.5.2", ""}});
  const PackageResolution *P = find(R, "causal-conv1d");
  ASSERT_NE(P, nullptr);
  EXPECT_NE(P->How, Strategy::Source);
  std::string Why;
  for (const std::string &B : P->Because)
    Why += B + "\n";
  EXPECT_THAT(Why, HasSubstr("causal-conv1d 1.5.2 and 1.5.0.post8 pass sm_53, "
                             "sm_62, sm_70 and sm_72 to every nvcc, and nvcc "
                             "13.0.88 cannot compile them"));
  // 1.6.1 passes sm_62/70/72 only up to 12.9: nvcc 13 builds it.
  Resolution Ok = S.resolveWith(facts("2.9.1+cu130", "13.0", {"13.0.88"}),
                                {{"causal-conv1d==1.6.1", ""}});
  const PackageResolution *Q = find(Ok, "causal-conv1d");
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q->How, Strategy::Source);
}

TEST(ShippedPackages, AHardCodedArchPicksTheOlderNvcc) {
  Shipped S;
  auto M = parseManifest(R"(schema = 1
[package]
name = "old-ext"
git = "https://example.com/old-ext.git"
build = "cmake"
[[release]]
version = "1.0"
archs = [{ archs = ["sm_53", "sm_80"] }, { arch = "sm_90", nvcc = ">=11.8" }]
)",
                         "old-ext.toml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  S.Extra.push_back(std::move(*M));
  Resolution R = S.resolveWith(facts("2.9.1+cu129", "12.9",
                                     {"13.0.88", "12.9.86"}),
                               {{"old-ext", ""}});
  const PackageResolution *P = find(R, "old-ext");
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(P->How, Strategy::Source);
  ASSERT_TRUE(P->Nvcc);
  EXPECT_EQ(P->Nvcc->Ver.str(), "12.9.86");
  std::string NotChosen;
  for (const std::string &L : P->NotChosen)
    NotChosen += L + "\n";
  EXPECT_THAT(NotChosen, HasSubstr("nvcc 13.0.88 (/opt/cuda-13.0.88/bin/nvcc) "
                                   "not used: old-ext 1.0 passes sm_53 to every nvcc, and "
                                   "nvcc 13.0.88 cannot compile it"));
}

// --- tags, prebuilt URLs and excludes ----------------------------------------

/// The URL of the binary resolve installs for \p Req with \p FactsText, or
/// "" when it does not pick a prebuilt binary.
std::string prebuiltUrl(Shipped &S, const std::string &FactsText,
                        const std::string &Req, const char *Name) {
  Resolution R = S.resolveWith(FactsText, {{Req, ""}});
  const PackageResolution *P = find(R, Name);
  if (!P || P->How != Strategy::Prebuilt || !P->PrebuiltUrl)
    return "";
  return *P->PrebuiltUrl;
}

TEST(ShippedPackages, PostTagsCheckOutTheVersionTheyInstall) {
  Shipped S;
  const Package &Conv = *S.find("causal-conv1d");
  EXPECT_EQ(Conv.gitTagFor(S.release("causal-conv1d", "1.6.1")),
            "v1.6.1.post4");
  EXPECT_EQ(Conv.gitTagFor(S.release("causal-conv1d", "1.5.3.post1")),
            "v1.5.3.post2");
  EXPECT_EQ(Conv.gitTagFor(S.release("causal-conv1d", "1.7.0")), "v1.7.0");
  // The v2.3.2 tag installs 2.3.1: no mamba-ssm 2.3.2 exists.
  const Package &Mamba = *S.find("mamba-ssm");
  EXPECT_EQ(Mamba.findRelease(cantFail(Version::parse("2.3.2"))), nullptr);
  EXPECT_EQ(Mamba.gitTagFor(S.release("mamba-ssm", "2.3.1")), "v2.3.1");
}

TEST(ShippedPackages, PrebuiltUrlNamesTheReleaseTheWheelsAreOn) {
  Shipped S;
  EXPECT_EQ(prebuiltUrl(S, facts("2.8.0+cu128", "12.8", {}),
                        "causal-conv1d==1.6.1", "causal-conv1d"),
            "https://github.com/Dao-AILab/causal-conv1d/releases/download/"
            "v1.6.1.post4/causal_conv1d-1.6.1+cu12torch2.8cxx11abiTRUE-cp312-"
            "cp312-linux_x86_64.whl");
}

TEST(ShippedPackages, ExcludedCombinationsAreNotPrebuilt) {
  Shipped S;
  // publish.yaml at v1.6.1.post4 builds no cxx11abi FALSE wheel for torch 2.7+.
  Resolution R = S.resolveWith(facts("2.8.0+cu128", "12.8", {}, false),
                               {{"causal-conv1d==1.6.1", ""}});
  const PackageResolution *P = find(R, "causal-conv1d");
  ASSERT_NE(P, nullptr);
  EXPECT_NE(P->How, Strategy::Prebuilt);
  std::string Why;
  for (const std::string &B : P->Because)
    Why += B + "\n";
  EXPECT_THAT(Why, HasSubstr("publishing CI did not build it"));
}

// publish.yml at v2.7.4.post1 built torch 2.6 / cu12 wheels, at v2.7.3 none
// for torch 2.1 + Python 3.12 (its exclude list).
TEST(ShippedPackages, OlderFlashAttnReleasesHaveTheirTagsMatrix) {
  Shipped S;
  EXPECT_EQ(prebuiltUrl(S, facts("2.6.0+cu124", "12.4", {}),
                        "flash-attn==2.7.4.post1", "flash-attn"),
            "https://github.com/Dao-AILab/flash-attention/releases/download/"
            "v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiTRUE-"
            "cp312-cp312-linux_x86_64.whl");
  for (llvm::StringRef V : {"2.8.2", "2.8.1", "2.8.0.post2"}) {
    const Release &Rel = S.release("flash-attn", V);
    ASSERT_TRUE(Rel.Prebuilt) << V.str();
    EXPECT_EQ(Rel.Prebuilt->Torch.back().str(), "2.7") << V.str();
  }
  const Release &Old = S.release("flash-attn", "2.7.3");
  ASSERT_TRUE(Old.Prebuilt);
  EXPECT_TRUE(Old.Prebuilt->excludes(cantFail(Version::parse("2.1")), 12,
                                     "cp312", true, "linux_x86_64"));
  EXPECT_FALSE(Old.Prebuilt->excludes(cantFail(Version::parse("2.5")), 11,
                                      "cp312", true, "linux_x86_64"));
  // python_requires=">=3.8" at v2.6.3, ">=3.9" since.
  const Package &FA = *S.find("flash-attn");
  EXPECT_EQ(FA.requirementsFor(S.release("flash-attn", "2.6.3")).at("python").Text,
            ">=3.8");
  EXPECT_EQ(FA.requirementsFor(S.release("flash-attn", "2.8.3.post2"))
                .at("python")
                .Text,
            ">=3.9");
}

// --- pure-Python dependencies, extras, pins, fallbacks -----------------------

// Provides-Extra of the 0.5.1 and 0.5.2 wheels: cuda, cpu, rocm, xpu (npu
// is not described).
TEST(ShippedPackages, FlaExtrasAreTheWheelsExtras) {
  Shipped S;
  const Package &Fla = *S.find("flash-linear-attention");
  for (llvm::StringRef V : {"0.6.0", "0.5.2", "0.5.1"}) {
    ExtrasMap X = Fla.extrasFor(S.release("flash-linear-attention", V));
    for (const char *E : {"cuda", "cpu", "rocm", "xpu", "conv1d", "tilelang"})
      EXPECT_EQ(X.count(E), 1u) << V.str() << " [" << E << "]";
    EXPECT_EQ(X.at("rocm").begin()->second.Text, "==" + V.str());
  }
}

TEST(ShippedPackages, FlaPullsFlaCoreOfTheSameVersion) {
  Shipped S;
  Resolution R = S.resolveWith(facts("2.9.1+cu129", "12.9", {}),
                               {{"flash-linear-attention", ""}});
  const PackageResolution *Fla = find(R, "flash-linear-attention");
  const PackageResolution *Core = find(R, "fla-core");
  ASSERT_NE(Fla, nullptr);
  ASSERT_NE(Core, nullptr);
  ASSERT_TRUE(Fla->Ver && Core->Ver);
  EXPECT_EQ(Fla->Ver->str(), "0.6.0");
  EXPECT_EQ(Core->Ver->str(), Fla->Ver->str());
  EXPECT_EQ(Core->How, Strategy::NoBuild);
}

// The distributions a package decides through (its own requirements and
// those of the manifest packages it can require) are the same for every
// member of a requirement cycle, and reach past it.
TEST(ShippedPackages, DistributionsFollowRequirementCycles) {
  Shipped S;
  auto Add = [&](const char *Text, const char *Name) {
    auto M = parseManifest(Text, Name);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    S.Extra.push_back(std::move(*M));
  };
  Add(R"(schema = 1
[package]
name = "cyc-a"
git = "https://example.com/cyc-a.git"
build = "python"
[requires]
cyc-b = ">=1"
[[release]]
version = "1.0"
)",
      "cyc-a.toml");
  Add(R"(schema = 1
[package]
name = "cyc-b"
git = "https://example.com/cyc-b.git"
build = "python"
[[release]]
version = "1.0"
[release.requires]
cyc-a = ">=1"
triton = ">=3"
[[release]]
version = "0.9"
[release.requires]
cyc-c = ">=1"
)",
      "cyc-b.toml");
  Add(R"(schema = 1
[package]
name = "cyc-c"
git = "https://example.com/cyc-c.git"
build = "python"
[[release]]
version = "1.0"
[release.extras.hf]
transformers = ">=5"
torch = ">=2"
)",
      "cyc-c.toml");
  Resolution R = S.resolveWith(facts("2.9.1+cu129", "12.9", {}),
                               {{"cyc-a", ""}});
  const PackageResolution *A = find(R, "cyc-a");
  const PackageResolution *B = find(R, "cyc-b");
  ASSERT_NE(A, nullptr);
  ASSERT_NE(B, nullptr);
  EXPECT_THAT(requiredDistributions(S.lookup(), "cyc-a"),
              ElementsAre("transformers", "triton"));
  EXPECT_THAT(requiredDistributions(S.lookup(), "cyc-b"),
              ElementsAre("transformers", "triton"));
  EXPECT_THAT(requiredDistributions(S.lookup(), "cyc-c"),
              ElementsAre("transformers"));
  EXPECT_THAT(requiredDistributions(S.lookup(), "no-such-package"),
              ElementsAre());
}

TEST(ShippedPackages, TransformersPinSelectsTheFlaRelease) {
  Shipped S;
  // fla 0.6.0 needs transformers >=5.6.2,<6; 5.2.0 gets 0.5.2.
  std::string F = facts("2.9.1+cu129", "12.9", {});
  F.replace(F.find("5.7.0"), 5, "5.2.0");
  Resolution R = S.resolveWith(F, {{"flash-linear-attention", ""}});
  const PackageResolution *Fla = find(R, "flash-linear-attention");
  ASSERT_NE(Fla, nullptr);
  ASSERT_TRUE(Fla->Ver);
  EXPECT_EQ(Fla->Ver->str(), "0.5.2");
  // fla-core is older because fla 0.5.2 pins it: that pin is the reason,
  // not a derivation through every fla release.
  const PackageResolution *Core = find(R, "fla-core");
  ASSERT_NE(Core, nullptr);
  EXPECT_EQ(Core->NotPreferred, "fla-core 0.6.0");
  EXPECT_THAT(Core->Because,
              ElementsAre("flash-linear-attention 0.5.2 needs fla-core "
                          "==0.5.2"));
}

TEST(ShippedPackages, OnlyThePackageAskedForGetsItsDerivationText) {
  // flash-linear-attention[cuda] is not at its newest release with torch
  // 2.6: the solver's failure is its reason. The whole proof as text is
  // written only for the package `explain` asks about.
  Shipped S;
  std::string F = facts("2.6.0+cu126", "12.6", {});
  Resolution R = S.resolveWith(F, {{"flash-linear-attention[cuda]", ""}});
  const PackageResolution *Fla = find(R, "flash-linear-attention");
  ASSERT_NE(Fla, nullptr);
  EXPECT_FALSE(Fla->Because.empty());
  EXPECT_FALSE(Fla->NotPreferred.empty());
  EXPECT_EQ(Fla->Derivation, "");
  S.DerivationOf = "flash-linear-attention";
  Resolution Asked = S.resolveWith(F, {{"flash-linear-attention[cuda]", ""}});
  const PackageResolution *Explained = find(Asked, "flash-linear-attention");
  ASSERT_NE(Explained, nullptr);
  EXPECT_EQ(Explained->Because, Fla->Because);
  EXPECT_NE(Explained->Derivation.find("flash-linear-attention"),
            std::string::npos)
      << Explained->Derivation;
}

TEST(ShippedPackages, TheCudaExtraBringsTorchAndTritonPins) {
  Shipped S;
  // fla-core[cuda] needs torch >= 2.7: with torch 2.6, fla[cuda] cannot be
  // 0.5.1 or newer; 0.5.0 has no cuda extra and needs torch >= 2.7 itself.
  Resolution R = S.resolveWith(facts("2.6.0+cu126", "12.6", {}),
                               {{"flash-linear-attention[cuda]", ""}});
  const PackageResolution *Fla = find(R, "flash-linear-attention");
  ASSERT_NE(Fla, nullptr);
  ASSERT_TRUE(Fla->Ver);
  EXPECT_EQ(Fla->Ver->str(), "0.4.2");
  Resolution New = S.resolveWith(facts("2.9.1+cu129", "12.9", {}),
                                 {{"flash-linear-attention[cuda]", ""}});
  const PackageResolution *Fla6 = find(New, "flash-linear-attention");
  ASSERT_NE(Fla6, nullptr);
  ASSERT_TRUE(Fla6->Ver);
  EXPECT_EQ(Fla6->Ver->str(), "0.6.0");
}

TEST(ShippedPackages, TheConv1dExtraPullsCausalConv1d) {
  Shipped S;
  Resolution R = S.resolveWith(facts("2.8.0+cu128", "12.8", {"12.8.93"}),
                               {{"flash-linear-attention[conv1d]", ""}});
  const PackageResolution *Conv = find(R, "causal-conv1d");
  ASSERT_NE(Conv, nullptr);
  ASSERT_TRUE(Conv->Ver);
  // fla 0.6.0's conv1d extra asks for causal-conv1d >= 1.7.0.
  EXPECT_EQ(Conv->Ver->str(), "1.7.0");
  const PackageResolution *Fla = find(R, "flash-linear-attention");
  ASSERT_NE(Fla, nullptr);
  ASSERT_TRUE(Fla->Ver);
  EXPECT_EQ(Fla->Ver->str(), "0.6.0");
  // Without a toolkit 1.7.0 (no published matrix) cannot be had, so the
  // 1.6.1 wheel and fla 0.5.2 (conv1d: causal-conv1d >= 1.4.0) are chosen.
  Resolution NoNvcc = S.resolveWith(facts("2.8.0+cu128", "12.8", {}),
                                    {{"flash-linear-attention[conv1d]", ""}});
  const PackageResolution *Old = find(NoNvcc, "flash-linear-attention");
  ASSERT_NE(Old, nullptr);
  ASSERT_TRUE(Old->Ver);
  EXPECT_EQ(Old->Ver->str(), "0.5.2");
  const PackageResolution *Wheel = find(NoNvcc, "causal-conv1d");
  ASSERT_NE(Wheel, nullptr);
  EXPECT_EQ(Wheel->How, Strategy::Prebuilt);
}

TEST(ShippedPackages, DeclaredRequirementsAndFallbacks) {
  Shipped S;
  const Package &Mamba = *S.find("mamba-ssm");
  EXPECT_EQ(Mamba.Requires.count("torch"), 1u);
  EXPECT_EQ(Mamba.requirementsFor(S.release("mamba-ssm", "2.3.2.post1"))
                .at("triton")
                .Text,
            ">=3.5.0");
  const Package &FA = *S.find("flash-attn");
  ASSERT_GE(FA.Fallbacks.size(), 1u);
  EXPECT_EQ(FA.Fallbacks.front().Name, "sdpa");
  for (const Manifest &M : S.Ms)
    for (const Fallback &F : M.Pkg->Fallbacks)
      EXPECT_FALSE(F.Impact.empty()) << M.Pkg->Name << " " << F.Name;
}

TEST(ShippedPackages, NewestReleaseIsTheNewestPublished) {
  // PyPI on 2026-12-01 (`pip index versions`).
  Shipped S;
  auto Newest = [&](llvm::StringRef Name) {
    const Package *P = S.find(Name);
    Version Best;
    for (const Release &R : P->Releases)
      if (Best < R.Ver)
        Best = R.Ver;
    return Best.str();
  };
  EXPECT_EQ(Newest("causal-conv1d"), "1.7.0");
  EXPECT_EQ(Newest("flash-linear-attention"), "0.6.0");
  EXPECT_EQ(Newest("fla-core"), "0.6.0");
  EXPECT_EQ(Newest("flash-attn"), "2.8.3.post2");
  EXPECT_EQ(Newest("mamba-ssm"), "2.3.2.post1");
}

} // namespace

TEST(ShippedPackages, APurePythonPackagesRangeIsLiftedIntoTheSourceEpochAlone) {
  // A pure-Python package has releases from source only: a dependency on it
  // is a set in that epoch, with nothing in the prebuilt one; a compiled
  // package's holds both strategies' versions.
  Shipped S;
  Facts F;
  ResolveRequest Req;
  PackageLookup L = S.lookup();
  FactProvider P(Req, L, F, S.KB, {});
  VersionSet R = cantFail(VersionSet::parse(">=0.5,<0.7"));
  using namespace encoding;
  auto Fla = P.mapRequirement("fla-core", R);
  EXPECT_EQ(Fla.first, "fla-core");
  EXPECT_EQ(Fla.second, lift(R, SourceEpoch));
  EXPECT_TRUE(project(Fla.second, PrebuiltEpoch).isEmpty());
  auto Conv = P.mapRequirement("causal-conv1d", R);
  EXPECT_EQ(Conv.second, liftTwice(R, PrebuiltEpoch, SourceEpoch));
  EXPECT_EQ(project(Conv.second, PrebuiltEpoch), R);
  // Not a manifest package: the range as written.
  EXPECT_EQ(P.mapRequirement("transformers", R).second, R);
  // The dependencies of a release name the same sets.
  PackageDependencies D =
      P.dependencies("flash-linear-attention",
                     cantFail(Version::parse("0.5.2")).withEpoch(SourceEpoch));
  ASSERT_TRUE(D.Available);
  bool Seen = false;
  for (const auto &[Name, Set] : D.On)
    if (Name == "fla-core" || Name == "fla-core[cuda]") {
      Seen = true;
      EXPECT_TRUE(Set.isSubsetOf(epochRange(SourceEpoch))) << Name;
      EXPECT_FALSE(Set.isEmpty()) << Name;
    }
  EXPECT_TRUE(Seen);
}
