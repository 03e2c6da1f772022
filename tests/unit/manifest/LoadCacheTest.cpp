// The load cache of registry manifests: a cached manifest is the parsed one,
// each change of a file is seen, and a bad cache file is ignored and
// rewritten, never an error.
#include "ManifestTestUtil.h"

#include "core/manifest/ManifestCodec.h"
#include "core/manifest/Registry.h"
#include "core/manifest/RequirementIds.h"
#include "core/plan/FactProvider.h"
#include "core/support/BinaryCodec.h"
#include "core/support/LoadCache.h"
#include "tests/support/FakeToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <utility>

#include <sys/stat.h>
#include <fcntl.h>
#include <sys/time.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

class LoadCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(T.ok());
    Reg = sub("registry");
    Cache = sub("cache");
  }

  std::string sub(llvm::StringRef Name) {
    std::string P = T.sub(Name);
    EXPECT_TRUE(makeDirs(P));
    return P;
  }
  std::string write(llvm::StringRef File, llvm::StringRef Text) {
    std::string P = Reg + "/" + File.str();
    EXPECT_TRUE(writeFile(P, Text));
    return P;
  }
  static std::string pkg(llvm::StringRef Name, llvm::StringRef Version) {
    return ("schema = 1\n[package]\nname = \"" + Name +
            "\"\nbuild = \"python\"\n[[release]]\nversion = \"" + Version +
            "\"\n[release.requires]\ndep = \">=1.0,<2\"\n")
        .str();
  }
  /// The version of \p Name a fresh registry over Reg finds; the number of
  /// manifests it parsed goes to Parsed.
  std::string versionOf(llvm::StringRef Name) {
    Registry R({Reg}, Cache);
    llvm::Expected<const Manifest *> M = R.find(Name);
    Parsed = R.parsedCount();
    if (!M)
      return "error: " + llvm::toString(M.takeError());
    if (!*M)
      return "none";
    return (*M)->Pkg->Releases.front().VersionText;
  }
  std::string cacheFile() {
    LoadCache C(Cache, "registry", Reg);
    return C.path();
  }
  /// A provider's lookup of packages in \p R (the provider keeps a
  /// reference to it: it must outlive the provider).
  static PackageLookup lookupIn(Registry &R) {
    return [&R](llvm::StringRef N) -> const Package * {
      llvm::Expected<const Manifest *> M = R.find(N);
      if (!M) {
        llvm::consumeError(M.takeError());
        return nullptr;
      }
      return *M ? &*(*M)->Pkg : nullptr;
    };
  }

  TempDir T{"cudadeps-loadcache"};
  std::string Reg, Cache;
  size_t Parsed = 0;
};

TEST_F(LoadCacheTest, UnchangedFilesAreNotParsedAgain) {
  write("a.toml", pkg("a", "1.0"));
  write("b.toml", pkg("b", "2.0"));
  EXPECT_EQ(versionOf("a"), "1.0");
  EXPECT_EQ(Parsed, 2u);
  EXPECT_TRUE(llvm::sys::fs::exists(cacheFile()));
  EXPECT_EQ(versionOf("b"), "2.0");
  EXPECT_EQ(Parsed, 0u);
  // Without a cache directory everything is parsed.
  Registry R({Reg});
  ASSERT_TRUE(bool(R.find("a")));
  EXPECT_EQ(R.parsedCount(), 2u);
}

// has() answers from the index: with the cache warm, asking whether a
// package exists decodes nothing; find() then decodes just that one.
TEST_F(LoadCacheTest, HasAnswersFromTheIndexWithoutDecoding) {
  write("a.toml", pkg("a", "1.0"));
  write("b-c.toml", pkg("B_c", "2.0"));
  EXPECT_EQ(versionOf("a"), "1.0"); // fills the cache
  Registry R({Reg}, Cache);
  auto Has = [](Registry &In, llvm::StringRef Name) -> std::string {
    llvm::Expected<bool> H = In.has(Name);
    if (!H)
      return "error: " + llvm::toString(H.takeError());
    return *H ? "yes" : "no";
  };
  EXPECT_EQ(Has(R, "a"), "yes");
  EXPECT_EQ(Has(R, "b-c"), "yes");
  EXPECT_EQ(Has(R, "B.C"), "yes"); // compared in canonical form
  EXPECT_EQ(Has(R, "dep"), "no");
  EXPECT_EQ(R.parsedCount(), 0u);
  EXPECT_EQ(R.loadedCount(), 0u);
  llvm::Expected<const Manifest *> M = R.find("b_c");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_NE(*M, nullptr);
  EXPECT_EQ(R.loadedCount(), 1u);
  // A broken manifest in the directory is an error for has() as for find().
  write("broken.toml", "schema = 1\n[package\n");
  Registry Broken({Reg}, Cache);
  EXPECT_THAT(Has(Broken, "a"), HasSubstr("error: "));
}

