//===- TomlSupport.h - helpers for reading TOML++ trees -------------------===//
//
// What the TOML readers (manifests, the compatibility tables) share when
// they describe a node in a diagnostic: its type in words and its location.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_TOMLSUPPORT_H
#define CUDADEPS_CORE_SUPPORT_TOMLSUPPORT_H

#include "core/support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"

#include <toml++/toml.h>

namespace cudadeps {

/// The type of \p N with its article, as diagnostics say it: "a string",
/// "an array of tables", "nothing".
llvm::StringRef typeName(const toml::node &N);

/// Where \p R begins in \p File; line and column 1 when TOML++ knows no
/// position.
SourceLocation locationOf(llvm::StringRef File, const toml::source_region &R);

/// \p S as a TOML basic string, escaped. Bytes that are not UTF-8 cannot
/// be written in TOML and become U+FFFD.
std::string tomlString(llvm::StringRef S);

} // namespace cudadeps

#endif
