//===- FuzzSupport.h - what the libFuzzer targets share --------------------===//
//
// Every target is a file fuzz/<name>.cpp defining LLVMFuzzerTestOneInput; it
// hands the input to the library's own parser and checks what the parser
// promises (an error or a value, a round trip that reads back). A broken
// promise is reported and aborts, so libFuzzer keeps the input as a crash.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_FUZZ_FUZZSUPPORT_H
#define CUDADEPS_FUZZ_FUZZSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cudadeps::fuzz {

inline llvm::StringRef asText(const uint8_t *Data, size_t Size) {
  return llvm::StringRef(reinterpret_cast<const char *>(Data), Size);
}

/// Aborts with \p What and \p Detail: the input broke a promise of the
/// parser.
[[noreturn]] inline void fail(llvm::StringRef What, llvm::StringRef Detail) {
  std::fprintf(stderr, "fuzz: %.*s\n%.*s\n", static_cast<int>(What.size()),
               What.data(), static_cast<int>(Detail.size()), Detail.data());
  std::abort();
}

/// The value of \p E, or nullptr after consuming its error (an error is a
/// correct answer to bad input; rendering it exercises the message code).
template <typename T> T *valueOrNull(llvm::Expected<T> &E) {
  if (E)
    return &*E;
  std::string Message = llvm::toString(E.takeError());
  if (Message.empty())
    fail("an error without a message", "");
  return nullptr;
}

inline void consume(llvm::Error E) {
  if (E) {
    std::string Message = llvm::toString(std::move(E));
    if (Message.empty())
      fail("an error without a message", "");
  }
}

} // namespace cudadeps::fuzz

#endif
