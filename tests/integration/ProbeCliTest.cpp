//===- ProbeCliTest.cpp - `cudadeps probe` and `cudadeps plugins` end to end ===//
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

/// A temporary directory for the cache and written files, removed at the end.
class ProbeCliTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cudadeps-probe-cli", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    return (Dir + "/" + Name).str();
  }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    OS << Text;
    return path(Name);
  }
  /// The environment of every run: a private probe cache, no plugins or
  /// facts from the outside.
  std::map<std::string, std::string> env(
      std::map<std::string, std::string> Extra = {}) const {
    std::map<std::string, std::string> E = {{"XDG_CACHE_HOME", path("cache")},
                                            {"CUDADEPS_PLUGIN_PATH", ""},
                                            {"CUDADEPS_FACTS", ""},
                                            {"CUDADEPS_EXAMPLE_FACTS", ""}};
    for (auto &[K, V] : Extra)
      E[K] = V;
    return E;
  }

  llvm::SmallString<128> Dir;
};

std::string examplePlugin() {
  return std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/example.so";
}

/// The TOML without comment lines (they name sources, which differ between
/// probed and declared facts).
std::string withoutComments(llvm::StringRef Toml) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Toml.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (!L.ltrim().startswith("#"))
      Out += L.str() + "\n";
  return Out;
}

TEST_F(ProbeCliTest, TomlReadsBackUnchanged) {
  // The sample plugin makes the probed machine non-trivial and repeatable.
  std::string Json = write("example.json", R"({
    "gpu": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}],
    "torch": {"version": "2.8.0+cu128", "cuda": "12.8", "cxx11_abi": true},
    "packages": {"triton": "3.4.0"}})");
  auto Env = env({{"CUDADEPS_EXAMPLE_FACTS", Json}});
  RunResult Probed = runCudadeps(
      {"probe", "--format", "toml", "--plugin", examplePlugin()}, Env);
  ASSERT_EQ(Probed.Code, 0) << Probed.Err;
  EXPECT_THAT(Probed.Out, HasSubstr("version = \"2.8.0+cu128\""));
  EXPECT_THAT(Probed.Out, HasSubstr("# probed by example from " + examplePlugin()));
  std::string File = write("machine.toml", Probed.Out);

  RunResult Declared =
      runCudadeps({"probe", "--facts", File, "--format", "toml"}, env());
  ASSERT_EQ(Declared.Code, 0) << Declared.Err;
  EXPECT_EQ(withoutComments(Declared.Out), withoutComments(Probed.Out));

  // And once more from the declared output: now byte for byte, the sources
  // naming the (same) file.
  write("machine.toml", Declared.Out);
  RunResult Again =
      runCudadeps({"probe", "--facts", File, "--format", "toml"}, env());
  ASSERT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_EQ(withoutComments(Again.Out), withoutComments(Declared.Out));
}

TEST_F(ProbeCliTest, JsonIsOneDocumentOnStdout) {
  RunResult R = runCudadeps({"probe", "--format", "json"}, env());
  ASSERT_EQ(R.Code, 0) << R.Err;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << "\n" << R.Out;
  const llvm::json::Object *O = V->getAsObject();
  ASSERT_TRUE(O);
  EXPECT_TRUE(O->getObject("facts"));
  const llvm::json::Array *Probes = O->getArray("probes");
  ASSERT_TRUE(Probes);
  for (const llvm::json::Value &P : *Probes) {
    const llvm::json::Object *PO = P.getAsObject();
    ASSERT_TRUE(PO);
    EXPECT_TRUE(PO->getString("name"));
    auto Status = PO->getString("status");
    ASSERT_TRUE(Status);
    EXPECT_THAT(*Status, ::testing::AnyOf("found", "not-present", "error"));
  }
}