TEST_F(LoadCacheTest, ACachedManifestIsTheParsedOne) {
  // Every shipped manifest and the scenario registry, with warnings: the
  // cached form decodes to what parsing gave, names the same file and
  // re-encodes to the same bytes.
  for (llvm::StringRef Dir :
       {"manifests", "tests/fixtures/scenarios/registry"}) {
    llvm::SmallString<256> D(CUDADEPS_SOURCE_DIR);
    llvm::sys::path::append(D, Dir);
    Registry Fresh({std::string(D)}, Cache), Warm({std::string(D)}, Cache);
    llvm::Expected<std::vector<const Manifest *>> A = Fresh.all();
    ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
    llvm::Expected<std::vector<const Manifest *>> B = Warm.all();
    ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
    EXPECT_GT(Fresh.parsedCount(), 0u);
    EXPECT_EQ(Warm.parsedCount(), 0u) << Dir.str();
    ASSERT_EQ(A->size(), B->size());
    for (size_t I = 0; I < A->size(); ++I) {
      const Manifest &P = *(*A)[I], &C = *(*B)[I];
      EXPECT_EQ(P.File, C.File);
      EXPECT_EQ(llvm::StringRef(P.Text), llvm::StringRef(C.Text));
      EXPECT_EQ(encodeManifest(P), encodeManifest(C)) << P.File;
      ASSERT_TRUE(C.Pkg);
      EXPECT_EQ(C.Pkg->NameLoc.File, P.File);
      EXPECT_EQ(C.Pkg->Releases.size(), P.Pkg->Releases.size());
      ASSERT_EQ(C.Warnings.size(), P.Warnings.size());
      for (size_t W = 0; W < C.Warnings.size(); ++W)
        EXPECT_EQ(C.Warnings[W].render(), P.Warnings[W].render());
      for (size_t R = 0; R < P.Pkg->Releases.size(); ++R) {
        const Release &PR = P.Pkg->Releases[R], &CR = C.Pkg->Releases[R];
        EXPECT_EQ(PR.Ver, CR.Ver);
        EXPECT_EQ(PR.Loc.Line, CR.Loc.Line);
        RequirementMap PReqs = P.Pkg->requirementsFor(PR),
                       CReqs = C.Pkg->requirementsFor(CR);
        ASSERT_EQ(PReqs.size(), CReqs.size());
        for (const auto &[Key, Req] : PReqs) {
          const Requirement &CReq = CReqs.at(Key);
          EXPECT_EQ(Req.Range.str(), CReq.Range.str());
          EXPECT_EQ(Req.Text, CReq.Text);
          EXPECT_EQ(CReq.Loc.File, P.File);
        }
      }
    }
  }
}

TEST_F(LoadCacheTest, AReleasesRequirementsAreDecodedWhenFirstRead) {
  write("a.toml", pkg("a", "1.0"));
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  Registry R({Reg}, Cache);
  llvm::Expected<const Manifest *> M = R.find("a");
  ASSERT_TRUE(M && *M);
  EXPECT_EQ(R.parsedCount(), 0u);
  const Release &Rel = (*M)->Pkg->Releases.front();
  EXPECT_TRUE(Rel.Requires.isEncoded());
  Manifest Copy = **M; // a copy reads them
  EXPECT_FALSE(Rel.Requires.isEncoded());
  ASSERT_EQ(Rel.Requires.size(), 1u);
  const Requirement &Dep = Rel.Requires.at("dep");
  EXPECT_EQ(Dep.Text, ">=1.0,<2");
  EXPECT_EQ(Dep.Loc.File, Reg + "/a.toml");
  EXPECT_EQ(Dep.Loc.Line, 8u);
  EXPECT_EQ(Copy.Pkg->Releases.front().Requires.at("dep").Text, ">=1.0,<2");
}

TEST_F(LoadCacheTest, AReleaseIsDecodedWhenFirstReadItsVersionAtOnce) {
  std::string Text =
      "schema = 1\n[package]\nname = \"a\"\nbuild = \"python\"\n";
  for (const char *V : {"1.0", "3.0", "2.0"})
    Text += std::string("[[release]]\nversion = \"") + V +
            "\"\n[release.requires]\ndep = \">=" + V + "\"\n";
  write("a.toml", Text);
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  Registry R({Reg}, Cache);
  llvm::Expected<const Manifest *> M = R.find("a");
  ASSERT_TRUE(M && *M);
  EXPECT_EQ(R.parsedCount(), 0u);
  const ReleaseList &Rels = (*M)->Pkg->Releases;
  ASSERT_EQ(Rels.size(), 3u);
  for (size_t I = 0; I < 3; ++I)
    EXPECT_TRUE(Rels.isEncoded(I)) << I;
  // Fetched ahead for a reader, versions read: nothing decoded.
  Rels.prefetch();
  for (size_t I = 0; I < 3; ++I)
    EXPECT_TRUE(Rels.isEncoded(I)) << I;
  EXPECT_EQ(Rels.version(1).str(), "3.0");
  EXPECT_EQ(Rels.version(2).str(), "2.0");
  EXPECT_TRUE(Rels.isEncoded(1));
  // Finding a release decodes that one only.
  const Release *Two = (*M)->Pkg->findRelease(Rels.version(2));
  ASSERT_TRUE(Two);
  EXPECT_FALSE(Rels.isEncoded(2));
  EXPECT_TRUE(Rels.isEncoded(0) && Rels.isEncoded(1));
  EXPECT_EQ(Two->VersionText, "2.0");
  EXPECT_EQ(Two->Loc.Line, 14u); // its `version` value
  EXPECT_EQ(Two->Requires.at("dep").Text, ">=2.0");
  EXPECT_EQ(&Rels[2], Two); // decoded once
  EXPECT_FALSE((*M)->Pkg->findRelease(Version({4})));
  // Readers on several threads get the one decoded release.
  std::vector<const Release *> Seen(8);
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Seen.size(); ++I)
    Threads.emplace_back([&, I] { Seen[I] = &Rels[1]; });
  for (std::thread &Th : Threads)
    Th.join();
  for (const Release *S : Seen)
    EXPECT_EQ(S, Seen[0]);
  EXPECT_EQ(Seen[0]->VersionText, "3.0");
  // A copy is decoded whole, and the same as the parsed manifest.
  Manifest Copy = **M;
  llvm::Expected<Manifest> Parsed = loadManifest(Reg + "/a.toml");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  ASSERT_EQ(Copy.Pkg->Releases.size(), 3u);
  for (size_t I = 0; I < 3; ++I) {
    const Release &C = std::as_const(Copy.Pkg->Releases)[I];
    const Release &P = std::as_const(Parsed->Pkg->Releases)[I];
    EXPECT_FALSE(Copy.Pkg->Releases.isEncoded(I));
    EXPECT_EQ(C.Ver, P.Ver);
    EXPECT_EQ(C.VersionText, P.VersionText);
    EXPECT_EQ(C.Loc.Line, P.Loc.Line);
    EXPECT_EQ(C.Requires.at("dep").Text, P.Requires.at("dep").Text);
  }
  // A change through a non-const list decodes the rest first.
  Copy.Pkg->Releases.push_back(Release{});
  EXPECT_EQ(Copy.Pkg->Releases.size(), 4u);
  EXPECT_EQ(Copy.Pkg->Releases[1].VersionText, "3.0");
}

