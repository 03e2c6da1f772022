//===- VersionSet.cpp - sets of versions as unions of intervals -----------===//
//
// Internally every bound is a "cut" of the version line: just before or just
// after a version, or -/+ infinity. Cuts compare totally, so intersection,
// union and complement are merges of sorted cut lists. Cuts are kept
// canonical so that equal sets are structurally equal:
//   - no real version has an immediate successor (local labels can always
//     be extended), so "after V" and "before W" never name the same cut for
//     two real versions V < W;
//   - a sentinel (Version::isSentinel) is never a member, so only "before a
//     sentinel" is used;
//   - "before 0.dev0", the least version of all, is -infinity.
//
//===----------------------------------------------------------------------===//

#include "core/version/VersionSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

using namespace cudadeps;

namespace {

/// A position between versions: Inf -1 = below all, +1 = above all, else
/// just before *Value (After false) or just after it (After true). Cuts
/// point into the sets they were made from (or at a caller's version), so
/// set operations copy a Version only into the intervals they return.
struct Cut {
  int Inf = 0;
  const Version *Value = nullptr;
  bool After = false;
};

struct CutInterval {
  Cut Lower;
  Cut Upper;
};

/// The cut form of a set while an operation works on it: sets of a few
/// intervals need no allocation.
using Cuts = llvm::SmallVector<CutInterval, 4>;

} // namespace

[[gnu::always_inline]] static inline int compareCuts(const Cut &L,
                                                     const Cut &R) {
  if (L.Inf != R.Inf)
    return L.Inf < R.Inf ? -1 : 1;
  if (L.Inf != 0)
    return 0;
  auto C = *L.Value <=> *R.Value;
  if (C != 0)
    return C < 0 ? -1 : 1;
  if (L.After != R.After)
    return L.After ? 1 : -1;
  return 0;
}

static Cut canonical(Cut C) {
  if (C.Inf != 0)
    return C;
  if (C.Value->isSentinel())
    C.After = false;
  if (!C.After && C.Value->isMinimum())
    return Cut{-1, nullptr, false};
  return C;
}

// A set's own bounds are canonical already (fromCuts writes them from
// canonical cuts, and drops an empty interval), so the operations on sets
// take their cuts as they are: canonical() is for intervals a caller built.
static Cut setLowerCut(const Bound &B) {
  if (!B.Value)
    return Cut{-1, nullptr, false};
  return Cut{0, &*B.Value, !B.Inclusive};
}

static Cut setUpperCut(const Bound &B) {
  if (!B.Value)
    return Cut{1, nullptr, false};
  return Cut{0, &*B.Value, B.Inclusive};
}

static Cut lowerCut(const Bound &B) { return canonical(setLowerCut(B)); }
static Cut upperCut(const Bound &B) { return canonical(setUpperCut(B)); }

static Bound toLower(const Cut &C) {
  if (C.Inf != 0)
    return Bound{};
  return Bound{*C.Value, !C.After};
}

static Bound toUpper(const Cut &C) {
  if (C.Inf != 0)
    return Bound{};
  return Bound{*C.Value, C.After};
}

/// The cuts of intervals a caller built (canonical), or of a set's own.
static Cuts toCuts(llvm::ArrayRef<Interval> Is, bool OfASet = false) {
  Cuts Out;
  Out.reserve(Is.size());
  for (const Interval &I : Is)
    Out.push_back(OfASet ? CutInterval{setLowerCut(I.Lower), setUpperCut(I.Upper)}
                         : CutInterval{lowerCut(I.Lower), upperCut(I.Upper)});
  return Out;
}

static Cuts setCuts(llvm::ArrayRef<Interval> Is) {
  return toCuts(Is, /*OfASet=*/true);
}

