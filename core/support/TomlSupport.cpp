//===- TomlSupport.cpp - helpers for reading TOML++ trees -----------------===//

#include "core/support/TomlSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"

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
