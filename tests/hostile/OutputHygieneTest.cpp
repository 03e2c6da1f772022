//===- OutputHygieneTest.cpp - escapes, -1, located errors, --emit JSON ---===//
//
// What a facts file, a tool or libcuda says reaches the terminal only
// through printableText: no ESC, CSI, OSC or other control character is
// printed raw by probe, resolve or explain, nor by an error. A compute
// capability of -1 is refused or dropped, never shown as 2^64-1. The
// errors of matrix and explain are located at the manifest, a broken
// registry manifest is reported once (no "error: ... error:"), and --emit
// without -o honours --format json.
//
//===----------------------------------------------------------------------===//
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "cli/PrintableStream.h"

#include "llvm/Support/JSON.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";
const std::string FakeLibcuda =
    std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/fake_libcuda.so.1";

/// The first control byte (other than newline and tab) in \p Text, as
/// "offset N: byte B"; "" when there is none.
std::string firstControl(const std::string &Text) {
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    bool C1 = C == 0xC2 && I + 1 < Text.size() &&
              static_cast<unsigned char>(Text[I + 1]) >= 0x80 &&
              static_cast<unsigned char>(Text[I + 1]) <= 0x9F;
    if ((C < 0x20 && C != '\n' && C != '\t') || C == 0x7f || C1)
      return "offset " + std::to_string(I) + ": byte " + std::to_string(C);
  }
  return {};
}

/// A facts file whose strings hold terminal escapes (written as TOML
/// escapes, so the file itself is valid).
std::string hostileFacts(const TempDir &T) {
  std::string Path = T.sub("facts.toml");
  writeFile(
      Path,
      "[driver]\nversion = \"570.86.15\"\ncuda = \"12.8\"\n\n"
      "[[gpu]]\nname = \"H100 \\u001b]0;pwned\\u0007\\u001b[2J\"\n"
      "compute_capability = \"9.0\"\n\n"
      "[[nvcc]]\npath = \"/opt/\\u001b[31mcuda\\u009b/bin/nvcc\"\n"
      "version = \"12.8.93\"\nmax_gcc = 14\n\n"
      "[[compiler]]\npath = \"/usr/bin/g++\\u001b[0m\"\nfamily = \"gcc\"\n"
      "version = \"13.3.0\"\n\n"
      "[python]\npath = \"/usr/bin/python3\"\nversion = \"3.12.3\"\n");
  return Path;
}

std::map<std::string, std::string> quietEnv(const TempDir &T) {
  return {{"CUDADEPS_FACTS", ""},
          {"CUDADEPS_PLUGIN_PATH", ""},
          {"XDG_CACHE_HOME", T.sub("cache")}};
}

TEST(OutputHygiene, EscapesInFactsAreNotPrintedRaw) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Facts = hostileFacts(T);
  std::string Project = Scenarios + "/demo-project.toml";
  std::string Registry = Scenarios + "/registry";
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"probe", "--facts", Facts},
        {"resolve", Project, "--registry", Registry, "--facts", Facts},
        {"explain", Project, "demo-ext", "--registry", Registry, "--facts",
         Facts}}) {
    RunResult R = runCudadeps(Args, quietEnv(T));
    EXPECT_NE(R.Code, 2) << Args[0] << ": " << R.Err;
    EXPECT_EQ(firstControl(R.Out), "") << Args[0] << ":\n" << R.Out;
    EXPECT_EQ(firstControl(R.Err), "") << Args[0] << ":\n" << R.Err;
  }
  RunResult Probe = runCudadeps({"probe", "--facts", Facts}, quietEnv(T));
  EXPECT_THAT(Probe.Out, HasSubstr("H100 \\x1b]0;pwned\\x07\\x1b[2J"));
  EXPECT_THAT(Probe.Out, HasSubstr("/opt/\\x1b[31mcuda\\u009b/bin/nvcc"));
}

