//===- BoundedReadersTest.cpp - the remaining readers, against FIFOs ------===//
//
// Shared objects (doctor, torch's ABI), installed distributions' metadata
// and RECORD, build-cache entries (a cache may be shared) and the files
// --emit -o compares against: a FIFO, /dev/zero or a symlink to it in their
// place is refused at once, never read without end. Each case runs in a
// child with a time and memory cap.
//
//===----------------------------------------------------------------------===//
#include "cli/OutputFile.h"
#include "core/build/BuildCache.h"
#include "core/doctor/InstalledDistribution.h"
#include "core/inspect/SharedObject.h"
#include "core/support/BoundedFile.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

bool contains(const std::string &S, llvm::StringRef Part) {
  return llvm::StringRef(S).contains(Part);
}

template <typename T> std::string errorOf(llvm::Expected<T> V) {
  if (V)
    return {};
  return llvm::toString(V.takeError());
}

TEST(BoundedReaders, SharedObjectsAreRegularFilesOnly) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Fifo = T.sub("libfifo.so");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  std::string Zero = T.sub("libzero.so");
  ASSERT_TRUE(makeSymlink("/dev/zero", Zero));
  BoundedOutcome O = runBounded(
      [&] {
        std::string F = errorOf(readSharedObject(Fifo, ReadExports));
        std::string Z = errorOf(readSharedObject(Zero, ReadExports));
        if (!contains(F, "shared object '" + Fifo + "' is a FIFO"))
          return 1;
        if (!contains(Z, "is a character device"))
          return 2;
        // A real one still reads (this test's own executable is ELF).
        std::string Self = errorOf(readSharedObject("/proc/self/exe", 0));
        if (!Self.empty())
          return 3;
        return 0;
      },
      10, 512);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedReaders, DistInfoFilesAsFifosAndDevZero) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Dist = T.sub("site/pkg-1.0.dist-info");
  ASSERT_TRUE(makeDirs(Dist));
  ASSERT_EQ(mkfifo((Dist + "/METADATA").c_str(), 0600), 0);
  ASSERT_TRUE(makeSymlink("/dev/zero", Dist + "/RECORD"));
  ASSERT_EQ(mkfifo((Dist + "/direct_url.json").c_str(), 0600), 0);
  BoundedOutcome O = runBounded(
      [&] {
        llvm::Expected<InstalledDistribution> D =
            readInstalledDistribution(Dist);
        if (!D) {
          llvm::consumeError(D.takeError());
          return 0; // refused: fine, as long as it ends
        }
        return D->SharedObjects.empty() ? 0 : 1;
      },
      10, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedReaders, BuildCacheEntryAsFifoOrDevZeroIsAMiss) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  BuildCache Cache(T.sub("cache"));
  std::string A = Cache.entryDir("aaaa"), B = Cache.entryDir("bbbb");
  ASSERT_TRUE(makeDirs(A));
  ASSERT_TRUE(makeDirs(B));
  ASSERT_EQ(mkfifo((A + "/entry.json").c_str(), 0600), 0);
  ASSERT_TRUE(makeSymlink("/dev/zero", B + "/entry.json"));
  BoundedOutcome O = runBounded(
      [&] {
        if (Cache.lookup("aaaa"))
          return 1;
        if (Cache.lookup("bbbb"))
          return 2;
        return 0;
      },
      10, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedReaders, EmitOutputOverAFifoOrDevZeroLink) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Fifo = T.sub("out.cmake");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  std::string Zero = T.sub("zero.cmake");
  ASSERT_TRUE(makeSymlink("/dev/zero", Zero));
  BoundedOutcome O = runBounded(
      [&] {
        // Neither is compared by reading: each is replaced by the text.
        for (const std::string &P : {Fifo, Zero}) {
          llvm::Expected<bool> W = cli::writeFileIfChanged(P, "set(X 1)\n");
          if (!W || !*W)
            return 1;
          llvm::Expected<std::string> Back = readBoundedFile(P, 1024, "output");
          if (!Back || *Back != "set(X 1)\n")
            return 2;
        }
        return 0;
      },
      10, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedReaders, TailAndMapReadOnlyWhatTheyMay) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Log = T.sub("step.log");
  ASSERT_TRUE(writeFile(Log, std::string(5000, 'a') + "the end\n"));
  llvm::Expected<std::string> Tail = readFileTail(Log, 8, "log");
  ASSERT_TRUE(bool(Tail)) << llvm::toString(Tail.takeError());
  EXPECT_EQ(*Tail, "the end\n");
  std::string Fifo = T.sub("fifo.log");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  EXPECT_TRUE(contains(errorOf(readFileTail(Fifo, 8, "log")), "FIFO"));
  EXPECT_TRUE(contains(errorOf(mapBoundedFile(Log, 100, "shared object")),
                       "too large (5008 bytes; the limit is 100)"));
  auto Mapped = mapBoundedFile(Log, 1 << 20, "shared object");
  ASSERT_TRUE(bool(Mapped)) << llvm::toString(Mapped.takeError());
  EXPECT_EQ((*Mapped)->getBufferSize(), 5008u);
}

} // namespace
