//===- ProbeCacheTest.cpp - cached probe answers and their invalidation ---===//

#include "core/plugin/ProbeCache.h"
#include "core/plugin/ProbeRunner.h"
#include "core/support/LoadCache.h"

#include "TestSupport.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

class ProbeCacheTest : public ::testing::Test {
protected:
  ProbeCacheTest() {
    Input = Dir.write("toolkit/bin/nvcc", "#!/bin/sh\n");
    Env.set("CUDA_HOME", "/opt/cuda");
  }

  /// A probe that finds one nvcc and depends on Input, a missing file and
  /// $CUDA_HOME.
  std::unique_ptr<FakeProbe> makeProbe(std::string Ver = "1") {
    return std::make_unique<FakeProbe>(
        "fake-nvcc",
        [this](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
          ProbeAnswer A;
          A.What = ProbeAnswer::Kind::Found;
          NvccFacts N;
          N.Path = Input;
          N.Ver = llvm::cantFail(Version::parse("12.8.93"));
          N.Archs = {"sm_90"};
          N.From = Source::probed("fake-nvcc", Input + " --version");
          A.Found.Nvccs.push_back(N);
          A.Searched = {"$CUDA_HOME", Dir.path("missing")};
          A.Warnings = {"w"};
          A.Inputs = {Input, Dir.path("missing"), Dir.path("toolkit")};
          A.EnvInputs = {"CUDA_HOME", "CUDA_PATH"};
          return A;
        },
        std::move(Ver));
  }

  /// A probe whose answer rests on the *.dist-info entries of \p Site.
  static FakeProbe lister(std::string Site) {
    return FakeProbe(
        "lister", [Site](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
          ProbeAnswer A;
          A.What = ProbeAnswer::Kind::NotPresent;
          DirListing L{Site, "\\.dist-info$", {}};
          runDirListing(L);
          A.Listings.push_back(std::move(L));
          return A;
        });
  }

  ProbeRun run(FakeProbe &P, bool Refresh = false) {
    ProbeRunOptions O;
    O.Cache = &Cache;
    O.Refresh = Refresh;
    return runProbes({&P}, Ctx, O);
  }

  TempDir Dir;
  TempDir CacheDir;
  std::string Input;
  MapEnvironment Env;
  NoProcessRunner Runner;
  ProbeContext Ctx{Env, Runner};
  ProbeCache Cache{CacheDir.path()};
};

TEST_F(ProbeCacheTest, UnchangedMachineIsNotProbedAgain) {
  auto P = makeProbe();
  ProbeRun First = run(*P);
  ProbeRun Second = run(*P);
  EXPECT_EQ(P->Calls, 1);
  EXPECT_FALSE(First.Reports[0].FromCache);
  EXPECT_TRUE(Second.Reports[0].FromCache);
  // The cached answer is the same answer, sources included.
  EXPECT_EQ(First.Merged, Second.Merged);
  EXPECT_EQ(Second.Merged.Nvccs.at(0).From,
            Source::probed("fake-nvcc", Input + " --version"));
  EXPECT_EQ(Second.Reports[0].Searched, First.Reports[0].Searched);
  EXPECT_EQ(Second.Reports[0].Warnings, First.Reports[0].Warnings);
  EXPECT_TRUE(llvm::sys::fs::exists(Cache.entryPath("fake-nvcc")));
}

TEST_F(ProbeCacheTest, ChangedInputContentReprobes) {
  auto P = makeProbe();
  run(*P);
  Dir.write("toolkit/bin/nvcc", "#!/bin/sh\necho changed\n");
  run(*P);
  EXPECT_EQ(P->Calls, 2);
}

TEST_F(ProbeCacheTest, TouchedInputReprobes) {
  auto P = makeProbe();
  run(*P);
  // Same size, new modification time.
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Input, FD,
                                               llvm::sys::fs::CD_OpenExisting));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, llvm::sys::TimePoint<>(std::chrono::seconds(1000000))));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  run(*P);
  EXPECT_EQ(P->Calls, 2);
}

