// fetchSource: libgit2 clones of local repositories made by the test.
#include "core/fetch/SourceFetcher.h"

#include "core/fetch/GitModule.h"
#include "core/inspect/SharedObject.h"

#include "tests/support/GitRepo.h"
#include "tests/support/RunCli.h"

#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

class SourceFetcherTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(Root.ok());
    ASSERT_TRUE(makeKernelProject(Root.path(), Root.sub("home"), P));
    Opts.CacheDir = Root.sub("cache");
  }

  FetchRequest request(llvm::StringRef Tag) {
    FetchRequest R;
    R.Package = "kernel";
    R.VersionText = Tag.drop_front().str();
    R.Url = {P.Repo, {"m.toml", 3, 7}};
    R.Tag = {Tag.str(), {"m.toml", 4, 7}};
    return R;
  }

  /// Entries of <cache>/src other than lock files.
  std::vector<std::string> srcEntries() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Root.sub("cache/src"), EC), End;
         !EC && It != End; It.increment(EC))
      if (!llvm::StringRef(It->path()).endswith(".lock"))
        Out.push_back(llvm::sys::path::filename(It->path()).str());
    return Out;
  }

  TempDir Root{"cudadeps-fetch"};
  KernelProject P;
  FetchOptions Opts;
};

TEST_F(SourceFetcherTest, ClonesTheTagWithSubmodulesThenReusesOffline) {
  auto S = fetchSource(request("v1.0"), Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_FALSE(S->Reused);
  EXPECT_EQ(S->Commit, P.CommitV10);
  EXPECT_EQ(S->Submodules, 1u);
  EXPECT_THAT(readWhole(S->Dir + "/third_party/sub/include/scale.h"),
              HasSubstr("SCALE 2"));
  EXPECT_EQ(S->Dir, sourceDirFor(request("v1.0"), Opts.CacheDir));

  // The repository may go away: the cached clone is enough, offline too.
  ASSERT_FALSE(llvm::sys::fs::remove_directories(P.Repo));
  FetchOptions Offline = Opts;
  Offline.Offline = true;
  auto Again = fetchSource(request("v1.0"), Offline);
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->Reused);
  EXPECT_EQ(Again->Commit, P.CommitV10);
  EXPECT_EQ(srcEntries().size(), 1u);
}

TEST_F(SourceFetcherTest, AnnotatedTagChecksOutItsOwnSubmoduleCommit) {
  auto S = fetchSource(request("v1.1"), Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Commit, P.CommitV11);
  EXPECT_THAT(readWhole(S->Dir + "/third_party/sub/include/scale.h"),
              HasSubstr("SCALE 3"));
}

TEST_F(SourceFetcherTest, PinnedCommitIsVerified) {
  FetchRequest R = request("v1.0");
  R.Commit = Located{P.CommitV10.substr(0, 10), {"m.toml", 9, 10}};
  auto Ok = fetchSource(R, Opts);
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());

  FetchRequest Moved = request("v1.1");
  Moved.Commit = Located{P.CommitV10.substr(0, 12), {"m.toml", 9, 10}};
  auto Bad = fetchSource(Moved, Opts);
  ASSERT_FALSE(bool(Bad));
  std::string Msg = llvm::toString(Bad.takeError());
  EXPECT_THAT(Msg, HasSubstr("tag 'v1.1'"));
  EXPECT_THAT(Msg, HasSubstr(P.CommitV11));
  EXPECT_THAT(Msg, HasSubstr("pins " + P.CommitV10.substr(0, 12)));
  EXPECT_THAT(Msg, HasSubstr("m.toml:9:10"));
  // Nothing of the failed clone is left to be trusted.
  EXPECT_EQ(srcEntries().size(), 1u);
}

