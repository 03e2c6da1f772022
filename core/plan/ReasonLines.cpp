//===- ReasonLines.cpp - the lines of a package's reasons, each said once -===//
#include "core/plan/ReasonLines.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/xxhash.h"

#include <optional>
#include <string_view>

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
  // one is added.
  SmallString<64> Head;
  Head += From;
  Head += " needs ";
  Head += To;
  Head += " ";
  std::optional<size_t> At;
  if (StringRef(From).contains(' ') || StringRef(To).contains(' ')) {
    // Not a head that FirstByHead holds: looked for line by line.
    At = firstBeginning(Head);
  } else {
    // One lookup: a new line's head is Head (headOf() reads it so, From
    // and To without a space), registered here for the line pushed below.
    auto [It, Inserted] =
        FirstByHead.try_emplace(HashHead(Head), uint32_t(Out.size()));
    if (Inserted) {
      push(concat(Head.str(), Set), /*RegisterHead=*/false);
      return;
    }
    // A line begins with one such head at most: the line found begins with
    // Head, or another head has the same hash (then looked for line by
    // line, and Head's line, if new, is not registered).
    if (StringRef(Out[It->second]).startswith(Head.str()))
      At = It->second;
    else
      At = firstBeginning(Head);
  }
  if (!At) {
    push(concat(Head.str(), Set));
    return;
  }
  // A set that reads as several ("X (source build) or Y (prebuilt)") adds
  // those of its alternatives not said yet: said again, it adds none.
  SmallVector<StringRef, 4> Adding;
  splitAlternatives(Set, Adding);
  std::vector<Span> &Known = knownAlternatives(*At, Head.size());
  std::string &Line = Out[*At];
  bool Merged = false;
  for (StringRef Alt : Adding) {
    if (any_of(Known, [&](Span S) {
          return StringRef(Line.data() + S.first, S.second - S.first) == Alt;
        }))
      continue;
    if (!Merged) {
      Merged = true;
      // The texts add() asks about are brought up to date when it next
      // asks; the head stays, so FirstByHead does too.
      if (Registered[*At]) {
        Stale.push_back(Line);
        Registered[*At] = false;
        Pending.push_back(*At);
      }
      if (StringRef(Line).drop_front(Head.size()).endswith(ByRelease))
        Line.resize(Line.size() - ByRelease.size());
    }
    Line.append(Or.data(), Or.size());
    Known.emplace_back(uint32_t(Line.size()),
                       uint32_t(Line.size() + Alt.size()));
    Line.append(Alt.data(), Alt.size());
  }
  if (Merged)
    Line.append(ByRelease.data(), ByRelease.size());
}

void ReasonLines::splitAlternatives(StringRef Sets,
                                    SmallVectorImpl<StringRef> &Out) {
  // As Sets.split(Out, Or), whose search builds a table of 256 skips for
  // each call: these texts are short, and most hold one alternative.
  std::string_view Rest(Sets.data(), Sets.size());
  for (size_t At; (At = Rest.find(Or)) != std::string_view::npos;
       Rest.remove_prefix(At + Or.size()))
    Out.emplace_back(Rest.data(), At);
  Out.emplace_back(Rest.data(), Rest.size());
}

std::string ReasonLines::concat(StringRef Head, StringRef Set) {
  std::string Line;
  Line.reserve(Head.size() + Set.size());
  Line.append(Head.data(), Head.size()).append(Set.data(), Set.size());
  return Line;
}

std::vector<ReasonLines::Span> &
ReasonLines::knownAlternatives(size_t At, size_t HeadSize) {
  if (Merging.size() <= At)
    Merging.resize(Out.size());
  KnownAlternatives &K = Merging[At];
  if (K.HeadSize == HeadSize)
    return K.Spans;
  // Read from the line once: a merge appends to it, so the alternatives
  // said so far stay where they are (and read the same: none holds " or ",
  // and none ends the line with " (by release)" but the one a merge puts).
  K.HeadSize = HeadSize;
  K.Spans.clear();
  StringRef Line = Out[At];
  StringRef Sets = Line.drop_front(HeadSize);
  Sets.consume_back(ByRelease);
  SmallVector<StringRef, 4> Pieces;
  splitAlternatives(Sets, Pieces);
  for (StringRef P : Pieces) {
    uint32_t Begin = uint32_t(P.data() - Line.data());
    K.Spans.emplace_back(Begin, Begin + uint32_t(P.size()));
  }
  return K.Spans;
}

void ReasonLines::push(std::string Line, bool RegisterHead) {
  Out.push_back(std::move(Line));
  Registered.push_back(false);
  Pending.push_back(Out.size() - 1);
  // A merged line keeps its head, and lines are never removed: the first
  // line with a head stays the first.
  if (!RegisterHead)
    return;
  if (StringRef Head = headOf(Out.back()); !Head.empty())
    FirstByHead.try_emplace(HashHead(Head), uint32_t(Out.size() - 1));
}

uint64_t ReasonLines::headHash(StringRef Head) { return xxHash64(Head) >> 1; }

std::optional<size_t> ReasonLines::firstBeginning(StringRef Head) const {
  for (size_t I = 0; I < Out.size(); ++I)
    if (StringRef(Out[I]).startswith(Head))
      return I;
  return std::nullopt;
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
