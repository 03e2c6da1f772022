#include "ManifestTestUtil.h"

#include "core/manifest/ManifestLoader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

// The package example of DESIGN.md section 4, verbatim.
const char *DesignPackage = R"toml(schema = 1

[package]
name = "causal-conv1d"
summary = "Causal depthwise conv1d in CUDA, with a PyTorch interface"
git = "https://github.com/Dao-AILab/causal-conv1d.git"
tag = "v{version}"
build = "torch-extension"     # torch-extension | python | cmake | command

[requires]                    # for every release unless the release overrides a key
nvcc = ">=11.6"               # needs a toolkit of this version (absent key: no compile needed)
torch = ">=2.4"
python = ">=3.9"

[[release]]
version = "1.6.1"
archs = ["sm_75", "sm_80", "sm_87", "sm_90", "sm_100", "sm_120"]   # compiled when nvcc supports them
[release.prebuilt]            # the published binary matrix
torch = ["2.6", "2.7", "2.8", "2.9", "2.10"]
cuda = ["11", "12", "13"]
python = ["cp310", "cp311", "cp312", "cp313"]
cxx11_abi = [true]
platform = ["linux_x86_64", "linux_aarch64"]

[build.env]                   # templated; cudadeps adds CUDA_HOME, PATH, CC/CXX, NVCC_CCBIN, MAX_JOBS
CAUSAL_CONV1D_FORCE_BUILD = "TRUE"

[prebuilt]
url = "https://github.com/Dao-AILab/causal-conv1d/releases/download/v{version}/causal_conv1d-{version}+cu{torch.cuda_major}torch{torch.major_minor}cxx11abi{torch.cxx11_abi_upper}-{python.tag}-{python.tag}-{platform.tag}.whl"

[[fallback]]
name = "torch-conv"
summary = "transformers runs the GatedDeltaNet short convolution in plain PyTorch"
impact = "slower; the delta-rule kernels still come from flash-linear-attention"
)toml";

const char *DesignProject = R"toml(schema = 1
[project]
name = "dflash-training"
requires = ["flash-linear-attention>=0.4", "causal-conv1d"]
[target]                       # optional: declare instead of detect
archs = ["sm_90"]
)toml";

Version v(llvm::StringRef S) { return llvm::cantFail(Version::parse(S)); }
VersionSet vs(llvm::StringRef S) { return llvm::cantFail(VersionSet::parse(S)); }