TEST(OutputHygiene, EscapesFromLibcudaAreNotPrintedRaw) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  auto Env = quietEnv(T);
  Env["CUDADEPS_LIBCUDA"] = FakeLibcuda;
  Env["CUDADEPS_FAKE_LIBCUDA_MODE"] = "escape";
  RunResult R = runCudadeps({"probe"}, Env);
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("Evil \\x1b]0;pwned\\x07GPU"));
  EXPECT_EQ(firstControl(R.Out), "") << R.Out;
  EXPECT_EQ(firstControl(R.Err), "") << R.Err;
}

TEST(OutputHygiene, AnErrorMessageShowsEscapesEscaped) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult R = runCudadeps({"probe", "--facts", T.sub("no\x1b[2Jsuch.toml")},
                            quietEnv(T));
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("no\\x1b[2Jsuch.toml"));
  EXPECT_EQ(firstControl(R.Err), "") << R.Err;
}

TEST(OutputHygiene, ComputeCapabilityMinusOne) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  // From --set and from a facts file: refused, exit 2.
  RunResult Set =
      runCudadeps({"probe", "--facts", Scenarios + "/nvcc13-driver128.toml",
                   "--set", "gpu=-1"},
                  quietEnv(T));
  EXPECT_EQ(Set.Code, 2) << Set.Out << Set.Err;
  EXPECT_THAT(Set.Out + Set.Err, Not(HasSubstr("18446744073709551615")));
  std::string Facts = T.sub("cc.toml");
  writeFile(Facts, "[[gpu]]\nname = \"x\"\ncompute_capability = \"-1\"\n");
  RunResult File = runCudadeps({"probe", "--facts", Facts}, quietEnv(T));
  EXPECT_EQ(File.Code, 2) << File.Out << File.Err;
  EXPECT_THAT(File.Err, HasSubstr(Facts + ":3:"));
  EXPECT_THAT(File.Out + File.Err, Not(HasSubstr("18446744073709551615")));
  // From libcuda: dropped with a warning.
  auto Env = quietEnv(T);
  Env["CUDADEPS_LIBCUDA"] = FakeLibcuda;
  Env["CUDADEPS_FAKE_LIBCUDA_MODE"] = "cc_minus_one";
  for (const char *Format : {"text", "json", "toml"}) {
    RunResult Probe = runCudadeps({"probe", "--format", Format}, Env);
    EXPECT_EQ(Probe.Code, 0) << Probe.Err;
    EXPECT_THAT(Probe.Out, Not(HasSubstr("18446744073709551615"))) << Format;
    EXPECT_THAT(Probe.Out, Not(HasSubstr("4294967295"))) << Format;
  }
}

TEST(OutputHygiene, MatrixErrorsAreLocated) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult Project =
      runCudadeps({"matrix", Scenarios + "/demo-project.toml"}, quietEnv(T));
  EXPECT_EQ(Project.Code, 2);
  EXPECT_THAT(Project.Err,
              HasSubstr(Scenarios + "/demo-project.toml:3:1: "
                                    "error: the manifest defines no "
                                    "[package]"));
  RunResult NoMatrix = runCudadeps(
      {"matrix", Scenarios + "/registry/demo-ext.toml"}, quietEnv(T));
  EXPECT_EQ(NoMatrix.Code, 2);
  EXPECT_THAT(NoMatrix.Err,
              ::testing::ContainsRegex("demo-ext.toml:[0-9]+:[0-9]+: error: "
                                       "no release of 'demo-ext' declares"))
      << NoMatrix.Err;
}

TEST(OutputHygiene, ExplainOfAPackageNotResolvedIsLocated) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult R = runCudadeps({"explain", Scenarios + "/demo-project.toml",
                             "demo-extt", "--registry", Scenarios + "/registry",
                             "--facts", Scenarios + "/nvcc13-driver128.toml"},
                            quietEnv(T));
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr(Scenarios +
                               "/demo-project.toml:3:1: error: "
                               "package 'demo-extt' (the PACKAGE argument of "
                               "explain) is not part of the resolution"));
  EXPECT_THAT(R.Err, HasSubstr("did you mean 'demo-ext'?"));
}

