// Schema-1 extensions: archs passed under an nvcc condition, prebuilt
// excludes and release tags, extras, requirement keys with extras, and the
// lint checks that come with them.
#include "ManifestTestUtil.h"

#include "core/manifest/ManifestLoader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

const char *Head = R"(schema = 1
[package]
name = "p"
git = "https://example.com/p.git"
build = "torch-extension"
)";

std::string pkg(llvm::StringRef Rest) { return std::string(Head) + Rest.str(); }

std::vector<std::string> lintErrors(llvm::StringRef Text) {
  Manifest M = parseOk(Text);
  std::vector<std::string> Out;
  llvm::Error E = lintManifest(M);
  llvm::handleAllErrors(std::move(E), [&](const DiagnosticError &D) {
    for (const Diagnostic &X : D.diagnostics())
      Out.push_back(where(X));
  });
  return Out;
}

TEST(SchemaExtensions, ArchTablesCarryTheirNvccCondition) {
  Manifest M = parseOk(pkg(R"([[release]]
version = "1.0"
archs = ["sm_75", { archs = ["sm_62", "sm_70"], nvcc = "<=12.9" },
         { arch = "sm_80" }]
)"));
  const std::vector<Arch> &A = M.Pkg->Releases[0].Archs;
  ASSERT_EQ(A.size(), 4u);
  EXPECT_FALSE(A[0].Passed);
  EXPECT_TRUE(A[1].Passed);
  EXPECT_EQ(A[1].NvccCondText, "<=12.9");
  // 12.9.86 is "release 12.9" to setup.py.
  EXPECT_TRUE(A[1].conditionHolds(cantFail(Version::parse("12.9.86"))));
  EXPECT_FALSE(A[1].conditionHolds(cantFail(Version::parse("13.0.88"))));
  EXPECT_TRUE(A[3].Passed);
  EXPECT_FALSE(A[3].NvccCond);
}

TEST(SchemaExtensions, BadArchTablesAreLocatedErrors) {
  std::vector<Diagnostic> D = errorsIn(pkg(R"([[release]]
version = "1.0"
archs = [{ nvcc = ">=12" }, { arch = "9.0" }, { arch = "sm_80", nvcc = "12.x" },
         { arch = "sm_90", when = "x" }]
)"));
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  EXPECT_THAT(Got, ElementsAre(HasSubstr("needs 'arch' or 'archs'"),
                               HasSubstr("invalid arch '9.0'"),
                               HasSubstr("bad nvcc condition"),
                               HasSubstr("unknown key 'when'")));
}

TEST(SchemaExtensions, ExcludesTagsAndExtrasLoad) {
  Manifest M = parseOk(pkg(R"(
[extras.conv]
causal-conv1d = ">=1.4"
[[release]]
version = "1.0"
tag = "v1.0.post2"
[release.prebuilt]
torch = ["2.7", "2.8"]
cuda = [11, 12]
tag = "v1.1"
exclude = [{ torch = ["2.8"], cuda = [11] }]
[release.requires]
"fla-core[cuda]" = "==0.6.0"
[release.extras.conv]
causal-conv1d = ">=1.7"
[prebuilt]
url = "https://e/{release_tag}/p-{version}+cu{torch.cuda_major}torch{torch.major_minor}.whl"
)"));
  const Package &P = *M.Pkg;
  const Release &R = P.Releases[0];
  EXPECT_EQ(P.gitTagFor(R), "v1.0.post2");
  EXPECT_EQ(P.releaseTagFor(R), "v1.1");
  ASSERT_TRUE(R.Prebuilt);
  ASSERT_EQ(R.Prebuilt->Exclude.size(), 1u);
  Version T28 = cantFail(Version::parse("2.8"));
  Version T27 = cantFail(Version::parse("2.7"));
  EXPECT_TRUE(R.Prebuilt->excludes(T28, 11, "", std::nullopt, ""));
  EXPECT_FALSE(R.Prebuilt->excludes(T28, 12, "", std::nullopt, ""));
  EXPECT_FALSE(R.Prebuilt->excludes(T27, 11, "", std::nullopt, ""));
  const Requirement &Core = R.Requires.at("fla-core");
  EXPECT_THAT(Core.Extras, ElementsAre("cuda"));
  EXPECT_EQ(P.extrasFor(R).at("conv").at("causal-conv1d").Text, ">=1.7");
  EXPECT_EQ(P.Extras.at("conv").at("causal-conv1d").Text, ">=1.4");
  EXPECT_TRUE(lintErrors(pkg(R"([[release]]
version = "1.0"
[release.prebuilt]
torch = ["2.7"]
[prebuilt]
url = "https://e/{release_tag}/p-{version}.whl"
)")).empty());
}

TEST(SchemaExtensions, ExtrasOnFactsAndEmptyExcludesAreErrors) {
  std::vector<Diagnostic> D = errorsIn(pkg(R"([[release]]
version = "1.0"
[release.requires]
"torch[cuda]" = ">=2"
[release.prebuilt]
torch = ["2.7"]
exclude = [{}]
)"));
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  EXPECT_THAT(Got, ElementsAre(HasSubstr("extras are only for packages"),
                               HasSubstr("empty exclude entry")));
}

TEST(SchemaExtensions, ReleaseSourceLoadsAndMustSaySomething) {
  Manifest M = parseOk(pkg(R"([[release]]
version = "1.0"
source = "setup.py at tag v1.0"
)"));
  ASSERT_TRUE(M.Pkg->Releases.front().Source);
  EXPECT_EQ(M.Pkg->Releases.front().Source->Value, "setup.py at tag v1.0");
  std::vector<Diagnostic> D = errorsIn(pkg(R"([[release]]
version = "1.0"
source = " "
)"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "8:10: 'source' in [[release]] is empty");
}

TEST(SchemaExtensions, LintFlagsAUrlThatOmitsAMatrixDimension) {
  // Two python tags and two platforms, but the url names neither.
  std::vector<std::string> E = lintErrors(pkg(R"([[release]]
version = "1.0"
[release.prebuilt]
torch = ["2.8"]
cuda = [12]
python = ["cp311", "cp312"]
platform = ["linux_x86_64", "linux_aarch64"]
[prebuilt]
url = "https://e/v{version}/p-{version}+cu{torch.cuda_major}torch{torch.major_minor}.whl"
)"));
  EXPECT_THAT(E, ElementsAre(HasSubstr("2 values of 'python' but the "
                                       "[prebuilt] url has no {python.tag}"),
                             HasSubstr("2 values of 'platform' but the "
                                       "[prebuilt] url has no "
                                       "{platform.tag}")));
}

TEST(SchemaExtensions, LintFlagsExcludesOfUnlistedValuesAndAnUnusedTag) {
  std::vector<std::string> E = lintErrors(pkg(R"([[release]]
version = "1.0"
[release.prebuilt]
torch = ["2.8"]
cuda = [12]
tag = "v1.1"
exclude = [{ torch = ["2.9"] }]
[prebuilt]
url = "https://e/v{version}/p-{version}+cu{torch.cuda_major}torch{torch.major_minor}.whl"
)"));
  EXPECT_THAT(E, ElementsAre(HasSubstr("tag is only used through "
                                       "{release_tag}"),
                             HasSubstr("exclude entry names torch 2.9")));
}

} // namespace