TEST_F(LoadCacheTest, ARequirementsRangesAreReadWithoutDecodingTheRest) {
  // What the solver reads of a release's requirements (key, range, extras)
  // read from the kept bytes is what decoding them whole gives, and they
  // stay encoded.
  write("a.toml", "schema = 1\n[package]\nname = \"a\"\nbuild = \"python\"\n"
                  "[[release]]\nversion = \"1.0\"\n[release.requires]\n"
                  "zeta = \">=1.0,<2 || ==3.*\"\nalpha = \"*\"\n"
                  "\"mid[cuda,x]\" = \"!=2.0\"\n");
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  Registry R({Reg}, Cache);
  llvm::Expected<const Manifest *> M = R.find("a");
  ASSERT_TRUE(M && *M);
  // Found in the release's bytes without decoding the release.
  const ReleaseList &Rels = std::as_const((*M)->Pkg->Releases);
  std::optional<ReleaseList::KeptBody> Body = Rels.keptBody(0);
  ASSERT_TRUE(Body);
  Deferred<RequirementMap>::Encoded FromBody;
  ASSERT_TRUE(readReleaseRequires(*Body, FromBody));
  std::vector<RequirementRange> ReadFromBody;
  ASSERT_TRUE(readRequirementRanges(FromBody, ReadFromBody));
  EXPECT_TRUE(Rels.isEncoded(0));
  for (size_t Cut : {size_t(0), size_t(3), Body->Bytes.size() / 2}) {
    ReleaseList::KeptBody Short = *Body;
    Short.Bytes = Body->Bytes.take_front(Cut);
    Deferred<RequirementMap>::Encoded Out;
    EXPECT_FALSE(readReleaseRequires(Short, Out)) << Cut;
  }
  const Release &Rel = Rels.front();
  EXPECT_FALSE(Rels.keptBody(0)); // decoded now
  std::optional<Deferred<RequirementMap>::Encoded> E = Rel.Requires.encoded();
  ASSERT_TRUE(E);
  std::vector<RequirementRange> Read;
  ASSERT_TRUE(readRequirementRanges(*E, Read));
  EXPECT_TRUE(Rel.Requires.isEncoded());
  llvm::Expected<Manifest> Parsed = loadManifest(Reg + "/a.toml");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const RequirementMap &Whole =
      std::as_const(Parsed->Pkg->Releases).front().Requires.get();
  ASSERT_EQ(Read.size(), Whole.size());
  size_t I = 0;
  for (const auto &[Key, Req] : Whole) {
    EXPECT_EQ(Read[I].Key, Key);
    EXPECT_EQ(Read[I].Range, Req.Range) << Key;
    std::vector<std::string> Extras(Read[I].Extras.begin(),
                                    Read[I].Extras.end());
    EXPECT_EQ(Extras, Req.Extras) << Key;
    ++I;
  }
  EXPECT_EQ(Read[1].Key, "mid");
  EXPECT_EQ(Read[1].Extras.size(), 2u);
  ASSERT_EQ(ReadFromBody.size(), Read.size());
  for (size_t K = 0; K < Read.size(); ++K) {
    EXPECT_EQ(ReadFromBody[K].Key, Read[K].Key);
    EXPECT_EQ(ReadFromBody[K].Range, Read[K].Range);
    EXPECT_EQ(ReadFromBody[K].Extras, Read[K].Extras);
  }
  // Through a memo: the same ranges, each distinct one decoded once and
  // shared by every read of it.
  RangeMemo Memo;
  std::vector<RequirementRange> Memoized, Again;
  ASSERT_TRUE(readRequirementRanges(*E, Memoized, &Memo));
  ASSERT_TRUE(readRequirementRanges(FromBody, Again, &Memo));
  ASSERT_EQ(Memoized.size(), Read.size());
  ASSERT_EQ(Again.size(), Read.size());
  for (size_t K = 0; K < Read.size(); ++K) {
    ASSERT_TRUE(Memoized[K].Shared) << K;
    EXPECT_EQ(Memoized[K].Key, Read[K].Key);
    EXPECT_EQ(Memoized[K].range(), Read[K].Range) << Read[K].Key.str();
    EXPECT_TRUE(Memoized[K].Range.isEmpty()) << "not decoded twice";
    EXPECT_EQ(Memoized[K].Extras, Read[K].Extras);
    EXPECT_EQ(Again[K].Shared, Memoized[K].Shared) << Read[K].Key.str();
  }
  // Once decoded there is nothing left encoded to read.
  EXPECT_EQ(Rel.Requires.size(), 3u);
  EXPECT_FALSE(Rel.Requires.encoded());
  // Bytes cut short, or with one more, do not read.
  for (llvm::StringRef Bad : {E->Bytes.drop_back(), E->Bytes.drop_back(3)}) {
    Deferred<RequirementMap>::Encoded Cut = *E;
    Cut.Bytes = Bad;
    std::vector<RequirementRange> Out, OutMemo;
    EXPECT_FALSE(readRequirementRanges(Cut, Out));
    EXPECT_FALSE(readRequirementRanges(Cut, OutMemo, &Memo));
  }
  std::string Longer = E->Bytes.str() + "x";
  Deferred<RequirementMap>::Encoded More = *E;
  More.Bytes = Longer;
  std::vector<RequirementRange> Out, OutMemo;
  EXPECT_FALSE(readRequirementRanges(More, Out));
  EXPECT_FALSE(readRequirementRanges(More, OutMemo, &Memo));
}

