//===- VersionSet.h - sets of versions as unions of intervals -------------===//
//
// A VersionSet is a finite union of disjoint, sorted intervals over Version.
// It is closed under intersection, union and complement, which is exactly
// what the PubGrub solver needs. Specifiers (PEP 440: ">=2.4,<3", "==12.*",
// "~=1.5", "!=2.0", "*") parse into VersionSets.
//
// Sets contain pre-releases. PEP 440's "do not pick a pre-release unless one
// is asked for" is a candidate-selection policy, not set membership: it is
// the solver's business (">=2.4" contains 2.5rc1 here).
//
// Specifiers map to plain intervals through the sentinel helpers of Version:
//   ==V    [V, V.afterAllLocals())       (any local label; ==V+l is just V+l)
//   ==P.*  [P.dev0, P.bumped().dev0)     (pre/post/dev releases of P.* too)
//   <V     (-inf, V.dev0)                (V's pre-releases excluded unless V
//                                         is a pre-release: then plain <V)
//   <=V    (-inf, V.afterAllLocals())    (PEP 440 compares the public part)
//   >V     [V.afterAllPosts(), +inf)     (V's post-releases and locals
//                                         excluded unless V is a post-release)
//   >=V    [V, +inf);  ~=X.Y = >=X.Y,==X.*;  === is taken as ==
// Normalization keeps bounds canonical, so equal sets compare == structurally.
//
// str() writes PEP 440 text that parse() reads back to the same set for every
// set built from specifiers: "*" (any), ">=1.0,<2.0", "==12.8", "==12.*",
// "!=2.0", ">2.11", and " || " between intervals that no "!=" clause
// separates ("<1 || >=3.dev0"; parse() accepts "||" too). Plain bounds are
// written exactly, in PEP 440 terms: the complement of ">=2.0" (which keeps
// 2.0's pre-releases) prints "<=2.0,!=2.0", as "<2.0" would exclude them;
// the complement of "<=2.0" prints ">=2.0,!=2.0". The complement of ">V" (V
// final) has no PEP 440 spelling and prints "<=V.post*" (up to V and its
// post-releases), which parse() reads back too. Bounds that no specifier
// produces are written in the nearest PEP 440 form and do not read back
// exactly: exactly(V) of a version without local label prints "==V" (which
// also admits V's local labels), greaterThan(V) prints ">V" and atMost(V)
// prints "<=V". The empty set prints "" (which parse() reads as any).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_VERSION_VERSIONSET_H
#define CUDADEPS_CORE_VERSION_VERSIONSET_H

#include "core/version/Version.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps {

/// A version or none, as std::optional<Version> is, in the version's three
/// words and a flag: the flag is its last byte, and a Bound keeps its own
/// flag in the padding after it (a Bound in 32 bytes, not 40, an Interval
/// in 64: every set the solver builds is an array of them).
class OptionalVersion {
public:
  OptionalVersion() = default;
  OptionalVersion(std::nullopt_t) {}
  OptionalVersion(Version V) : V(std::move(V)), Has(true) {}
  OptionalVersion(std::optional<Version> O) {
    if (O) {
      V = std::move(*O);
      Has = true;
    }
  }
  OptionalVersion &operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  OptionalVersion &operator=(Version New) {
    V = std::move(New);
    Has = true;
    return *this;
  }

  bool has_value() const { return Has; }
  explicit operator bool() const { return Has; }
  const Version &operator*() const {
    assert(Has && "no version");
    return V;
  }
  Version &operator*() {
    assert(Has && "no version");
    return V;
  }
  const Version *operator->() const { return &**this; }
  Version *operator->() { return &**this; }
  void reset() {
    V = Version();
    Has = false;
  }
  template <class... A> Version &emplace(A &&...Args) {
    V = Version(std::forward<A>(Args)...);
    Has = true;
    return V;
  }
  operator std::optional<Version>() const {
    return Has ? std::optional<Version>(V) : std::nullopt;
  }
  bool operator==(const OptionalVersion &O) const {
    return Has == O.Has && (!Has || V == O.V);
  }

private:
  Version V;
  bool Has = false;
};

/// One end of an interval. An absent Value means unbounded.
struct Bound {
  [[no_unique_address]] OptionalVersion Value;
  bool Inclusive = false;
  bool operator==(const Bound &) const = default;
};
static_assert(sizeof(Bound) == sizeof(OptionalVersion),
              "a Bound's flag sits in its version's padding");

/// The load cache's form of an OptionalVersion: a std::optional<Version>'s
/// (core/support/BinaryCodec.h).
template <class C> void codec(C &Cd, OptionalVersion &X) {
  codecOptional(Cd, X);
}