TEST(ManifestLoader, DesignPackageExample) {
  Manifest M = parseOk(DesignPackage);
  ASSERT_TRUE(M.Pkg);
  EXPECT_FALSE(M.Proj);
  const Package &P = *M.Pkg;
  EXPECT_EQ(P.Name, "causal-conv1d");
  EXPECT_EQ(P.Summary,
            "Causal depthwise conv1d in CUDA, with a PyTorch interface");
  ASSERT_TRUE(P.Git);
  EXPECT_EQ(P.Git->Value, "https://github.com/Dao-AILab/causal-conv1d.git");
  EXPECT_EQ(P.Tag.Value, "v{version}");
  EXPECT_EQ(P.Kind, BuildKind::TorchExtension);

  ASSERT_EQ(P.Requires.size(), 3u);
  const Requirement &Nvcc = P.Requires.at("nvcc");
  EXPECT_EQ(Nvcc.Text, ">=11.6");
  EXPECT_EQ(Nvcc.Range, vs(">=11.6"));
  EXPECT_EQ(Nvcc.Loc.File, "m.toml");
  EXPECT_EQ(Nvcc.Loc.Line, 11u);
  EXPECT_EQ(Nvcc.Loc.Column, 8u);
  EXPECT_EQ(Nvcc.KeyLoc.Column, 1u);
  EXPECT_TRUE(P.Requires.at("torch").Range.contains(v("2.11.0+cu128")));
  EXPECT_FALSE(P.Requires.at("python").Range.contains(v("3.8")));

  ASSERT_EQ(P.Releases.size(), 1u);
  const Release &R = P.Releases[0];
  EXPECT_EQ(R.Ver, v("1.6.1"));
  EXPECT_EQ(R.VersionText, "1.6.1");
  EXPECT_EQ(R.Loc.Line, 16u);
  EXPECT_EQ(R.Loc.Column, 11u);
  ASSERT_EQ(R.Archs.size(), 6u);
  EXPECT_EQ(R.Archs[0].Name, "sm_75");
  EXPECT_EQ(R.Archs[5].Name, "sm_120");
  EXPECT_EQ(R.Archs[5].number(), 120u);
  EXPECT_EQ(R.Archs[1].Loc.Line, 17u);
  EXPECT_EQ(R.Archs[1].Loc.Column, 19u);
  ASSERT_TRUE(R.Prebuilt);
  EXPECT_EQ(R.Prebuilt->Torch.size(), 5u);
  EXPECT_EQ(R.Prebuilt->Torch[4], v("2.10")); // a string, not the float 2.1
  EXPECT_EQ(R.Prebuilt->Cuda,
            (std::vector<Version>{v("11"), v("12"), v("13")}));
  EXPECT_THAT(R.Prebuilt->Python, ElementsAre("cp310", "cp311", "cp312", "cp313"));
  EXPECT_THAT(R.Prebuilt->Cxx11Abi, ElementsAre(true));
  EXPECT_THAT(R.Prebuilt->Platform, ElementsAre("linux_x86_64", "linux_aarch64"));

  ASSERT_EQ(P.Build.Env.size(), 1u);
  EXPECT_EQ(P.Build.Env.at("CAUSAL_CONV1D_FORCE_BUILD").Value, "TRUE");
  EXPECT_TRUE(P.Build.Submodules);
  ASSERT_TRUE(P.PrebuiltUrl);
  EXPECT_THAT(P.PrebuiltUrl->Value, HasSubstr("{torch.cxx11_abi_upper}"));
  ASSERT_EQ(P.Fallbacks.size(), 1u);
  EXPECT_EQ(P.Fallbacks[0].Name, "torch-conv");
  EXPECT_THAT(P.Fallbacks[0].Impact, HasSubstr("slower"));
  EXPECT_TRUE(M.Warnings.empty());
  llvm::Error E = lintManifest(M);
  EXPECT_FALSE(E) << llvm::toString(std::move(E));
}

TEST(ManifestLoader, DesignProjectExample) {
  Manifest M = parseOk(DesignProject);
  EXPECT_FALSE(M.Pkg);
  ASSERT_TRUE(M.Proj);
  const Project &P = *M.Proj;
  EXPECT_EQ(P.Name, "dflash-training");
  ASSERT_EQ(P.Requires.size(), 2u);
  const Requirement &Fla = P.Requires.at("flash-linear-attention");
  EXPECT_EQ(Fla.Text, ">=0.4");
  EXPECT_TRUE(Fla.Range.contains(v("0.5.2")));
  EXPECT_FALSE(Fla.Range.contains(v("0.3.2")));
  EXPECT_EQ(Fla.Loc.Line, 4u);
  EXPECT_EQ(Fla.Loc.Column, 13u);
  const Requirement &Conv = P.Requires.at("causal-conv1d");
  EXPECT_TRUE(Conv.Range.isAny());
  EXPECT_EQ(Conv.Text, "*");
  ASSERT_EQ(P.TargetArchs.size(), 1u);
  EXPECT_EQ(P.TargetArchs[0].Name, "sm_90");
  EXPECT_EQ(P.TargetArchs[0].Loc.Line, 6u);
  EXPECT_EQ(P.TargetArchs[0].Loc.Column, 10u);
  llvm::Error E = lintManifest(M);
  EXPECT_FALSE(E) << llvm::toString(std::move(E));
}

TEST(ManifestLoader, PackageAndProjectInOneFile) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "mine"
build = "python"
[[release]]
version = "1.0"
[project]
name = "mine-app"
requires = ["mine"]
)");
  ASSERT_TRUE(M.Pkg);
  ASSERT_TRUE(M.Proj);
  EXPECT_EQ(M.Proj->Requires.count("mine"), 1u);
}