TEST_F(ProbeCliTest, SecondProbeUsesTheCacheAndRefreshDoesNot) {
  std::string Json = write("example.json", R"({"packages": {"triton": "3.4.0"}})");
  auto Env = env({{"CUDADEPS_EXAMPLE_FACTS", Json}});
  std::vector<std::string> Args = {"probe", "--format", "json", "--plugin",
                                   examplePlugin()};
  auto Cached = [](const RunResult &R) -> std::optional<bool> {
    auto V = llvm::json::parse(R.Out);
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    for (const llvm::json::Value &P : *V->getAsObject()->getArray("probes"))
      if (P.getAsObject()->getString("name") == llvm::StringRef("example"))
        if (auto B = P.getAsObject()->getBoolean("cached"))
          return *B;
    return std::nullopt;
  };
  RunResult First = runCudadeps(Args, Env);
  RunResult Second = runCudadeps(Args, Env);
  Args.push_back("--refresh");
  RunResult Third = runCudadeps(Args, Env);
  EXPECT_EQ(Cached(First), std::optional<bool>(false)) << First.Out << First.Err;
  EXPECT_EQ(Cached(Second), std::optional<bool>(true)) << Second.Out;
  EXPECT_EQ(Cached(Third), std::optional<bool>(false)) << Third.Out;
}

TEST_F(ProbeCliTest, TextSummaryShowsFoundMissingAndInconsistent) {
  std::string File = write("m.toml", R"([torch]
version = "2.11.0+cu128"
cuda = "12.8"

[[nvcc]]
path = "/usr/local/cuda-11.8/bin/nvcc"
version = "11.8.89"
)");
  RunResult R = runCudadeps({"probe", "--facts", File}, env());
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("machine described by " + File));
  EXPECT_THAT(R.Out, HasSubstr("11.8.89  /usr/local/cuda-11.8/bin/nvcc"));
  EXPECT_THAT(R.Out, HasSubstr("missing:"));
  EXPECT_THAT(R.Out, HasSubstr("no NVIDIA driver and no GPU visible"));
  EXPECT_THAT(R.Out, HasSubstr("inconsistent:"));
  EXPECT_THAT(R.Out, HasSubstr("no nvcc 12.x was found"));
}

TEST_F(ProbeCliTest, SetOverridesAndBadInputExit2) {
  std::string File = write("m.toml", "[python]\nversion = \"3.12.3\"\n");
  RunResult R = runCudadeps(
      {"probe", "--facts", File, "--set", "python=3.11.4", "--format", "toml"},
      env());
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("version = \"3.11.4\""));

  std::string Bad = write("bad.toml", "[python]\nversoin = \"3.12.3\"\n");
  RunResult B = runCudadeps({"probe", "--facts", Bad}, env());
  EXPECT_EQ(B.Code, 2);
  EXPECT_THAT(B.Err, HasSubstr(Bad + ":2:"));
  EXPECT_TRUE(B.Out.empty());

  RunResult S = runCudadeps({"probe", "--facts", File, "--set", "torch.cdua=12"},
                            env());
  EXPECT_EQ(S.Code, 2);
  EXPECT_THAT(S.Err, HasSubstr("torch.cdua"));

  RunResult E = runCudadeps({"probe"}, env({{"CUDADEPS_FACTS", Bad}}));
  EXPECT_EQ(E.Code, 2);
  EXPECT_THAT(E.Err, HasSubstr(Bad));
}

TEST_F(ProbeCliTest, PluginsListsBuiltinsAndExternalOrigins) {
  RunResult R =
      runCudadeps({"plugins", "--plugin", examplePlugin()}, env());
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("nvcc"));
  EXPECT_THAT(R.Out, HasSubstr("built-in"));
  EXPECT_THAT(R.Out, HasSubstr("example"));
  EXPECT_THAT(R.Out, HasSubstr(examplePlugin()));
}

TEST_F(ProbeCliTest, BadPluginPathIsAClearError) {
  RunResult R = runCudadeps(
      {"probe", "--plugin", path("no-such-plugin.so")}, env());
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("cannot load plugin '" +
                               path("no-such-plugin.so") + "': no such file"));
  EXPECT_TRUE(R.Out.empty());

  std::string WrongAbi = std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/wrong_abi.so";
  RunResult P = runCudadeps({"plugins", "--plugin", WrongAbi}, env());
  EXPECT_EQ(P.Code, 2);
  EXPECT_THAT(P.Err, HasSubstr("uses plugin ABI version 42"));
}

TEST_F(ProbeCliTest, FailingPluginOnSearchPathIsAWarningOnly) {
  std::string NoEntry = std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/no_entry.so";
  RunResult R = runCudadeps({"probe", "--format", "json"},
                            env({{"CUDADEPS_PLUGIN_PATH", NoEntry}}));
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("has no entry symbol"));
  auto V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
}

} // namespace
