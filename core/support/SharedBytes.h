//===- SharedBytes.h - bytes that share the buffer they were read into ----===//
//
// Part of cudadeps. A load cache file is read into one buffer; each of its
// entries (a manifest's encoded blob) is a view into it, kept alive by the
// shared owner, instead of a copy of its own.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_SHAREDBYTES_H
#define CUDADEPS_CORE_SUPPORT_SHAREDBYTES_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <utility>

namespace cudadeps {

/// Bytes and what keeps them alive: a view into a shared buffer, or their
/// own copy. A deferring decoder (BinaryCodec.h) decodes them as a view
/// into its input; any other as a copy.
struct SharedBytes {
  /// Whatever holds the bytes: a string, a mapped file.
  std::shared_ptr<const void> Owner;
  llvm::StringRef Bytes;

  SharedBytes() = default;
  explicit SharedBytes(std::string S) {
    auto Own = std::make_shared<const std::string>(std::move(S));
    Bytes = *Own;
    Owner = std::move(Own);
  }
  SharedBytes(std::shared_ptr<const void> Owner, llvm::StringRef Bytes)
      : Owner(std::move(Owner)), Bytes(Bytes) {}

  operator llvm::StringRef() const { return Bytes; }
  std::string str() const { return Bytes.str(); }
};

} // namespace cudadeps

#endif
