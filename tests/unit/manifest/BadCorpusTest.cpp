// Every malformed manifest under tests/fixtures/manifests/bad/ must be
// rejected with a located diagnostic; NAME.expect holds the file:LINE:COL of
// the first one. The CLI integration test reuses the same corpus.
#include "ManifestTestUtil.h"

#include "core/manifest/Consistency.h"
#include "core/manifest/KnowledgeBase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

std::string fixtures(llvm::StringRef Sub) {
  llvm::SmallString<256> P(CUDADEPS_FIXTURES_DIR);
  llvm::sys::path::append(P, "manifests", Sub);
  return std::string(P);
}

std::vector<std::string> tomlFiles(llvm::StringRef Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".toml")
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

TEST(BadManifestCorpus, EveryFileFailsAtTheExpectedLocation) {
  std::vector<std::string> Files = tomlFiles(fixtures("bad"));
  ASSERT_GE(Files.size(), 20u);
  for (const std::string &Path : Files) {
    SCOPED_TRACE(Path);
    auto Expect = llvm::MemoryBuffer::getFile(Path.substr(0, Path.size() - 5) +
                                              ".expect");
    ASSERT_TRUE(bool(Expect)) << "missing .expect file";
    std::string Want = (*Expect)->getBuffer().trim().str();

    llvm::Expected<Manifest> M = loadManifest(Path);
    // Files that parse cleanly must fail the lint stage: lintManifest, or
    // the consistency checks against the shipped knowledge base.
    if (M) {
      llvm::Error E = lintManifest(*M);
      if (!E) {
        llvm::Expected<KnowledgeBase> KB = KnowledgeBase::loadDirectory(
            CUDADEPS_SOURCE_DIR "/manifests/cuda");
        ASSERT_TRUE(bool(KB)) << llvm::toString(KB.takeError());
        E = checkConsistency(*M, *KB);
      }
      ASSERT_TRUE(bool(E)) << "accepted by the loader, lint and consistency";
      M = std::move(E);
    }
    std::vector<Diagnostic> D = diagnosticsOf(std::move(M));
    ASSERT_FALSE(D.empty());
    const Diagnostic &First = D.front();
    EXPECT_EQ(First.Level, Severity::Error);
    std::string Got = llvm::sys::path::filename(First.Loc.File).str() + ":" +
                      std::to_string(First.Loc.Line) + ":" +
                      std::to_string(First.Loc.Column);
    EXPECT_EQ(Got, Want) << First.render();
    EXPECT_FALSE(First.Message.empty());
    EXPECT_NE(First.Message.back(), '.') << "diagnostics end without a period";
  }
}

TEST(BadManifestCorpus, SeveralErrorsAreAllReported) {
  llvm::Expected<Manifest> M = loadManifest(fixtures("bad/several-errors.toml"));
  std::vector<Diagnostic> D = diagnosticsOf(std::move(M));
  std::vector<std::string> Got;
  for (const Diagnostic &X : D)
    Got.push_back(where(X));
  EXPECT_THAT(Got,
              ::testing::ElementsAre(
                  "4:1: unknown key 'summry' in [package]",
                  "7:8: bad specifier for 'nvcc': " +
                      llvm::toString(VersionSet::parse(">=11.6,").takeError()),
                  "11:11: duplicate release '1' (also on line 9)",
                  "12:10: invalid arch 'sm90'; expected sm_NN, sm_NNa or sm_NNf",
                  "14:18: unknown placeholder '{vesrion}'"));
}

TEST(GoodManifestCorpus, EveryFileLoadsAndLints) {
  std::vector<std::string> Files = tomlFiles(fixtures("good"));
  ASSERT_GE(Files.size(), 3u);
  for (const std::string &Path : Files) {
    SCOPED_TRACE(Path);
    llvm::Expected<Manifest> M = loadManifest(Path);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    llvm::Error E = lintManifest(*M);
    EXPECT_FALSE(E) << llvm::toString(std::move(E));
  }
}

} // namespace
