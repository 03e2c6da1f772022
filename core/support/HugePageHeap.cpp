//===- HugePageHeap.cpp - the heap on transparent huge pages --------------===//
#include "core/support/HugePageHeap.h"

#include <cstdint>
#include <initializer_list>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace cudadeps {

#if defined(__linux__) && defined(__GLIBC__)
/// malloc's settings as glibc starts with them (mallopt(3)).
static void defaultSettings() {
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_TOP_PAD, 128 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

bool backHeapWithHugePages(size_t Reserve) {
  constexpr uintptr_t HugePage = uintptr_t(2) << 20;
  // Under a limit on address space or data (ulimit -v, -d), growing the
  // heap by a reserve at every step could fail where a small step would
  // not: malloc is left as it is.
  for (int Resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit Limit;
    if (getrlimit(Resource, &Limit) != 0 || Limit.rlim_cur != RLIM_INFINITY)
      return false;
  }
  struct mallinfo2 Before = mallinfo2();
  // A block larger than all the heap's free space together makes malloc
  // grow the heap (below, by the block and the pad); it must stay below
  // the size malloc maps on its own.
  size_t Request = Before.fordblks + 4096;
  if (Request >= (32u << 20))
    return false;
  // Blocks up to 32 MiB from the heap (the load cache's buffer among them),
  // the heap grown by Reserve whenever it grows, and never trimmed below
  // that.
  if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) ||
      !mallopt(M_TOP_PAD, static_cast<int>(Reserve)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * Reserve))) {
    defaultSettings();
    return false;
  }
  void *Grow = malloc(Request);
  free(Grow);
  // Grown in one piece at the program break: not where malloc is another
  // allocator (a sanitizer's), nor where the break could not move (the
  // system would not commit that much) and malloc mapped memory elsewhere
  // instead; then malloc goes back to its usual steps.
  struct mallinfo2 After = mallinfo2();
  void *Top = sbrk(0);
  if (!Grow || Top == reinterpret_cast<void *>(-1) ||
      After.arena < Before.arena + Reserve) {
    defaultSettings();
    return false;
  }
  uintptr_t End = reinterpret_cast<uintptr_t>(Top);
  if (After.arena > End) // not one piece below the break
    return false;
  uintptr_t From = (End - After.arena + HugePage - 1) & ~(HugePage - 1);
  uintptr_t To = End & ~(HugePage - 1);
  if (To <= From)
    return false;
  return madvise(reinterpret_cast<void *>(From), To - From, MADV_HUGEPAGE) == 0;
}
#else
bool backHeapWithHugePages(size_t) { return false; }
#endif

} // namespace cudadeps