TEST_F(ProbeCacheTest, AppearingMissingFileReprobes) {
  auto P = makeProbe();
  run(*P);
  run(*P);
  EXPECT_EQ(P->Calls, 1);
  Dir.write("missing", "now here");
  run(*P);
  EXPECT_EQ(P->Calls, 2);
}

TEST_F(ProbeCacheTest, ChangedOrNewEnvInputReprobes) {
  auto P = makeProbe();
  run(*P);
  Env.set("CUDA_HOME", "/opt/other-cuda");
  run(*P);
  EXPECT_EQ(P->Calls, 2);
  Env.set("CUDA_PATH", "/x"); // was unset: unset is a value too
  run(*P);
  EXPECT_EQ(P->Calls, 3);
  Env.set("UNRELATED", "y"); // not an input
  run(*P);
  EXPECT_EQ(P->Calls, 3);
}

// JSON holds UTF-8 only: an answer that rests on a value that is not (a
// CUDA_HOME with byte 0xff) is not stored, so it is never read back changed.
TEST_F(ProbeCacheTest, ValuesThatAreNotUtf8AreNotStored) {
  auto P = makeProbe();
  Env.set("CUDA_HOME", "/opt/cu\xff" "da");
  ProbeRun First = run(*P);
  ProbeRun Second = run(*P);
  EXPECT_EQ(P->Calls, 2);
  EXPECT_FALSE(Second.Reports[0].FromCache);
  EXPECT_FALSE(llvm::sys::fs::exists(Cache.entryPath("fake-nvcc")));
  // A UTF-8 value is stored as before.
  Env.set("CUDA_HOME", "/opt/cu\xc3\xa9" "da");
  run(*P);
  run(*P);
  EXPECT_EQ(P->Calls, 3);
}

TEST_F(ProbeCacheTest, NewProbeVersionOrSysRootReprobes) {
  auto P1 = makeProbe("1");
  run(*P1);
  auto P2 = makeProbe("2");
  run(*P2);
  EXPECT_EQ(P2->Calls, 1);
  Ctx.SysRoot = Dir.path();
  run(*P2);
  EXPECT_EQ(P2->Calls, 2);
}

TEST_F(ProbeCacheTest, AnotherBuildOfCudadepsProbesAgain) {
  auto P = makeProbe();
  run(*P);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Entry =
      llvm::MemoryBuffer::getFile(Cache.entryPath("fake-nvcc"));
  ASSERT_TRUE(Entry);
  std::string Text = (*Entry)->getBuffer().str();
  ASSERT_FALSE(programIdentity().empty());
  std::string Mine = "\"program\":\"" + programIdentity() + "\"";
  size_t At = Text.find(Mine);
  ASSERT_NE(At, std::string::npos) << Text;
  // The same version built again: another executable file.
  Text.replace(At, Mine.size(), "\"program\":\"" CUDADEPS_VERSION " /usr/bin/cudadeps 1:2:3:4:5\"");
  Dir.write("entry", Text);
  ASSERT_FALSE(llvm::sys::fs::rename(Dir.path("entry"), Cache.entryPath("fake-nvcc")));
  run(*P);
  EXPECT_EQ(P->Calls, 2);
  run(*P);
  EXPECT_EQ(P->Calls, 2);
}

TEST_F(ProbeCacheTest, RefreshForcesAProbeAndRewrites) {
  auto P = makeProbe();
  run(*P);
  ProbeRun R = run(*P, /*Refresh=*/true);
  EXPECT_EQ(P->Calls, 2);
  EXPECT_FALSE(R.Reports[0].FromCache);
  run(*P);
  EXPECT_EQ(P->Calls, 2);
}