TEST(ManifestLoader, PerReleaseOverrides) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "pkg"
git = "https://example.com/pkg.git"
build = "torch-extension"
[requires]
nvcc = ">=11.6"
torch = ">=2.4"
[[release]]
version = "2.0"
tag = "release-{version}"
commit = "0123456789abcdef0123456789abcdef01234567"
[release.requires]
nvcc = ">=12.0"
"torch.cuda" = "==12.*"
[[release]]
version = "1.0"
requires = { torch = "*", driver = { cuda = ">=12.4" } }
)");
  ASSERT_TRUE(M.Pkg);
  const Package &P = *M.Pkg;
  ASSERT_EQ(P.Releases.size(), 2u);
  const Release &New = P.Releases[0];
  const Release &Old = P.Releases[1];
  ASSERT_TRUE(New.Tag);
  EXPECT_EQ(P.tagTemplateFor(New).Value, "release-{version}");
  EXPECT_EQ(P.tagTemplateFor(Old).Value, "v{version}");
  ASSERT_TRUE(New.Commit);
  EXPECT_EQ(New.Commit->Value.size(), 40u);

  RequirementMap NewReq = P.requirementsFor(New);
  EXPECT_EQ(NewReq.at("nvcc").Text, ">=12.0");
  EXPECT_EQ(NewReq.at("nvcc").Loc.Line, 14u);
  EXPECT_EQ(NewReq.at("torch").Text, ">=2.4"); // inherited
  EXPECT_EQ(NewReq.at("torch.cuda").Range, vs("==12.*"));

  RequirementMap OldReq = P.requirementsFor(Old);
  EXPECT_EQ(OldReq.at("nvcc").Text, ">=11.6");
  EXPECT_TRUE(OldReq.at("torch").Range.isAny());
  // `driver = { cuda = ... }` is the dotted fact key driver.cuda.
  EXPECT_EQ(OldReq.at("driver.cuda").Range, vs(">=12.4"));
  EXPECT_EQ(P.findRelease(v("1.0.0")), &Old);
  EXPECT_EQ(P.findRelease(v("3")), nullptr);
}

TEST(ManifestLoader, UnquotedDottedFactKeys) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "pkg"
build = "python"
[requires]
torch.cuda = ">=12"
driver.cuda = ">=12.4"
[[release]]
version = "1"
)");
  ASSERT_TRUE(M.Pkg);
  EXPECT_EQ(M.Pkg->Requires.count("torch.cuda"), 1u);
  EXPECT_EQ(M.Pkg->Requires.count("driver.cuda"), 1u);
  EXPECT_EQ(M.Pkg->Requires.at("torch.cuda").KeyLoc.Line, 6u);
}

TEST(ManifestLoader, ProjectRequirementStrings) {
  Manifest M = parseOk(R"toml(schema = 1
[project]
name = "p"
requires = [
  "causal-conv1d>=1.5,<2",
  "Flash_Linear.Attention [cuda, tilelang] (>=0.4)",
  "mamba-ssm *",
  "einops",
  "nvcc >=12.4",
  "torch.cuda==12.*",
]
)toml");
  ASSERT_TRUE(M.Proj);
  const RequirementMap &R = M.Proj->Requires;
  ASSERT_EQ(R.size(), 6u);
  EXPECT_EQ(R.at("causal-conv1d").Text, ">=1.5,<2");
  EXPECT_TRUE(R.at("causal-conv1d").Range.contains(v("1.6.1")));
  EXPECT_FALSE(R.at("causal-conv1d").Range.contains(v("2.0")));
  EXPECT_EQ(R.at("causal-conv1d").KeyLoc.Line, 5u);
  EXPECT_EQ(R.at("causal-conv1d").KeyLoc.Column, 4u);
  // Names are canonical (PEP 503); extras and parentheses are understood.
  const Requirement &Fla = R.at("flash-linear-attention");
  EXPECT_THAT(Fla.Extras, ElementsAre("cuda", "tilelang"));
  EXPECT_EQ(Fla.Range, vs(">=0.4"));
  EXPECT_TRUE(R.at("mamba-ssm").Range.isAny());
  EXPECT_TRUE(R.at("einops").Range.isAny());
  EXPECT_EQ(R.at("nvcc").Range, vs(">=12.4"));
  EXPECT_EQ(R.at("torch.cuda").Range, vs("==12.*"));
}