/// Sorts, drops empty intervals and merges overlapping or touching ones.
static IntervalList fromCuts(Cuts Cs) {
  llvm::erase_if(Cs, [](const CutInterval &C) {
    return compareCuts(C.Lower, C.Upper) >= 0;
  });
  auto Before = [](const CutInterval &A, const CutInterval &B) {
    return compareCuts(A.Lower, B.Lower) < 0;
  };
  // Short lists (nearly all) by stable insertion: std::stable_sort would
  // allocate a buffer for each.
  if (Cs.size() > 16)
    std::stable_sort(Cs.begin(), Cs.end(), Before);
  for (size_t I = 1; I < Cs.size(); ++I) {
    CutInterval C = Cs[I];
    size_t J = I;
    for (; J > 0 && Before(C, Cs[J - 1]); --J)
      Cs[J] = Cs[J - 1];
    Cs[J] = C;
  }
  Cuts Merged;
  for (CutInterval &C : Cs) {
    if (!Merged.empty() && compareCuts(C.Lower, Merged.back().Upper) <= 0) {
      if (compareCuts(C.Upper, Merged.back().Upper) > 0)
        Merged.back().Upper = std::move(C.Upper);
      continue;
    }
    Merged.push_back(std::move(C));
  }
  return IntervalList::build(Merged.size(), [&](size_t K) {
    return Interval{toLower(Merged[K].Lower), toUpper(Merged[K].Upper)};
  });
}

// A real version never compares equal to a sentinel, so the canonical form
// of a cut (which only moves sentinels and the minimum) does not change
// which side of it a real version lies on: one comparison per bound.
static bool aboveLower(const Bound &B, const Version &V) {
  if (!B.Value)
    return true;
  auto C = *B.Value <=> V;
  return C < 0 || (C == 0 && B.Inclusive);
}

static bool belowUpper(const Bound &B, const Version &V) {
  if (!B.Value)
    return true;
  auto C = V <=> *B.Value;
  return C < 0 || (C == 0 && B.Inclusive);
}

bool Interval::contains(const Version &V) const {
  if (V.isSentinel())
    return false;
  return aboveLower(Lower, V) && belowUpper(Upper, V);
}

llvm::SmallVector<std::pair<size_t, size_t>, 4>
VersionSet::rangesIn(llvm::ArrayRef<Version> Ascending) const {
  llvm::SmallVector<std::pair<size_t, size_t>, 4> Out;
  const Version *Begin = Ascending.begin(), *End = Ascending.end();
  const Version *From = Begin;
  for (const Interval &I : Intervals) {
    const Version *Lo = std::partition_point(
        From, End, [&](const Version &V) { return !aboveLower(I.Lower, V); });
    const Version *Hi = std::partition_point(
        Lo, End, [&](const Version &V) { return belowUpper(I.Upper, V); });
    if (Lo != Hi)
      Out.emplace_back(size_t(Lo - Begin), size_t(Hi - Begin));
    From = Hi;
  }
  return Out;
}

VersionSet::VersionSet(std::vector<Interval> I) : Intervals(std::move(I)) {
  normalize();
}

IntervalList::Block *IntervalList::allocate(size_t N) {
  static_assert(sizeof(Block) % alignof(Interval) == 0,
                "the intervals follow the header, aligned");
  assert(N <= UINT32_MAX && "a set of more intervals than a count holds");
  return new (::operator new(sizeof(Block) + N * sizeof(Interval))) Block;
}

IntervalList::IntervalList(std::vector<Interval> &&Is)
    : IntervalList(build(Is.size(), [&](size_t K) { return std::move(Is[K]); })) {
}

IntervalList::IntervalList(Interval &&One)
    : IntervalList(build(1, [&](size_t) { return std::move(One); })) {}