/// [Lower, Upper] with each end inclusive, exclusive or unbounded; never empty
/// once stored in a VersionSet.
struct Interval {
  Bound Lower;
  Bound Upper;
  bool contains(const Version &V) const;
  bool operator==(const Interval &) const = default;
  /// The field list of the load cache (core/support/BinaryCodec.h).
  template <class C> friend void fields(C &Cd, Interval &I) {
    Cd(I.Lower.Value, I.Lower.Inclusive, I.Upper.Value, I.Upper.Inclusive);
  }
};

/// The intervals of a set: an immutable array shared by the set's copies
/// (a copy of a set is a reference count, not an allocation and a copy of
/// each bound), one allocation per set built, none for the empty set. Only
/// a list still being built, not shared yet, is changed in place.
class IntervalList {
public:
  IntervalList() = default;
  /// The elements moved into a new list.
  explicit IntervalList(std::vector<Interval> &&Is);
  explicit IntervalList(Interval &&One);
  /// A list of N intervals, the K-th Make(K), constructed in place.
  template <class F> static IntervalList build(size_t N, F &&Make) {
    IntervalList L;
    if (N == 0)
      return L;
    L.B = allocate(N);
    for (size_t K = 0; K < N; ++K) {
      new (L.B->items() + K) Interval(Make(K));
      ++L.B->Size;
    }
    return L;
  }
  IntervalList(const IntervalList &O) : B(O.B) {
    if (B)
      B->Refs.fetch_add(1, std::memory_order_relaxed);
  }
  IntervalList(IntervalList &&O) noexcept : B(O.B) { O.B = nullptr; }
  IntervalList &operator=(const IntervalList &O) {
    IntervalList(O).swap(*this);
    return *this;
  }
  IntervalList &operator=(IntervalList &&O) noexcept {
    IntervalList(std::move(O)).swap(*this);
    return *this;
  }
  ~IntervalList() { release(); }
  void swap(IntervalList &O) noexcept { std::swap(B, O.B); }

  bool empty() const { return !B; }
  size_t size() const { return B ? B->Size : 0; }
  const Interval *begin() const { return B ? B->items() : nullptr; }
  const Interval *end() const { return B ? B->items() + B->Size : nullptr; }
  const Interval &operator[](size_t K) const { return begin()[K]; }
  const Interval &front() const { return *begin(); }
  const Interval &back() const { return end()[-1]; }
  llvm::ArrayRef<Interval> array() const { return {begin(), end()}; }

  /// The first interval of a list not shared yet, to change in place.
  Interval &unsharedFront() {
    assert(B && B->Refs.load(std::memory_order_relaxed) == 1 &&
           "a list shared by another set is never changed");
    return *B->items();
  }
  void clear() { IntervalList().swap(*this); }
  /// The elements, moved out where no other set shares them, else copied.
  std::vector<Interval> take() &&;

  bool operator==(const IntervalList &O) const {
    return B == O.B || array() == O.array();
  }
  /// The array this list shares with its copies (null when empty): equal
  /// for copies of one list, while any of them lives.
  const void *identity() const { return B; }

private:
  struct alignas(Interval) Block {
    std::atomic<uint32_t> Refs{1};
    uint32_t Size = 0;
    Interval *items() { return reinterpret_cast<Interval *>(this + 1); }
  };
  static Block *allocate(size_t N);
  void release();
  Block *B = nullptr;
};

class VersionSet {
public:
  /// The empty set.
  VersionSet() = default;
  static VersionSet empty() { return VersionSet(); }
  static VersionSet any();
  static VersionSet exactly(const Version &V);
  static VersionSet atLeast(const Version &V);     // >= V
  static VersionSet greaterThan(const Version &V); // > V (strict, plain order)
  static VersionSet lessThan(const Version &V);    // < V (strict, plain order)
  static VersionSet atMost(const Version &V);      // <= V
  /// [Low, High) - the usual "from this version up to the next" range.
  static VersionSet between(const Version &Low, const Version &High);
  /// The union of any intervals (unsorted, overlapping or empty ones
  /// included), normalized: one operation instead of a union per interval.
  static VersionSet unionOf(std::vector<Interval> Is) {
    return VersionSet(std::move(Is));
  }
  /// A set of intervals that are a set's already, as intervals() returns
  /// them (sorted, none empty, none touching, bounds canonical: what
  /// unionOf() would leave as is), taken without normalizing; for callers
  /// that build them so, e.g. by moving a set's intervals whole. Builds with
  /// assertions check it.
  static VersionSet ofSetIntervals(std::vector<Interval> Is);

