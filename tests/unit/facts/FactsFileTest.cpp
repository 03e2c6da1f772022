//===- FactsFileTest.cpp - facts files (TOML) -----------------------------===//

#include "FactsTestUtil.h"

#include "core/facts/FactsFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace cudadeps;
using namespace cudadeps::testing;
using namespace llvm;

static std::string fixture(StringRef Name) {
  SmallString<256> P(CUDADEPS_FIXTURES_DIR);
  sys::path::append(P, "facts", Name);
  return std::string(P);
}

static std::vector<Diagnostic> errorsOf(StringRef Text,
                                        StringRef File = "facts.toml") {
  return diagnosticsOf(parseFactsToml(Text, File));
}

//===----------------------------------------------------------------------===//
// Good files
//===----------------------------------------------------------------------===//

TEST(FactsFileTest, ReadsTheDesignExample) {
  std::string Path = fixture("design-example.toml");
  Expected<Facts> F = readFactsFile(Path);
  ASSERT_TRUE(bool(F)) << toString(F.takeError());

  ASSERT_TRUE(F->Driver);
  EXPECT_EQ(*F->Driver->KernelVersion, ver("570.86.15"));
  EXPECT_EQ(*F->Driver->Cuda, ver("12.8"));
  EXPECT_EQ(F->Driver->KernelSource, Source::declared(Path, Path + ":2"));
  EXPECT_EQ(F->Driver->CudaSource, Source::declared(Path, Path + ":3"));

  ASSERT_EQ(F->Gpus.size(), 1u);
  EXPECT_EQ(F->Gpus[0].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(F->Gpus[0].smArch(), "sm_90");
  EXPECT_EQ(F->Gpus[0].From, Source::declared(Path, Path + ":5"));

  ASSERT_EQ(F->Nvccs.size(), 1u);
  EXPECT_EQ(F->Nvccs[0].Path, "/usr/local/cuda-12.8/bin/nvcc");
  EXPECT_EQ(F->Nvccs[0].Ver, ver("12.8.93"));
  EXPECT_FALSE(F->Nvccs[0].MaxGcc); // commented out in the example
  EXPECT_TRUE(F->Nvccs[0].Archs.empty());
  EXPECT_EQ(F->Nvccs[0].From.describe(), "declared in " + Path + ":9");

  ASSERT_EQ(F->Compilers.size(), 1u);
  EXPECT_EQ(F->Compilers[0].Path, "/usr/bin/g++-13");
  EXPECT_EQ(F->Compilers[0].Family, "gcc");
  EXPECT_EQ(F->Compilers[0].Ver, ver("13.3.0"));

  ASSERT_TRUE(F->Python);
  EXPECT_EQ(F->Python->Path, "/usr/bin/python3");
  EXPECT_EQ(F->Python->tag(), "cp312");

  ASSERT_TRUE(F->Torch);
  EXPECT_EQ(F->Torch->Ver, ver("2.11.0+cu128"));
  EXPECT_EQ(F->Torch->Ver.local(), "cu128");
  EXPECT_EQ(*F->Torch->Cuda, ver("12.8"));
  EXPECT_EQ(F->Torch->Cxx11Abi, true);

  ASSERT_EQ(F->Packages.size(), 1u);
  EXPECT_EQ(F->Packages.at("triton").Ver, ver("3.6.0"));
  EXPECT_EQ(F->Packages.at("triton").From.From, Path + ":32");

  ASSERT_TRUE(F->Platform);
  EXPECT_EQ(F->Platform->tag(), "linux_x86_64");
  EXPECT_EQ(F->Platform->Cpus, 64u);
  EXPECT_EQ(F->Platform->MemoryGib, 512.0);
  EXPECT_FALSE(F->Platform->Glibc);
}

TEST(FactsFileTest, ReadsTheSeedScenario) {
  Expected<Facts> F = readFactsFile(fixture("seed-no-nvcc.toml"));
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_TRUE(F->Nvccs.empty());
  ASSERT_EQ(F->Gpus.size(), 8u);
  for (const GpuFacts &G : F->Gpus) {
    EXPECT_EQ(G.Name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(G.smArch(), "sm_90");
  }
  EXPECT_EQ(*F->Driver->Cuda, ver("12.8"));
  EXPECT_EQ(*F->Driver->KernelVersion, ver("570.86.15"));
  EXPECT_EQ(F->Torch->Ver, ver("2.11.0+cu128"));
  EXPECT_EQ(F->Python->tag(), "cp312");
  ASSERT_EQ(F->Compilers.size(), 1u);
  EXPECT_EQ(F->Compilers[0].Ver, ver("13.3.0"));
}

TEST(FactsFileTest, BareMachineHasOnlyThePlatform) {
  Expected<Facts> F = readFactsFile(fixture("bare.toml"));
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_FALSE(F->Driver);
  EXPECT_TRUE(F->Gpus.empty());
  EXPECT_TRUE(F->Nvccs.empty());
  EXPECT_TRUE(F->Compilers.empty());
  EXPECT_FALSE(F->Python);
  EXPECT_FALSE(F->Torch);
  ASSERT_TRUE(F->Platform);
  EXPECT_EQ(F->Platform->Cpus, 4u);
}

TEST(FactsFileTest, EmptyFileIsABareMachine) {
  for (StringRef Text : {"", "\n\n", "# nothing known\n", "\xEF\xBB\xBF"}) {
    Expected<Facts> F = parseFactsToml(Text, "empty.toml");
    ASSERT_TRUE(bool(F)) << toString(F.takeError());
    EXPECT_EQ(*F, Facts());
  }
}

TEST(FactsFileTest, AcceptsArchSuffixesAndOptionalKeys) {
  Expected<Facts> F = parseFactsToml(R"([[nvcc]]
path = "/usr/local/cuda-13.0/bin/nvcc"
version = "13.0.88"
max_gcc = 15
max_clang = 20
archs = ["sm_75", "sm_90a", "sm_100f", "sm_121a"]

[driver]

[torch]
version = "2.9.1+cpu"

[platform]
memory_gib = 15.5
glibc = "2.36"

[packages]
"zope.interface" = "7.2"
)",
                                     "f.toml");
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ(F->Nvccs[0].MaxGcc, 15u);
  EXPECT_EQ(F->Nvccs[0].MaxClang, 20u);
  EXPECT_EQ(F->Nvccs[0].Archs, (std::vector<std::string>{
                                   "sm_75", "sm_90a", "sm_100f", "sm_121a"}));
  ASSERT_TRUE(F->Driver); // an empty [driver] is a driver of unknown version
  EXPECT_FALSE(F->Driver->KernelVersion);
  EXPECT_FALSE(F->Torch->Cuda);
  EXPECT_FALSE(F->Torch->Cxx11Abi);
  EXPECT_EQ(F->Platform->MemoryGib, 15.5);
  EXPECT_EQ(*F->Platform->Glibc, ver("2.36"));
  EXPECT_EQ(F->Packages.at("zope.interface").Ver, ver("7.2"));
}

//===----------------------------------------------------------------------===//
// Writing and reading back
//===----------------------------------------------------------------------===//

TEST(FactsFileTest, WriteThenReadGivesEqualValues) {
  Facts F = richFacts();
  std::string Text = writeFactsToml(F);
  Expected<Facts> Back = parseFactsToml(Text, "written.toml");
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError()) << "\n" << Text;
  EXPECT_EQ(withoutSources(*Back), withoutSources(F)) << Text;
  // Exact strings and numbers, not just equal versions.
  EXPECT_EQ(Back->Nvccs[1].Path, F.Nvccs[1].Path);
  EXPECT_EQ(Back->Python->Path, F.Python->Path);
  EXPECT_EQ(*Back->Platform->MemoryGib, 503.7421875);
  EXPECT_EQ(Back->Nvccs[0].Archs, F.Nvccs[0].Archs);
  // What was read from the file is declared there, at the fact's line.
  for (Source *S : sourcesOf(*Back)) {
    EXPECT_EQ(S->How, Source::Kind::Declared);
    EXPECT_EQ(S->By, "written.toml");
    EXPECT_TRUE(StringRef(S->From).startswith("written.toml:")) << S->From;
  }
  unsigned Line = 0;
  StringRef(Back->Nvccs[0].From.From).substr(13).getAsInteger(10, Line);
  EXPECT_EQ(sourceLine(Text, Line), "[[nvcc]]");
}