void IntervalList::release() {
  if (!B || B->Refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  for (Interval &I : llvm::MutableArrayRef<Interval>(B->items(), B->Size))
    I.~Interval();
  B->~Block();
  ::operator delete(B);
  B = nullptr;
}

std::vector<Interval> IntervalList::take() && {
  if (!B)
    return {};
  if (B->Refs.load(std::memory_order_acquire) != 1)
    return std::vector<Interval>(begin(), end());
  std::vector<Interval> Out(std::make_move_iterator(B->items()),
                            std::make_move_iterator(B->items() + B->Size));
  clear();
  return Out;
}

void VersionSet::normalize() {
  if (Intervals.size() == 1) {
    // What fromCuts does to one interval (exactly, between, atLeast, any:
    // most sets built), in place: canonical bounds, or none when empty.
    // A canonical cut has I's own version or none, so the bounds change
    // at most in whether they are inclusive or bounded: nothing is copied.
    Interval &I = Intervals.unsharedFront();
    Cut L = lowerCut(I.Lower), U = upperCut(I.Upper);
    if (compareCuts(L, U) >= 0) {
      Intervals.clear();
      return;
    }
    if (L.Inf != 0)
      I.Lower = Bound{};
    else
      I.Lower.Inclusive = !L.After;
    if (U.Inf != 0)
      I.Upper = Bound{};
    else
      I.Upper.Inclusive = U.After;
    return;
  }
  Intervals = fromCuts(toCuts(Intervals.array()));
}

VersionSet VersionSet::ofSetIntervals(std::vector<Interval> Is) {
  VersionSet S;
  S.Intervals = IntervalList(std::move(Is));
  assert(S == VersionSet(std::vector<Interval>(S.Intervals.begin(),
                                               S.Intervals.end())) &&
         "intervals that are not a set's");
  return S;
}

VersionSet VersionSet::of(Interval I) {
  // The interval moved in, not copied from an initializer list: the sets a
  // solve builds most (a span of a package's versions) copy each bound's
  // version once.
  VersionSet S;
  S.Intervals = IntervalList(std::move(I));
  S.normalize();
  return S;
}

VersionSet VersionSet::any() { return of(Interval{}); }

VersionSet VersionSet::exactly(const Version &V) {
  if (V.isSentinel() || V.isMinimum())
    return of(Interval{Bound{V, true}, Bound{V, true}});
  // A real version above the minimum bounds [V, V] canonically as it is
  // (each decision of a solve makes one).
  return VersionSet(IntervalList(Interval{Bound{V, true}, Bound{V, true}}));
}

VersionSet VersionSet::atLeast(const Version &V) {
  return of(Interval{Bound{V, true}, Bound{}});
}

VersionSet VersionSet::greaterThan(const Version &V) {
  return of(Interval{Bound{V, false}, Bound{}});
}

VersionSet VersionSet::lessThan(const Version &V) {
  return of(Interval{Bound{}, Bound{V, false}});
}

VersionSet VersionSet::atMost(const Version &V) {
  return of(Interval{Bound{}, Bound{V, true}});
}

VersionSet VersionSet::between(const Version &Low, const Version &High) {
  return of(Interval{Bound{Low, true}, Bound{High, false}});
}

bool VersionSet::isAny() const {
  return Intervals.size() == 1 && !Intervals[0].Lower.Value &&
         !Intervals[0].Upper.Value;
}

bool VersionSet::contains(const Version &V) const {
  return llvm::any_of(Intervals,
                      [&](const Interval &I) { return I.contains(V); });
}

VersionSet VersionSet::intersect(const VersionSet &O) const {
  // One walk over both lists (sorted, none empty, bounds canonical), their
  // cuts taken as they are met and the pieces kept as pointers to the two
  // sets' bounds: each bound is copied once, into the result, and nothing
  // else is allocated.
  llvm::SmallVector<std::pair<const Bound *, const Bound *>, 8> Out;
  size_t I = 0, J = 0, NA = Intervals.size(), NB = O.Intervals.size();
  while (I < NA && J < NB) {
    const Interval &A = Intervals[I], &B = O.Intervals[J];
    bool ALower = compareCuts(setLowerCut(A.Lower), setLowerCut(B.Lower)) >= 0;
    bool AEndsFirst =
        compareCuts(setUpperCut(A.Upper), setUpperCut(B.Upper)) <= 0;
    const Bound &Lo = ALower ? A.Lower : B.Lower;
    const Bound &Hi = AEndsFirst ? A.Upper : B.Upper;
    if (compareCuts(setLowerCut(Lo), setUpperCut(Hi)) < 0)
      Out.emplace_back(&Lo, &Hi);
    if (AEndsFirst)
      ++I;
    else
      ++J;
  }
  // Already a set's intervals: sorted, none empty, and none touching (two
  // pieces in a row lie in different intervals of A or of B, which have a
  // gap between them).
  return ofPieces(Out);
}

bool VersionSet::isDisjoint(const VersionSet &O) const {
  size_t I = 0, J = 0;
  while (I < Intervals.size() && J < O.Intervals.size()) {
    Cut ALo = setLowerCut(Intervals[I].Lower),
        AHi = setUpperCut(Intervals[I].Upper);
    Cut BLo = setLowerCut(O.Intervals[J].Lower),
        BHi = setUpperCut(O.Intervals[J].Upper);
    const Cut &Lo = compareCuts(ALo, BLo) >= 0 ? ALo : BLo;
    bool AEndsFirst = compareCuts(AHi, BHi) <= 0;
    const Cut &Hi = AEndsFirst ? AHi : BHi;
    if (compareCuts(Lo, Hi) < 0)
      return false;
    if (AEndsFirst)
      ++I;
    else
      ++J;
  }
  return true;
}

bool VersionSet::isSubsetOf(const VersionSet &O) const {
  // The intervals of a set are disjoint and do not touch, so each interval
  // of this set must lie inside a single interval of O.
  size_t J = 0;
  for (const Interval &A : Intervals) {
    Cut ALo = setLowerCut(A.Lower), AHi = setUpperCut(A.Upper);
    while (J < O.Intervals.size() &&
           compareCuts(setUpperCut(O.Intervals[J].Upper), ALo) <= 0)
      ++J;
    if (J == O.Intervals.size())
      return false;
    if (compareCuts(setLowerCut(O.Intervals[J].Lower), ALo) > 0 ||
        compareCuts(AHi, setUpperCut(O.Intervals[J].Upper)) > 0)
      return false;
  }
  return true;
}

std::pair<bool, bool> VersionSet::subsetAndDisjoint(const VersionSet &O) const {
  bool Subset = true, Disjoint = true;
  size_t J = 0, N = O.Intervals.size();
  for (const Interval &A : Intervals) {
    Cut ALo = setLowerCut(A.Lower), AHi = setUpperCut(A.Upper);
    // O's intervals that end at or before A starts touch none of A.
    while (J < N && compareCuts(setUpperCut(O.Intervals[J].Upper), ALo) <= 0)
      ++J;
    // Walk O's intervals that start before A ends: what of A lies between
    // them (or after the last) is outside O; what lies in one is in both.
    Cut Pos = ALo; // A below Pos is accounted for
    for (size_t K = J;; ++K) {
      if (K == N || compareCuts(setLowerCut(O.Intervals[K].Lower), AHi) >= 0) {
        if (compareCuts(Pos, AHi) < 0)
          Subset = false;
        break;
      }
      Cut BLo = setLowerCut(O.Intervals[K].Lower),
          BHi = setUpperCut(O.Intervals[K].Upper);
      if (compareCuts(BLo, Pos) > 0)
        Subset = false;
      const Cut &Lo = compareCuts(BLo, ALo) >= 0 ? BLo : ALo;
      const Cut &Hi = compareCuts(BHi, AHi) <= 0 ? BHi : AHi;
      if (compareCuts(Lo, Hi) < 0)
        Disjoint = false;
      if (compareCuts(BHi, AHi) >= 0)
        break;
      Pos = BHi;
    }
    if (!Subset && !Disjoint)
      break;
  }
  return {Subset, Disjoint};
}

uint64_t VersionSet::hash() const {
  // A few multiplications per bound: callers hash sets often.
  uint64_t H = Intervals.size();
  auto Mix = [&H](uint64_t X) { H = (H ^ X) * 0x100000001b3ull; };
  auto Add = [&Mix](const Bound &B) {
    Mix(uint64_t(B.Value.has_value()) << 1 | uint64_t(B.Inclusive));
    if (B.Value)
      Mix(B.Value->hash());
  };
  for (const Interval &I : Intervals) {
    Add(I.Lower);
    Add(I.Upper);
  }
  return H;
}

VersionSet VersionSet::unionWith(const VersionSet &O) const {
  if (O.Intervals.empty())
    return *this;
  if (Intervals.empty())
    return O;
  // Both lists are a set's (sorted, none empty, bounds canonical): one
  // merge by lower bound, A's first where two start alike (as fromCuts'
  // stable sort of A then B would order them), each piece joined to the
  // last one where it overlaps or touches it. Linear, and the pieces are
  // pointers to the two sets' bounds: each bound the result keeps is
  // copied once, and nothing else is allocated.
  llvm::SmallVector<std::pair<const Bound *, const Bound *>, 8> Merged;
  size_t I = 0, J = 0, NA = Intervals.size(), NB = O.Intervals.size();
  while (I < NA || J < NB) {
    bool FromA =
        J == NB ||
        (I < NA && compareCuts(setLowerCut(Intervals[I].Lower),
                               setLowerCut(O.Intervals[J].Lower)) <= 0);
    const Interval &C = FromA ? Intervals[I++] : O.Intervals[J++];
    if (!Merged.empty()) {
      const Bound *&Last = Merged.back().second;
      if (compareCuts(setLowerCut(C.Lower), setUpperCut(*Last)) <= 0) {
        if (compareCuts(setUpperCut(C.Upper), setUpperCut(*Last)) > 0)
          Last = &C.Upper;
        continue;
      }
    }
    Merged.emplace_back(&C.Lower, &C.Upper);
  }
  return ofPieces(Merged);
}

VersionSet VersionSet::ofPieces(
    llvm::ArrayRef<std::pair<const Bound *, const Bound *>> Pieces) {
  // A set's bounds as they are, but for an unbounded end written as
  // toLower() and toUpper() write it.
  auto Copy = [](const Bound &B) { return B.Value ? B : Bound{}; };
  return VersionSet(IntervalList::build(Pieces.size(), [&](size_t K) {
    return Interval{Copy(*Pieces[K].first), Copy(*Pieces[K].second)};
  }));
}

VersionSet VersionSet::complement() const {
  Cuts Cs = setCuts(Intervals.array()), Out;
  // Gaps between the intervals: each gap runs from the previous interval's
  // upper cut to the next interval's lower cut.
  Cut Prev{-1, nullptr, false};
  for (const CutInterval &C : Cs) {
    Out.push_back({Prev, C.Lower});
    Prev = C.Upper;
  }
  Out.push_back({Prev, Cut{1, nullptr, false}});
  return VersionSet(fromCuts(std::move(Out)));
}

std::optional<Version> VersionSet::singleton() const {
  if (Intervals.size() != 1)
    return std::nullopt;
  const Interval &I = Intervals[0];
  if (!I.Lower.Value || !I.Upper.Value || !I.Lower.Inclusive ||
      !I.Upper.Inclusive || !(*I.Lower.Value == *I.Upper.Value))
    return std::nullopt;
  return *I.Lower.Value;
}

//===----------------------------------------------------------------------===//
// Specifier parsing
//===----------------------------------------------------------------------===//

/// Longer specifiers are refused before they are looked at.
static constexpr size_t MaxSpecLength = 4096;

static std::string quoteSpec(llvm::StringRef Text) {
  return quoteForMessage(Text, 60);
}

static llvm::Error specError(llvm::StringRef Clause, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invalid specifier " + quoteSpec(Clause) +
                                     ": " + What);
}