TEST_F(LoadCacheTest, ThePythonReleasesTheSolverWeighsStayUndecoded) {
  // The provider reads a pure-Python release's requirements from its bytes:
  // its dependencies are the same as from the parsed manifest, and the
  // release is never decoded.
  write("a.toml", pkg("a", "1.0"));
  write("dep.toml", "schema = 1\n[package]\nname = \"dep\"\nbuild = "
                    "\"python\"\n[[release]]\nversion = \"1.5\"\n");
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  Registry R({Reg}, Cache);
  PackageLookup L = lookupIn(R);
  llvm::Expected<Manifest> Parsed = loadManifest(Reg + "/a.toml");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  PackageLookup FromParsed = [&](llvm::StringRef N) -> const Package * {
    return N == "a" ? &*Parsed->Pkg : L(N);
  };
  Facts F;
  KnowledgeBase KB;
  ResolveRequest Req;
  FactProvider Cached(Req, L, F, KB, {}), Whole(Req, FromParsed, F, KB, {});
  Version V = Version({1, 0}).withEpoch(encoding::SourceEpoch);
  PackageDependencies D = Cached.dependencies("a", V);
  EXPECT_EQ(R.parsedCount(), 0u);
  ASSERT_TRUE(D.Available);
  const ReleaseList &Rels = std::as_const(L("a")->Releases);
  EXPECT_TRUE(Rels.isEncoded(0));
  PackageDependencies Expected = Whole.dependencies("a", V);
  ASSERT_TRUE(Expected.Available);
  EXPECT_EQ(D.On, Expected.On);
  ASSERT_EQ(D.On.size(), 1u);
  EXPECT_EQ(D.On[0].first, "dep");
  // A version with no release is unavailable, as before.
  EXPECT_FALSE(Cached.dependencies("a", Version({3}).withEpoch(1)).Available);
}

TEST_F(LoadCacheTest, KeptBytesThatDoNotDecodeStopTheCommand) {
  // Only bytes this build wrote are kept undecoded (the cache file's
  // checksum and program identity say so); a cache file forged to pass both
  // with damaged requirements stops the command with exit code 2 when they
  // are read, and is removed.
  llvm::Expected<Manifest> M = parseManifest(pkg("a", "1.0"), "a.toml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  std::string Blob = encodeManifest(*M);
  size_t At = Blob.rfind(">=1.0,<2"); // after the source text
  ASSERT_NE(At, std::string::npos);
  ASSERT_EQ(Blob[At - 1], char(8)); // the length of the specifier
  Blob[At - 1] = char(9);           // now one byte longer than it is
  std::string CacheFile = Cache + "/forged.bin";
  ASSERT_TRUE(writeFile(CacheFile, "x"));
  std::optional<Manifest> D = decodeManifestDeferred(
      std::make_shared<const std::string>(Blob), "a.toml", CacheFile);
  ASSERT_TRUE(D); // the kept bytes are not read yet
  EXPECT_TRUE(D->Pkg->Releases.front().Requires.isEncoded());
  EXPECT_EXIT((void)D->Pkg->Releases.front().Requires.size(),
              ::testing::ExitedWithCode(2),
              "load cache's copy of 'a.toml' does not decode: '" + CacheFile +
                  "' was written by something other than this cudadeps; it "
                  "was removed, run the command again");
  EXPECT_FALSE(llvm::sys::fs::exists(CacheFile));
  // Decoded at once, the same bytes are simply not a manifest.
  EXPECT_FALSE(decodeManifest(Blob, "a.toml"));
}

TEST_F(LoadCacheTest, EachChangeOfAFileIsSeen) {
  std::string A = write("a.toml", pkg("a", "1.0"));
  EXPECT_EQ(versionOf("a"), "1.0");

  // Same size, modification time put back: the status-change time differs.
  struct stat Before;
  ASSERT_EQ(::stat(A.c_str(), &Before), 0);
  write("a.toml", pkg("a", "1.1"));
  struct timespec Times[2] = {Before.st_atim, Before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, A.c_str(), Times, 0), 0);
  EXPECT_EQ(versionOf("a"), "1.1");
  EXPECT_EQ(Parsed, 1u);

  // Replaced by a rename (an editor's save): another inode.
  std::string Tmp = write("a.toml.new", pkg("a", "1.2"));
  ASSERT_FALSE(llvm::sys::fs::rename(Tmp, A));
  EXPECT_EQ(versionOf("a"), "1.2");

  // Only touched: parsed again, same answer.
  struct timespec Now[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
  ASSERT_EQ(::utimensat(AT_FDCWD, A.c_str(), Now, 0), 0);
  EXPECT_EQ(versionOf("a"), "1.2");
  EXPECT_EQ(Parsed, 1u);
  EXPECT_EQ(versionOf("a"), "1.2");
  EXPECT_EQ(Parsed, 0u);

  // Added and removed files.
  std::string B = write("b.toml", pkg("b", "3.0"));
  EXPECT_EQ(versionOf("b"), "3.0");
  EXPECT_EQ(Parsed, 1u);
  ASSERT_FALSE(llvm::sys::fs::remove(B));
  EXPECT_EQ(versionOf("b"), "none");
  EXPECT_EQ(versionOf("a"), "1.2");
  EXPECT_EQ(Parsed, 0u);
}

TEST_F(LoadCacheTest, ErrorsAreReportedAsWithoutTheCache) {
  write("a.toml", pkg("a", "1.0"));
  EXPECT_EQ(versionOf("a"), "1.0");
  // A broken file added to a cached directory is an error, every time.
  std::string Bad = write("bad.toml", "schema = 1\n[package]\nname = 3\n");
  std::string First = versionOf("a");
  EXPECT_THAT(First, HasSubstr("bad.toml:3:8"));
  EXPECT_EQ(versionOf("a"), First);
  Registry Plain({Reg});
  llvm::Expected<const Manifest *> M = Plain.find("a");
  ASSERT_FALSE(bool(M));
  EXPECT_EQ("error: " + llvm::toString(M.takeError()), First);
  EXPECT_EQ(Parsed, 1u); // only the broken one

  // A duplicate of a cached manifest names both files, every time.
  ASSERT_FALSE(llvm::sys::fs::remove(Bad));
  write("z-copy.toml", pkg("A", "9.0"));
  std::string Dup = versionOf("a");
  EXPECT_THAT(Dup, HasSubstr("is defined twice in registry"));
  EXPECT_THAT(Dup, HasSubstr("a.toml and in "));
  EXPECT_THAT(Dup, HasSubstr("z-copy.toml:3:8"));
  EXPECT_EQ(versionOf("a"), Dup);
  EXPECT_EQ(Parsed, 0u);
}

TEST_F(LoadCacheTest, ABadCacheFileIsIgnoredAndRewritten) {
  write("a.toml", pkg("a", "1.0"));
  write("b.toml", pkg("b", "2.0"));
  EXPECT_EQ(versionOf("a"), "1.0");
  std::string File = cacheFile();
  auto Good = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Good));
  std::string Bytes = (*Good)->getBuffer().str();

  auto Put = [&](llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  };
  std::vector<std::string> Bad = {"", "garbage", Bytes.substr(0, Bytes.size() / 2),
                                  Bytes.substr(0, Bytes.size() - 1)};
  for (size_t At : {size_t(25), Bytes.size() / 2, Bytes.size() - 9}) {
    std::string Flipped = Bytes;
    Flipped[At] ^= 0x20;
    Bad.push_back(Flipped);
  }
  for (const std::string &B : Bad) {
    Put(B);
    EXPECT_EQ(versionOf("b"), "2.0");
    EXPECT_EQ(Parsed, 2u);
    EXPECT_EQ(versionOf("a"), "1.0"); // rewritten, used again
    EXPECT_EQ(Parsed, 0u);
  }

  // A directory or a FIFO in its place: ignored, nothing hangs.
  ASSERT_FALSE(llvm::sys::fs::remove(File));
  ASSERT_FALSE(llvm::sys::fs::create_directory(File));
  EXPECT_EQ(versionOf("a"), "1.0");
  ASSERT_FALSE(llvm::sys::fs::remove(File));
  ASSERT_EQ(::mkfifo(File.c_str(), 0600), 0);
  EXPECT_EQ(versionOf("a"), "1.0");
  EXPECT_EQ(Parsed, 2u);
}

