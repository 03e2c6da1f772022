#include "core/build/FailureCause.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cudadeps {

namespace {
struct Pattern {
  StringRef Needle; // matched case-sensitively within one line
  StringRef Cause;
  StringRef Hint;
};
} // namespace

static const Pattern Patterns[] = {
    {"Killed signal terminated program", "the compiler ran out of memory",
     "retry with fewer parallel jobs"},
    {"std::bad_alloc", "the compiler ran out of memory",
     "retry with fewer parallel jobs"},
    {"out of memory", "the compiler ran out of memory",
     "retry with fewer parallel jobs"},
    {"Cannot allocate memory", "the compiler ran out of memory",
     "retry with fewer parallel jobs"},
    {"Unsupported gpu architecture",
     "the toolkit cannot compile a requested GPU architecture",
     "choose archs this nvcc supports (--arch), or a newer toolkit"},
    {"unsupported GNU version", "the toolkit rejects this host compiler",
     "use a host compiler the toolkit supports (see `cudadeps probe`)"},
    {"unsupported clang version", "the toolkit rejects this host compiler",
     "use a host compiler the toolkit supports (see `cudadeps probe`)"},
    {"Python.h: No such file or directory",
     "the Python development headers are missing",
     "install them, e.g. python3-dev (Debian/Ubuntu) or python3-devel"},
    {"mismatches the version that was used to compile PyTorch",
     "torch was built for a different CUDA major than this nvcc",
     "use an nvcc of torch's CUDA major"},
    {"No module named 'torch'", "torch is not importable in the build's Python",
     "install torch into that Python first (builds run without isolation)"},
};

std::optional<FailureCause> detectFailureCause(StringRef Log, unsigned Jobs) {
  SmallVector<StringRef, 0> Lines;
  Log.split(Lines, '\n');
  for (const Pattern &P : Patterns)
    for (StringRef L : Lines)
      if (L.contains(P.Needle)) {
        FailureCause C;
        C.Cause = P.Cause.str();
        C.Hint = P.Hint.str();
        if (P.Cause.contains("memory") && Jobs > 1)
          C.Hint += ": --jobs " + std::to_string(Jobs / 2) +
                    " (this build ran " + std::to_string(Jobs) + ")";
        C.Line = L.trim().take_front(300).str();
        return C;
      }
  return std::nullopt;
}

std::string lastLines(StringRef Log, unsigned N) {
  Log = Log.rtrim('\n');
  size_t Pos = Log.size();
  for (unsigned I = 0; I < N && Pos != StringRef::npos && Pos > 0; ++I)
    Pos = Log.rfind('\n', Pos - 1);
  return (Pos == StringRef::npos ? Log : Log.substr(Pos + 1)).str();
}

} // namespace cudadeps