/// The set for "==V": V exactly when V has a local label, else V with any
/// local label.
static VersionSet equalTo(const Version &V) {
  if (!V.local().empty())
    return VersionSet::exactly(V);
  return VersionSet::between(V, V.afterAllLocals());
}

/// The set for "==P.*": every version whose release starts with P,
/// pre-, post- and dev-releases included.
static VersionSet prefixOf(const Version &P) {
  size_t N = P.release().size();
  return VersionSet::between(P.truncated(N).lowestOfRelease(), P.bumped(N - 1));
}

static llvm::Expected<VersionSet> parseClause(llvm::StringRef Clause) {
  if (Clause == "*")
    return VersionSet::any();
  size_t OpEnd = Clause.find_first_not_of("<>=!~");
  if (OpEnd == llvm::StringRef::npos)
    OpEnd = Clause.size();
  llvm::StringRef Op = Clause.take_front(OpEnd);
  if (Op.empty())
    return specError(Clause, "expected an operator (==, !=, <, <=, >, >=, "
                             "~=, ===) before " +
                                 quoteSpec(Clause));
  static constexpr llvm::StringLiteral Known[] = {
      "===", "==", "!=", "~=", "<=", ">=", "<", ">"};
  if (!llvm::is_contained(Known, Op))
    return specError(Clause, "unknown operator " + quoteSpec(Op));
  llvm::StringRef Text = Clause.drop_front(OpEnd).trim(" \t\r\n\f\v");
  if (Text.empty())
    return specError(Clause, "expected a version after " + quoteSpec(Op));

  bool IsEq = Op == "==" || Op == "===";
  if (Op == "<=" && Text.endswith(".post*")) {
    // Not PEP 440: what str() writes for the complement of '>V', "up to V
    // and V's post-releases".
    auto V = Version::parse(Text.drop_back(strlen(".post*")));
    if (!V)
      return specError(Clause, llvm::toString(V.takeError()));
    if (V->post() || V->dev() || !V->local().empty())
      return specError(Clause, "'<=V.post*' takes a version without "
                               "post, dev or local part");
    return VersionSet::lessThan(V->afterAllPosts());
  }
  if (Text.endswith(".*")) {
    if (!IsEq && Op != "!=")
      return specError(Clause, "'.*' is only allowed after '==' or '!='");
    auto P = Version::parse(Text.drop_back(2));
    if (!P)
      return specError(Clause, llvm::toString(P.takeError()));
    if (P->pre() || P->post() || P->dev() || !P->local().empty())
      return specError(Clause, "a prefix match takes only release segments, "
                               "as in '==1.2.*'");
    VersionSet S = prefixOf(*P);
    return IsEq ? S : S.complement();
  }

  auto V = Version::parse(Text);
  if (!V)
    return specError(Clause, llvm::toString(V.takeError()));
  bool HasLocal = !V->local().empty();

  if (IsEq)
    return equalTo(*V);
  if (Op == "!=")
    return equalTo(*V).complement();
  if (Op == "~=") {
    if (HasLocal)
      return specError(Clause, "'~=' does not take a local label");
    size_t N = V->release().size();
    if (N < 2)
      return specError(Clause, "'~=' needs at least two release segments, "
                               "as in '~=" +
                                   V->str() + ".0'");
    return VersionSet::atLeast(*V).intersect(prefixOf(V->truncated(N - 1)));
  }
  if (Op == ">=")
    return VersionSet::atLeast(*V);
  if (Op == "<=") {
    // PEP 440 compares the candidate's public version: <=2.11 admits
    // 2.11+cu128.
    if (HasLocal)
      return VersionSet::atMost(*V);
    return VersionSet::lessThan(V->afterAllLocals());
  }
  if (Op == "<") {
    // <V does not admit pre-releases of V unless V is one itself.
    if (HasLocal || V->isPrerelease())
      return VersionSet::lessThan(*V);
    return VersionSet::lessThan(V->firstDevRelease());
  }
  // Op == ">": >V does not admit post-releases of V unless V is one, nor
  // local variants of V.
  if (HasLocal)
    return VersionSet::greaterThan(*V);
  if (V->post() || V->dev())
    return VersionSet::atLeast(V->afterAllLocals());
  return VersionSet::atLeast(V->afterAllPosts());
}

