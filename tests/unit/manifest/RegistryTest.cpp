#include "ManifestTestUtil.h"

#include "core/manifest/Registry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

class RegistryTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cudadeps-registry", Root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string dir(llvm::StringRef Name) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Name);
    llvm::sys::fs::create_directories(P);
    return std::string(P);
  }
  std::string write(llvm::StringRef Dir, llvm::StringRef File,
                    llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, File);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }
  static std::string pkg(llvm::StringRef Name, llvm::StringRef Version) {
    return ("schema = 1\n[package]\nname = \"" + Name +
            "\"\nbuild = \"python\"\n[[release]]\nversion = \"" + Version +
            "\"\n")
        .str();
  }

  llvm::SmallString<256> Root;
};

// Entries are told apart by the type the directory listing gives (no stat
// per file); symlinks are followed: a directory, or a link to one, named
// *.toml is not a manifest, a link to a manifest is one.
TEST_F(RegistryTest, DirectoriesNamedTomlAreSkippedAndLinksFollowed) {
  std::string A = dir("a"), Elsewhere = dir("elsewhere");
  dir("a/sub.toml");
  std::string Real = write(Elsewhere, "real.toml", pkg("linked", "1.0"));
  ASSERT_FALSE(llvm::sys::fs::create_link(Real, A + "/linked.toml"));
  ASSERT_FALSE(llvm::sys::fs::create_link(Elsewhere, A + "/dirlink.toml"));
  write(A, "plain.toml", pkg("plain", "2.0"));

  Registry R({A});
  llvm::Expected<std::vector<const Manifest *>> All = R.all();
  ASSERT_TRUE(bool(All)) << llvm::toString(All.takeError());
  std::vector<std::string> Names;
  for (const Manifest *M : *All)
    Names.push_back(M->Pkg->Name);
  EXPECT_THAT(Names, ElementsAre("linked", "plain"));
}

TEST_F(RegistryTest, FirstDirectoryWins) {
  std::string A = dir("a"), B = dir("b");
  write(A, "whatever.toml", pkg("causal-conv1d", "2.0"));
  write(B, "causal-conv1d.toml", pkg("causal-conv1d", "1.0"));
  write(B, "fla.toml", pkg("flash-linear-attention", "0.5.2"));
  write(B, "README.md", "not a manifest");

  Registry R({A, B});
  llvm::Expected<const Manifest *> C = R.find("causal_conv1d");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_NE(*C, nullptr);
  EXPECT_EQ((*C)->Pkg->Releases[0].VersionText, "2.0");
  EXPECT_THAT((*C)->File, HasSubstr("whatever.toml"));

  llvm::Expected<const Manifest *> F = R.find("Flash-Linear-Attention");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  ASSERT_NE(*F, nullptr);
  EXPECT_EQ((*F)->Pkg->Name, "flash-linear-attention");

  llvm::Expected<const Manifest *> None = R.find("mamba-ssm");
  ASSERT_TRUE(bool(None));
  EXPECT_EQ(*None, nullptr);

  llvm::Expected<std::vector<Manifest>> All = loadRegistry({A, B});
  ASSERT_TRUE(bool(All)) << llvm::toString(All.takeError());
  ASSERT_EQ(All->size(), 2u);
  EXPECT_EQ((*All)[0].Pkg->Releases[0].VersionText, "2.0");
  EXPECT_EQ((*All)[1].Pkg->Name, "flash-linear-attention");
}

TEST_F(RegistryTest, LaterDirectoriesAreNotReadWhenNotNeeded) {
  std::string A = dir("a"), B = dir("b");
  write(A, "x.toml", pkg("x", "1"));
  write(B, "broken.toml", "this is not toml = = =");
  Registry R({A, B});
  llvm::Expected<const Manifest *> X = R.find("x");
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  EXPECT_NE(*X, nullptr);
  // Looking further reaches the broken directory and reports it.
  llvm::Expected<const Manifest *> Y = R.find("y");
  ASSERT_FALSE(bool(Y));
  std::vector<Diagnostic> D = diagnosticsOf(llvm::Expected<Manifest>(Y.takeError()));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_THAT(D[0].Loc.File, HasSubstr("broken.toml"));
}

TEST_F(RegistryTest, DuplicateInOneDirectoryNamesBothFiles) {
  std::string A = dir("a");
  write(A, "one.toml", pkg("causal-conv1d", "1"));
  write(A, "two.toml", pkg("Causal_Conv1d", "2"));
  Registry R({A});
  llvm::Expected<const Manifest *> C = R.find("causal-conv1d");
  ASSERT_FALSE(bool(C));
  std::string Msg = llvm::toString(C.takeError());
  EXPECT_THAT(Msg, HasSubstr("one.toml"));
  EXPECT_THAT(Msg, HasSubstr("two.toml:3:8"));
  EXPECT_THAT(Msg, HasSubstr("is defined twice in registry"));
}

TEST_F(RegistryTest, ProjectOnlyFileIsAnErrorAndMissingDirIsSkipped) {
  std::string A = dir("a");
  write(A, "proj.toml", "schema = 1\n[project]\nname = \"p\"\n");
  Registry Missing({Root.str().str() + "/does-not-exist"});
  llvm::Expected<const Manifest *> M = Missing.find("x");
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(*M, nullptr);

  Registry R({A});
  llvm::Expected<const Manifest *> P = R.find("p");
  ASSERT_FALSE(bool(P));
  EXPECT_THAT(llvm::toString(P.takeError()),
              HasSubstr("registry manifest defines no [package]"));

  std::string File = write(A, "file.toml", pkg("z", "1"));
  Registry NotDir({File});
  llvm::Expected<const Manifest *> Z = NotDir.find("z");
  ASSERT_FALSE(bool(Z));
  EXPECT_THAT(llvm::toString(Z.takeError()), HasSubstr("is not a directory"));
}

TEST(RegistrySearchPath, Order) {
  std::vector<std::string> P = registrySearchPath(
      {"/cli1", "/cli2"}, {"/proj"}, "/env1::/env2:/cli1", "/prefix/share/cudadeps/manifests");
  EXPECT_THAT(P, ElementsAre("/cli1", "/cli2", "/proj", "/env1", "/env2",
                             "/prefix/share/cudadeps/manifests"));
  EXPECT_THAT(registrySearchPath({}, {}, "", ""), ElementsAre());
}

TEST(RegistryShipped, FindsTheShippedPackages) {
  Registry R({std::string(CUDADEPS_SOURCE_DIR) + "/manifests"});
  for (const char *Name : {"causal-conv1d", "flash-linear-attention"}) {
    llvm::Expected<const Manifest *> M = R.find(Name);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    ASSERT_NE(*M, nullptr) << Name;
  }
}

} // namespace
