//===- Printable.h - text from others, made safe to show
//--------------------===//
//
// Facts files, tool outputs, paths and manifest values may hold terminal
// escape sequences (ESC [ ... , OSC ... BEL), other control characters or
// bytes that are not UTF-8. Printed raw they would recolour, retitle or
// rewrite the user's terminal, or forge lines. printableText() is what every
// text renderer passes such values through: valid printable UTF-8 is kept,
// everything else becomes a visible escape.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_PRINTABLE_H
#define CUDADEPS_CORE_SUPPORT_PRINTABLE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cudadeps {

/// \p S with every C0 control (newline and tab included unless
/// \p KeepLineBreaks: then newline and tab stay), DEL and C1 control
/// (U+0080..U+009F) written as an escape -- "\n", "\t", "\x1b", "\u009b" --
/// and every byte that is not part of valid UTF-8 as "\xff".
std::string printableText(llvm::StringRef S, bool KeepLineBreaks = false);

/// True when \p S needs no escaping by printableText().
bool isPrintableText(llvm::StringRef S);

/// \p S with every byte that is not part of valid UTF-8 replaced by U+FFFD
/// (formats such as TOML can only hold UTF-8).
std::string validUtf8(llvm::StringRef S);

} // namespace cudadeps

#endif
