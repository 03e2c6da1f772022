//===- Hash.h - content hashes for cache keys ------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_HASH_H
#define CUDADEPS_CORE_SUPPORT_HASH_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cudadeps {

/// The SHA-256 of \p Data as 64 lowercase hex digits.
std::string sha256Hex(llvm::StringRef Data);

} // namespace cudadeps

#endif