TEST_F(ProbeCacheTest, CorruptEntryIsIgnoredAndReplaced) {
  auto P = makeProbe();
  run(*P);
  for (llvm::StringRef Garbage :
       {llvm::StringRef(""), llvm::StringRef("{not json"), llvm::StringRef("[]"),
        llvm::StringRef(R"({"format": 1})"),
        llvm::StringRef("\x00\x01\x02 binary", 10),
        llvm::StringRef(R"({"format": 999})")}) {
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Cache.entryPath("fake-nvcc"), EC);
      OS << Garbage;
    }
    int Before = P->Calls;
    ProbeRun R = run(*P);
    EXPECT_EQ(P->Calls, Before + 1) << Garbage.str();
    EXPECT_EQ(R.Reports[0].What, ProbeReport::Status::Found);
    ASSERT_EQ(R.Merged.Nvccs.size(), 1u);
  }
  run(*P); // the re-probe rewrote a good entry
  EXPECT_EQ(P->Calls, 7);
}

TEST_F(ProbeCacheTest, InstalledPackagesComeBackAsTheyWereAndABadRowIsAMiss) {
  FakeProbe P("lister", [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    ProbeAnswer A;
    A.What = ProbeAnswer::Kind::Found;
    A.Inputs = {Input};
    A.Found.Packages["alpha"] = {llvm::cantFail(Version::parse("1.2.3")),
                                 Source::probed("lister", Dir.path("alpha.dist-info"))};
    A.Found.Packages["b\xc3\xa9ta"] = {
        llvm::cantFail(Version::parse("2.0rc1+local.7")),
        Source{Source::Kind::Overridden, "--set", "b\"q\\uote"}};
    A.Found.Packages["gamma"] = {llvm::cantFail(Version::parse("0")),
                                 Source::declared("facts.toml", "facts.toml:3")};
    return A;
  });
  ProbeRun First = run(P);
  ProbeRun Second = run(P);
  EXPECT_EQ(P.Calls, 1);
  ASSERT_TRUE(Second.Reports[0].FromCache);
  EXPECT_EQ(Second.Merged.Packages, First.Merged.Packages);
  EXPECT_EQ(Second.Merged.Packages.size(), 3u);

  auto Text = llvm::MemoryBuffer::getFile(Cache.entryPath("lister"));
  ASSERT_TRUE(bool(Text));
  std::string Good = (*Text)->getBuffer().str();
  ASSERT_NE(Good.find("[\"alpha\",\"1.2.3\",\"probed\""), std::string::npos) << Good;
  auto Replace = [&](llvm::StringRef From, llvm::StringRef To) {
    std::string S = Good;
    S.replace(S.find(From.str()), From.size(), To.str());
    std::error_code EC;
    llvm::raw_fd_ostream OS(Cache.entryPath("lister"), EC);
    OS << S;
  };
  int Calls = P.Calls;
  for (auto [From, To] : std::vector<std::pair<llvm::StringRef, llvm::StringRef>>{
           {"\"1.2.3\"", "\"not a version\""},   // a version that does not parse
           {"\"alpha\",\"1.2.3\",", "\"alpha\","}, // four fields
           {"\"probed\"", "\"guessed\""},          // no such source kind
           {"\"alpha\",", "\"  \","},              // no name
           {"\"package_rows\"", "\"rows\""}}) {    // no rows at all
    Replace(From, To);
    ProbeRun R = run(P);
    EXPECT_EQ(P.Calls, ++Calls) << To.str();
    EXPECT_EQ(R.Merged.Packages, First.Merged.Packages);
  }
}

TEST_F(ProbeCacheTest, ErrorsAndInputlessAnswersAreNotCached) {
  FakeProbe Broken("broken", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "boom");
  });
  run(Broken);
  run(Broken);
  EXPECT_EQ(Broken.Calls, 2);
  FakeProbe NoInputs("no-inputs", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    return ProbeAnswer::notPresent("nothing");
  });
  run(NoInputs);
  run(NoInputs);
  EXPECT_EQ(NoInputs.Calls, 2);
  EXPECT_FALSE(llvm::sys::fs::exists(Cache.entryPath("no-inputs")));
}