TEST_F(LoadCacheTest, AnotherDirectorysCacheIsNotUsed) {
  write("a.toml", pkg("a", "1.0"));
  EXPECT_EQ(versionOf("a"), "1.0");
  // The same files under another name: its own cache file; another's
  // contents copied over it are not used.
  std::string Other = sub("other");
  ASSERT_FALSE(llvm::sys::fs::copy_file(Reg + "/a.toml", Other + "/a.toml"));
  LoadCache Mine(Cache, "registry", Reg), Theirs(Cache, "registry", Other);
  EXPECT_NE(Mine.path(), Theirs.path());
  ASSERT_FALSE(llvm::sys::fs::copy_file(Mine.path(), Theirs.path()));
  Registry R({Other}, Cache);
  llvm::Expected<const Manifest *> M = R.find("a");
  ASSERT_TRUE(bool(M) && *M);
  EXPECT_EQ(R.parsedCount(), 1u);
  EXPECT_EQ((*M)->File, Other + "/a.toml");
  // Nor another kind's.
  LoadCache KB(Cache, "knowledge-base", Reg);
  EXPECT_FALSE(KB.deserialize(Mine.serialize(Mine.read())));
}

TEST_F(LoadCacheTest, ARegistrysRequirementsAreNumbersIntoOneTable) {
  // Each cached release's requirements are (key, range) numbers into one
  // table of the directory's keys and ranges, in their map's order; a
  // release with a requirement naming extras has none.
  write("a.toml", "schema = 1\n[package]\nname = \"a\"\nbuild = \"python\"\n"
                  "[[release]]\nversion = \"1.0\"\n[release.requires]\n"
                  "other = \"*\"\ndep = \">=1.0,<2\"\n"
                  "[[release]]\nversion = \"2.0\"\n[release.requires]\n"
                  "dep = \">=1.0,<2\"\n"
                  "[[release]]\nversion = \"3.0\"\n[release.requires]\n"
                  "\"mid[cuda]\" = \"!=2.0\"\n"
                  "[[release]]\nversion = \"4.0\"\n");
  write("b.toml", pkg("b", "1.0"));
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  ASSERT_EQ(Parsed, 2u);

  // Where they are read: decoded from the table, the requirements the
  // parsed release has.
  auto ExpectSame = [&](const Package &Cached, const Package &Whole) {
    const ReleaseList &Rs = std::as_const(Cached.Releases);
    const ReleaseList &Ws = std::as_const(Whole.Releases);
    ASSERT_EQ(Rs.size(), Ws.size());
    for (size_t I = 0; I < Rs.size(); ++I) {
      std::optional<ReleaseList::RequirementNumbers> Ids = Rs.requirementIds(I);
      const RequirementMap &Reqs = Ws[I].Requires.get();
      bool Extras = false;
      for (const auto &[Key, R] : Reqs)
        Extras |= !R.Extras.empty();
      // Parsed now (changed since the cache was written), or naming extras:
      // no numbers.
      if (Extras || !Rs.isEncoded(I)) {
        EXPECT_FALSE(Ids) << Cached.Name << " " << I;
        continue;
      }
      ASSERT_TRUE(Ids) << Cached.Name << " " << I;
      ASSERT_EQ(Ids->Count, Reqs.size());
      size_t K = 0;
      for (const auto &[Key, R] : Reqs) {
        EXPECT_EQ(Ids->Table->Keys[Ids->key(K)], Key);
        BinaryDecoder D(Ids->Table->Ranges[Ids->range(K)], "");
        VersionSet Range;
        D(Range);
        EXPECT_TRUE(D.ok());
        EXPECT_EQ(Range, R.Range) << Key;
        ++K;
      }
    }
  };
  auto Check = [&](Registry &R, size_t WantParsed) {
    Registry Plain({Reg});
    std::vector<const Package *> Found;
    for (llvm::StringRef Name : {"a", "b"}) {
      llvm::Expected<const Manifest *> M = R.find(Name), W = Plain.find(Name);
      EXPECT_TRUE(M && *M && W && *W);
      if (!M || !*M || !W || !*W)
        return Found;
      ExpectSame(*(*M)->Pkg, *(*W)->Pkg);
      Found.push_back(&*(*M)->Pkg);
    }
    EXPECT_EQ(R.parsedCount(), WantParsed);
    return Found;
  };
  Registry First({Reg}, Cache);
  std::vector<const Package *> Pkgs = Check(First, 0);
  ASSERT_EQ(Pkgs.size(), 2u);
  // One table: "dep" and its range numbered once for both manifests.
  auto A = Pkgs[0]->Releases.requirementIds(0);
  auto B = Pkgs[1]->Releases.requirementIds(0);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->Table, B->Table);
  EXPECT_EQ(A->Table->Keys.size(), 2u); // dep, other (mid has none)
  EXPECT_EQ(A->key(0), B->key(0));      // dep
  EXPECT_EQ(A->range(0), B->range(0));  // >=1.0,<2
  EXPECT_FALSE(Pkgs[0]->Releases.requirementIds(2)); // extras
  auto None = Pkgs[0]->Releases.requirementIds(3);
  ASSERT_TRUE(None);
  EXPECT_EQ(None->Count, 0u);

  // A change to one file: it is parsed, the others' numbers are numbered
  // again into the new table (where the changed file's new keys and
  // ranges come first: b's "dep" is another number).
  write("a.toml", "schema = 1\n[package]\nname = \"a\"\nbuild = \"python\"\n"
                  "[[release]]\nversion = \"1.0\"\n[release.requires]\n"
                  "aaa = \"==7\"\nzzz = \"<3\"\ndep = \"*\"\nother = \"*\"\n");
  Registry Changed({Reg}, Cache), Again({Reg}, Cache);
  Check(Changed, 1);
  Pkgs = Check(Again, 0);
  ASSERT_EQ(Pkgs.size(), 2u);
  EXPECT_EQ(Pkgs[0]->Releases.requirementIds(0)->Table->Keys.size(), 4u);
  // A decoded release keeps its numbers (they are the same requirements).
  (void)std::as_const(Pkgs[0]->Releases)[0].Requires.get();
  EXPECT_TRUE(Pkgs[0]->Releases.requirementIds(0));
}

