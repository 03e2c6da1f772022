//===- GitSourceTest.cpp - manifest values that must not steer git --------===//
#include "core/manifest/GitSource.h"
#include "tests/support/RunCli.h"
#include "tests/unit/manifest/ManifestTestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

std::vector<std::string> defaults() {
  return {defaultGitSchemes().begin(), defaultGitSchemes().end()};
}

bool urlOk(llvm::StringRef Url) {
  return !checkGitUrl(Url, defaults()).has_value();
}

std::string manifestWith(llvm::StringRef Git, llvm::StringRef Tag) {
  return "schema = 1\n[package]\nname = \"p\"\nbuild = \"torch-extension\"\n"
         "git = \"" +
         Git.str() + "\"\ntag = \"" + Tag.str() +
         "\"\n[[release]]\nversion = \"1.0\"\n";
}

TEST(GitUrl, AcceptsTheThreeSchemesAndTheirShortForms) {
  EXPECT_TRUE(urlOk("https://github.com/Dao-AILab/causal-conv1d.git"));
  EXPECT_TRUE(urlOk("ssh://git@github.com:22/org/repo.git"));
  EXPECT_TRUE(urlOk("git@github.com:org/repo.git"));
  EXPECT_TRUE(urlOk("file:///srv/git/my-kernels.git"));
  EXPECT_TRUE(urlOk("/srv/git/my-kernels.git"));
  EXPECT_TRUE(urlOk("HTTPS://example.com/x.git"));
}

TEST(GitUrl, RefusesOptionsHelpersAndOtherSchemes) {
  const char *Bad[] = {
      "--upload-pack=touch /tmp/pwned",
      "-u",
      "ext::sh -c touch% /tmp/pwned",
      "ext::sh",
      "fd::17",
      "ssh://-oProxyCommand=touch /tmp/pwned/x",
      "ssh://-oProxyCommand=id/x",
      "ssh://git@-oProxyCommand=id/x",
      "ssh://-user@host/x",
      "-oProxyCommand=id:x",
      "host:-x",
      "ssh://%2doProxyCommand=id/x",
      "http://example.com/x.git",
      "git://example.com/x.git",
      "ftp://example.com/x.git",
      "relative/path.git",
      "g",
      "",
      "https://example.com/x\n.git",
      "https://example.com",
      "file://otherhost/x",
      "file://",
  };
  for (const char *Url : Bad)
    EXPECT_FALSE(urlOk(Url)) << Url;
}

TEST(GitUrl, SchemesAreConfigurable) {
  EXPECT_EQ(parseGitSchemes(""), defaults());
  EXPECT_EQ(parseGitSchemes(" HTTP , https,,"),
            (std::vector<std::string>{"http", "https"}));
  EXPECT_FALSE(
      checkGitUrl("http://example.com/x.git", parseGitSchemes("http")));
  EXPECT_TRUE(checkGitUrl("https://example.com/x.git", parseGitSchemes("http")));
  // Even an allowed ssh never takes an option-like host.
  EXPECT_TRUE(checkGitUrl("ssh://-oProxyCommand=id/x", parseGitSchemes("ssh")));
  std::optional<GitProblem> P =
      checkGitUrl("git://example.com/x.git", defaults());
  ASSERT_TRUE(P);
  EXPECT_NE(P->Message.find("scheme 'git' is not allowed"), std::string::npos)
      << P->Message;
  EXPECT_NE(P->Hint.find(GitSchemesVariable), std::string::npos) << P->Hint;
}

TEST(GitRef, FollowsGitsRefNameRules) {
  for (const char *Ok : {"v1.0", "release/1.2.3", "v1.0+cu128", "1.0-rc1"})
    EXPECT_FALSE(checkGitRef(Ok)) << Ok;
  for (const char *Bad :
       {"--upload-pack=touch /tmp/x", "-x", "", "a..b", "../x", "/abs", "x/",
        "x.", "x.lock", "a/.hidden", "a b", "a~1", "a^", "a:b", "a?", "a*",
        "a[", "a\\b", "a@{1}", "@", "a//b", "a\x7f"})
    EXPECT_TRUE(checkGitRef(Bad)) << Bad;
  EXPECT_TRUE(checkGitRef(std::string(256, 'a')));
}