TEST_F(ProbeCacheTest, NotPresentAnswersAreCached) {
  FakeProbe P("absent", [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    ProbeAnswer A = ProbeAnswer::notPresent("no widget", {"/opt/widget"});
    A.Inputs = {Dir.path("widget")};
    return A;
  });
  run(P);
  ProbeRun R = run(P);
  EXPECT_EQ(P.Calls, 1);
  EXPECT_EQ(R.Reports[0].What, ProbeReport::Status::NotPresent);
  EXPECT_EQ(R.Reports[0].Reason, "no widget");
  EXPECT_THAT(R.Reports[0].Searched, ::testing::ElementsAre("/opt/widget"));
}

TEST_F(ProbeCacheTest, NoTempFilesAreLeftBehind) {
  auto P = makeProbe();
  run(*P);
  run(*P, true);
  std::error_code EC;
  int Files = 0;
  for (llvm::sys::fs::directory_iterator
           It(llvm::sys::path::parent_path(Cache.entryPath("x")), EC),
       End;
       !EC && It != End; It.increment(EC)) {
    ++Files;
    EXPECT_THAT(It->path(), ::testing::EndsWith(".json"));
  }
  EXPECT_EQ(Files, 1);
}

/// Sets \p Path's modification time (a directory too): a change made in
/// the same clock tick as the store would otherwise keep the old time.
static void setModificationTime(const std::string &Path, time_t Seconds) {
  struct timespec Times[2] = {{Seconds, 0}, {Seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, Path.c_str(), Times, 0), 0) << Path;
}

static void makeExecutable(const std::string &Path) {
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      Path, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all));
}

TEST_F(ProbeCacheTest, PathSearchIsRepeatedInsteadOfComparingTheVariable) {
  makeExecutable(Dir.write("bin/tool", "#!/bin/sh\n"));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir.path("empty")));
  Env.set("PATH", Dir.path("bin"));
  FakeProbe P(
      "finder", [&](const ProbeContext &C) -> llvm::Expected<ProbeAnswer> {
        ProbeAnswer A;
        A.What = ProbeAnswer::Kind::NotPresent;
        for (PathSearch S : {PathSearch{"PATH", "tool", "", {}},
                             PathSearch{"PATH", "", "^tool-[0-9]+$", {}}}) {
          runPathSearch(S, C.Env);
          A.Searches.push_back(std::move(S));
        }
        return A;
      });
  run(P);
  // A wrapper put a directory without the tool in front: the same answer.
  Env.set("PATH", Dir.path("empty") + ":" + Dir.path("bin") +
                      "::" + Dir.path("missing"));
  ProbeRun R = run(P);
  EXPECT_EQ(P.Calls, 1);
  EXPECT_TRUE(R.Reports[0].FromCache);
  // A hook that cannot repeat the search watches the variable.
  EXPECT_THAT(R.Reports[0].EnvInputs, ::testing::Contains("PATH"));
  // The directory in front now holds one: a different answer.
  makeExecutable(Dir.write("empty/tool", "#!/bin/sh\n"));
  run(P);
  EXPECT_EQ(P.Calls, 2);
  // Another program installed beside it: the directory is read again, the
  // answer stays.
  makeExecutable(Dir.write("bin/other", "#!/bin/sh\n"));
  setModificationTime(Dir.path("bin"), 1000000);
  run(P);
  EXPECT_EQ(P.Calls, 2);
  // A file the pattern matches, but not executable: not found.
  Dir.write("bin/tool-2", "");
  setModificationTime(Dir.path("bin"), 2000000);
  run(P);
  EXPECT_EQ(P.Calls, 2);
  // Made executable: the directory is unchanged, the file is looked at.
  makeExecutable(Dir.path("bin/tool-2"));
  run(P);
  EXPECT_EQ(P.Calls, 3);
}

