//===- PluginLoaderTest.cpp - loading external plugins through the C ABI --===//

#include "core/plugin/PluginLoader.h"

#include "TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

/// Loads \p Path expecting a failure; returns (kind, message).
std::pair<PluginLoadError::Kind, std::string> loadFailure(llvm::StringRef Path) {
  auto P = loadPlugin(Path);
  EXPECT_FALSE(P) << "loaded " << Path.str();
  if (P)
    return {PluginLoadError::Kind::Shadowed, ""};
  std::pair<PluginLoadError::Kind, std::string> Out;
  llvm::handleAllErrors(P.takeError(), [&](const PluginLoadError &E) {
    Out = {E.kind(), E.message()};
  });
  return Out;
}

class PluginLoaderTest : public ::testing::Test {
protected:
  void SetUp() override { unsetenv("CUDADEPS_TEST_PLUGIN_MODE"); }
  void TearDown() override { unsetenv("CUDADEPS_TEST_PLUGIN_MODE"); }

  llvm::Expected<ProbeAnswer> probeGood(const char *Mode) {
    if (Mode)
      setenv("CUDADEPS_TEST_PLUGIN_MODE", Mode, 1);
    auto P = loadPlugin(testPlugin("good"));
    if (!P)
      return P.takeError();
    return (*P)->probe(Ctx);
  }

  MapEnvironment Env;
  NoProcessRunner Runner;
  ProbeContext Ctx{Env, Runner};
};

TEST_F(PluginLoaderTest, GoodPluginLoadsWithNameVersionAndOrigin) {
  auto P = loadPlugin(testPlugin("good"));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ((*P)->name(), "test-good");
  EXPECT_EQ((*P)->version(), "1.0.0");
  EXPECT_EQ((*P)->origin(), testPlugin("good"));
}

TEST_F(PluginLoaderTest, GoodPluginAnswersFactsWithProbedSource) {
  auto A = probeGood(nullptr);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->What, ProbeAnswer::Kind::Found);
  ASSERT_EQ(A->Found.Packages.count("test-good-pkg"), 1u);
  const PackageFact &Pkg = A->Found.Packages.at("test-good-pkg");
  EXPECT_EQ(Pkg.Ver.str(), "1.2.3");
  EXPECT_EQ(Pkg.From, Source::probed("test-good", testPlugin("good")));
  EXPECT_EQ(Pkg.From.describe(),
            "probed by test-good from " + testPlugin("good"));
  ASSERT_EQ(A->Found.Nvccs.size(), 1u);
  EXPECT_EQ(A->Found.Nvccs[0].Path, "/opt/test/bin/nvcc");
  EXPECT_THAT(A->Searched, ::testing::ElementsAre("/opt/test"));
  EXPECT_THAT(A->Warnings, ::testing::ElementsAre("test warning"));
  EXPECT_THAT(A->EnvInputs,
              ::testing::ElementsAre("CUDADEPS_TEST_PLUGIN_MODE"));
  // The plugin file itself is an input: rebuilding it invalidates the cache.
  EXPECT_THAT(A->Inputs, ::testing::Contains(testPlugin("good")));
}

TEST_F(PluginLoaderTest, NotPresentAnswer) {
  auto A = probeGood("not_present");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A->NotPresentReason, "nothing to see");
  EXPECT_THAT(A->Searched, ::testing::ElementsAre("/x"));
}

TEST_F(PluginLoaderTest, ErrorAnswerNamesThePlugin) {
  auto A = probeGood("error");
  ASSERT_FALSE(bool(A));
  std::string Msg = llvm::toString(A.takeError());
  EXPECT_THAT(Msg, HasSubstr("test-good"));
  EXPECT_THAT(Msg, HasSubstr("the widget is broken"));
}

TEST_F(PluginLoaderTest, MalformedAnswersAreErrors) {
  for (const char *Mode : {"bad_json", "null_answer", "bad_facts"}) {
    auto A = probeGood(Mode);
    ASSERT_FALSE(bool(A)) << Mode;
    std::string Msg = llvm::toString(A.takeError());
    EXPECT_FALSE(Msg.empty()) << Mode;
  }
  auto A = probeGood("bad_json");
  ASSERT_FALSE(bool(A));
  EXPECT_THAT(llvm::toString(A.takeError()), HasSubstr("invalid JSON answer"));
  auto B = probeGood("null_answer");
  ASSERT_FALSE(bool(B));
  EXPECT_THAT(llvm::toString(B.takeError()), HasSubstr("returned no answer"));
}

