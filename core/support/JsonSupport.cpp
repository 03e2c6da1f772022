//===- JsonSupport.cpp - parsing JSON that others wrote -------------------===//

#include "core/support/JsonSupport.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cudadeps {

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