TEST_F(SourceFetcherTest, MissingTagNamesTagAndUrlAndLeavesNothing) {
  auto S = fetchSource(request("v9.9"), Opts);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_THAT(Msg, HasSubstr("tag 'v9.9' not found in " + P.Repo));
  EXPECT_TRUE(srcEntries().empty());
}

TEST_F(SourceFetcherTest, UnreachableRepositoryIsOneClearError) {
  FetchRequest R = request("v1.0");
  R.Url.Value = "file://" + Root.sub("nowhere");
  auto S = fetchSource(R, Opts);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_THAT(Msg, HasSubstr("cannot clone file://" + Root.sub("nowhere")));
  EXPECT_THAT(Msg, HasSubstr("tag 'v1.0'"));
  EXPECT_TRUE(srcEntries().empty());
}

TEST_F(SourceFetcherTest, OfflineWithoutCacheNamesWhatIsMissing) {
  FetchOptions Offline = Opts;
  Offline.Offline = true;
  auto S = fetchSource(request("v1.0"), Offline);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_THAT(Msg, HasSubstr("offline"));
  EXPECT_THAT(Msg, HasSubstr("kernel 1.0"));
  EXPECT_THAT(Msg, HasSubstr("not in the cache"));
}

TEST_F(SourceFetcherTest, HostileUrlAndTagAreRefusedBeforeGit) {
  FetchRequest R = request("v1.0");
  R.Url.Value = "--upload-pack=touch /tmp/x";
  auto S = fetchSource(R, Opts);
  ASSERT_FALSE(bool(S));
  EXPECT_THAT(llvm::toString(S.takeError()), HasSubstr("m.toml:3:7"));

  FetchRequest T = request("v1.0");
  T.Tag.Value = "-x";
  auto S2 = fetchSource(T, Opts);
  ASSERT_FALSE(bool(S2));
  EXPECT_THAT(llvm::toString(S2.takeError()), HasSubstr("m.toml:4:7"));
}

TEST_F(SourceFetcherTest, SubmodulesCanBeLeftOut) {
  FetchRequest R = request("v1.0");
  R.Submodules = false;
  auto S = fetchSource(R, Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Submodules, 0u);
  EXPECT_FALSE(llvm::sys::fs::exists(S->Dir + "/third_party/sub/include"));
}

TEST_F(SourceFetcherTest, LeftoversOfKilledRunsAreRemoved) {
  std::string Dir = sourceDirFor(request("v1.0"), Opts.CacheDir);
  std::string Stale = Root.sub("cache/src/.tmp-" +
                               llvm::sys::path::filename(Dir).str() + "-dead");
  ASSERT_TRUE(writeFile(Stale + "/half-written", "x"));
  auto S = fetchSource(request("v1.0"), Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
}

} // namespace