TEST(FactsFileTest, WrittenFactsNameTheirSources) {
  std::string Text = writeFactsToml(richFacts());
  SmallVector<StringRef, 64> Lines;
  StringRef(Text).split(Lines, '\n');
  auto PrecededBy = [&](StringRef Line, StringRef Comment) {
    for (size_t I = 1; I < Lines.size(); ++I)
      if (Lines[I] == Line && Lines[I - 1] == Comment)
        return true;
    return false;
  };
  EXPECT_TRUE(PrecededBy("version = \"570.86.15\"",
                         "# probed by driver from /proc/driver/nvidia/version"))
      << Text;
  EXPECT_TRUE(PrecededBy("cuda = \"12.8\"",
                         "# probed by driver from cuDriverGetVersion in a "
                         "child process"))
      << Text;
  EXPECT_TRUE(PrecededBy("[[nvcc]]", "# probed by nvcc from "
                                     "/usr/local/cuda-12.8/bin/nvcc --version"))
      << Text;
  EXPECT_TRUE(PrecededBy("[[nvcc]]", "# overridden by --set nvcc.path=x"))
      << Text;
  EXPECT_TRUE(PrecededBy("[[gpu]]", "# declared in machine.toml:7")) << Text;
  EXPECT_TRUE(PrecededBy("\"zope.interface\" = \"7.2\"",
                         "# overridden by --set zope.interface=7.2"))
      << Text;
}

