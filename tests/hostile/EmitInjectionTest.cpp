//===- EmitInjectionTest.cpp - hostile values through the pre-build hooks ---===//
//
// An nvcc path, a host compiler path (both from --set) or a CUDA_HOME
// directory name holding CMake, Make or shell code must come out of
// `resolve --emit` as data: each emitted file is included by the real tool
// (cmake -P, make, sh), which must read back exactly the hostile value and
// run nothing of it (the marker files the code would create stay absent).
// Values a language cannot hold (';' in CMake, a newline in Make) are
// refused with exit 2, a message naming the value, and nothing written.
//
//===----------------------------------------------------------------------===//
#include "cli/EmitQuoting.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";

class EmitInjection : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(Dir.ok()); }

  /// A marker file that hostile code would create.
  std::string marker(StringRef Name) const { return Dir.sub(Name); }

  /// Fails the test when any marker exists: code from a value ran.
  void expectNothingRan() const {
    for (const char *M : {"m1", "m2", "m3", "m4", "m5", "m6"})
      EXPECT_FALSE(sys::fs::exists(marker(M)))
          << "hostile code ran: " << marker(M) << " exists";
  }

  /// resolve --emit KIND -o FILE for the build farm with --set values.
  RunResult emit(StringRef Kind, const std::vector<std::string> &Sets,
                 const std::string &File) const {
    std::vector<std::string> Args{
        "resolve",  Scenarios + "/demo-project.toml",
        "--registry", Scenarios + "/registry",
        "--facts",  Scenarios + "/build-farm-no-gpu.toml",
        "--arch",   "sm_90",
        "--emit",   Kind.str(),
        "-o",       File};
    for (const std::string &S : Sets) {
      Args.push_back("--set");
      Args.push_back(S);
    }
    return runCudadeps(Args);
  }

  /// Runs cmake -P on a script that includes \p Emitted and writes the
  /// value of \p Var to a file; returns that value.
  std::string cmakeReads(const std::string &Emitted, StringRef Var) {
    std::string CMake = findProgram("cmake");
    if (CMake.empty())
      return "<no cmake>";
    std::string Script = Dir.sub("read.cmake"), Out = Dir.sub("value.txt");
    writeFile(Script, "include(\"${EMITTED}\")\n"
                      "file(WRITE \"${OUT}\" \"${" + Var.str() + "}\")\n");
    sys::fs::remove(Out);
    RunResult R = runProgram(CMake, {"-DEMITTED=" + Emitted, "-DOUT=" + Out,
                                     "-P", Script});
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    return readWhole(Out);
  }

  /// Runs make on a Makefile that includes \p Emitted and prints $(Var)
  /// in a recipe (through the shell, as real recipes do).
  std::string makeReads(const std::string &Emitted, StringRef Var) {
    std::string Make = findProgram("make");
    if (Make.empty())
      return "<no make>";
    std::string Makefile = Dir.sub("Makefile"), Out = Dir.sub("value.txt");
    writeFile(Makefile, "include $(EMITTED)\n"
                        "print:\n"
                        "\t@printf '%s' $(" + Var.str() + ") > $(OUT)\n");
    sys::fs::remove(Out);
    RunResult R = runProgram(Make, {"-s", "-f", Makefile,
                                    "EMITTED=" + Emitted, "OUT=" + Out,
                                    "print"});
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    return readWhole(Out);
  }

  /// Sources \p Emitted with sh and returns the value of $Var.
  std::string shReads(const std::string &Emitted, StringRef Var) {
    std::string Out = Dir.sub("value.txt");
    sys::fs::remove(Out);
    RunResult R = runProgram(
        "/bin/sh", {"-c", ". \"$1\" && printf '%s' \"$" + Var.str() +
                              "\" > \"$2\"",
                    "sh", Emitted, Out});
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    return readWhole(Out);
  }

  TempDir Dir{"cudadeps-emit-injection"};
};

// CMake code after a closing quote, a bracket-closing attempt and a
// variable reference, in the toolkit directory name.
TEST_F(EmitInjection, CMakeReadsHostilePathsAsData) {
  if (findProgram("cmake").empty())
    GTEST_SKIP() << "cmake is not on PATH";
  std::string Home = "/opt/cuda\")\nexecute_process(COMMAND touch " +
                     marker("m1") + ")\n#]=] ]==]\nfile(WRITE " + marker("m2") +
                     " x) ${CMAKE_COMMAND} $ENV{HOME} \\\"";
  std::string Nvcc = Home + "/bin/nvcc";
  std::string Cxx = "/usr/bin/g++\" )\nfile(TOUCH " + marker("m3") + ")\n#";
  std::string File = Dir.sub("toolchain.cmake");
  RunResult R = emit("cmake", {"nvcc.path=" + Nvcc, "gcc.path=" + Cxx}, File);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(cmakeReads(File, "CMAKE_CUDA_COMPILER"), Nvcc);
  EXPECT_EQ(cmakeReads(File, "CUDAToolkit_ROOT"), Home);
  EXPECT_EQ(cmakeReads(File, "CMAKE_CUDA_HOST_COMPILER"), Cxx);
  EXPECT_EQ(cmakeReads(File, "CMAKE_CUDA_ARCHITECTURES"), "90");
  expectNothingRan();
}

