#include "core/support/Deferred.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace cudadeps::detail {

std::mutex &deferredDecodeLock() {
  static std::mutex Lock;
  return Lock;
}

void deferredDecodeFailed(const SourcePath &File, const SourcePath &CacheFile) {
  bool Removed = !CacheFile.empty() && !llvm::sys::fs::remove(CacheFile.str());
  llvm::errs() << "cudadeps: error: the load cache's copy of '" << File.str()
               << "' does not decode: '" << CacheFile.str()
               << "' was written by something other than this cudadeps; "
               << (Removed ? "it was removed, run the command again"
                           : "remove it and run the command again")
               << "\n";
  llvm::errs().flush();
  std::exit(2);
}

} // namespace cudadeps::detail