TEST(FactsFileTest, DesignExampleSurvivesWriteAndRead) {
  Expected<Facts> F = readFactsFile(fixture("design-example.toml"));
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  Expected<Facts> Back = parseFactsToml(writeFactsToml(*F), "again.toml");
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_EQ(withoutSources(*Back), withoutSources(*F));
}

TEST(FactsFileTest, WritesNothingButCommentsForABareMachine) {
  std::string Text = writeFactsToml(Facts());
  for (StringRef Line : split(StringRef(Text).trim(), '\n'))
    EXPECT_TRUE(Line.startswith("#")) << Line.str();
  Expected<Facts> Back = parseFactsToml(Text, "bare.toml");
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, Facts());
}

TEST(FactsFileTest, SourcesWithNewlinesStayInTheirComment) {
  Facts F;
  F.Python =
      PythonFacts{"/usr/bin/python3", ver("3.12"),
                  Source::probed("evil", "a\n[driver]\nversion = \"1\"")};
  Expected<Facts> Back = parseFactsToml(writeFactsToml(F), "w.toml");
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_FALSE(Back->Driver);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(FactsFileErrorTest, WrongTypeNamesKeyAndTypes) {
  auto D = errorsOf("[python]\npath = \"/usr/bin/python3\"\nversion = 312\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:3:11");
  EXPECT_EQ(D[0].Message, "expected a string for 'version', found integer");
  EXPECT_EQ(D[0].SourceLine, "version = 312");
  EXPECT_NE(D[0].render().find("          ^"), std::string::npos)
      << D[0].render();
}

TEST(FactsFileErrorTest, UnknownKeySuggestsTheNearest) {
  // The misspelt key is the error; that 'version' is then missing is not
  // reported on top of it.
  auto D = errorsOf("[[nvcc]]\npath = \"/x/nvcc\"\nverison = \"12.8\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:3:1");
  EXPECT_EQ(D[0].Message, "unknown key 'verison' in [[nvcc]]");
  EXPECT_EQ(D[0].Hint, "did you mean 'version'?");

  D = errorsOf("[[nvcc]]\npath = \"/x/nvcc\"\nvendor = \"nvidia\"\n");
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:1");
  EXPECT_EQ(D[0].Message, "missing required key 'version' in [[nvcc]]");
  EXPECT_EQ(locationOf(D[1]), "facts.toml:3:1");
  EXPECT_EQ(D[1].Message, "unknown key 'vendor' in [[nvcc]]");
}

TEST(FactsFileErrorTest, UnknownTableSuggestsTheNearest) {
  auto D = errorsOf("[pyton]\nversion = \"3.12\"\n\n[[gpus]]\n");
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:2");
  EXPECT_EQ(D[0].Message, "unknown table 'pyton'");
  EXPECT_EQ(D[0].Hint, "did you mean 'python'?");
  EXPECT_EQ(locationOf(D[1]), "facts.toml:4:3");
  EXPECT_EQ(D[1].Message, "unknown table 'gpus'");
  EXPECT_EQ(D[1].Hint, "did you mean 'gpu'?");
}

TEST(FactsFileErrorTest, ReportsEveryErrorInFileOrder) {
  auto D = errorsOf(R"([torch]
version = "banana"
cuda = 12.8

[[gpu]]
compute_capability = "9"

[[compiler]]
path = "/usr/bin/g++"
family = "gnu"
version = "13"

[platform]
cpus = -4
memory_gib = 0
)");
  std::vector<std::string> Where;
  for (const Diagnostic &Diag : D)
    Where.push_back(locationOf(Diag) + " " + Diag.Message);
  ASSERT_EQ(Where.size(), 6u) << join(Where, "\n");
  EXPECT_TRUE(StringRef(Where[0]).startswith(
      "facts.toml:2:11 invalid version 'banana' for 'version'"))
      << Where[0];
  EXPECT_EQ(Where[1],
            "facts.toml:3:8 expected a string for 'cuda', found float");
  EXPECT_EQ(Where[2], "facts.toml:6:22 invalid compute capability '9': "
                      "expected MAJOR.MINOR, e.g. \"9.0\"");
  EXPECT_EQ(Where[3], "facts.toml:10:10 invalid compiler family 'gnu': "
                      "expected \"gcc\" or \"clang\"");
  EXPECT_EQ(D[3].Hint, "did you mean 'gcc'?");
  EXPECT_EQ(Where[4], "facts.toml:14:8 'cpus' must be between 1 and 1048576, "
                      "found -4");
  EXPECT_EQ(Where[5], "facts.toml:15:14 'memory_gib' must be more than 0 and "
                      "at most 1048576, found 0");
}

TEST(FactsFileErrorTest, MissingRequiredKeysPointAtTheTable) {
  auto D = errorsOf("# compilers\n[[compiler]]\npath = \"/usr/bin/g++\"\n");
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:1");
  EXPECT_EQ(D[0].Message, "missing required key 'family' in [[compiler]]");
  EXPECT_EQ(D[1].Message, "missing required key 'version' in [[compiler]]");
}

TEST(FactsFileErrorTest, BadArchNamesTheElement) {
  auto D = errorsOf("[[nvcc]]\npath = \"/n\"\nversion = \"12.8\"\n"
                    "archs = [\"sm_90\", \"sm90\", 75, \"sm_100x\"]\n");
  ASSERT_EQ(D.size(), 3u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:4:19");
  EXPECT_TRUE(
      StringRef(D[0].Message).startswith("invalid architecture 'sm90'"));
  EXPECT_EQ(locationOf(D[1]), "facts.toml:4:27");
  EXPECT_EQ(D[1].Message, "expected a string in 'archs', found integer");
  EXPECT_EQ(locationOf(D[2]), "facts.toml:4:31");
}

TEST(FactsFileErrorTest, TableWhereArrayOfTablesBelongs) {
  auto D = errorsOf("[nvcc]\npath = \"/n\"\nversion = \"12.8\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:1");
  EXPECT_EQ(D[0].Message,
            "expected an array of tables for 'nvcc', found table");
  EXPECT_EQ(D[0].Hint, "write [[nvcc]] once per entry");

  D = errorsOf("driver = \"570\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:10");
  EXPECT_EQ(D[0].Message, "expected a table for 'driver', found string");
}

TEST(FactsFileErrorTest, PackagesMustBeVersionStrings) {
  auto D = errorsOf("[packages]\ntriton = 3.6\neinops = \"not a version\"\n");
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:10");
  EXPECT_EQ(D[0].Message,
            "expected a version string for package 'triton', found float");
  EXPECT_EQ(locationOf(D[1]), "facts.toml:3:10");
  EXPECT_TRUE(StringRef(D[1].Message)
                  .startswith("invalid version 'not a version' for 'einops'"))
      << D[1].Message;
}

TEST(FactsFileErrorTest, SyntaxErrorsAreLocated) {
  auto D = errorsOf("[driver]\nversion = \"570.86.15\"\ncuda \"12.8\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 3u);
  EXPECT_TRUE(StringRef(D[0].Message).startswith("syntax error"))
      << D[0].Message;
  EXPECT_EQ(D[0].SourceLine, "cuda \"12.8\"");
}

TEST(FactsFileErrorTest, NotTextIsAnErrorAtTheStart) {
  auto D = errorsOf(StringRef("[driver]\nversion = \"5\0\"\n", 22));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:1");
  EXPECT_TRUE(StringRef(D[0].Message).contains("NUL")) << D[0].Message;

  D = errorsOf("[driver]\nversion = \"\xff\xfe\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:1:1");
  EXPECT_EQ(D[0].Message,
            "not a facts file: it is not UTF-8 text (invalid byte at 2:12)");
  EXPECT_EQ(D[0].SourceLine, ""); // binary is not echoed
}

TEST(FactsFileErrorTest, UnterminatedStringAndOverflowReadWell) {
  auto D = errorsOf("[python]\npath = \"/usr/bin/python3\nversion = \"3\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:25");
  EXPECT_EQ(
      D[0].Message,
      "syntax error: unterminated string (no closing quote on this line)");
  D = errorsOf("[platform]\ncpus = 99999999999999999999999999\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:8"); // the start of the number
  EXPECT_TRUE(StringRef(D[0].Message).contains("not representable in 64 bits"));
}

TEST(FactsFileErrorTest, UnreadableFile) {
  auto D = diagnosticsOf(readFactsFile("/nonexistent/facts.toml"));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.File, "/nonexistent/facts.toml");
  EXPECT_TRUE(StringRef(D[0].Message).startswith("cannot read facts file"));
}

//===----------------------------------------------------------------------===//
// Hostile input: never a crash, always a located error
//===----------------------------------------------------------------------===//

TEST(FactsFileHostileTest, DeeplyNestedKeysAndValues) {
  std::string Header = "[" + std::string(200000, 'a') + "]\n";
  for (size_t I = 2; I < Header.size() - 2; I += 2)
    Header[I] = '.';
  auto D = errorsOf(Header);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 1u);
  EXPECT_TRUE(StringRef(D[0].Message).contains("nested too deeply"));

  std::string Dotted = Header.substr(1, Header.size() - 3) + " = 1\n";
  D = errorsOf(Dotted);
  ASSERT_EQ(D.size(), 1u);

  std::string Arrays =
      "x = " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  D = errorsOf(Arrays);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 1u);

  std::string Inline = "x = ";
  for (int I = 0; I < 100000; ++I)
    Inline += "{a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a=";
  D = errorsOf(Inline);
  ASSERT_FALSE(D.empty());

  // Dots inside strings and comments are not keys.
  std::string Quoted = "[packages]\n\"" + std::string(1000, '.') +
                       "\" = \"1\" # " + std::string(1000, '.') + "\n";
  Expected<Facts> F = parseFactsToml(Quoted, "q.toml");
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ(F->Packages.count(std::string(1000, '.')), 1u);
}

