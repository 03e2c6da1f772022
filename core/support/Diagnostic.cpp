#include "core/support/Diagnostic.h"

#include "core/support/Printable.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps {

char DiagnosticError::ID = 0;

static StringRef severityName(Severity Level) {
  switch (Level) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  llvm_unreachable("bad severity");
}

std::string Diagnostic::render() const {
  std::string Out;
  raw_string_ostream OS(Out);
  // Messages quote values from the input: escapes reach no terminal.
  OS << (Loc.File.empty() ? "<input>" : printableText(Loc.File));
  if (Loc.Line) {
    OS << ':' << Loc.Line;
    if (Loc.Column)
      OS << ':' << Loc.Column;
  }
  OS << ": " << severityName(Level) << ": "
     << printableText(Message, /*KeepLineBreaks=*/true) << '\n';
  if (!SourceLine.empty()) {
    OS << "  " << SourceLine << '\n';
    if (Loc.Column) {
      OS << "  ";
      // Keep tabs so the caret lines up under tab-indented text.
      for (unsigned I = 1; I < Loc.Column && I - 1 < SourceLine.size(); ++I)
        OS << (SourceLine[I - 1] == '\t' ? '\t' : ' ');
      OS << "^\n";
    }
  }
  if (!Hint.empty())
    OS << "  " << printableText(Hint, /*KeepLineBreaks=*/true) << '\n';
  return Out;
}

std::string sourceLine(StringRef Text, unsigned Line) {
  if (Line == 0)
    return {};
  unsigned Current = 1;
  size_t Pos = 0;
  while (Current < Line) {
    size_t NL = Text.find('\n', Pos);
    if (NL == StringRef::npos)
      return {};
    Pos = NL + 1;
    ++Current;
  }
  StringRef Rest = Text.substr(Pos);
  StringRef L = Rest.take_until([](char C) { return C == '\n'; });
  L = L.rtrim("\r");
  // Do not echo binary junk or enormous lines back at the user.
  StringRef Shown = L.take_front(200);
  const UTF8 *Begin = reinterpret_cast<const UTF8 *>(Shown.begin());
  // Bytes that are not UTF-8 (binary junk) are not echoed to the terminal.
  bool Utf8 = isLegalUTF8String(&Begin, reinterpret_cast<const UTF8 *>(Shown.end()));
  std::string Clean;
  for (size_t I = 0; I < Shown.size(); ++I) {
    unsigned char U = static_cast<unsigned char>(Shown[I]);
    // U+0080..U+009F (C1 controls, 8-bit CSI among them) are C2 80..C2 9F:
    // one '?' per byte keeps the caret's column.
    bool C1 = Utf8 && U == 0xC2 && I + 1 < Shown.size() &&
              static_cast<unsigned char>(Shown[I + 1]) <= 0x9F;
    if (C1) {
      Clean += "??";
      ++I;
      continue;
    }
    Clean += (U < 0x20 && U != '\t') || U == 0x7f || (!Utf8 && U >= 0x80)
                 ? '?'
                 : Shown[I];
  }
  if (L.size() > 200)
    Clean += "...";
  return Clean;
}

void DiagnosticEngine::report(Severity Level, unsigned Line, unsigned Col,
                              const Twine &Message, StringRef Hint) {
  Diagnostic D;
  D.Level = Level;
  D.Loc = {File, Line, Col};
  D.Message = Message.str();
  D.SourceLine = line(Line);
  D.Hint = Hint.str();
  if (Level == Severity::Error)
    ++NumErrors;
  Diags.push_back(std::move(D));
}

std::string DiagnosticEngine::line(unsigned Line) const {
  if (LineStarts.empty()) {
    LineStarts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        LineStarts.push_back(I + 1);
  }
  if (Line == 0 || Line > LineStarts.size())
    return {};
  return sourceLine(StringRef(Text).substr(LineStarts[Line - 1]), 1);
}

void DiagnosticEngine::error(unsigned Line, unsigned Col, const Twine &Message,
                             StringRef Hint) {
  report(Severity::Error, Line, Col, Message, Hint);
}

void DiagnosticEngine::warning(unsigned Line, unsigned Col,
                               const Twine &Message, StringRef Hint) {
  report(Severity::Warning, Line, Col, Message, Hint);
}

Error DiagnosticEngine::takeError() {
  if (!NumErrors)
    return Error::success();
  NumErrors = 0;
  return make_error<DiagnosticError>(std::move(Diags));
}

DiagnosticError::DiagnosticError(SourceLocation Loc, std::string Message,
                                 std::string SourceLine, std::string Hint) {
  Diagnostic D;
  D.Loc = std::move(Loc);
  D.Message = std::move(Message);
  D.SourceLine = std::move(SourceLine);
  D.Hint = std::move(Hint);
  Diags.push_back(std::move(D));
}

void DiagnosticError::log(raw_ostream &OS) const {
  bool First = true;
  for (const Diagnostic &D : Diags) {
    std::string Text = D.render();
    if (!First)
      OS << '\n';
    First = false;
    OS << StringRef(Text).rtrim('\n');
  }
}

std::error_code DiagnosticError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

std::optional<std::string> nearestName(StringRef Word,
                                       ArrayRef<StringRef> Candidates) {
  unsigned Best = ~0u;
  StringRef BestName;
  for (StringRef C : Candidates) {
    unsigned D = Word.edit_distance(C, /*AllowReplacements=*/true, Best);
    if (D < Best) {
      Best = D;
      BestName = C;
    }
  }
  unsigned Limit = std::max<unsigned>(2, Word.size() / 3);
  if (!BestName.empty() && Best <= Limit)
    return BestName.str();
  // A known name with something glued on: 'nvcc_verison' -> 'nvcc'.
  StringRef Longest;
  for (StringRef C : Candidates)
    if (C.size() >= 3 && C.size() > Longest.size() && Word.startswith(C))
      Longest = C;
  if (!Longest.empty())
    return Longest.str();
  return std::nullopt;
}

std::string didYouMean(StringRef Word, ArrayRef<StringRef> Candidates) {
  if (auto N = nearestName(Word, Candidates))
    return "did you mean '" + *N + "'?";
  return {};
}

} // namespace cudadeps
