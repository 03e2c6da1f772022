//===- HugePageHeap.h - the heap on transparent huge pages ----------------===//
//
// A resolve of a large registry touches ~50 MiB of heap once: with 4 KiB
// pages that is ~13,000 page faults, a third of the command's time. Where
// the kernel backs memory with transparent huge pages only when asked
// (/sys/kernel/mm/transparent_hugepage/defrag "madvise", as on most
// distributions), malloc's heap never is: glibc asks only when told to by
// the environment (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), which a program
// cannot set for itself. backHeapWithHugePages() does the equivalent once,
// at the start of the process: it grows the heap by Reserve bytes in one
// step (address space only: a page costs memory when first touched), has
// malloc keep it (no trimming below it, large blocks from the heap rather
// than a mapping each) and marks it MADV_HUGEPAGE, so that each 2 MiB of it
// is faulted in at once. Beyond the reserve the heap grows as usual.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_HUGEPAGEHEAP_H
#define CUDADEPS_CORE_SUPPORT_HUGEPAGEHEAP_H

#include <cstddef>

namespace cudadeps {

/// Best effort: false where it does not apply (not Linux with glibc's
/// malloc, e.g. under a sanitizer's allocator; a kernel without
/// transparent huge pages) or fails; nothing else changes then.
bool backHeapWithHugePages(size_t Reserve);

} // namespace cudadeps

#endif