TEST(FactsFileHostileTest, HugeLinesAndValues) {
  std::string Long =
      "[python]\nversion = \"" + std::string(10 << 20, '9') + "\"\n";
  auto D = errorsOf(Long);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:11");
  EXPECT_LT(D[0].render().size(), 2000u); // the value is not echoed whole

  std::string LongKey = "[python]\n" + std::string(10 << 20, 'k') + " = 1\n";
  D = errorsOf(LongKey);
  ASSERT_EQ(D.size(), 2u); // the unknown key, and version is missing
  EXPECT_LT(D[1].render().size(), 2000u);

  std::string Garbage = std::string(10 << 20, 'x') + "\n";
  D = errorsOf(Garbage);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 1u);

  D = errorsOf("[platform]\ncpus = 99999999999999999999999999999\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 2u);

  D = errorsOf("[platform]\nmemory_gib = inf\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:14");
  D = errorsOf("[platform]\nmemory_gib = nan\n");
  ASSERT_EQ(D.size(), 1u);

  D = errorsOf("[[nvcc]]\npath = \"/n\"\nversion = \"12.8\"\nmax_gcc = "
               "-9223372036854775808\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:4:11");

  D = errorsOf("[python]\nversion = \"3.99999999999999999999999\"\n");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(locationOf(D[0]), "facts.toml:2:11");
}

