//===- JsonSupport.cpp - parsing JSON that others wrote -------------------===//

#include "core/support/JsonSupport.h"

#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <cstring>

using namespace llvm;

namespace cudadeps {

bool isPlainJsonText(StringRef Text) {
  auto Plain = [](char C) {
    return C >= 0x20 && C < 0x7f && C != '"' && C != '\\';
  };
  // Per word of eight bytes (the classic tests for a byte below N, exact
  // for N up to 128, and for a zero byte): any byte at or above 0x80, any
  // below 0x20, any equal to 0x7f, '"' or '\\' makes it not plain.
  constexpr uint64_t Ones = 0x0101010101010101ull;
  constexpr uint64_t Highs = 0x8080808080808080ull;
  auto Below = [](uint64_t W, uint64_t N) {
    return ((W - Ones * N) & ~W & Highs) != 0;
  };
  auto HasByte = [&](uint64_t W, uint8_t B) {
    return Below(W ^ (Ones * B), 1);
  };
  const char *P = Text.data();
  const size_t N = Text.size();
  size_t I = 0;
  for (; I + 8 <= N; I += 8) {
    uint64_t W;
    std::memcpy(&W, P + I, 8);
    if ((W & Highs) || Below(W, 0x20) || HasByte(W, 0x7f) || HasByte(W, '"') ||
        HasByte(W, '\\'))
      return false;
  }
  for (; I < N; ++I)
    if (!Plain(P[I]))
      return false;
  return true;
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