TEST_F(ProbeCacheTest, ADirectoryOnThePathTwiceIsReadOnceAndFoundUnderBothNames) {
  // /bin and /usr/bin are one directory on most systems.
  makeExecutable(Dir.write("bin/tool-1", "#!/bin/sh\n"));
  ASSERT_FALSE(llvm::sys::fs::create_link(Dir.path("bin"), Dir.path("alias")));
  Env.set("PATH", Dir.path("bin") + ":" + Dir.path("alias"));
  std::vector<std::string> Found;
  FakeProbe P(
      "finder", [&](const ProbeContext &C) -> llvm::Expected<ProbeAnswer> {
        ProbeAnswer A;
        A.What = ProbeAnswer::Kind::NotPresent;
        PathSearch S{"PATH", "", "^tool-[0-9]+$", {}};
        Found = runPathSearch(S, C.Env);
        A.Searches.push_back(std::move(S));
        return A;
      });
  run(P);
  EXPECT_THAT(Found, ::testing::ElementsAre(Dir.path("bin/tool-1"),
                                            Dir.path("alias/tool-1")));
  std::vector<DirListing> Listed =
      listSearchDirectories({"PATH", "", "^tool-[0-9]+$", {}}, Env);
  ASSERT_EQ(Listed.size(), 2u);
  EXPECT_EQ(Listed[1].Dir, Dir.path("alias"));
  EXPECT_THAT(Listed[1].Names, ::testing::ElementsAre("tool-1"));
  EXPECT_TRUE(run(P).Reports[0].FromCache);
  // A new match, seen through either name: probed again.
  makeExecutable(Dir.write("bin/tool-2", "#!/bin/sh\n"));
  setModificationTime(Dir.path("bin"), 3000000);
  run(P);
  EXPECT_EQ(P.Calls, 2);
  EXPECT_EQ(Found.size(), 4u);
}

TEST_F(ProbeCacheTest, EachSituationKeepsItsOwnEntry) {
  // A shell and a process pyenv started: other values, both warm.
  auto P = makeProbe();
  Env.set("CUDA_HOME", "/opt/a");
  run(*P);
  Env.set("CUDA_HOME", "/opt/b");
  run(*P);
  EXPECT_EQ(P->Calls, 2);
  for (const char *Home : {"/opt/a", "/opt/b", "/opt/a", "/opt/b"}) {
    Env.set("CUDA_HOME", Home);
    EXPECT_TRUE(run(*P).Reports[0].FromCache) << Home;
  }
  EXPECT_EQ(P->Calls, 2);
  // An input that changed replaces that situation's entry, not the other's.
  Dir.write("toolkit/bin/nvcc", "#!/bin/sh\necho changed\n");
  EXPECT_FALSE(run(*P).Reports[0].FromCache);
  EXPECT_TRUE(run(*P).Reports[0].FromCache);
  EXPECT_EQ(P->Calls, 3);
  // At most MaxEntriesPerProbe: the oldest situation goes first.
  for (const char *Home : {"/opt/c", "/opt/d", "/opt/e"}) {
    Env.set("CUDA_HOME", Home);
    run(*P);
  }
  EXPECT_EQ(P->Calls, 6);
  Env.set("CUDA_HOME", "/opt/b"); // the most recent four: e, d, c, b
  EXPECT_TRUE(run(*P).Reports[0].FromCache);
  Env.set("CUDA_HOME", "/opt/a");
  EXPECT_FALSE(run(*P).Reports[0].FromCache);
  EXPECT_EQ(P->Calls, 7);
}