TEST(FactsFileHostileTest, RandomBytesNeverCrash) {
  // A fixed pseudo-random sequence of mutations of a valid file.
  std::string Base = writeFactsToml(richFacts());
  uint64_t State = 0x9E3779B97F4A7C15ull;
  auto Next = [&] {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    return State;
  };
  for (int Round = 0; Round < 300; ++Round) {
    std::string Text = Base;
    int Mutations = 1 + Next() % 8;
    for (int M = 0; M < Mutations; ++M) {
      size_t Pos = Next() % Text.size();
      switch (Next() % 3) {
      case 0:
        Text[Pos] = static_cast<char>(Next() % 128);
        break;
      case 1:
        Text.erase(Pos, 1 + Next() % 16);
        break;
      default:
        Text.insert(Pos, 1, "[]{}=\".,'#\n\\"[Next() % 12]);
        break;
      }
      if (Text.empty())
        Text = "x";
    }
    Expected<Facts> F = parseFactsToml(Text, "fuzz.toml");
    if (F)
      continue;
    for (const Diagnostic &D : diagnosticsOf(F.takeError())) {
      EXPECT_EQ(D.Loc.File, "fuzz.toml");
      EXPECT_GE(D.Loc.Line, 1u) << D.render();
      EXPECT_FALSE(D.Message.empty());
    }
  }
}