// The quoting functions alone, on values that try every way out of each
// language's quoting: each tool reads back exactly the value.
const std::vector<std::string> &trickyValues() {
  static const std::vector<std::string> Values = {
      "plain/path",
      "",
      "\nleading newline",
      "\r\nleading CRLF",
      "ends with ]",
      "]=] ]==] ]===]",
      "\"quoted\" 'single' `back` $(sub) ${VAR} $ENV{HOME} $$ \\ \\\\",
      "# hash \\# \\\\# end\\",
      "tab\there",
      "\xc3\xa9 non-ASCII",
  };
  return Values;
}

TEST_F(EmitInjection, QuotedValuesReadBackExactly) {
  std::string CMake = findProgram("cmake"), Make = findProgram("make");
  if (CMake.empty() || Make.empty())
    GTEST_SKIP() << "cmake or make is not on PATH";
  for (const std::string &V : trickyValues()) {
    SCOPED_TRACE(V);
    std::string File = Dir.sub("v.cmake");
    Expected<std::string> C = cudadeps::cli::cmakeArgument(V);
    if (StringRef(V).contains('\r')) {
      EXPECT_FALSE(bool(C)); // CMake reads CRLF as a line ending
      consumeError(C.takeError());
    } else {
      ASSERT_TRUE(bool(C)) << toString(C.takeError());
      writeFile(File, "set(V " + *C + ")\n");
      EXPECT_EQ(cmakeReads(File, "V"), V);
    }

    File = Dir.sub("v.env");
    Expected<std::string> S = cudadeps::cli::shellWord(V);
    ASSERT_TRUE(bool(S)) << toString(S.takeError());
    writeFile(File, "export V=" + *S + "\n");
    EXPECT_EQ(shReads(File, "V"), V);

    if (StringRef(V).contains('\n') || StringRef(V).contains('\r') ||
        V.empty())
      continue; // refused, or no word at all
    File = Dir.sub("v.mk");
    Expected<std::string> M = cudadeps::cli::makeWord(V);
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    writeFile(File, "V := " + *M + "\n");
    EXPECT_EQ(makeReads(File, "V"), V);
  }
  expectNothingRan();
}

TEST(EmitQuoting, RefusalsSayWhy) {
  auto Why = [](Expected<std::string> E) {
    return E ? std::string("accepted: ") + *E : toString(E.takeError());
  };
  EXPECT_EQ(Why(cudadeps::cli::cmakeArgument("a;b")),
            "it contains ';', which CMake reads as a list separator");
  EXPECT_EQ(Why(cudadeps::cli::makeWord("a\nb")),
            "it contains a newline, which a Make variable cannot hold");
  EXPECT_EQ(Why(cudadeps::cli::makeWord("a\x1b[31m")),
            "it contains the control character \\x1b, which a Make variable "
            "cannot hold");
  EXPECT_EQ(Why(cudadeps::cli::shellWord(StringRef("a\0b", 3))),
            "it contains a NUL byte");
  EXPECT_EQ(Why(cudadeps::cli::shellWord("/usr/bin/g++")),
            "accepted: /usr/bin/g++");
  EXPECT_EQ(Why(cudadeps::cli::shellWord("it's")), "accepted: 'it'\\''s'");
  EXPECT_EQ(Why(cudadeps::cli::makeWord("$x#")), "accepted: '$$x\\#'");
  EXPECT_TRUE(cudadeps::cli::isShellVariableName("MAX_JOBS"));
  EXPECT_FALSE(cudadeps::cli::isShellVariableName("1X"));
  EXPECT_FALSE(cudadeps::cli::isShellVariableName("A;touch x"));
}

TEST_F(EmitInjection, CMakeRefusesAListSeparator) {
  std::string File = Dir.sub("toolchain.cmake");
  RunResult R = emit("cmake", {"nvcc.path=/opt/a;b/bin/nvcc"}, File);
  EXPECT_EQ(R.Code, 2) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("cannot write the nvcc path "
                               "'/opt/a;b/bin/nvcc' (overridden by --set "
                               "nvcc.path=/opt/a;b/bin/nvcc) into a CMake "
                               "file safely: it contains ';'"));
  EXPECT_FALSE(sys::fs::exists(File));
  EXPECT_EQ(R.Out, "");
}