TEST(OutputHygiene, ABrokenRegistryManifestIsReportedOnce) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  writeFile(T.sub("reg/broken.toml"), "schema = 1\n[package\nname = 1\n");
  RunResult R = runCudadeps({"resolve", "broken", "--registry", T.sub("reg"),
                             "--facts", Scenarios + "/nvcc13-driver128.toml"},
                            quietEnv(T));
  EXPECT_EQ(R.Code, 2) << R.Out;
  EXPECT_THAT(R.Err, HasSubstr(T.sub("reg/broken.toml") + ":2:"));
  EXPECT_THAT(R.Err, Not(HasSubstr("cudadeps: error: " + T.sub("reg"))))
      << R.Err;
}

TEST(OutputHygiene, EmitWithoutOutputHonoursJson) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult R = runCudadeps({"resolve", Scenarios + "/demo-project.toml",
                             "--registry", Scenarios + "/registry", "--facts",
                             Scenarios + "/nvcc13-driver128.toml", "--emit",
                             "cmake", "--format", "json"},
                            quietEnv(T));
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(Doc)) << llvm::toString(Doc.takeError()) << "\n"
                         << R.Out << R.Err;
  const llvm::json::Object *Emit = Doc->getAsObject()->getObject("emit");
  ASSERT_TRUE(Emit) << R.Out;
  EXPECT_EQ(Emit->getString("kind"), llvm::Optional<llvm::StringRef>("cmake"));
  EXPECT_EQ(Emit->get("file")->kind(), llvm::json::Value::Null);
}

// lint, toolkit and plugins print mostly others' values (the manifest's
// path, the store under $XDG_DATA_HOME, a --plugin path): each line is shown
// through printableText, so none reaches the terminal raw.
TEST(OutputHygiene, LintToolkitAndPluginsShowPathsEscaped) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Manifest = T.sub("a\x1b[31mb.toml");
  writeFile(Manifest, readWhole(Scenarios + "/demo-project.toml"));
  RunResult Lint = runCudadeps(
      {"lint", Manifest, "--registry", Scenarios + "/registry"}, quietEnv(T));
  EXPECT_EQ(Lint.Code, 0) << Lint.Err;
  EXPECT_THAT(Lint.Out, HasSubstr("a\\x1b[31mb.toml: ok"));
  EXPECT_EQ(firstControl(Lint.Out + Lint.Err), "") << Lint.Out << Lint.Err;

  auto Env = quietEnv(T);
  Env["XDG_DATA_HOME"] = T.sub("d\x1b]0;pwned\x07");
  RunResult List = runCudadeps({"toolkit", "list"}, Env);
  EXPECT_EQ(List.Code, 0) << List.Err;
  EXPECT_THAT(List.Out, HasSubstr("d\\x1b]0;pwned\\x07/cudadeps/toolkits"));
  EXPECT_EQ(firstControl(List.Out + List.Err), "") << List.Out << List.Err;

  RunResult Plugins =
      runCudadeps({"plugins", "--plugin", T.sub("p\x1b[2J.so")}, quietEnv(T));
  EXPECT_EQ(Plugins.Code, 2);
  EXPECT_THAT(Plugins.Out, HasSubstr("--plugin " + T.sub("p\\x1b[2J.so")));
  EXPECT_EQ(firstControl(Plugins.Out + Plugins.Err), "")
      << Plugins.Out << Plugins.Err;
}

// A PrintableStream holds a line until it ends, so a UTF-8 sequence that
// arrives in two writes is kept, while control bytes are escaped.
TEST(OutputHygiene, PrintableStreamKeepsSplitUtf8AndEscapesControls) {
  std::string Shown;
  {
    llvm::raw_string_ostream Under(Shown);
    cudadeps::cli::PrintableStream S(Under);
    S << "caf\xc3";
    S << "\xa9 \x1b[2J\n";
    S << "tail\x07";
    EXPECT_EQ(Under.str(), "caf\xc3\xa9 \\x1b[2J\n");
    S.unfiltered() << "\x1b[K";
  }
  EXPECT_EQ(Shown, "caf\xc3\xa9 \\x1b[2J\ntail\\x07\x1b[K");
}

} // namespace