//===----------------------------------------------------------------------===//
// The corpus of bad files: each NAME.toml fails with its first diagnostic at
// the location that NAME.expect gives.
//===----------------------------------------------------------------------===//

TEST(FactsFileCorpusTest, EveryBadFileFailsWhereExpected) {
  std::string Dir = fixture("bad");
  std::error_code EC;
  std::vector<std::string> Files;
  for (sys::fs::directory_iterator I(Dir, EC), End; I != End && !EC;
       I.increment(EC))
    if (StringRef(I->path()).endswith(".toml"))
      Files.push_back(I->path());
  ASSERT_FALSE(EC) << EC.message();
  std::sort(Files.begin(), Files.end());
  ASSERT_GE(Files.size(), 12u);
  for (const std::string &File : Files) {
    SCOPED_TRACE(File);
    SmallString<256> ExpectPath(File);
    sys::path::replace_extension(ExpectPath, "expect");
    ErrorOr<std::unique_ptr<MemoryBuffer>> Expect =
        MemoryBuffer::getFile(ExpectPath);
    ASSERT_TRUE(bool(Expect)) << "missing " << ExpectPath.str().str();
    std::string Wanted = (*Expect)->getBuffer().trim().str();

    Expected<Facts> F = readFactsFile(File);
    ASSERT_FALSE(bool(F)) << "the bad file was accepted";
    std::vector<Diagnostic> D = diagnosticsOf(F.takeError());
    ASSERT_FALSE(D.empty());
    EXPECT_EQ(D[0].Loc.File, File);
    std::string Got = (sys::path::filename(D[0].Loc.File) + ":" +
                       Twine(D[0].Loc.Line) + ":" + Twine(D[0].Loc.Column))
                          .str();
    EXPECT_EQ(Got, Wanted) << D[0].render();
    EXPECT_FALSE(D[0].Message.empty());
    EXPECT_EQ(D[0].Level, Severity::Error);
  }
}