TEST_F(LoadCacheTest, TheProviderReadsTheNumbersAsTheRequirements) {
  // The dependencies the provider gives from the numbers are those it gives
  // from parsed manifests, for every kind of key: a manifest package of
  // either kind, a name no manifest defines, a tool's key (left out of a
  // pure-Python release's), and a release with extras (no numbers).
  write("a.toml", "schema = 1\n[package]\nname = \"a\"\nbuild = \"python\"\n"
                  "[[release]]\nversion = \"1.0\"\n[release.requires]\n"
                  "dep = \">=1.0,<2\"\ncomp = \">=0.5\"\ntorch = \">=2.6\"\n"
                  "gcc = \">=9\"\n"
                  "[[release]]\nversion = \"2.0\"\n[release.requires]\n"
                  "dep = \">=1.0,<2\"\n\"comp[x]\" = \"*\"\n"
                  "[[release]]\nversion = \"3.0\"\n[release.requires]\n"
                  "dep = \"==1.5\"\n");
  write("dep.toml", "schema = 1\n[package]\nname = \"dep\"\nbuild = "
                    "\"python\"\n[[release]]\nversion = \"1.5\"\n"
                    "[release.requires]\ncomp = \"<1\"\n");
  write("comp.toml",
        "schema = 1\n[package]\nname = \"comp\"\nbuild = "
        "\"torch-extension\"\ngit = \"https://example.com/c.git\"\n"
        "[[release]]\nversion = \"0.7\"\n"
        "[release.extras]\nx = { dep = \"*\" }\n");
  ASSERT_EQ(versionOf("a"), "1.0"); // parsed, and cached
  Registry R({Reg}, Cache), Plain({Reg});
  Facts F;
  KnowledgeBase KB;
  ResolveRequest Req;
  PackageLookup FromCache = lookupIn(R), FromFiles = lookupIn(Plain);
  FactProvider Cached(Req, FromCache, F, KB, {}),
      Whole(Req, FromFiles, F, KB, {});
  size_t Numbered = 0;
  for (llvm::StringRef Name : {"a", "dep"})
    for (const char *Text : {"1.0", "1.5", "2.0", "3.0"}) {
      Version V =
          cantFail(Version::parse(Text)).withEpoch(encoding::SourceEpoch);
      PackageDependencies D = Cached.dependencies(Name.str(), V),
                          W = Whole.dependencies(Name.str(), V);
      EXPECT_EQ(D.Available, W.Available) << Name.str() << " " << Text;
      EXPECT_EQ(D.On, W.On) << Name.str() << " " << Text;
      if (const Package *P = FromCache(Name))
        if (auto I = P->Releases.indexOf(V.withEpoch(0)))
          Numbered += bool(P->Releases.requirementIds(*I));
    }
  EXPECT_EQ(Numbered, 3u); // a 1.0 and 3.0, dep 1.5 (a 2.0 names extras)
  EXPECT_EQ(R.parsedCount(), 0u);
  // torch and comp are there, gcc is not.
  Version V1 = Version({1, 0}).withEpoch(encoding::SourceEpoch);
  PackageDependencies D = Cached.dependencies("a", V1);
  std::vector<std::string> Names;
  for (const auto &[N, Set] : D.On)
    Names.push_back(N);
  EXPECT_EQ(Names, (std::vector<std::string>{"comp", "dep", "torch"}));
}

