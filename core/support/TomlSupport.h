//===- TomlSupport.h - helpers for reading TOML++ trees -------------------===//
//
// What the TOML readers (manifests, facts files, the knowledge base, lock
// files) share: the one guarded way to parse TOML, and how a node is
// described in a diagnostic (its type in words, its location).
//
// TOML++ 3.3.0 has assertions (an abort in a debug build) and undefined
// behaviour (__builtin_unreachable, unbounded recursion) that malformed
// input reaches:
//  - a non-ASCII character where TOML++ expects whitespace or a key ("é",
//    U+00C0..U+0499, ...) reaches TOML_UNREACHABLE in
//    is_non_ascii_horizontal_whitespace;
//  - a table header with no name ("[[", "[ # x", "[.a]") asserts in
//    parse_key;
//  - a '}' where an array expects a value ("[1, }", "[\n}") asserts in
//    parse_value;
//  - a key with many dotted parts (200,000) recurses once per part and
//    overflows the stack.
//  - a date followed by 'T' and no digit ("1979-05-27Tx"), or by a space,
//    one digit and the end of the value ("1979-05-27 1"), asserts in
//    parse_time and parse_value;
//  - a quote inside a bare value ("+'é'") is scanned past as part of the
//    value, and a non-ASCII character right after a backslash in a
//    multi-line basic string (or after a line-ending backslash and the
//    whitespace it trims) is asked whether it is whitespace: both reach the
//    TOML_UNREACHABLE above.
// All of these are invalid TOML 1.0 (bare keys are ASCII) but a non-ASCII
// character after a line-ending backslash's whitespace (refused with a hint
// to write it as \uXXXX), so parseToml()
// scans the text first, outside strings and comments, and refuses them with
// their line and column; only text that passes reaches TOML++.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_TOMLSUPPORT_H
#define CUDADEPS_CORE_SUPPORT_TOMLSUPPORT_H

#include "core/support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <toml++/toml.h>

namespace cudadeps {

/// More dotted key parts than this, summed over the nesting of inline
/// tables and arrays, is refused before parsing.
inline constexpr unsigned MaxTomlDottedParts = 32;

/// A syntax error in TOML text, with its 1-based position.
class TomlSyntaxError : public llvm::ErrorInfo<TomlSyntaxError> {
public:
  static char ID;
  TomlSyntaxError(std::string File, unsigned Line, unsigned Column,
                  std::string Message, std::string Description, bool Guard)
      : File(std::move(File)), Line(Line), Column(Column),
        Message(std::move(Message)), Description(std::move(Description)),
        Guard(Guard) {}

  std::string File;
  unsigned Line;
  unsigned Column;
  /// "invalid TOML: ..." in cudadeps' style (lowercase, no final period).
  std::string Message;
  /// TOML++'s own description ("Error while parsing ..."); empty when the
  /// guard refused the text.
  std::string Description;
  /// The guard refused the text before TOML++ saw it.
  bool Guard;

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
};

/// What the guard refuses in \p Text (see the file comment), or success.
/// Errors are TomlSyntaxError.
llvm::Error checkTomlHazards(llvm::StringRef Text, llvm::StringRef FileName);

/// The one entry point to TOML++: checkTomlHazards(), then toml::parse.
/// Errors are TomlSyntaxError.
llvm::Expected<toml::table> parseToml(llvm::StringRef Text,
                                      llvm::StringRef FileName);

/// The error of parseToml() as a located diagnostic (DiagnosticError, with
/// the source line); other errors pass through.
llvm::Error tomlErrorAsDiagnostic(llvm::Error E, llvm::StringRef Text);

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
