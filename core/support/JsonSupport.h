//===- JsonSupport.h - parsing JSON that others wrote, writing text
//--------===//
//
// llvm::json::parse recurses once per nested array or object, with no limit:
// 50,000 '[' in a toolkit's version.json, a plugin's answer or a probe-cache
// entry overflow the stack. parseJson checks the nesting depth (and the size)
// with a scan that skips strings before llvm::json sees the text.
// isPlainJsonText() tells text written as it is from text to escape, and
// writeJsonString() writes either.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_JSONSUPPORT_H
#define CUDADEPS_CORE_SUPPORT_JSONSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstddef>
#include <optional>

namespace cudadeps {

/// Deeper nesting of arrays and objects than this is refused.
inline constexpr unsigned MaxJsonDepth = 64;
/// Larger JSON text than this is refused.
inline constexpr size_t MaxJsonBytes = 16u << 20;

/// The byte offset where \p Text nests deeper than \p MaxDepth, if it does.
std::optional<size_t> findJsonTooDeep(llvm::StringRef Text,
                                      unsigned MaxDepth = MaxJsonDepth);

/// Whether \p Text is written in JSON as it is, between quotes: printable
/// ASCII (0x20 to 0x7e) without '"' or '\\'. Eight bytes at a time: the
/// output of a large resolve is thousands of such strings.
bool isPlainJsonText(llvm::StringRef Text);

/// Writes \p Text as a JSON string, the same bytes as llvm::json writes
/// (invalid UTF-8 replaced as json::fixUTF8() does), without copying it into
/// a json::Value or writing it byte by byte: the reasons of a large resolve
/// are hundreds of kilobytes of lines joined by newlines.
void writeJsonString(llvm::raw_ostream &OS, llvm::StringRef Text);

/// llvm::json::parse after the depth and size checks. A refused text is an
/// error that says which limit it broke ("nested deeper than 64 levels at
/// offset N").
llvm::Expected<llvm::json::Value> parseJson(llvm::StringRef Text,
                                            unsigned MaxDepth = MaxJsonDepth);

} // namespace cudadeps

#endif