TEST_F(LoadCacheTest, EachDirectorysNumbersAreReadInItsOwnTable) {
  // Two registry directories, each its own table, where the same numbers
  // name other keys and ranges: the provider reads each release's in its
  // directory's table.
  std::string Second = sub("second");
  write("a.toml", pkg("a", "1.0")); // a needs dep >=1.0,<2
  ASSERT_TRUE(writeFile(Second + "/b.toml",
                        "schema = 1\n[package]\nname = \"b\"\nbuild = "
                        "\"python\"\n[[release]]\nversion = \"1.0\"\n"
                        "[release.requires]\nother = \"==4\"\n"));
  auto Deps = [&](Registry &R, llvm::StringRef Name) {
    PackageLookup L = lookupIn(R);
    Facts F;
    KnowledgeBase KB;
    ResolveRequest Req;
    FactProvider P(Req, L, F, KB, {});
    Version V = Version({1, 0}).withEpoch(encoding::SourceEpoch);
    std::vector<std::pair<std::string, VersionSet>> Out;
    for (llvm::StringRef N : {llvm::StringRef("a"), Name})
      for (auto &D : P.dependencies(N.str(), V).On)
        Out.push_back(D);
    return Out;
  };
  {
    Registry Cold({Reg, Second}, Cache);
    (void)Deps(Cold, "b"); // parsed, and cached
  }
  Registry Warm({Reg, Second}, Cache), Plain({Reg, Second});
  auto FromCache = Deps(Warm, "b");
  EXPECT_EQ(Warm.parsedCount(), 0u);
  EXPECT_EQ(FromCache, Deps(Plain, "b"));
  ASSERT_EQ(FromCache.size(), 2u);
  EXPECT_EQ(FromCache[0].first, "dep");
  EXPECT_EQ(FromCache[1].first, "other");
  const Package *A = lookupIn(Warm)("a"), *B = lookupIn(Warm)("b");
  ASSERT_TRUE(A && B);
  auto IdsA = A->Releases.requirementIds(0),
       IdsB = B->Releases.requirementIds(0);
  ASSERT_TRUE(IdsA && IdsB);
  EXPECT_NE(IdsA->Table, IdsB->Table);
  EXPECT_EQ(IdsA->key(0), IdsB->key(0)); // both 0, each in its own table
  EXPECT_EQ(IdsA->range(0), IdsB->range(0));
}

TEST_F(LoadCacheTest, NumbersThatDoNotReadAreNotUsed) {
  // A table whose ranges do not decode, or whose numbers do not read for
  // the manifest: the releases are read as before, with the same answer.
  write("a.toml", pkg("a", "1.0"));
  write("dep.toml", "schema = 1\n[package]\nname = \"dep\"\nbuild = "
                    "\"python\"\n[[release]]\nversion = \"1.5\"\n");
  ASSERT_EQ(versionOf("a"), "1.0");
  LoadCache C(Cache, "registry", Reg);
  LoadCacheContents Good = C.read();
  ASSERT_EQ(Good.Files.size(), 2u);
  auto Table = RequirementTable::read(
      std::make_shared<const std::string>(Good.Combined));
  ASSERT_TRUE(Table);
  ASSERT_EQ(Table->Ranges.size(), 1u);
  ASSERT_EQ(Table->PerFile.size(), 2u);

  auto Rewrite = [&](std::vector<std::string> Keys,
                     std::vector<std::string> Ranges,
                     std::vector<std::string> PerFile) {
    BinaryEncoder E("");
    E(Keys, Ranges, PerFile);
    LoadCacheContents Bad = C.read();
    Bad.Combined = E.take();
    C.write(Bad);
  };
  std::vector<std::string> Keys(Table->Keys.begin(), Table->Keys.end()),
      Ranges(Table->Ranges.begin(), Table->Ranges.end()),
      PerFile(Table->PerFile.begin(), Table->PerFile.end());
  Version V = Version({1, 0}).withEpoch(encoding::SourceEpoch);
  auto DepsOfA = [&](bool WantIds) {
    Registry R({Reg}, Cache);
    PackageLookup L = lookupIn(R);
    Facts F;
    KnowledgeBase KB;
    ResolveRequest Req;
    FactProvider P(Req, L, F, KB, {});
    PackageDependencies D = P.dependencies("a", V);
    EXPECT_EQ(R.parsedCount(), 0u);
    EXPECT_EQ(bool(L("a")->Releases.requirementIds(0)), WantIds);
    EXPECT_TRUE(D.Available);
    return D.On;
  };
  auto Right = DepsOfA(true);
  ASSERT_EQ(Right.size(), 1u);
  // A range that does not decode, a key or range number beyond the table:
  // numbers kept, the release read instead where they are read.
  Rewrite(Keys, {"\xff"}, PerFile);
  EXPECT_EQ(DepsOfA(true), Right);
  // a.toml's numbers: 1 release, offsets 0 and 1, the pair (key, range).
  std::string Words = PerFile[0];
  ASSERT_EQ(Words.size(), 4u * 5);
  for (size_t At : {size_t(12), size_t(16)}) {
    std::vector<std::string> Per = PerFile;
    Per[0][At] = '\x09';
    Rewrite(Keys, Ranges, Per);
    EXPECT_EQ(DepsOfA(true), Right) << At;
  }
  // An offset past the pairs, or flagged "none": the words are kept, the
  // release has no numbers (read as before).
  for (auto [At, Byte] : {std::pair{size_t(8), '\x02'}, {size_t(7), '\x80'}}) {
    std::vector<std::string> Per = PerFile;
    Per[0][At] = Byte;
    Rewrite(Keys, Ranges, Per);
    Registry R({Reg}, Cache);
    llvm::Expected<const Manifest *> M = R.find("a");
    ASSERT_TRUE(M && *M);
    EXPECT_FALSE((*M)->Pkg->Releases.requirementIds(0)) << At;
    EXPECT_EQ(DepsOfA(false), Right) << At;
  }
  // Another count of releases, words cut short or one byte more: no
  // numbers.
  for (std::string Ids : {std::string("\x02") + Words.substr(1),
                          Words.substr(0, Words.size() - 4),
                          Words.substr(0, Words.size() - 1), Words + "x"}) {
    std::vector<std::string> Per = PerFile;
    Per[0] = Ids;
    Rewrite(Keys, Ranges, Per);
    EXPECT_EQ(DepsOfA(false), Right);
  }
  // A table that does not read at all.
  LoadCacheContents Bad = C.read();
  Bad.Combined = "\x05";
  C.write(Bad);
  EXPECT_EQ(DepsOfA(false), Right);
}