TEST(ManifestLoader, ProjectRegistryIsRelativeToTheManifest) {
  llvm::Expected<Manifest> M = parseManifest(R"(schema = 1
[project]
name = "p"
registry = ["manifests", "/abs/reg"]
)",
                                             "/work/proj/cudadeps.toml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->Proj->Registry.size(), 2u);
  EXPECT_EQ(M->Proj->Registry[0].Value, "/work/proj/manifests");
  EXPECT_EQ(M->Proj->Registry[1].Value, "/abs/reg");
}

TEST(ManifestLoader, BuildCommandAndKnobs) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "tool"
git = "/tmp/tool.git"
build = "command"
[[release]]
version = "0.1"
[build]
command = ["make", "-C", "{src}", "-j{jobs}", "NVCC={nvcc}", "ARCH={gencode}", "PREFIX={out}"]
submodules = false
memory_per_job_gib = 6
[build.env]
CUDA_ARCHS = "{archs}"
LITERAL = "{{not a placeholder}}"
)");
  ASSERT_TRUE(M.Pkg);
  const BuildSpec &B = M.Pkg->Build;
  ASSERT_EQ(B.Command.size(), 7u);
  EXPECT_EQ(B.Command[2].Value, "{src}");
  EXPECT_FALSE(B.Submodules);
  ASSERT_TRUE(B.MemoryPerJobGib);
  EXPECT_DOUBLE_EQ(*B.MemoryPerJobGib, 6.0);
  EXPECT_EQ(B.Env.at("CUDA_ARCHS").Value, "{archs}");
  llvm::Error E = lintManifest(M);
  EXPECT_FALSE(E) << llvm::toString(std::move(E));
}

// ---- validation errors: exact locations and messages ---------------------

TEST(ManifestErrors, EmptyAndWhitespaceFiles) {
  auto D = errorsIn("");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "1:1: manifest is empty");
  D = errorsIn("\n  \n# only a comment\n");
  ASSERT_GE(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 1u);
}

