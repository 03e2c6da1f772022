//===- JsonSupport.cpp - parsing JSON that others wrote -------------------===//

#include "core/support/JsonSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstring>

using namespace llvm;

namespace cudadeps {

namespace {

// Per word of eight bytes, the classic tests for a byte below N (exact for
// N up to 128, whatever the other bytes hold) and for a given byte.
constexpr uint64_t Ones = 0x0101010101010101ull;
constexpr uint64_t Highs = 0x8080808080808080ull;
constexpr bool below(uint64_t W, uint64_t N) {
  return ((W - Ones * N) & ~W & Highs) != 0;
}
constexpr bool hasByte(uint64_t W, uint8_t B) {
  return below(W ^ (Ones * B), 1);
}
uint64_t wordAt(const char *P) {
  uint64_t W;
  std::memcpy(&W, P, 8);
  return W;
}
/// Whether a JSON string escapes a byte of W: one below 0x20, '"' or '\\'.
constexpr bool escapesOne(uint64_t W) {
  return below(W, 0x20) || hasByte(W, '"') || hasByte(W, '\\');
}
constexpr bool escapes(unsigned char C) {
  return C < 0x20 || C == '"' || C == '\\';
}

bool hasHighByte(StringRef Text) {
  const char *P = Text.data();
  const size_t N = Text.size();
  size_t I = 0;
  for (; I + 8 <= N; I += 8)
    if (wordAt(P + I) & Highs)
      return true;
  for (; I < N; ++I)
    if (static_cast<unsigned char>(P[I]) >= 0x80)
      return true;
  return false;
}

} // namespace

bool isPlainJsonText(StringRef Text) {
  // Any byte at or above 0x80, equal to 0x7f, or that a JSON string escapes
  // makes it not plain.
  const char *P = Text.data();
  const size_t N = Text.size();
  size_t I = 0;
  for (; I + 8 <= N; I += 8) {
    uint64_t W = wordAt(P + I);
    if ((W & Highs) || hasByte(W, 0x7f) || escapesOne(W))
      return false;
  }
  for (; I < N; ++I) {
    auto C = static_cast<unsigned char>(P[I]);
    if (C >= 0x7f || escapes(C))
      return false;
  }
  return true;
}

void writeJsonString(raw_ostream &OS, StringRef Text) {
  if (hasHighByte(Text) && !json::isUTF8(Text)) {
    OS << json::Value(json::fixUTF8(Text));
    return;
  }
  // As llvm::json writes a string: '"' and '\\' after a backslash, \t \n
  // \r, any other byte below 0x20 as \u00XX (lowercase), the rest as it is.
  // The runs between escapes are written whole, found eight bytes at a time.
  const char *P = Text.data();
  const size_t N = Text.size();
  size_t Run = 0;
  auto At = [&](size_t I) {
    auto C = static_cast<unsigned char>(P[I]);
    if (!escapes(C))
      return;
    OS.write(P + Run, I - Run);
    Run = I + 1;
    char Escape[6] = {'\\', char(C), 0, 0, 0, 0};
    size_t Size = 2;
    switch (C) {
    case '"':
    case '\\':
      break;
    case '\t':
      Escape[1] = 't';
      break;
    case '\n':
      Escape[1] = 'n';
      break;
    case '\r':
      Escape[1] = 'r';
      break;
    default:
      std::memcpy(Escape + 1, "u00", 3);
      Escape[4] = hexdigit(C >> 4, /*LowerCase=*/true);
      Escape[5] = hexdigit(C & 15, /*LowerCase=*/true);
      Size = 6;
    }
    OS.write(Escape, Size);
  };
  OS << '"';
  size_t I = 0;
  for (; I + 8 <= N; I += 8)
    if (escapesOne(wordAt(P + I)))
      for (size_t K = I; K < I + 8; ++K)
        At(K);
  for (; I < N; ++I)
    At(I);
  OS.write(P + Run, N - Run);
  OS << '"';
}

std::optional<size_t> findJsonTooDeep(StringRef Text, unsigned MaxDepth) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return I;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return std::nullopt;
}

Expected<json::Value> parseJson(StringRef Text, unsigned MaxDepth) {
  if (Text.size() > MaxJsonBytes)
    return createStringError(inconvertibleErrorCode(),
                             "JSON text too large (%zu bytes; the limit is %zu)",
                             Text.size(), MaxJsonBytes);
  if (std::optional<size_t> At = findJsonTooDeep(Text, MaxDepth))
    return createStringError(inconvertibleErrorCode(),
                             "JSON nested deeper than %u levels at offset %zu",
                             MaxDepth, *At);
  return json::parse(Text);
}

} // namespace cudadeps