TEST(ParsePluginAnswerTest, ReadsTheAnswerTextAsTheProbeDoes) {
  auto A = parsePluginAnswer(
      R"({"packages": {"p": "1.0"}, "searched": ["/s"], "inputs": ["/i"]})",
      "answers", "/lib/answers.so");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->What, ProbeAnswer::Kind::Found);
  ASSERT_EQ(A->Found.Packages.count("p"), 1u);
  EXPECT_EQ(A->Found.Packages.at("p").From,
            Source::probed("answers", "/lib/answers.so"));
  EXPECT_THAT(A->Searched, ::testing::ElementsAre("/s"));
  EXPECT_THAT(A->Inputs, ::testing::ElementsAre("/i", "/lib/answers.so"));

  auto NP = parsePluginAnswer(R"({"not_present": "none here"})", "answers",
                              "/lib/answers.so");
  ASSERT_TRUE(bool(NP)) << llvm::toString(NP.takeError());
  EXPECT_EQ(NP->What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(NP->NotPresentReason, "none here");

  for (const char *Bad : {"[", "[]", R"({"searched": "x"})",
                          R"({"not_present": 1})", R"({"gpu": 1})"}) {
    auto E = parsePluginAnswer(Bad, "answers", "/lib/answers.so");
    ASSERT_FALSE(bool(E)) << Bad;
    EXPECT_THAT(llvm::toString(E.takeError()), HasSubstr("answers")) << Bad;
  }
}

TEST_F(PluginLoaderTest, MissingFileCannotLoad) {
  auto [Kind, Msg] = loadFailure("/nonexistent/dir/plugin.so");
  EXPECT_EQ(Kind, PluginLoadError::Kind::CannotLoad);
  EXPECT_EQ(Msg, "cannot load plugin '/nonexistent/dir/plugin.so': no such file");
}

TEST_F(PluginLoaderTest, NotASharedObjectCannotLoad) {
  TempDir Dir;
  std::string P = Dir.write("garbage.so", "this is not ELF\n");
  auto [Kind, Msg] = loadFailure(P);
  EXPECT_EQ(Kind, PluginLoadError::Kind::CannotLoad);
  EXPECT_THAT(Msg, HasSubstr("cannot load plugin '" + P + "': "));
}

TEST_F(PluginLoaderTest, NoEntrySymbol) {
  auto [Kind, Msg] = loadFailure(testPlugin("no_entry"));
  EXPECT_EQ(Kind, PluginLoadError::Kind::NoEntrySymbol);
  EXPECT_THAT(Msg, HasSubstr("plugin '" + testPlugin("no_entry") +
                             "' has no entry symbol 'cudadeps_plugin_entry'"));
}

TEST_F(PluginLoaderTest, WrongAbiVersion) {
  auto [Kind, Msg] = loadFailure(testPlugin("wrong_abi"));
  EXPECT_EQ(Kind, PluginLoadError::Kind::WrongAbiVersion);
  EXPECT_EQ(Msg, "plugin '" + testPlugin("wrong_abi") +
                     "' uses plugin ABI version 42; this cudadeps supports "
                     "version 1");
}

TEST_F(PluginLoaderTest, NullCallback) {
  auto [Kind, Msg] = loadFailure(testPlugin("null_callback"));
  EXPECT_EQ(Kind, PluginLoadError::Kind::NullCallback);
  EXPECT_EQ(Msg, "plugin '" + testPlugin("null_callback") +
                     "' has a null probe callback");
}