TEST(ManifestErrors, TomlSyntax) {
  auto D = errorsIn("schema = 1\n[package\nname = \"x\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 2u);
  EXPECT_THAT(D[0].Message, HasSubstr("invalid TOML"));
  EXPECT_EQ(D[0].SourceLine, "[package");
}

TEST(ManifestErrors, SchemaChecks) {
  auto D = errorsIn("schema = 2\n[project]\nname = \"p\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]),
            "1:10: unsupported schema 2; this cudadeps reads schema 1");
  D = errorsIn("schema = \"1\"\n[project]\nname = \"p\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "1:10: 'schema' must be an integer, not a string");
  D = errorsIn("[project]\nname = \"p\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "1:1: missing required key 'schema'");
}

TEST(ManifestErrors, NeitherPackageNorProject) {
  auto D = errorsIn("schema = 1\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "1:1: manifest defines neither [package] nor [project]");
  D = errorsIn("schema = 1\n[requires]\nnvcc = \">=12\"\n");
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(where(D[1]), "2:1: 'requires' describes a package, but this "
                         "manifest has no [package]");
}

TEST(ManifestErrors, MisspeltKeysAtEveryLevel) {
  auto D = errorsIn(R"(schema = 1
pakage = 1
[package]
name = "p"
sumary = "x"
build = "torch-extension"
git = "https://e/g.git"
[requires]
nvcc = ">=12"
[[release]]
verison = "1"
archs = ["sm_90"]
[release.prebuilt]
torhc = ["2.6"]
[build]
comand = ["x"]
[prebuilt]
ulr = "u"
[[fallback]]
name = "f"
summary = "s"
impakt = "i"
[project]
name = "q"
requries = []
[target]
arch = ["sm_90"]
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X) + (X.Hint.empty() ? "" : " | " + X.Hint));
  EXPECT_THAT(
      Got,
      ElementsAre(
          "2:1: unknown key 'pakage' in the manifest | did you mean "
          "'package'?",
          "5:1: unknown key 'sumary' in [package] | did you mean 'summary'?",
          "10:1: missing required key 'version' in [[release]]",
          "11:1: unknown key 'verison' in [[release]] | did you mean 'version'?",
          "14:1: unknown key 'torhc' in [release.prebuilt] | did you mean "
          "'torch'?",
          "16:1: unknown key 'comand' in [build] | did you mean 'command'?",
          "17:1: missing required key 'url' in [prebuilt]",
          "18:1: unknown key 'ulr' in [prebuilt] | did you mean 'url'?",
          "19:1: missing required key 'impact' in [[fallback]]",
          "22:1: unknown key 'impakt' in [[fallback]] | did you mean 'impact'?",
          "25:1: unknown key 'requries' in [project] | did you mean 'requires'?",
          "27:1: unknown key 'arch' in [target] | did you mean 'archs'?"));
}

TEST(ManifestErrors, WrongTypes) {
  auto D = errorsIn(R"(schema = 1
[package]
name = 3
build = "python"
[requires]
torch = 2.4
[[release]]
version = 1.0
archs = "sm_90"
[release.prebuilt]
torch = [2.10]
cxx11_abi = ["yes"]
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  EXPECT_THAT(
      Got,
      ElementsAre("3:8: 'name' in [package] must be a string, not an integer",
                  "6:9: requirement 'torch' must be a string, not a float",
                  "8:11: 'version' in [[release]] must be a string, not a float",
                  "9:9: 'archs' in [[release]] must be an array of strings "
                  "or tables, not a string",
                  "11:10: 'torch' entries must be strings, not floats",
                  "12:14: each entry of 'cxx11_abi' must be true or false, "
                  "not a string"));
}

TEST(ManifestErrors, BadSpecifierAndVersion) {
  auto D = errorsIn(R"(schema = 1
[package]
name = "p"
build = "python"
[requires]
torch = ">=2.4,<<3"
python = ">=3.10,<3.9"
[[release]]
version = "1.x"
)");
  ASSERT_EQ(D.size(), 3u);
  EXPECT_EQ(D[0].Loc.Line, 6u);
  EXPECT_EQ(D[0].Loc.Column, 9u);
  EXPECT_THAT(D[0].Message, HasSubstr("bad specifier for 'torch': "));
  EXPECT_EQ(where(D[1]),
            "7:10: specifier '>=3.10,<3.9' for 'python' matches no version");
  EXPECT_EQ(D[2].Loc.Line, 9u);
  EXPECT_EQ(D[2].Loc.Column, 11u);
  EXPECT_THAT(D[2].Message, HasSubstr("bad version '1.x': "));
}

TEST(ManifestErrors, DuplicateRelease) {
  auto D = errorsIn(R"(schema = 1
[package]
name = "p"
build = "python"
[[release]]
version = "1.6"
[[release]]
version = "1.6.0"
)");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "8:11: duplicate release '1.6.0' (also on line 6)");
}

TEST(ManifestErrors, UnknownPlaceholders) {
  auto D = errorsIn(R"(schema = 1
[package]
name = "p"
git = "https://e/g.git"
build = "command"
tag = "v{verison}"
[[release]]
version = "1"
[build]
command = ["make", "{sr}", "x{"]
[build.env]
A = "}"
[prebuilt]
url = "https://x/{version}/{python_tag}.whl"
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X) + (X.Hint.empty() ? "" : " | " + X.Hint));
  EXPECT_THAT(
      Got,
      ElementsAre(
          "6:9: unknown placeholder '{verison}' | did you mean '{version}'?",
          "10:21: unknown placeholder '{sr}' | did you mean '{src}'?",
          "10:30: unterminated placeholder in template; write '{{' for a "
          "literal brace",
          "12:6: unmatched '}' in template; write '}}' for a literal brace",
          "14:28: unknown placeholder '{python_tag}' | did you mean "
          "'{python.tag}'?"));
}

TEST(ManifestErrors, RequirementKeys) {
  auto D = errorsIn(R"(schema = 1
[package]
name = "p"
build = "python"
[requires]
"torch.cdua" = ">=12"
nvcc_verison = ">=12"
"bad key" = "*"
p = "*"
[[release]]
version = "1"
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X) + (X.Hint.empty() ? "" : " | " + X.Hint));
  EXPECT_THAT(
      Got,
      ElementsAre(
          "6:1: unknown fact 'torch.cdua' in [requires] | did you mean "
          "'torch.cuda'?",
          "7:1: unknown fact 'nvcc_verison' in [requires] | did you mean "
          "'nvcc'? (a package of this name is written 'nvcc-verison')",
          "8:1: invalid requirement key 'bad key'; expected a fact (nvcc, "
          "torch, ...) or a package name in [requires]",
          "9:1: package 'p' cannot require itself"));
}

TEST(ManifestErrors, NearMissPackageKeyIsAWarning) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "p"
build = "python"
[requires]
pyhton = ">=3.10"
[[release]]
version = "1"
)");
  ASSERT_TRUE(M.Pkg);
  EXPECT_EQ(M.Pkg->Requires.count("pyhton"), 1u);
  ASSERT_EQ(M.Warnings.size(), 1u);
  EXPECT_EQ(where(M.Warnings[0]),
            "6:1: 'pyhton' is not a fact, so it names a package");
  EXPECT_EQ(M.Warnings[0].Hint, "did you mean 'python'?");
}

