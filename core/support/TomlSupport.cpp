//===- TomlSupport.cpp - helpers for reading TOML++ trees -----------------===//

#include "core/support/TomlSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <utility>
#include <vector>

using namespace llvm;

namespace cudadeps {

llvm::StringRef typeName(const toml::node &N) {
  switch (N.type()) {
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a float";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::date:
  case toml::node_type::time:
  case toml::node_type::date_time:
    return "a date";
  case toml::node_type::array:
    return N.is_array_of_tables() ? "an array of tables" : "an array";
  case toml::node_type::table:
    return "a table";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}

SourceLocation locationOf(llvm::StringRef File, const toml::source_region &R) {
  return {File.str(), R.begin.line ? R.begin.line : 1u,
          R.begin.line ? R.begin.column : 1u};
}

/// A TOML basic string. Bytes that are not UTF-8 cannot be written in TOML
/// and become U+FFFD.
std::string tomlString(StringRef S) {
  std::string Out = "\"";
  const UTF8 *Cursor = reinterpret_cast<const UTF8 *>(S.begin());
  const UTF8 *End = reinterpret_cast<const UTF8 *>(S.end());
  bool Utf8 = isLegalUTF8String(&Cursor, End);
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    switch (C) {
    case '"':
      Out += "\\\"";
      continue;
    case '\\':
      Out += "\\\\";
      continue;
    case '\n':
      Out += "\\n";
      continue;
    case '\t':
      Out += "\\t";
      continue;
    case '\r':
      Out += "\\r";
      continue;
    default:
      break;
    }
    if (U < 0x20 || U == 0x7f)
      Out += "\\u00" + utohexstr(U, /*LowerCase=*/false, /*Width=*/2);
    else if (U >= 0x80 && !Utf8)
      Out += "\\uFFFD";
    else
      Out += C;
  }
  Out += '"';
  return Out;
}

} // namespace cudadeps

namespace cudadeps {

char TomlSyntaxError::ID = 0;

void TomlSyntaxError::log(llvm::raw_ostream &OS) const {
  OS << File << ':' << Line << ':' << Column << ": " << Message;
}

std::error_code TomlSyntaxError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

bool isBareKeyChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '-';
}

bool isValueTerminator(char C) {
  return llvm::StringRef(" \t\n\r\v\f]},#").contains(C);
}

bool isDigitRun(llvm::StringRef S, size_t From, size_t Count) {
  if (S.size() < From + Count)
    return false;
  return llvm::all_of(S.substr(From, Count), llvm::isDigit);
}

/// TOML++ 3.3.0 asserts (assumes, without assertions) a digit after the 'T'
/// of a date-time and more than one character after the space of one: \p V,
/// a value, is a date ("1979-05-27") followed by 'T' and no digit, or by a
/// space, one digit and the value's end. Neither is valid TOML.
const char *dateTimeHazard(llvm::StringRef V) {
  auto IsDate = [](llvm::StringRef D) {
    return isDigitRun(D, 0, 4) && D[4] == '-' && isDigitRun(D, 5, 2) &&
           D[7] == '-' && isDigitRun(D, 8, 2);
  };
  if (V.size() > 11 && IsDate(V) && (V[10] == 'T' || V[10] == 't') &&
      !llvm::isDigit(V[11]))
    return "invalid TOML: a date-time needs a time (HH:MM:SS) after 'T'";
  // TOML++ classifies the value with its '_' left out.
  std::string Token;
  size_t End = 0;
  for (; End < V.size() && !isValueTerminator(V[End]); ++End)
    if (V[End] != '_')
      Token += V[End];
  // (letters other than b, e, o, p, t, x and z do not change its class).
  if (Token.size() == 10 && Token[4] == '-' && Token[7] == '-' &&
      llvm::isDigit(Token[0]) &&
      End + 2 < V.size() && V[End] == ' ' && llvm::isDigit(V[End + 1]) &&
      isValueTerminator(V[End + 2]))
    return "invalid TOML: a date-time needs a time (HH:MM:SS) after the "
           "space";
  return nullptr;
}

/// The scanner of checkTomlHazards: a TOML lexer reduced to what tells
/// strings and comments from the rest, table headers from values, and the
/// nesting of inline tables and arrays.
class HazardScanner {
public:
  explicit HazardScanner(llvm::StringRef Text) : Text(Text) {}