llvm::Expected<VersionSet> VersionSet::parse(llvm::StringRef Spec) {
  llvm::StringRef Trimmed = Spec.trim(" \t\r\n\f\v");
  if (Trimmed.size() > MaxSpecLength)
    return specError(Spec, "expected at most " + llvm::Twine(MaxSpecLength) +
                               " characters, got " +
                               llvm::Twine(Trimmed.size()));
  if (Trimmed.empty() || Trimmed == "*")
    return any();
  llvm::SmallVector<llvm::StringRef, 2> Alternatives;
  Trimmed.split(Alternatives, "||");
  VersionSet Result;
  for (llvm::StringRef Alt : Alternatives) {
    Alt = Alt.trim(" \t\r\n\f\v");
    if (Alt.empty())
      return specError(Spec, "expected a specifier such as '>=1.0' on each "
                             "side of '||'");
    llvm::SmallVector<llvm::StringRef, 4> Clauses;
    Alt.split(Clauses, ',');
    VersionSet Conj = any();
    for (llvm::StringRef Clause : Clauses) {
      Clause = Clause.trim(" \t\r\n\f\v");
      if (Clause.empty())
        return specError(Spec, "expected a specifier such as '>=1.0' between "
                               "commas");
      auto S = parseClause(Clause);
      if (!S)
        return S.takeError();
      Conj = Conj.intersect(*S);
    }
    Result = Result.unionWith(Conj);
  }
  return Result;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

/// Parses text this file built itself from a canonical version string.
static std::optional<Version> reparse(const std::string &Text) {
  auto V = Version::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return *V;
}

/// Text of an interval that one "==" clause describes, if any.
static std::optional<std::string> eqForm(const CutInterval &C) {
  if (C.Lower.Inf != 0 || C.Upper.Inf != 0 || C.Lower.After ||
      C.Lower.Value->isSentinel())
    return std::nullopt;
  const Version &L = *C.Lower.Value;
  const Version &U = *C.Upper.Value;
  if (C.Upper.After)
    return L == U ? std::optional<std::string>("==" + L.str()) : std::nullopt;
  if (L.local().empty() && L.afterAllLocals() == U)
    return "==" + L.str();
  if (L.pre() || L.post() || !L.dev() || *L.dev() != 0 || !L.local().empty())
    return std::nullopt;
  for (size_t K = 1, E = std::max(L.release().size(), U.release().size());
       K <= E; ++K) {
    Version P = L.truncated(K);
    if (P.lowestOfRelease() == L && L.bumped(K - 1) == U)
      return "==" + P.str() + ".*";
  }
  return std::nullopt;
}

static std::string lowerText(const Cut &C) {
  if (C.Inf != 0)
    return "";
  const Version &V = *C.Value;
  if (V.isSentinel())
    return ">" + V.sentinelBase().str();
  if (C.After)
    return ">" + V.str(); // exact only for a version with a local label
  // Inclusive bounds that '>W' produces read better as '>W'.
  if (V.local().empty() && V.dev() && *V.dev() == 0) {
    std::string S = V.str();
    llvm::StringRef Base = llvm::StringRef(S).drop_back(strlen(".dev0"));
    if (V.post() && *V.post() >= 1) {
      llvm::StringRef Head = Base.drop_back(std::to_string(*V.post()).size());
      if (auto W = reparse((Head + std::to_string(*V.post() - 1)).str()))
        if (W->afterAllLocals() == V)
          return ">" + W->str();
    } else if (!V.post() && V.pre() && V.pre()->second >= 1) {
      llvm::StringRef Head =
          Base.drop_back(std::to_string(V.pre()->second).size());
      if (auto W = reparse((Head + std::to_string(V.pre()->second - 1)).str()))
        if (W->afterAllPosts() == V)
          return ">" + W->str();
    } else if (V.post() && *V.post() == 0) {
      // X.post0.dev0 follows X and its local variants: '>=X,!=X'.
      if (auto W = reparse(Base.drop_back(strlen(".post0")).str()))
        if (W->afterAllLocals() == V)
          return ">=" + W->str() + ",!=" + W->str();
    }
  }
  return ">=" + V.str();
}

static std::string upperText(const Cut &C) {
  if (C.Inf != 0)
    return "";
  const Version &V = *C.Value;
  if (V.isAfterAllPosts())
    return "<=" + V.sentinelBase().str() + ".post*";
  if (V.isSentinel())
    return "<=" + V.sentinelBase().str();
  if (C.After)
    return "<=" + V.str(); // exact only for a version with a local label
  if (!V.local().empty())
    return "<" + V.str();
  if (V.dev() && *V.dev() == 0) {
    std::string S = V.str();
    llvm::StringRef Base = llvm::StringRef(S).drop_back(strlen(".dev0"));
    if (V.post() && *V.post() == 0) {
      // X.post0.dev0 is what '<=X' produces.
      if (auto W = reparse(Base.drop_back(strlen(".post0")).str()))
        if (W->afterAllLocals() == V)
          return "<=" + W->str();
    }
    if (!V.pre()) {
      // X.dev0 / X.postN.dev0 is what '<X' / '<X.postN' produce.
      if (auto W = reparse(Base.str()))
        if (!W->isPrerelease() && W->firstDevRelease() == V)
          return "<" + W->str();
    }
  }
  if (!V.isPrerelease()) {
    // '<V' would also exclude V's pre-releases; '<=V' admits V and its
    // local variants, which '!=V' takes out again.
    std::string W = V.str();
    return "<=" + W + ",!=" + W;
  }
  return "<" + V.str();
}

/// Renders intervals I..J (one chunk) as hull constraints plus '!=' holes.
static std::string chunkText(llvm::ArrayRef<CutInterval> Chunk) {
  llvm::SmallVector<std::string, 4> Parts;
  CutInterval Hull{Chunk.front().Lower, Chunk.back().Upper};
  if (auto Eq = eqForm(Hull)) {
    Parts.push_back(*Eq);
  } else {
    if (std::string L = lowerText(Hull.Lower); !L.empty())
      Parts.push_back(L);
    if (std::string U = upperText(Hull.Upper); !U.empty())
      Parts.push_back(U);
  }
  for (size_t I = 0; I + 1 < Chunk.size(); ++I) {
    auto Eq = eqForm(CutInterval{Chunk[I].Upper, Chunk[I + 1].Lower});
    Parts.push_back("!=" + Eq->substr(2));
  }
  if (Parts.empty())
    return "*";
  return llvm::join(Parts, ",");
}

std::string VersionSet::str() const {
  if (isEmpty())
    return "";
  if (isAny())
    return "*";
  Cuts Cs = toCuts(Intervals.array());
  // Split into chunks at gaps that are not one '==' clause; within a chunk
  // the gaps are written as '!=' clauses.
  llvm::SmallVector<std::string, 2> Chunks;
  size_t Start = 0;
  for (size_t I = 0; I < Cs.size(); ++I) {
    bool LastInChunk =
        I + 1 == Cs.size() ||
        !eqForm(CutInterval{Cs[I].Upper, Cs[I + 1].Lower}).has_value();
    if (!LastInChunk)
      continue;
    Chunks.push_back(
        chunkText(llvm::ArrayRef<CutInterval>(Cs).slice(Start, I + 1 - Start)));
    Start = I + 1;
  }
  return llvm::join(Chunks, " || ");
}

//===----------------------------------------------------------------------===//
// Text for people
//===----------------------------------------------------------------------===//

/// The release a plain "X.dev0" stands for (">=12.dev0" reads ">=12").
static std::optional<Version> devZeroRelease(const Version &V) {
  if (!V.local().empty() || V.pre() || V.post() || !V.dev() || *V.dev() != 0)
    return std::nullopt;
  std::string S = V.str();
  return reparse(S.substr(0, S.size() - strlen(".dev0")));
}

static std::string displayLower(const Cut &C) {
  if (C.Inf != 0)
    return "";
  if (!C.After && !C.Value->isSentinel())
    if (auto R = devZeroRelease(*C.Value))
      return ">=" + R->str();
  std::string L = lowerText(C);
  // ">=W,!=W" (after W and its local variants) reads ">W".
  size_t Comma = L.find(",!=");
  if (Comma != std::string::npos)
    return ">" + L.substr(2, Comma - 2);
  return L;
}

static std::string displayUpper(const Cut &C) {
  if (C.Inf != 0)
    return "";
  const Version &V = *C.Value;
  if (V.isSentinel())
    return "<=" + V.sentinelBase().str();
  std::string U = upperText(C);
  // "<=V,!=V" (below V, admitting its pre-releases) reads "<V".
  size_t Comma = U.find(",!=");
  if (Comma != std::string::npos)
    return "<" + U.substr(2, Comma - 2);
  return U;
}

static std::string displayChunk(llvm::ArrayRef<CutInterval> Chunk) {
  llvm::SmallVector<std::string, 2> Parts;
  CutInterval Hull{Chunk.front().Lower, Chunk.back().Upper};
  if (auto Eq = eqForm(Hull)) {
    Parts.push_back(*Eq);
  } else {
    if (std::string L = displayLower(Hull.Lower); !L.empty())
      Parts.push_back(L);
    if (std::string U = displayUpper(Hull.Upper); !U.empty())
      Parts.push_back(U);
  }
  std::string Out = llvm::join(Parts, ",");
  llvm::SmallVector<std::string, 4> Holes;
  for (size_t I = 0; I + 1 < Chunk.size(); ++I) {
    std::string Eq = *eqForm(CutInterval{Chunk[I].Upper, Chunk[I + 1].Lower});
    Holes.push_back(Eq.substr(2));
  }
  if (!Holes.empty())
    Out += (Out.empty() ? "" : " ") + std::string("other than ") +
           llvm::join(Holes, ", ");
  return Out.empty() ? "any" : Out;
}

std::string VersionSet::displayStr() const {
  if (isEmpty())
    return "no version";
  if (isAny())
    return "any";
  Cuts Cs = toCuts(Intervals.array());
  llvm::SmallVector<std::string, 2> Chunks;
  size_t Start = 0;
  for (size_t I = 0; I < Cs.size(); ++I) {
    if (I + 1 < Cs.size() &&
        eqForm(CutInterval{Cs[I].Upper, Cs[I + 1].Lower}).has_value())
      continue;
    Chunks.push_back(displayChunk(
        llvm::ArrayRef<CutInterval>(Cs).slice(Start, I + 1 - Start)));
    Start = I + 1;
  }
  return llvm::join(Chunks, " or ");
}
