//===- HugePageHeap.cpp - the heap on transparent huge pages --------------===//
#include "core/support/HugePageHeap.h"

#include <cstdint>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace cudadeps {

#if defined(__linux__) && defined(__GLIBC__)
bool backHeapWithHugePages(size_t Reserve) {
  constexpr uintptr_t HugePage = uintptr_t(2) << 20;
  struct mallinfo2 Before = mallinfo2();
  // Blocks up to 32 MiB from the heap (the load cache's buffer among them),
  // the heap grown by Reserve whenever it grows, and never trimmed below
  // that.
  if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) ||
      !mallopt(M_TOP_PAD, static_cast<int>(Reserve)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * Reserve)))
    return false;
  // A block larger than all the heap's free space together makes malloc
  // grow it now, by the block and the pad.
  size_t Request = Before.fordblks + 4096;
  if (Request >= (32u << 20))
    return false;
  void *Grow = malloc(Request);
  if (!Grow)
    return false;
  free(Grow);
  // Grown in one piece at the program break: not where malloc is another
  // allocator (a sanitizer's), nor where the break could not move and
  // malloc mapped memory elsewhere instead.
  struct mallinfo2 After = mallinfo2();
  void *Top = sbrk(0);
  if (Top == reinterpret_cast<void *>(-1) ||
      After.arena < Before.arena + Reserve)
    return false;
  uintptr_t End = reinterpret_cast<uintptr_t>(Top);
  if (After.arena > End)
    return false;
  uintptr_t From = (End - After.arena + HugePage - 1) & ~(HugePage - 1);
  uintptr_t To = End & ~(HugePage - 1);
  if (To <= From)
    return false;
  return madvise(reinterpret_cast<void *>(From), To - From, MADV_HUGEPAGE) ==
         0;
}
#else
bool backHeapWithHugePages(size_t) { return false; }
#endif

} // namespace cudadeps
