#include "core/support/SourcePath.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llvm;

namespace cudadeps {

const std::string SourcePath::Empty;

namespace {

/// The names, each a std::string that stays where it is; the table is
/// never destroyed (locations in objects that outlive main may point at it).
struct InternTable {
  std::mutex Lock;
  StringMap<std::string> Names;
};

InternTable &table() {
  static InternTable *T = new InternTable;
  return *T;
}

} // namespace

SourcePath::SourcePath(StringRef N) {
  if (N.empty())
    return;
  InternTable &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  auto [It, Inserted] = T.Names.try_emplace(N);
  if (Inserted)
    It->second = N.str();
  Name = &It->second;
}

raw_ostream &operator<<(raw_ostream &OS, const SourcePath &P) {
  return OS << *P.Name;
}

} // namespace cudadeps
