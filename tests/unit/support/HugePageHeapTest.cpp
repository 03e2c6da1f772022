// backHeapWithHugePages: the heap it reserves is marked for huge pages and
// malloc's blocks, large ones included, come from it; where malloc is not
// glibc's (a sanitizer's allocator), or under a limit on address space, it
// changes nothing and says so.
#include "core/support/HugePageHeap.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <malloc.h>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace cudadeps;

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define CUDADEPS_TEST_SANITIZED_MALLOC 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CUDADEPS_TEST_SANITIZED_MALLOC 1
#endif

namespace {

struct Mapping {
  uintptr_t Start = 0, End = 0;
  bool Heap = false, HugePages = false;
};

/// The process's mappings, from /proc/self/smaps.
std::vector<Mapping> mappings() {
  std::vector<Mapping> Out;
  std::ifstream In("/proc/self/smaps");
  std::string Line;
  while (std::getline(In, Line)) {
    llvm::StringRef L(Line);
    if (L.startswith("VmFlags:")) {
      if (!Out.empty())
        Out.back().HugePages =
            (L.drop_front(8).str() + " ").find(" hg ") != std::string::npos;
      continue;
    }
    auto [Range, Rest] = L.split(' ');
    auto [From, To] = Range.split('-');
    Mapping M;
    if (To.empty() || From.getAsInteger(16, M.Start) ||
        To.getAsInteger(16, M.End))
      continue; // a field line ("Rss: ...")
    M.Heap = Rest.endswith("[heap]");
    Out.push_back(M);
  }
  return Out;
}

const Mapping *mappingOf(const std::vector<Mapping> &Ms, const void *P) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  for (const Mapping &M : Ms)
    if (M.Start <= A && A < M.End)
      return &M;
  return nullptr;
}

TEST(HugePageHeap, MarksTheReservedHeapForHugePages) {
#ifdef CUDADEPS_TEST_SANITIZED_MALLOC
  // The sanitizer's malloc does not grow the program break.
  EXPECT_FALSE(backHeapWithHugePages(size_t(64) << 20));
#else
  struct stat St;
  if (::stat("/sys/kernel/mm/transparent_hugepage", &St) != 0)
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  ASSERT_TRUE(backHeapWithHugePages(size_t(64) << 20));
  std::vector<Mapping> Ms = mappings();
  uintptr_t Marked = 0;
  for (const Mapping &M : Ms)
    if (M.Heap && M.HugePages)
      Marked += M.End - M.Start;
  // The reserve less what aligning it to 2 MiB cuts off.
  EXPECT_GE(Marked, uintptr_t(60) << 20);
  // A 4 MiB block, which malloc would map on its own by default (blocks
  // from 128 KiB up), now comes from the heap, and reaches into the marked
  // part (which starts at the first 2 MiB boundary of the reserve).
  size_t Size = size_t(4) << 20;
  std::unique_ptr<char[]> Block(new char[Size]);
  Block[Size - 1] = 1;
  Ms = mappings();
  const Mapping *Where = mappingOf(Ms, Block.get() + Size - 1);
  ASSERT_NE(Where, nullptr);
  EXPECT_TRUE(Where->Heap);
  EXPECT_TRUE(Where->HugePages);
#endif
}

#ifndef CUDADEPS_TEST_SANITIZED_MALLOC
// Under ulimit -v, growing the heap by a reserve at every step could fail
// where malloc's own small steps would not: nothing is reserved.
TEST(HugePageHeap, LeavesMallocAloneUnderAnAddressSpaceLimit) {
  pid_t Pid = fork();
  ASSERT_GE(Pid, 0);
  if (Pid == 0) {
    rlimit Limit{rlim_t(8) << 30, rlim_t(8) << 30};
    if (setrlimit(RLIMIT_AS, &Limit) != 0)
      _exit(10);
    size_t Before = mallinfo2().arena;
    if (backHeapWithHugePages(size_t(64) << 20))
      _exit(11);
    if (mallinfo2().arena >= Before + (size_t(64) << 20))
      _exit(12);
    _exit(0);
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0);
}
#endif

} // namespace