TEST_F(PluginLoaderTest, SearchOrderCommandLineThenEnvThenInstalled) {
  TempDir Installed;
  // The installed directory: only shared objects are plugins.
  Installed.write("zz.so", "not elf");
  Installed.write("README.md", "not a plugin");
  PluginSearchPath S;
  S.CommandLine = {testPlugin("good")};
  S.EnvPath = testPlugin("wrong_abi") + "::" + testPlugin("good");
  S.InstalledDir = Installed.path();
  EXPECT_THAT(findPluginFiles(S),
              ::testing::ElementsAre(testPlugin("good"), testPlugin("wrong_abi"),
                                     Installed.path("zz.so")));
}

TEST_F(PluginLoaderTest, DirectoryEntriesAreExpandedInNameOrder) {
  PluginSearchPath S;
  S.EnvPath = std::string(CUDADEPS_TEST_PLUGIN_DIR);
  std::vector<std::string> Files = findPluginFiles(S);
  EXPECT_THAT(Files, ::testing::IsSupersetOf(
                         {testPlugin("good"), testPlugin("no_entry")}));
  EXPECT_TRUE(std::is_sorted(Files.begin(), Files.end()));
}

TEST_F(PluginLoaderTest, MissingInstalledDirIsSilentMissingExplicitPathIsNot) {
  PluginSearchPath S;
  S.InstalledDir = "/nonexistent/lib/cudadeps/plugins";
  EXPECT_TRUE(findPluginFiles(S).empty());
  S.CommandLine = {"/nonexistent/x.so"};
  ExternalPlugins L = loadPlugins(S);
  EXPECT_TRUE(L.Probes.empty());
  ASSERT_EQ(L.Failures.size(), 1u);
  EXPECT_EQ(L.Failures[0].What, PluginLoadError::Kind::CannotLoad);
}

TEST_F(PluginLoaderTest, LoadPluginsCollectsEveryFailureDistinctly) {
  PluginSearchPath S;
  S.CommandLine = {testPlugin("good"), testPlugin("wrong_abi"),
                   testPlugin("no_entry"), testPlugin("null_callback")};
  ExternalPlugins L = loadPlugins(S);
  ASSERT_EQ(L.Probes.size(), 1u);
  EXPECT_EQ(L.Probes[0]->name(), "test-good");
  ASSERT_EQ(L.Failures.size(), 3u);
  EXPECT_EQ(L.Failures[0].What, PluginLoadError::Kind::WrongAbiVersion);
  EXPECT_EQ(L.Failures[1].What, PluginLoadError::Kind::NoEntrySymbol);
  EXPECT_EQ(L.Failures[2].What, PluginLoadError::Kind::NullCallback);
}

TEST_F(PluginLoaderTest, SameNameTwiceFirstWins) {
  TempDir Dir;
  // A second file holding the same plugin (same name, other path).
  std::string Copy = Dir.path("copy-of-good.so");
  ASSERT_FALSE(llvm::sys::fs::copy_file(testPlugin("good"), Copy));
  PluginSearchPath S;
  S.CommandLine = {testPlugin("good"), Copy};
  ExternalPlugins L = loadPlugins(S);
  ASSERT_EQ(L.Probes.size(), 1u);
  EXPECT_EQ(L.Probes[0]->origin(), testPlugin("good"));
  ASSERT_EQ(L.Failures.size(), 1u);
  EXPECT_EQ(L.Failures[0].What, PluginLoadError::Kind::Shadowed);
  EXPECT_THAT(L.Failures[0].Message, HasSubstr("already loaded from"));
}

TEST_F(PluginLoaderTest, ExamplePluginEchoesItsFactsFile) {
  TempDir Dir;
  std::string File = Dir.write(
      "facts.json", R"({"torch": {"version": "2.8.0+cu128", "cuda": "12.8"}})");
  MapEnvironment Unused;
  setenv("CUDADEPS_EXAMPLE_FACTS", File.c_str(), 1);
  auto P = loadPlugin(testPlugin("example"));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto A = (*P)->probe(Ctx);
  unsetenv("CUDADEPS_EXAMPLE_FACTS");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  ASSERT_TRUE(A->Found.Torch.has_value());
  EXPECT_EQ(A->Found.Torch->Ver.str(), "2.8.0+cu128");
  EXPECT_THAT(A->Inputs, ::testing::Contains(File));
  auto B = (*P)->probe(Ctx);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_EQ(B->What, ProbeAnswer::Kind::NotPresent);
}

} // namespace