TEST(CachePath, StaysInsideTheCache) {
  for (const char *Ok : {"causal-conv1d", "p/1.0", "a/b/c"})
    EXPECT_FALSE(checkCachePath(Ok)) << Ok;
  for (const char *Bad : {"", "/etc", "..", "../x", "a/../../x", "a/..",
                          "./a", "a//b", "a\\..\\b", "a\nb"})
    EXPECT_TRUE(checkCachePath(Bad)) << Bad;
}

TEST(GitSourceInManifests, UrlErrorsAreLocated) {
  auto D = errorsIn(manifestWith("--upload-pack=touch /tmp/pwned", "v{version}"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]).substr(0, 4), "5:8:") << where(D[0]);
  EXPECT_NE(D[0].Message.find("would be read as an option"), std::string::npos);

  D = errorsIn(manifestWith("ssh://-oProxyCommand=id/x", "v{version}"));
  ASSERT_EQ(D.size(), 1u);
  // The column points at the host inside the string.
  EXPECT_EQ(where(D[0]).substr(0, 5), "5:14:") << where(D[0]);

  D = errorsIn(manifestWith("ext::sh -c id", "v{version}"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_NE(D[0].Message.find("remote helper"), std::string::npos);
}

TEST(GitSourceInManifests, TagErrorsAreLocated) {
  auto D = errorsIn(manifestWith("https://e/p.git", "--upload-pack=x{version}"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]).substr(0, 4), "6:8:") << where(D[0]);
  D = errorsIn(manifestWith("https://e/p.git", "v{version}/../x"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_NE(D[0].Message.find("'..'"), std::string::npos);
  // A release's own tag is checked the same way.
  D = errorsIn("schema = 1\n[package]\nname = \"p\"\nbuild = \"python\"\n"
               "[[release]]\nversion = \"1.0\"\ntag = \"-x\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 7u);
  EXPECT_TRUE(parseOk(manifestWith("git@github.com:o/r.git", "v{version}")).Pkg);
}

TEST(GitSourceInManifests, ValidateGivesTheFetcherALocatedError) {
  Located Tag{"--upload-pack=x", {"m.toml", 6, 7}};
  llvm::Error E = validateGitRef(Tag);
  ASSERT_TRUE(bool(E));
  std::string Text = llvm::toString(std::move(E));
  EXPECT_NE(Text.find("m.toml:6:7: error:"), std::string::npos) << Text;
  EXPECT_FALSE(bool(validateGitRef({"v1.0", {}})));
  EXPECT_FALSE(bool(validateGitUrl({"https://e/p.git", {}})));
  EXPECT_TRUE(bool(validateCachePath({"../x", {}}))) << "expected an error";
  llvm::consumeError(validateCachePath({"../x", {}}));
}

TEST(GitSourceInManifests, LintExitsTwoWithFileLineCol) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hostile-git", "toml", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << manifestWith("ext::sh -c touch% /tmp/pwned", "v{version}");
  }
  RunResult R = runCudadeps({"lint", std::string(Path)});
  EXPECT_EQ(R.Code, 2) << R.Err;
  EXPECT_NE(R.Err.find(std::string(Path) + ":5:8: error:"), std::string::npos)
      << R.Err;
  // The environment widens the allowed schemes.
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << manifestWith("http://example.com/p.git", "v{version}");
  }
  R = runCudadeps({"lint", std::string(Path)});
  EXPECT_EQ(R.Code, 2) << R.Err;
  R = runCudadeps({"lint", std::string(Path)},
                  {{GitSchemesVariable, "https,http"}});
  EXPECT_EQ(R.Code, 0) << R.Err;
  llvm::sys::fs::remove(Path);
}

} // namespace