  /// The first hazard: its byte offset and message.
  std::optional<std::pair<size_t, const char *>> run();

private:
  enum class State { Normal, Basic, Literal, MultiBasic, MultiLiteral, Comment };
  llvm::StringRef Text;
};

static_assert(MaxTomlDottedParts == 32, "the message below names the limit");

std::optional<std::pair<size_t, const char *>> HazardScanner::run() {
  State St = State::Normal;
  // The open '[' and '{' of values, each with the dotted parts of the keys
  // that lead to it.
  std::vector<std::pair<char, unsigned>> Open;
  unsigned Dots = 0, DotsAbove = 0;
  bool AtLineStart = true;
  // The last character outside strings and comments (a value starts after
  // '=', and after '[' or ',' in an array).
  char Prev = '\n';
  // Inside a value that is not a string, array or inline table: TOML++
  // reads it up to the next whitespace, ',', ']', '}' or '#'.
  bool InBareValue = false;
  size_t Start = Text.startswith("\xEF\xBB\xBF") ? 3 : 0; // a UTF-8 BOM
  auto Hazard = [](size_t At, const char *Message) {
    return std::make_optional(std::make_pair(At, Message));
  };
  for (size_t I = Start; I < Text.size(); ++I) {
    char C = Text[I];
    llvm::StringRef Rest = Text.substr(I);
    if (C == '\n') {
      AtLineStart = true;
      if (St == State::Comment || St == State::Basic || St == State::Literal)
        St = State::Normal;
      if (St == State::Normal && Open.empty())
        Dots = 0, Prev = '\n';
      InBareValue = false;
      continue;
    }
    switch (St) {
    case State::Comment:
      continue;
    case State::Basic:
      if (C == '\\' && I + 1 < Text.size() && Text[I + 1] != '\n')
        ++I;
      else if (C == '"')
        St = State::Normal;
      continue;
    case State::Literal:
      if (C == '\'')
        St = State::Normal;
      continue;
    case State::MultiBasic:
    case State::MultiLiteral: {
      char Quote = St == State::MultiBasic ? '"' : '\'';
      if (St == State::MultiBasic && C == '\\' && I + 1 < Text.size()) {
        // TOML++ asks whether the character after a backslash, and the
        // first one after a line-ending backslash and the whitespace it
        // trims, is whitespace: for many non-ASCII characters that is
        // undefined behaviour (see the file comment of TomlSupport.h).
        size_t J = I + 1;
        if (llvm::StringRef(" \t\r\n").contains(Text[J]))
          J = Text.find_first_not_of(" \t\r\n", J);
        if (J != llvm::StringRef::npos && static_cast<unsigned char>(Text[J]) >= 0x80)
          return Hazard(J, "invalid TOML: a non-ASCII character right after a "
                           "backslash or a line-ending backslash (write it "
                           "as \\uXXXX)");
        ++I;
        if (Text[I] == '\n')
          AtLineStart = true;
      } else if (Rest.startswith(std::string(3, Quote))) {
        // Up to two more quotes belong to the string: """a"""" is 'a"'.
        size_t Run = std::min<size_t>(Rest.find_first_not_of(Quote), 5);
        if (Run == llvm::StringRef::npos)
          Run = std::min<size_t>(Rest.size(), 5);
        St = State::Normal;
        I += Run - 1;
        AtLineStart = false;
      }
      continue;
    }
    case State::Normal:
      break;
    }
    if (C == ' ' || C == '\t' || C == '\r') {
      InBareValue = false;
      continue;
    }
    bool First = AtLineStart;
    AtLineStart = false;
    if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
      return Hazard(I, "invalid TOML: a control character outside a string");
    if (static_cast<unsigned char>(C) >= 0x80)
      return Hazard(I, "invalid TOML: a non-ASCII character outside a "
                       "string or comment (quote a key that is not ASCII "
                       "letters, digits, '-' and '_')");
    bool ValueStart = Prev == '=' || (!Open.empty() && Open.back().first == '[' &&
                                      (Prev == '[' || Prev == ','));
    if (C != '#')
      Prev = C;
    if (ValueStart && llvm::isDigit(C))
      if (const char *Message = dateTimeHazard(Rest))
        return Hazard(I, Message);
    // A string starts a key or a value; TOML++ reads a quote elsewhere as
    // part of a bare value, past what this scanner would take as a string.
    bool Quote = C == '"' || C == '\'';
    if (ValueStart && !Quote && C != '[' && C != '{')
      InBareValue = true;
    else if (llvm::StringRef(",]}#").contains(C))
      InBareValue = false;
    if (Quote && (InBareValue || (I > Start && !llvm::StringRef(" \t\r\n=[{,.")
                                                    .contains(Text[I - 1]))))
      return Hazard(I, "invalid TOML: a quote inside a bare key or value");
    if (C == '#') {
      St = State::Comment;
    } else if (Rest.startswith("\"\"\"")) {
      St = State::MultiBasic, I += 2;
    } else if (Rest.startswith("'''")) {
      St = State::MultiLiteral, I += 2;
    } else if (C == '"') {
      St = State::Basic;
    } else if (C == '\'') {
      St = State::Literal;
    } else if (C == '[' && First && Open.empty()) {
      // A table header: its name must start right after '[' or '[['.
      size_t J = I + 1;
      if (J < Text.size() && Text[J] == '[')
        ++J;
      I = J - 1;
      while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t'))
        ++J;
      char N = J < Text.size() ? Text[J] : '\n';
      if (!(isBareKeyChar(N) || N == '"' || N == '\''))
        return Hazard(J, "invalid TOML: expected a table name after '['");
      Dots = 0;
    } else if (C == '[' || C == '{') {
      Open.push_back({C, Dots});
      DotsAbove += Dots;
      Dots = 0;
    } else if (C == '}' && !Open.empty() && Open.back().first == '[') {
      return Hazard(I, "invalid TOML: unexpected '}' in an array");
    } else if ((C == ']' || C == '}') && !Open.empty()) {
      Dots = Open.back().second;
      DotsAbove -= Dots;
      Open.pop_back();
    } else if (C == ',') {
      Dots = 0;
    } else if (C == '.') {
      if (++Dots + DotsAbove > MaxTomlDottedParts)
        return Hazard(I, "invalid TOML: a key nested too deeply (more than "
                         "32 dotted parts)");
    }
  }
  return std::nullopt;
}