// Make functions, shell command substitution, quote breakouts and a
// comment character: make and the recipe's shell see data only.
TEST_F(EmitInjection, MakeReadsHostilePathsAsData) {
  if (findProgram("make").empty())
    GTEST_SKIP() << "make is not on PATH";
  std::string Home = "/opt/$(shell touch " + marker("m1") + ") `touch " +
                     marker("m2") + "` $$(touch " + marker("m3") +
                     ") '; touch " + marker("m4") + "; ' # \\#x \\\\#y";
  std::string Nvcc = Home + "/bin/nvcc";
  std::string Cxx = "/usr/bin/g++ $(touch " + marker("m5") + ") ${MAKE}";
  std::string File = Dir.sub("toolchain.mk");
  RunResult R = emit("make", {"nvcc.path=" + Nvcc, "gcc.path=" + Cxx}, File);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(makeReads(File, "NVCC"), Nvcc);
  EXPECT_EQ(makeReads(File, "CUDA_HOME"), Home);
  EXPECT_EQ(makeReads(File, "NVCC_CCBIN"), Cxx);
  EXPECT_EQ(makeReads(File, "CUDA_ARCH_FLAGS"),
            "-gencodearch=compute_90,code=sm_90"); // printf '%s' joins words
  expectNothingRan();
}

TEST_F(EmitInjection, MakeRefusesANewline) {
  std::string File = Dir.sub("toolchain.mk");
  std::string Nvcc = "/opt/x\nall:\n\ttouch " + marker("m1") + "\n/bin/nvcc";
  RunResult R = emit("make", {"nvcc.path=" + Nvcc}, File);
  EXPECT_EQ(R.Code, 2) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("cannot write the nvcc path '/opt/x\\x0aall:"));
  EXPECT_THAT(R.Err, HasSubstr("into a Make file safely: it contains a "
                               "newline, which a Make variable cannot hold"));
  EXPECT_FALSE(sys::fs::exists(File));
}

// Single-quote breakouts, command substitution, backticks, parameter
// expansion and newlines: sourcing the file sets the exact values.
TEST_F(EmitInjection, ShellReadsHostilePathsAsData) {
  std::string Home = "/opt/'$(touch " + marker("m1") + ")' `touch " +
                     marker("m2") + "` \"$(touch " + marker("m3") +
                     ")\" ${HOME}\nexport X=1; touch " + marker("m4") + " \\";
  std::string Nvcc = Home + "/bin/nvcc";
  std::string Cxx = "/usr/bin/g++'\ntouch " + marker("m5") + "\n'";
  std::string File = Dir.sub("toolchain.env");
  RunResult R = emit("env", {"nvcc.path=" + Nvcc, "gcc.path=" + Cxx}, File);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(shReads(File, "CUDA_HOME"), Home);
  EXPECT_EQ(shReads(File, "NVCC_CCBIN"), Cxx);
  EXPECT_EQ(shReads(File, "CUDAHOSTCXX"), Cxx);
  std::string Path = shReads(File, "PATH");
  EXPECT_EQ(StringRef(Path).substr(0, Home.size() + 5), Home + "/bin:");
  expectNothingRan();
}

// A CUDA_HOME directory with a hostile name, found by the real nvcc probe
// (a fake toolkit there): the emitted files carry the name as data.
TEST_F(EmitInjection, ProbedCudaHomeWithHostileNameIsData) {
  if (findProgram("cmake").empty())
    GTEST_SKIP() << "cmake is not on PATH";
  std::string Home = Dir.sub("cuda\")\nfile(TOUCH " + marker("m1") +
                             ")\n# $(shell touch " + marker("m2") + ") `touch " +
                             marker("m3") + "`");
  FakeToolkitSpec Spec;
  Spec.Release = "12.8";
  Spec.Full = "12.8.61";
  std::string Nvcc = makeFakeToolkit(Home, Spec);
  // A package that only the fake toolkit fits.
  std::string Project = Dir.sub("pkg.toml");
  writeFile(Project, "schema = 1\n[package]\nname = \"p\"\n"
                     "git = \"https://example.invalid/p.git\"\n"
                     "build = \"cmake\"\n[requires]\n"
                     "nvcc = \"==12.8.61\"\n"
                     "[[release]]\nversion = \"1.0\"\narchs = [\"sm_90\"]\n");
  std::string File = Dir.sub("toolchain.cmake");
  // The probe cache is the test's own.
  RunResult R = runCudadeps(
      {"resolve", Project, "--arch", "sm_90", "--set", "torch=", "--set",
       "driver=", "--emit", "cmake", "-o", File},
      {{"CUDA_HOME", Home}, {"XDG_CACHE_HOME", Dir.sub("cache")}});
  if (R.Code == 1)
    GTEST_SKIP() << "no host compiler on this machine fits the fake nvcc "
                    "12.8:\n"
                 << R.Out;
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(cmakeReads(File, "CMAKE_CUDA_COMPILER"), Nvcc);
  EXPECT_EQ(cmakeReads(File, "CUDAToolkit_ROOT"), Home);
  expectNothingRan();
}

} // namespace