TEST(RequirementIds, NumbersFitTheirReleasesOrAreNotUsed) {
  llvm::Expected<Manifest> M = parseManifest(
      "schema = 1\n[package]\nname = \"x\"\nbuild = \"python\"\n"
      "[[release]]\nversion = \"1.0\"\n[release.requires]\n"
      "b = \">=2\"\na = \"*\"\n"
      "[[release]]\nversion = \"2.0\"\n[release.requires]\n"
      "\"a[y]\" = \"*\"\n"
      "[[release]]\nversion = \"3.0\"\n[release.requires]\na = \"<9\"\n",
      "x.toml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  RequirementTableBuilder B;
  std::string Ids = B.add(*M->Pkg);
  // The count, four offsets (the second release flagged: extras), three
  // pairs: a and b of 1.0 in key order, a of 3.0.
  auto Word = [&](size_t I) { return requirementWord(Ids.data() + 4 * I); };
  ASSERT_EQ(Ids.size(), 4u * (1 + 4 + 2 * 3));
  EXPECT_EQ(Word(0), 3u);
  EXPECT_EQ(Word(1), 0u);
  EXPECT_EQ(Word(2), 2u | NoRequirementIds);
  EXPECT_EQ(Word(3), 2u);
  EXPECT_EQ(Word(4), 3u);
  auto Table = RequirementTable::read(
      std::make_shared<const std::string>(B.encode({Ids})));
  ASSERT_TRUE(Table);
  EXPECT_EQ(Table->Keys, (std::vector<llvm::StringRef>{"a", "b"}));
  EXPECT_EQ(Table->Ranges.size(), 3u); // *, >=2, <9
  EXPECT_EQ(Word(5), 0u);              // a
  EXPECT_EQ(Word(7), 1u);              // b
  EXPECT_EQ(Word(9), 0u);              // a again

  EXPECT_TRUE(releaseNumbersFit(Ids, 3));
  EXPECT_FALSE(releaseNumbersFit(Ids, 2));
  for (size_t N = 0; N < Ids.size(); ++N)
    EXPECT_FALSE(releaseNumbersFit(llvm::StringRef(Ids).take_front(N), 3)) << N;
  EXPECT_FALSE(releaseNumbersFit(Ids + "xxxx", 3));
  // Renumbered into another table, each number names the same key and
  // range there.
  RequirementTableBuilder Other;
  Other.add(*M->Pkg); // a, b first: numbered again, the same
  std::optional<std::string> Same = Other.renumber(*Table, Ids);
  ASSERT_TRUE(Same);
  EXPECT_EQ(*Same, Ids);
  std::string Bad = Ids;
  Bad[4 * 5] = '\x07'; // key 7: not in the table
  EXPECT_FALSE(Other.renumber(*Table, Bad));
  EXPECT_FALSE(Other.renumber(*Table, llvm::StringRef(Ids).drop_back()));

  // Any bytes as a table: nothing or views of them, never a crash; a count
  // far beyond the bytes left allocates nothing.
  std::string Encoded = B.encode({Ids});
  for (size_t I = 0; I < Encoded.size(); ++I)
    for (char C : {'\x01', '\x7f', '\x80', '\xff'}) {
      std::string F = Encoded;
      F[I] = C;
      (void)RequirementTable::read(std::make_shared<const std::string>(F));
    }
  EXPECT_FALSE(RequirementTable::read(std::make_shared<const std::string>(
      std::string("\xff\xff\xff\xff\x0f", 5))));
  EXPECT_FALSE(RequirementTable::read(nullptr));
}

TEST(LoadCacheCodec, AnyBytesDecodeWithoutHarm) {
  llvm::Expected<Manifest> M = parseManifest(
      "schema = 1\n[package]\nname = \"x\"\nbuild = \"python\"\n"
      "[[release]]\nversion = \"1.0\"\narchs = [\"sm_90\"]\n"
      "[release.requires]\ntorch = \">=2.6,<2.9\"\n",
      "x.toml");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  std::string Blob = encodeManifest(*M);
  std::optional<Manifest> Back = decodeManifest(Blob, "y.toml");
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->File, "y.toml");
  EXPECT_EQ(Back->Pkg->NameLoc.File, "y.toml");
  EXPECT_EQ(Back->Pkg->Releases[0].Archs[0].Name, "sm_90");
  // Every truncation and every flipped byte: nullopt or some manifest,
  // never a crash (the checksum of the cache file rejects them before).
  for (size_t N = 0; N < Blob.size(); ++N)
    EXPECT_FALSE(decodeManifest(llvm::StringRef(Blob).take_front(N), "y"));
  for (size_t I = 0; I < Blob.size(); ++I) {
    std::string F = Blob;
    F[I] = char(0xff);
    (void)decodeManifest(F, "y");
  }
  // A count far beyond the bytes left allocates nothing.
  EXPECT_FALSE(decodeManifest(std::string("\x00\xff\xff\xff\xff\x0f", 6), "y"));
}

} // namespace

TEST(RangeMemo, EachRangeDecodedOnceAndKeptWhereItIs) {
  // Enough distinct ranges to grow the memo's index several times: each
  // one's set stays where it was first decoded, and the same bytes find it.
  RangeMemo Memo;
  SourcePath File("reqs.toml");
  std::vector<std::string> Bytes;
  std::vector<const VersionSet *> First;
  for (int K = 0; K < 300; ++K) {
    VersionSet S = VersionSet::atLeast(Version({uint64_t(K), 1}));
    BinaryEncoder E(File);
    E(S);
    Bytes.push_back(E.take());
    uint32_t Id = ~0u;
    const VersionSet *Got = Memo.decode(Bytes.back(), File, &Id);
    ASSERT_TRUE(Got) << K;
    EXPECT_EQ(Id, uint32_t(K)) << "numbered as first seen";
    EXPECT_EQ(*Got, S) << K;
    First.push_back(Got);
  }
  for (int K = 0; K < 300; ++K) {
    std::string Copy = Bytes[K]; // other bytes, the same content
    uint32_t Id = ~0u;
    EXPECT_EQ(Memo.decode(Copy, File, &Id), First[K]) << K;
    EXPECT_EQ(Id, uint32_t(K)) << "the same number again";
  }
  // Bytes that do not decode: null, every time.
  for (int Twice = 0; Twice < 2; ++Twice) {
    EXPECT_EQ(Memo.decode(llvm::StringRef("\xff\xff\xff", 3), File), nullptr);
    EXPECT_EQ(Memo.decode(Bytes[7].substr(0, 1), File), nullptr);
  }
  EXPECT_EQ(Memo.decode(Bytes[7], File), First[7]);
}
