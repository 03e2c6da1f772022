//===- Printable.cpp - text from others, made safe to show ----------------===//

#include "core/support/Printable.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace cudadeps {

/// The length of the valid UTF-8 sequence at the start of \p S (1..4), or 0
/// when it does not start with one (overlong forms, surrogates and values
/// above U+10FFFF are invalid). Sets \p CodePoint.
static size_t utf8Length(llvm::StringRef S, uint32_t &CodePoint) {
  auto B = [&](size_t I) { return static_cast<unsigned char>(S[I]); };
  unsigned char C = B(0);
  if (C < 0x80) {
    CodePoint = C;
    return 1;
  }
  size_t Len;
  uint32_t Min;
  if ((C & 0xE0) == 0xC0) {
    Len = 2, CodePoint = C & 0x1F, Min = 0x80;
  } else if ((C & 0xF0) == 0xE0) {
    Len = 3, CodePoint = C & 0x0F, Min = 0x800;
  } else if ((C & 0xF8) == 0xF0) {
    Len = 4, CodePoint = C & 0x07, Min = 0x10000;
  } else {
    return 0;
  }
  if (S.size() < Len)
    return 0;
  for (size_t I = 1; I < Len; ++I) {
    if ((B(I) & 0xC0) != 0x80)
      return 0;
    CodePoint = (CodePoint << 6) | (B(I) & 0x3F);
  }
  if (CodePoint < Min || CodePoint > 0x10FFFF ||
      (CodePoint >= 0xD800 && CodePoint <= 0xDFFF))
    return 0;
  return Len;
}

static bool isControl(uint32_t CodePoint) {
  return CodePoint < 0x20 || (CodePoint >= 0x7F && CodePoint <= 0x9F);
}

std::string printableText(llvm::StringRef S, bool KeepLineBreaks) {
  std::string Out;
  Out.reserve(S.size());
  llvm::raw_string_ostream OS(Out);
  while (!S.empty()) {
    uint32_t CP = 0;
    size_t Len = utf8Length(S, CP);
    if (Len == 0) {
      OS << "\\x"
         << llvm::format_hex_no_prefix(static_cast<unsigned char>(S.front()),
                                       2);
      S = S.drop_front();
      continue;
    }
    if (!isControl(CP) || (KeepLineBreaks && (CP == '\n' || CP == '\t'))) {
      OS << S.take_front(Len);
    } else if (CP == '\n') {
      OS << "\\n";
    } else if (CP == '\t') {
      OS << "\\t";
    } else if (CP == '\r') {
      OS << "\\r";
    } else if (CP < 0x80) {
      OS << "\\x" << llvm::format_hex_no_prefix(CP, 2);
    } else {
      OS << "\\u" << llvm::format_hex_no_prefix(CP, 4);
    }
    S = S.drop_front(Len);
  }
  OS.flush();
  return Out;
}

bool isPrintableText(llvm::StringRef S) {
  while (!S.empty()) {
    uint32_t CP = 0;
    size_t Len = utf8Length(S, CP);
    if (Len == 0 || isControl(CP))
      return false;
    S = S.drop_front(Len);
  }
  return true;
}

std::string validUtf8(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  while (!S.empty()) {
    uint32_t CP = 0;
    size_t Len = utf8Length(S, CP);
    if (Len == 0) {
      Out += "\xEF\xBF\xBD";
      S = S.drop_front();
      continue;
    }
    Out += S.take_front(Len).str();
    S = S.drop_front(Len);
  }
  return Out;
}

} // namespace cudadeps