/// 1-based line and column (in bytes) of byte \p Offset of \p Text.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Text,
                                            size_t Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n');
  unsigned Line = 1 + static_cast<unsigned>(Before.count('\n'));
  unsigned Column = static_cast<unsigned>(
      Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1);
  return {Line, Column};
}

} // namespace

llvm::Error checkTomlHazards(llvm::StringRef Text, llvm::StringRef FileName) {
  std::optional<std::pair<size_t, const char *>> H = HazardScanner(Text).run();
  if (!H)
    return llvm::Error::success();
  auto [Line, Column] = lineAndColumn(Text, H->first);
  return llvm::make_error<TomlSyntaxError>(FileName.str(), Line, Column,
                                           H->second, "", /*Guard=*/true);
}

llvm::Expected<toml::table> parseToml(llvm::StringRef Text,
                                      llvm::StringRef FileName) {
  if (llvm::Error E = checkTomlHazards(Text, FileName))
    return E;
  toml::parse_result Parsed =
      toml::parse(std::string_view(Text.data(), Text.size()),
                  std::string_view(FileName.data(), FileName.size()));
  if (Parsed)
    return std::move(Parsed).table();
  const toml::parse_error &E = Parsed.error();
  std::string Desc(E.description());
  std::string Message = Desc;
  if (!Message.empty())
    Message[0] = llvm::toLower(Message[0]);
  unsigned Line = E.source().begin.line ? E.source().begin.line : 1;
  unsigned Col = E.source().begin.line ? E.source().begin.column : 1;
  return llvm::make_error<TomlSyntaxError>(
      FileName.str(), Line, Col,
      ("invalid TOML: " + llvm::StringRef(Message).take_front(300)).str(),
      std::move(Desc), /*Guard=*/false);
}

llvm::Error tomlErrorAsDiagnostic(llvm::Error E, llvm::StringRef Text) {
  return llvm::handleErrors(
      std::move(E), [&](const TomlSyntaxError &T) -> llvm::Error {
        return llvm::make_error<DiagnosticError>(
            SourceLocation{T.File, T.Line, T.Column}, T.Message,
            sourceLine(Text, T.Line));
      });
}

} // namespace cudadeps