TEST(ManifestErrors, EachManifestGetsItsOwnVerdictOnARepeatedKey) {
  // The verdict on a key is remembered between manifests: every manifest
  // and every key still gets its own diagnostics, at its own place.
  for (int Round = 0; Round < 3; ++Round) {
    Manifest M = parseOk(R"(schema = 1
[package]
name = "p"
build = "python"
[requires]
pyhton = ">=3.10"
numpy = ">=1"
[[release]]
version = "1"
[release.requires]
pyhton = ">=3.11"
)");
    ASSERT_TRUE(M.Pkg);
    ASSERT_EQ(M.Warnings.size(), 2u) << Round;
    EXPECT_EQ(where(M.Warnings[0]),
              "6:1: 'pyhton' is not a fact, so it names a package");
    EXPECT_EQ(where(M.Warnings[1]),
              "11:1: 'pyhton' is not a fact, so it names a package");
    EXPECT_EQ(M.Pkg->Requires.count("numpy"), 1u);
    auto D = errorsIn(R"(schema = 1
[package]
name = "q"
build = "python"
[requires]
"torch.cdua" = ">=12"
)");
    ASSERT_EQ(D.size(), 1u) << Round;
    EXPECT_EQ(where(D[0]), "6:1: unknown fact 'torch.cdua' in [requires]");
    EXPECT_EQ(D[0].Hint, "did you mean 'torch.cuda'?");
  }
}

TEST(ManifestErrors, MissingRequiredKeys) {
  auto D = errorsIn(R"(schema = 1
[package]
summary = "no name"
[[release]]
archs = []
[[fallback]]
name = "f"
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  EXPECT_THAT(Got,
              ElementsAre("2:1: missing required key 'name' in [package]",
                          "2:1: missing required key 'build' in [package]",
                          "4:1: missing required key 'version' in [[release]]",
                          "6:1: missing required key 'summary' in [[fallback]]",
                          "6:1: missing required key 'impact' in [[fallback]]"));
}

TEST(ManifestErrors, ArchsAndNames) {
  auto D = errorsIn(R"(schema = 1
[package]
name = "-bad name"
build = "cuda"
[[release]]
version = "1"
archs = ["sm_90", "sm90", "9.0", "sm_90", "sm_100f", "sm_90a"]
[project]
name = "p"
requires = ["causal-conv1d>=>1", "", "x @ https://e/x.whl", "y; python_version>'3'", "1bad name"]
[target]
archs = ["compute_90"]
)");
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  ASSERT_EQ(Got.size(), 11u) << ::testing::PrintToString(Got);
  EXPECT_THAT(Got[0], HasSubstr("3:8: invalid package name '-bad name'"));
  EXPECT_EQ(Got[1], "4:9: unknown build kind 'cuda'; expected "
                    "torch-extension, python, cmake or command");
  EXPECT_EQ(Got[2], "7:19: invalid arch 'sm90'; expected sm_NN, sm_NNa or sm_NNf");
  EXPECT_EQ(Got[3], "7:27: invalid arch '9.0'; expected sm_NN, sm_NNa or sm_NNf");
  EXPECT_EQ(Got[4], "7:34: duplicate arch 'sm_90'");
  EXPECT_THAT(Got[5], HasSubstr("10:27: bad requirement 'causal-conv1d>=>1': "));
  EXPECT_THAT(Got[6], HasSubstr("10:34: empty requirement"));
  EXPECT_EQ(Got[7], "10:41: bad requirement 'x @ https://e/x.whl': direct "
                    "references ('name @ url') are not supported");
  EXPECT_EQ(Got[8], "10:63: bad requirement 'y; python_version>'3'': "
                    "environment markers are not supported");
  EXPECT_EQ(Got[9], "10:92: bad requirement '1bad name': expected a version "
                    "specifier such as '>=1.0' after the name '1bad'");
  EXPECT_THAT(Got[10], HasSubstr("12:10: invalid arch 'compute_90'"));
}

TEST(ManifestErrors, HostileInputNeverCrashes) {
  // NUL bytes, binary junk, deep nesting, enormous values.
  std::string Nul("schema = 1\n\0\0[package]\n", 23);
  EXPECT_FALSE(errorsIn(Nul).empty());
  std::string Junk;
  for (int I = 0; I < 512; ++I)
    Junk += static_cast<char>((I * 131 + 7) & 0xff);
  EXPECT_FALSE(errorsIn(Junk).empty());
  std::string Deep = "schema = 1\nx = " + std::string(5000, '[') +
                     std::string(5000, ']') + "\n";
  EXPECT_FALSE(errorsIn(Deep).empty());
  std::string Huge = "schema = 1\n[package]\nname = \"p\"\nbuild = "
                     "\"python\"\nsummary = \"" +
                     std::string(100000, 'a') + "\"\n[[release]]\nversion = \"1\"\n";
  auto D = errorsIn(Huge);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "5:11: 'summary' in [package] is too long (100000 "
                         "bytes; the limit is 4096)");
  EXPECT_LE(D[0].SourceLine.size(), 210u);
  std::string HugeVersion = "schema = 1\n[package]\nname = \"p\"\nbuild = "
                            "\"python\"\n[[release]]\nversion = \"1." +
                            std::string(3000, '9') + "\"\n";
  D = errorsIn(HugeVersion);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 6u);
  std::string TooBig(MaxManifestBytes + 1, '#');
  D = errorsIn(TooBig);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_THAT(D[0].Message, HasSubstr("manifest is too large"));
  D = errorsIn("schema = 1\n[package]\nname = \"a\\u0000b\"\nbuild = \"python\"\n");
  ASSERT_FALSE(D.empty());
  EXPECT_EQ(where(D[0]), "3:8: 'name' in [package] contains a control character");
}

