//===- ReasonLines.cpp - the lines of a package's reasons, each said once -===//
#include "core/plan/ReasonLines.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

using namespace llvm;

namespace cudadeps {

/// "A needs B " where Line begins so, A and B without a space (the only
/// heads addNeed() looks up in FirstByHead), else empty. A line that begins
/// with such a head has no other: A ends at its first space.
static StringRef headOf(StringRef Line) {
  size_t Space = Line.find(' ');
  if (Space == StringRef::npos || !Line.drop_front(Space).startswith(" needs "))
    return {};
  size_t End = Line.find(' ', Space + 7);
  return End == StringRef::npos ? StringRef() : Line.take_front(End + 1);
}

void ReasonLines::add(const std::string &Line) {
  if (Line.empty())
    return;
  registerPending();
  if (Lines.count(Line) || ColonPrefixes.count(Line))
    return;
  push(Line);
  registerPending();
}

void ReasonLines::addNeed(const std::string &From, const std::string &To,
                          const std::string &Set) {
  // Built where it is looked up, on the stack: a line is made only where
  // one is added or merged.
  SmallString<64> Head;
  Head += From;
  Head += " needs ";
  Head += To;
  Head += " ";
  std::optional<size_t> At;
  if (StringRef(From).contains(' ') || StringRef(To).contains(' ')) {
    // Not a head that FirstByHead holds: looked for line by line.
    for (size_t I = 0; I < Out.size() && !At; ++I)
      if (StringRef(Out[I]).startswith(Head.str()))
        At = I;
  } else if (auto It = FirstByHead.find(Head.str()); It != FirstByHead.end()) {
    At = It->second;
  }
  if (!At) {
    std::string Line;
    Line.reserve(Head.size() + Set.size());
    Line.append(Head.data(), Head.size()).append(Set);
    push(std::move(Line));
    return;
  }
  StringRef Sets = StringRef(Out[*At]).drop_front(Head.size());
  Sets.consume_back(" (by release)");
  SmallVector<StringRef, 4> Known, Alternatives;
  Sets.split(Known, " or ");
  // A set that reads as several ("X (source build) or Y (prebuilt)") adds
  // those of its alternatives not said yet: said again, it adds none.
  StringRef(Set).split(Alternatives, " or ");
  constexpr StringRef Or = " or ", ByRelease = " (by release)";
  std::string Merged;
  for (StringRef Alt : Alternatives) {
    if (is_contained(Known, Alt))
      continue;
    if (Merged.empty()) {
      Merged.reserve(Head.size() + Sets.size() + Or.size() + Set.size() +
                     ByRelease.size());
      Merged.append(Head.data(), Head.size()).append(Sets.data(), Sets.size());
    }
    Merged.append(Or.data(), Or.size()).append(Alt.data(), Alt.size());
    Known.push_back(Alt);
  }
  if (Merged.empty())
    return;
  Merged.append(ByRelease.data(), ByRelease.size());
  // The head stays, so FirstByHead does too; the texts add() asks about
  // are brought up to date when it next asks.
  if (Registered[*At]) {
    Stale.push_back(std::move(Out[*At]));
    Registered[*At] = false;
    Pending.push_back(*At);
  }
  Out[*At] = std::move(Merged);
}

void ReasonLines::push(std::string Line) {
  Out.push_back(std::move(Line));
  Registered.push_back(false);
  Pending.push_back(Out.size() - 1);
  // A merged line keeps its head, and lines are never removed: the first
  // line with a head stays the first.
  if (StringRef Head = headOf(Out.back()); !Head.empty())
    FirstByHead.try_emplace(Head, Out.size() - 1);
}

void ReasonLines::registerPending() {
  for (const std::string &Old : Stale)
    forget(Old);
  Stale.clear();
  for (size_t I : Pending)
    if (!Registered[I]) {
      registerText(Out[I]);
      Registered[I] = true;
    }
  Pending.clear();
}

void ReasonLines::registerText(StringRef Line) {
  ++Lines[Line];
  for (size_t I = Line.find(':'); I != StringRef::npos;
       I = Line.find(':', I + 1))
    ++ColonPrefixes[Line.take_front(I)];
}

void ReasonLines::forget(StringRef Line) {
  auto Drop = [](StringMap<unsigned> &M, StringRef Key) {
    auto It = M.find(Key);
    if (--It->second == 0)
      M.erase(It);
  };
  Drop(Lines, Line);
  for (size_t I = Line.find(':'); I != StringRef::npos;
       I = Line.find(':', I + 1))
    Drop(ColonPrefixes, Line.take_front(I));
}

} // namespace cudadeps