  /// Parses a comma-joined PEP 440 specifier list ("" or "*" = any);
  /// alternatives may be joined with "||" (union), as str() writes them.
  /// Ordered comparisons with a local label ("<=2.11+cu128") compare plainly.
  /// Errors name the offending clause: "invalid specifier '>>2': unknown
  /// operator '>>'".
  /// Handles >=, <=, >, <, ==, !=, ~=, ===, and ==X.* / !=X.* prefix forms,
  /// with PEP 440's rules for pre-releases and local labels of the specified
  /// version (e.g. ">2.11" excludes 2.11.post1, "==2.11.0" admits
  /// 2.11.0+cu128, "<2.11" excludes 2.11.0rc1).
  static llvm::Expected<VersionSet> parse(llvm::StringRef Spec);

  bool isEmpty() const { return Intervals.empty(); }
  /// The runs of \p Ascending (real versions, sorted ascending) that the set
  /// contains, as half-open index ranges [first, second), in order: what
  /// contains() says of each element, found by bisection per interval.
  llvm::SmallVector<std::pair<size_t, size_t>, 4>
  rangesIn(llvm::ArrayRef<Version> Ascending) const;
  bool isAny() const;
  bool contains(const Version &V) const;

  VersionSet intersect(const VersionSet &O) const;
  VersionSet unionWith(const VersionSet &O) const;
  VersionSet complement() const;
  /// this \ O
  VersionSet minus(const VersionSet &O) const {
    return intersect(O.complement());
  }
  /// Both walk the two interval lists once, without building a set (the
  /// solver asks them for every term it looks at).
  bool isSubsetOf(const VersionSet &O) const;
  bool isDisjoint(const VersionSet &O) const;
  /// {isSubsetOf(O), isDisjoint(O)} in one walk (a term's relation to
  /// another needs both when it is neither).
  std::pair<bool, bool> subsetAndDisjoint(const VersionSet &O) const;

  /// The single version if this set is exactly one version.
  std::optional<Version> singleton() const;

  /// The intervals, sorted and disjoint: of a set, a view of the array it
  /// shares with its copies. On a temporary set they are returned by value,
  /// so `for (const Interval &I : A.intersect(B).intervals())` never
  /// iterates over a destroyed set.
  llvm::ArrayRef<Interval> intervals() const & { return Intervals.array(); }
  std::vector<Interval> intervals() && { return std::move(Intervals).take(); }

  /// PEP 440 style text: "*" for any, "" for empty (callers word it),
  /// ">=1.0,<2.0", "==12.8", ">=1.0,<2.0 || >=3.0" for several intervals.
  std::string str() const;

  /// Text for people, not for reading back: bounds as a user writes them
  /// (">=12" for ">=12.dev0", "<12.8" for "<=12.8,!=12.8", "<=2.11" for
  /// "<=2.11.post*") and the versions a range leaves out as "other than",
  /// e.g. "==12.* other than 12.8.93", "other than 1.5.4, 1.6.1" (the
  /// whole line but two versions), "<=11 or >=13" for several ranges.
  /// "any" for every version, "no version" for none.
  std::string displayStr() const;

  /// What this set shares with its copies (IntervalList::identity()).
  const void *identity() const { return Intervals.identity(); }

  bool operator==(const VersionSet &O) const = default;
  /// Equal sets hash alike (Version::hash()), for tables of sets.
  uint64_t hash() const;

private:
  explicit VersionSet(std::vector<Interval> I);
  explicit VersionSet(IntervalList I) : Intervals(std::move(I)) {}
  /// The set of one interval (empty where the interval is).
  static VersionSet of(Interval I);
  /// The set of pieces already a set's (sorted, none empty or touching),
  /// each from a lower and an upper bound of other sets: the bounds copied.
  static VersionSet
  ofPieces(llvm::ArrayRef<std::pair<const Bound *, const Bound *>> Pieces);
  void normalize();
  IntervalList Intervals;

  /// The field list of the load cache (core/support/BinaryCodec.h): the
  /// intervals as a sequence.
  template <class C> friend void fields(C &Cd, VersionSet &S) {
    if constexpr (C::Decoding) {
      std::vector<Interval> Is;
      Cd(Is);
      S.Intervals = IntervalList(std::move(Is));
    } else {
      std::vector<Interval> Is(S.Intervals.begin(), S.Intervals.end());
      Cd(Is);
    }
  }
};

} // namespace cudadeps

#endif
