//===- FailureCause.h - known causes of failed builds, read from the log ---===//
//
// A failed build's log often shows why in a line users learn to look for;
// cudadeps names the cause and the fix: out of memory (nvcc or cc1plus
// killed), an architecture the toolkit cannot compile, a host compiler the
// toolkit rejects, missing Python development headers, torch's CUDA version
// mismatch, no torch importable in the build's Python.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_FAILURECAUSE_H
#define CUDADEPS_CORE_BUILD_FAILURECAUSE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cudadeps {

struct FailureCause {
  std::string Cause; // "the compiler ran out of memory"
  std::string Hint;  // "retry with fewer jobs: --jobs 2"
  std::string Line;  // the log line that shows it
};

/// The first known cause found in \p Log; \p Jobs is the number of jobs the
/// build ran with (for the out-of-memory hint).
std::optional<FailureCause> detectFailureCause(llvm::StringRef Log,
                                               unsigned Jobs);

/// The last \p N lines of \p Log.
std::string lastLines(llvm::StringRef Log, unsigned N);

} // namespace cudadeps

#endif