TEST_F(ProbeCacheTest, ListingIgnoresOtherEntriesButNotNewMatches) {
  std::string Site = Dir.path("site");
  Dir.write("site/a-1.0.dist-info/METADATA", "");
  FakeProbe P = lister(Site);
  run(P);
  setModificationTime(Site, 1000000);
  run(P); // the first run's fingerprint is older: read again, same names
  EXPECT_EQ(P.Calls, 1);

  Dir.write("site/__pycache__/x.pyc", "");
  Dir.write("site/distutils-precedence.pth", "");
  setModificationTime(Site, 2000000);
  ProbeRun R = run(P);
  EXPECT_EQ(P.Calls, 1);
  EXPECT_TRUE(R.Reports[0].FromCache);
  EXPECT_THAT(R.Reports[0].Inputs, ::testing::Contains(Site));
  // The entry was rewritten with the directory's new fingerprint.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Entry =
      llvm::MemoryBuffer::getFile(Cache.entryPath("lister"));
  ASSERT_TRUE(Entry);
  EXPECT_THAT((*Entry)->getBuffer().str(),
              ::testing::HasSubstr("\"mtime_ns\":2000000000000000"));

  Dir.write("site/b-2.0.dist-info/METADATA", "");
  setModificationTime(Site, 3000000);
  run(P);
  EXPECT_EQ(P.Calls, 2);
}

TEST_F(ProbeCacheTest, ADirectoryThatChangesWhileProbingIsNotVouchedFor) {
  // The probe lists site/ and a distribution is installed before its answer
  // is stored: the fingerprint taken now would vouch for the old names.
  std::string Site = Dir.path("site");
  Dir.write("site/a-1.0.dist-info/METADATA", "");
  std::vector<std::vector<std::string>> Seen;
  FakeProbe P("lister", [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    ProbeAnswer A;
    A.What = ProbeAnswer::Kind::NotPresent;
    DirListing L{Site, "\\.dist-info$", {}};
    Seen.push_back(runDirListing(L));
    A.Listings.push_back(std::move(L));
    if (Seen.size() == 1)
      Dir.write("site/b-2.0.dist-info/METADATA", "");
    return A;
  });
  run(P);
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Seen[0], std::vector<std::string>{"a-1.0.dist-info"});
  EXPECT_FALSE(llvm::sys::fs::exists(Cache.entryPath("lister")));
  // The next run sees both and stores them; the one after uses them.
  EXPECT_FALSE(run(P).Reports[0].FromCache);
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[1],
            (std::vector<std::string>{"a-1.0.dist-info", "b-2.0.dist-info"}));
  EXPECT_TRUE(run(P).Reports[0].FromCache);
  EXPECT_EQ(Seen.size(), 2u);
}

TEST_F(ProbeCacheTest, ListedNamesThatAreNotUtf8AreNotStored) {
  std::string Site = Dir.path("site");
  Dir.write("site/a\xff" "b-1.0.dist-info/METADATA", "");
  FakeProbe P = lister(Site);
  run(P);
  EXPECT_FALSE(run(P).Reports[0].FromCache);
  EXPECT_EQ(P.Calls, 2);
  EXPECT_FALSE(llvm::sys::fs::exists(Cache.entryPath("lister")));
}

TEST(ProbeCacheDir, XdgCacheHomeThenHome) {
  MapEnvironment Env(std::map<std::string, std::string>{{"HOME", "/home/u"}});
  EXPECT_EQ(ProbeCache::defaultDir(Env), "/home/u/.cache/cudadeps");
  Env.set("XDG_CACHE_HOME", "/var/cache/u");
  EXPECT_EQ(ProbeCache::defaultDir(Env), "/var/cache/u/cudadeps");
  Env.set("XDG_CACHE_HOME", "relative"); // ignored, as the spec says
  EXPECT_EQ(ProbeCache::defaultDir(Env), "/home/u/.cache/cudadeps");
  EXPECT_EQ(ProbeCache::defaultDir(MapEnvironment()), "");
}

TEST(ProbeCacheFingerprint, MissingFileIsPartOfTheFingerprint) {
  llvm::json::Value FP = ProbeCache::fingerprint("/nonexistent/file");
  ASSERT_TRUE(FP.getAsObject());
  EXPECT_EQ(FP.getAsObject()->getBoolean("missing"), true);
}

} // namespace
