//===- Diagnostic.h - located diagnostics with a caret and suggestions ----===//
//
// Every input error in cudadeps names file:line:col, shows the offending line
// with a caret under the column, and where a name was misspelt suggests the
// nearest known one. Diagnostics are collected (all errors in a file, not just
// the first) and cross library boundaries as a DiagnosticError.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_DIAGNOSTIC_H
#define CUDADEPS_CORE_SUPPORT_DIAGNOSTIC_H

#include "core/support/SourcePath.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct SourceLocation {
  SourcePath File;
  unsigned Line = 0;   // 1-based; 0 = unknown
  unsigned Column = 0; // 1-based; 0 = unknown
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity Level = Severity::Error;
  SourceLocation Loc;
  std::string Message;    // lowercase, no final period
  std::string SourceLine; // the text of Loc.Line, empty if unknown
  std::string Hint;       // e.g. "did you mean 'nvcc'?", may be empty

  /// "file:line:col: error: message\n  source line\n      ^\n  hint\n"
  std::string render() const;
};

/// Collects diagnostics for one input. Knows the input's text so each
/// diagnostic gets its source line.
class DiagnosticEngine {
public:
  DiagnosticEngine(std::string File, std::string Text = {})
      : File(std::move(File)), Text(std::move(Text)) {}

  void error(unsigned Line, unsigned Col, const llvm::Twine &Message,
             llvm::StringRef Hint = {});
  void warning(unsigned Line, unsigned Col, const llvm::Twine &Message,
               llvm::StringRef Hint = {});
  void report(Severity Level, unsigned Line, unsigned Col,
              const llvm::Twine &Message, llvm::StringRef Hint = {});

  bool hasErrors() const { return NumErrors != 0; }
  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  const std::string &file() const { return File; }
  const std::string &text() const { return Text; }
  /// sourceLine(text(), Line), from an index of line starts built once, so
  /// that many diagnostics (or lookups) cost linear time in all.
  std::string line(unsigned Line) const;

  /// Moves all diagnostics into an Error if there is at least one error,
  /// else returns success (warnings are kept and can be read afterwards).
  llvm::Error takeError();

private:
  std::string File;
  std::string Text;
  std::vector<Diagnostic> Diags;
  unsigned NumErrors = 0;
  mutable std::vector<size_t> LineStarts; // built on first use
};

/// An llvm::Error carrying located diagnostics (exit code 2 in the CLI).
class DiagnosticError : public llvm::ErrorInfo<DiagnosticError> {
public:
  static char ID;
  explicit DiagnosticError(std::vector<Diagnostic> Diags)
      : Diags(std::move(Diags)) {}
  /// A single located error.
  DiagnosticError(SourceLocation Loc, std::string Message,
                  std::string SourceLine = {}, std::string Hint = {});

  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::vector<Diagnostic> Diags;
};

/// The 1-based line \p Line of \p Text without its newline ("" if absent).
std::string sourceLine(llvm::StringRef Text, unsigned Line);

/// The candidate nearest to \p Word by edit distance, if it is close enough
/// to be a plausible misspelling (distance <= max(2, len/3)).
std::optional<std::string> nearestName(llvm::StringRef Word,
                                       llvm::ArrayRef<llvm::StringRef> Candidates);

/// "did you mean 'x'?" or "" when nothing is near.
std::string didYouMean(llvm::StringRef Word,
                       llvm::ArrayRef<llvm::StringRef> Candidates);

} // namespace cudadeps

#endif
