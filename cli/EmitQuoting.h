//===- EmitQuoting.h - values written safely into CMake, Make and sh -------===//
//
// The pre-build hooks (`resolve --emit cmake|make|env`) write paths and
// values that come from the machine, facts files, --set and manifests into
// files that a build system then reads as code. Each value goes through the
// quoting of its target language, so that nothing in it is ever evaluated:
//
//   cmake  "..." when the value has only [A-Za-z0-9_@%+=:,./-], else a
//          bracket argument [=[...]=] with enough '=' that the value cannot
//          close it: no variable reference, escape or command is evaluated.
//          ';' (CMake would read a list) and '\r' (CMake reads CRLF as a
//          line ending) are refused.
//   make   a shell word (the variables are used in recipes), then '$' doubled
//          and '#' escaped for Make. Newlines and other control characters
//          are refused: a Make variable cannot hold them.
//   sh     a shell word: single quotes when anything but [A-Za-z0-9_@%+=:,./-]
//          is present, a quote written '\''. Only NUL is refused.
//
// A value that cannot be expressed is an error that says which character
// and why; callers add which value it was and where it came from.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_EMITQUOTING_H
#define CUDADEPS_CLI_EMITQUOTING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps::cli {

/// \p Value as one CMake argument: "/usr/local/cuda/bin/nvcc" when it has
/// only [A-Za-z0-9_@%+=:,./-], else a bracket argument [=[...]=].
llvm::Expected<std::string> cmakeArgument(llvm::StringRef Value);

/// Why \p Value cannot be one element of a CMake list, or success.
llvm::Error checkCMakeElement(llvm::StringRef Value);

/// \p Value (checked elements joined by ';') as one CMake argument.
std::string cmakeQuoted(llvm::StringRef Value);

/// \p Value as one shell word, quoted only when it needs it.
llvm::Expected<std::string> shellWord(llvm::StringRef Value);

/// \p Value as one shell word inside a Make variable assignment
/// (`VAR := <word>`): the shell word with '$' and '#' escaped for Make; an
/// empty value is no word at all.
llvm::Expected<std::string> makeWord(llvm::StringRef Value);

/// True for a name the shell can export: [A-Za-z_][A-Za-z0-9_]*.
bool isShellVariableName(llvm::StringRef Name);

/// A CMake or shell variable name part from a package name:
/// "causal-conv1d" -> "CAUSAL_CONV1D".
std::string variableNamePart(llvm::StringRef PackageName);

} // namespace cudadeps::cli

#endif