TEST(ManifestErrors, NamelessTableHeaderIsCaughtBeforeToml) {
  // TOML++ 3.3 asserts on these; the loader reports them itself.
  for (const char *Text : {"schema = 1\n[[\n", "schema = 1\n[ # c\n",
                           "schema = 1\n  [[   \n"}) {
    auto D = errorsIn(Text);
    ASSERT_EQ(D.size(), 1u) << Text;
    EXPECT_EQ(D[0].Loc.Line, 2u);
    EXPECT_EQ(D[0].Message, "invalid TOML: expected a table name after '['");
  }
  auto B = errorsIn("schema = 1\nx = [1, }\n");
  ASSERT_EQ(B.size(), 1u);
  EXPECT_EQ(where(B[0]), "2:9: invalid TOML: unexpected '}' in an array");
  // Brackets inside arrays, strings and comments are not headers.
  Manifest M = parseOk(R"(schema = 1
[project]
name = "p"
requires = [
  "a", # [ not a header
  """b""",
  'd[cuda]',
]
)");
  EXPECT_TRUE(M.Proj);
  auto D = errorsIn("schema = 1\n[project]\nname = \"p\"\nx = [\n[ # nested\n1]]\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "4:1: unknown key 'x' in [project]");
}

TEST(ManifestErrors, DiagnosticsRenderWithCaret) {
  auto D = errorsIn("schema = 1\n[package]\nname = \"p\"\nbuild = \"pyton\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].render(),
            "m.toml:4:9: error: unknown build kind 'pyton'; expected "
            "torch-extension, python, cmake or command\n"
            "  build = \"pyton\"\n"
            "          ^\n"
            "  did you mean 'python'?\n");
}

TEST(ManifestLint, CrossFieldChecks) {
  Manifest M = parseOk(R"(schema = 1
[package]
name = "p"
build = "command"
tag = "{version}-{cxx}"
[[release]]
version = "1"
[release.prebuilt]
python = ["cp312"]
)");
  llvm::Error E = lintManifest(M);
  ASSERT_TRUE(bool(E));
  std::vector<std::string> Got;
  llvm::handleAllErrors(std::move(E), [&](const DiagnosticError &DE) {
    for (const Diagnostic &X : DE.diagnostics())
      Got.push_back(where(X));
  });
  EXPECT_THAT(Got,
              ElementsAre("4:9: build = \"command\" needs a 'git' repository "
                          "in [package]",
                          "4:9: build = \"command\" needs a [build] command",
                          "5:7: a tag template can only use {version}, not "
                          "{cxx}",
                          "8:1: [release.prebuilt] needs a [prebuilt] url "
                          "template to name the binaries"));
}

TEST(ManifestLoader, LoadManifestFromDisk) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cudadeps-manifest", Dir));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "p.toml");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << DesignProject;
  }
  llvm::Expected<Manifest> M = loadManifest(Path);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->File, std::string(Path));
  EXPECT_EQ(M->Proj->Requires.at("causal-conv1d").Loc.File, std::string(Path));

  llvm::SmallString<128> Missing(Dir);
  llvm::sys::path::append(Missing, "missing.toml");
  llvm::Expected<Manifest> Bad = loadManifest(Missing);
  ASSERT_FALSE(bool(Bad));
  EXPECT_THAT(llvm::toString(Bad.takeError()), HasSubstr("cannot read manifest"));
  llvm::sys::fs::remove(Path);
  llvm::sys::fs::remove(Dir);
}