namespace {

// A new release of a cached repository starts from the clone of the other
// release and fetches from the repository only what that clone lacks (here:
// a tag made upstream after the first clone).
TEST_F(SourceFetcherTest, NewTagFetchesOnlyWhatTheCachedCloneLacks) {
  auto First = fetchSource(request("v1.0"), Opts);
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  EXPECT_TRUE(First->SeededFrom.empty());

  // Upstream moves on: a commit and tag the cached clone has never seen.
  std::string Home = Root.sub("home");
  ASSERT_TRUE(git(P.Repo, {"commit", "--allow-empty", "-q", "-m", "next"},
                  Home));
  ASSERT_TRUE(git(P.Repo, {"tag", "v2.0"}, Home));
  std::string NewCommit;
  ASSERT_TRUE(git(P.Repo, {"rev-parse", "HEAD"}, Home, &NewCommit));

  auto Next = fetchSource(request("v2.0"), Opts);
  ASSERT_TRUE(bool(Next)) << llvm::toString(Next.takeError());
  EXPECT_EQ(Next->SeededFrom, First->Dir);
  EXPECT_EQ(Next->Commit + "\n", NewCommit);
  EXPECT_THAT(readWhole(Next->Dir + "/third_party/sub/include/scale.h"),
              HasSubstr("SCALE"));
  EXPECT_EQ(srcEntries().size(), 2u);
  // Its origin is the repository, not the seed: later fetches go there.
  std::string Origin;
  ASSERT_TRUE(git(Next->Dir, {"remote", "get-url", "origin"}, Home, &Origin));
  EXPECT_EQ(Origin, P.Repo + "\n");
  // And it is reused offline like any clone.
  FetchOptions Offline = Opts;
  Offline.Offline = true;
  auto Reused = fetchSource(request("v2.0"), Offline);
  ASSERT_TRUE(bool(Reused)) << llvm::toString(Reused.takeError());
  EXPECT_TRUE(Reused->Reused);
}

// A seed that cannot be used (its objects are gone) is no failure: a whole
// clone is made instead.
TEST_F(SourceFetcherTest, BrokenSeedFallsBackToAWholeClone) {
  auto First = fetchSource(request("v1.0"), Opts);
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  ASSERT_FALSE(
      llvm::sys::fs::remove_directories(First->Dir + "/.git/objects"));
  ASSERT_TRUE(llvm::sys::fs::create_directory(First->Dir + "/.git/objects") ==
              std::error_code());
  auto Next = fetchSource(request("v1.1"), Opts);
  ASSERT_TRUE(bool(Next)) << llvm::toString(Next.takeError());
  EXPECT_TRUE(Next->SeededFrom.empty());
  EXPECT_EQ(Next->Commit, P.CommitV11);
}

} // namespace

// --- the git module ----------------------------------------------------------

TEST_F(SourceFetcherTest, AMissingGitModuleIsOneClearErrorAndNothingIsLeft) {
  Opts.GitModule = Root.sub("lib/cudadeps/libcudadeps-git.so");
  auto S = fetchSource(request("v1.0"), Opts);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_THAT(
      Msg, HasSubstr("the git module " + Opts.GitModule + " cannot be loaded"));
  EXPECT_THAT(Msg, HasSubstr("reinstall cudadeps"));
  EXPECT_TRUE(srcEntries().empty());
}

TEST_F(SourceFetcherTest, ALibraryThatIsNotTheGitModuleIsRefused) {
  Opts.GitModule = "libz.so.1"; // loads, but has no entry point
  auto S = fetchSource(request("v1.0"), Opts);
  ASSERT_FALSE(bool(S));
  EXPECT_THAT(llvm::toString(S.takeError()),
              HasSubstr("libz.so.1 is not a cudadeps git module"));
}

TEST(GitModule, FoundBesideTheExecutableAsInAnInstall) {
  // build/bin/unit_fetch -> build/lib/cudadeps/libcudadeps-git.so
  EXPECT_THAT(defaultGitModulePath(),
              ::testing::EndsWith("/lib/cudadeps/libcudadeps-git.so"));
  EXPECT_TRUE(llvm::sys::fs::exists(defaultGitModulePath()));
  auto B = loadGitBackend();
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  auto Again = loadGitBackend();
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*B, *Again); // opened once
}

TEST(GitModule, TheCudadepsExecutableDoesNotNeedLibgit2) {
  // Only the commands that fetch open it: the others start without mapping
  // libgit2 and its dependencies.
  auto SO = readSharedObject(CUDADEPS_BINARY, ReadLinkage);
  ASSERT_TRUE(bool(SO)) << llvm::toString(SO.takeError());
  for (const std::string &N : SO->Needed)
    EXPECT_FALSE(llvm::StringRef(N).startswith("libgit2")) << N;
  auto Module = readSharedObject(defaultGitModulePath(), ReadLinkage);
  ASSERT_TRUE(bool(Module)) << llvm::toString(Module.takeError());
  EXPECT_TRUE(llvm::any_of(Module->Needed, [](const std::string &N) {
    return llvm::StringRef(N).startswith("libgit2");
  }));
}
