//===- EmitQuoting.cpp - values written safely into CMake, Make and sh -----===//
#include "cli/EmitQuoting.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cudadeps::cli {

namespace {

Error refuse(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// "a newline", "a NUL byte", "the control character \x1b".
std::string describeByte(unsigned char C) {
  switch (C) {
  case '\n':
    return "a newline";
  case '\r':
    return "a carriage return";
  case 0:
    return "a NUL byte";
  default:
    return std::string("the control character \\x") + hexdigit(C >> 4, true) +
           hexdigit(C & 15, true);
  }
}

bool isShellSafe(char C) {
  return isAlnum(C) || StringRef("_@%+=:,./-").contains(C);
}

} // namespace

Error checkCMakeElement(StringRef Value) {
  if (Value.contains(';'))
    return refuse("it contains ';', which CMake reads as a list separator");
  if (Value.contains('\0'))
    return refuse("it contains a NUL byte");
  if (Value.contains('\r'))
    return refuse("it contains a carriage return, which CMake reads as part "
                  "of a line ending");
  return Error::success();
}

std::string cmakeQuoted(StringRef Value) {
  if (all_of(Value, [](char C) { return isShellSafe(C) || C == ';'; }))
    return ("\"" + Value + "\"").str();
  // The shortest run of '=' whose closing bracket the value does not hold
  // (a value ending in ']' cannot close it early either: the closing
  // sequence needs ']' + Eq + ']').
  std::string Eq = "=";
  while (Value.contains("]" + Eq + "]"))
    Eq += '=';
  std::string Out = "[" + Eq + "[";
  // CMake drops a newline right after the opening bracket: keep the
  // value's own by writing one more.
  if (Value.startswith("\n"))
    Out += '\n';
  Out += Value;
  Out += "]" + Eq + "]";
  return Out;
}

Expected<std::string> cmakeArgument(StringRef Value) {
  if (Error E = checkCMakeElement(Value))
    return E;
  return cmakeQuoted(Value);
}

Expected<std::string> shellWord(StringRef Value) {
  if (Value.contains('\0'))
    return refuse("it contains a NUL byte");
  if (!Value.empty() && all_of(Value, isShellSafe))
    return Value.str();
  std::string Out = "'";
  for (char C : Value) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out + "'";
}

Expected<std::string> makeWord(StringRef Value) {
  for (char C : Value) {
    unsigned char U = C;
    if ((U < 0x20 && U != '\t') || U == 0x7f)
      return refuse("it contains " + describeByte(U) +
                    ", which a Make variable cannot hold");
  }
  if (Value.empty())
    return std::string(); // no word: $(VAR) is empty, as ifeq expects
  Expected<std::string> Word = shellWord(Value);
  if (!Word)
    return Word.takeError();
  std::string Out;
  unsigned Backslashes = 0;
  for (char C : *Word) {
    if (C == '$') {
      Out += "$$";
    } else if (C == '#') {
      // Make halves the backslashes in front of '#' and reads an unescaped
      // '#' as a comment: write 2n+1 backslashes for n.
      Out.append(Backslashes + 1, '\\');
      Out += '#';
    } else {
      Out += C;
    }
    Backslashes = C == '\\' ? Backslashes + 1 : 0;
  }
  return Out;
}

bool isShellVariableName(StringRef Name) {
  if (Name.empty() || isDigit(Name.front()))
    return false;
  return all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

std::string variableNamePart(StringRef PackageName) {
  std::string Out;
  for (char C : PackageName)
    Out += isAlnum(C) ? toUpper(C) : '_';
  return Out;
}

} // namespace cudadeps::cli