TEST(ShippedManifests, LoadAndLintCleanly) {
  for (const char *Rel :
       {"manifests/causal-conv1d.toml", "manifests/flash-linear-attention.toml",
        "examples/qwen35-training/cudadeps.toml"}) {
    SCOPED_TRACE(Rel);
    std::string Path = std::string(CUDADEPS_SOURCE_DIR) + "/" + Rel;
    llvm::Expected<Manifest> M = loadManifest(Path);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    EXPECT_TRUE(M->Warnings.empty());
    llvm::Error E = lintManifest(*M);
    EXPECT_FALSE(E) << llvm::toString(std::move(E));
  }
}

TEST(ShippedManifests, SeedScenarioFacts) {
  llvm::Expected<Manifest> Conv =
      loadManifest(std::string(CUDADEPS_SOURCE_DIR) + "/manifests/causal-conv1d.toml");
  ASSERT_TRUE(bool(Conv)) << llvm::toString(Conv.takeError());
  const Package &C = *Conv->Pkg;
  EXPECT_EQ(C.Kind, BuildKind::TorchExtension);
  EXPECT_EQ(C.Requires.at("nvcc").Range, vs(">=11.6"));
  const Release *R = C.findRelease(v("1.6.1"));
  ASSERT_TRUE(R);
  ASSERT_TRUE(R->Prebuilt);
  // No wheel for torch 2.11 in the published matrix: the seed scenario.
  EXPECT_EQ(llvm::count(R->Prebuilt->Torch, v("2.11")), 0);
  EXPECT_EQ(llvm::count(R->Prebuilt->Torch, v("2.10")), 1);
  EXPECT_GE(C.Fallbacks.size(), 1u);
  for (const Fallback &F : C.Fallbacks)
    EXPECT_FALSE(F.Impact.empty());

  llvm::Expected<Manifest> Fla = loadManifest(
      std::string(CUDADEPS_SOURCE_DIR) + "/manifests/flash-linear-attention.toml");
  ASSERT_TRUE(bool(Fla)) << llvm::toString(Fla.takeError());
  EXPECT_EQ(Fla->Pkg->Kind, BuildKind::Python);
  EXPECT_EQ(Fla->Pkg->Requires.count("nvcc"), 0u);
  for (const Release &Rel : Fla->Pkg->Releases)
    EXPECT_EQ(Fla->Pkg->requirementsFor(Rel).count("nvcc"), 0u);

  llvm::Expected<Manifest> Ex = loadManifest(
      std::string(CUDADEPS_SOURCE_DIR) + "/examples/qwen35-training/cudadeps.toml");
  ASSERT_TRUE(bool(Ex)) << llvm::toString(Ex.takeError());
  EXPECT_EQ(Ex->Proj->Requires.count("flash-linear-attention"), 1u);
  EXPECT_EQ(Ex->Proj->Requires.count("causal-conv1d"), 1u);
}

} // namespace
