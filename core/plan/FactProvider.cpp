//===- FactProvider.cpp - manifests + machine facts as a PubGrub problem --===//
#include "core/plan/FactProvider.h"

#include "core/facts/FactsSchema.h"
#include "core/manifest/RequirementIds.h"
#include "core/manifest/Template.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <numeric>
#include <set>
#include <utility>

using namespace llvm;

namespace cudadeps {

namespace {
/// What a requirement's key names: the toolkit (nvcc), a host compiler
/// family (gcc, clang), or a package.
enum class KeyTool : uint8_t { Package, Nvcc, Gcc, Clang };
} // namespace

/// The tool Key names, told by its length first: every requirement read
/// asks it of its key.
static KeyTool toolOf(StringRef Key) {
  auto Is = [&](const char *Name) {
    return std::memcmp(Key.data(), Name, Key.size()) == 0;
  };
  switch (Key.size()) {
  case 3:
    return Is("gcc") ? KeyTool::Gcc : KeyTool::Package;
  case 4:
    return Is("nvcc") ? KeyTool::Nvcc : KeyTool::Package;
  case 5:
    return Is("clang") ? KeyTool::Clang : KeyTool::Package;
  default:
    return KeyTool::Package;
  }
}

namespace encoding {
/// The start of epoch E: the starts of the epochs the encoding uses (and
/// of the one after them, where the last one's range ends) made once, any
/// other made into Slot. Rendering a reason projects hundreds of sets onto
/// their epochs, each asking for two starts and a range.
static const Version &epochStartIn(uint64_t E, Version &Slot) {
  auto Make = [](uint64_t K) {
    return Version({0}).withEpoch(K).lowestOfRelease();
  };
  static const Version Starts[] = {Make(0), Make(1), Make(2), Make(3), Make(4)};
  return E < std::size(Starts) ? Starts[E] : (Slot = Make(E));
}

Version epochStart(uint64_t E) {
  Version Slot;
  return epochStartIn(E, Slot);
}

VersionSet epochRange(uint64_t E) {
  auto Make = [](uint64_t K) {
    return VersionSet::between(epochStart(K), epochStart(K + 1));
  };
  static const VersionSet Ranges[] = {Make(0), Make(1), Make(2), Make(3)};
  return E < std::size(Ranges) ? Ranges[E] : Make(E);
}

/// Moves interval L (epoch 0) into epoch E in place, Start and End being
/// the starts of epochs E and E + 1: an unbounded end becomes the epoch's
/// own, and a lower bound below the epoch's start (a sentinel) becomes the
/// start.
static void liftInterval(Interval &L, uint64_t E, const Version &Start,
                         const Version &End) {
  if (L.Lower.Value)
    L.Lower.Value->setEpoch(E);
  // From the epoch's start; from -infinity where that is the least
  // version of all (epoch 0), as a set writes it.
  if (!L.Lower.Value || *L.Lower.Value < Start) {
    if (Start.isMinimum())
      L.Lower = Bound{};
    else {
      L.Lower.Value.emplace(Start);
      L.Lower.Inclusive = true;
    }
  }
  if (L.Upper.Value) {
    L.Upper.Value->setEpoch(E);
  } else {
    L.Upper.Value.emplace(End);
    L.Upper.Inclusive = false;
  }
}

/// Calls Each(Start, End) with the starts of epochs E and E + 1.
template <class F> static void withEpochBounds(uint64_t E, F Each) {
  Version Other[2];
  Each(epochStartIn(E, Other[0]), epochStartIn(E + 1, Other[1]));
}

/// Appends R's intervals moved into epoch E (R must be epoch 0), cut to
/// the epoch (liftInterval()). Normalized, they are R lifted and
/// intersected with epochRange(E).
static void liftInto(const VersionSet &R, uint64_t E,
                     std::vector<Interval> &Out) {
  withEpochBounds(E, [&](const Version &Start, const Version &End) {
    // Each interval is copied into place and moved to epoch E there.
    for (const Interval &I : R.intervals())
      liftInterval(Out.emplace_back(I), E, Start, End);
  });
}

/// The same set with every version moved into epoch E (R must be epoch 0).
VersionSet lift(const VersionSet &R, uint64_t E) {
  std::vector<Interval> Out;
  Out.reserve(R.intervals().size());
  liftInto(R, E, Out);
  // R's intervals moved whole, in R's order, with canonical bounds: a
  // set's intervals already (as each epoch's part in liftTwice()).
  return VersionSet::ofSetIntervals(std::move(Out));
}

VersionSet lift(VersionSet &&R, uint64_t E) {
  std::vector<Interval> Is = std::move(R).intervals();
  withEpochBounds(E, [&](const Version &Start, const Version &End) {
    for (Interval &I : Is)
      liftInterval(I, E, Start, End);
  });
  return VersionSet::ofSetIntervals(std::move(Is));
}

VersionSet liftTwice(const VersionSet &R, uint64_t A, uint64_t B) {
  std::vector<Interval> Out;
  Out.reserve(2 * R.intervals().size());
  liftInto(R, A, Out);
  size_t Seam = Out.size();
  liftInto(R, B, Out);
  if (B != A + 1)
    return VersionSet::unionOf(std::move(Out));
  // Adjacent epochs (the two strategies): each epoch's intervals are R's,
  // moved whole, in R's order, with canonical bounds (R's, or an epoch's
  // start, inclusive, and end, exclusive), and epoch A's lie below epoch
  // B's: a set's intervals already, but that where R is unbounded at both
  // ends, A's last (up to B's start) and B's first (from it) touch, and are
  // one. So the set is written as it is, without sorting and merging.
  if (Seam > 0 && Seam < Out.size() && Out[Seam - 1].Upper.Value &&
      !Out[Seam - 1].Upper.Inclusive && Out[Seam].Lower.Value &&
      Out[Seam].Lower.Inclusive &&
      *Out[Seam - 1].Upper.Value == *Out[Seam].Lower.Value) {
    Out[Seam - 1].Upper = std::move(Out[Seam].Upper);
    Out.erase(Out.begin() + Seam);
  }
  return VersionSet::ofSetIntervals(std::move(Out));
}

/// The part of S in epoch E, moved back to epoch 0.
VersionSet project(const VersionSet &S, uint64_t E) {
  VersionSet Out;
  Version Start = epochStart(E), End = epochStart(E + 1);
  VersionSet Part = S.intersect(epochRange(E)); // outlives the loop
  for (const Interval &I : Part.intervals()) {
    VersionSet Lo = (!I.Lower.Value || *I.Lower.Value == Start)
                        ? VersionSet::any()
                    : I.Lower.Inclusive
                        ? VersionSet::atLeast(I.Lower.Value->withEpoch(0))
                        : VersionSet::greaterThan(I.Lower.Value->withEpoch(0));
    VersionSet Hi =
        (!I.Upper.Value || *I.Upper.Value == End) ? VersionSet::any()
        : I.Upper.Inclusive ? VersionSet::atMost(I.Upper.Value->withEpoch(0))
                            : VersionSet::lessThan(I.Upper.Value->withEpoch(0));
    Out = Out.unionWith(Lo.intersect(Hi));
  }
  return Out;
}

/// "<= N" over a major version: everything below N+1.
VersionSet upToMajor(unsigned N) {
  return VersionSet::lessThan(Version({uint64_t(N) + 1}).lowestOfRelease());
}

VersionSet sameMajor(uint64_t M) {
  return VersionSet::between(Version({M}).lowestOfRelease(),
                             Version({M + 1}).lowestOfRelease());
}

std::string majorMinor(const Version &V) {
  return formatv("{0}.{1}", V.major(), V.minor()).str();
}

std::string extraPackage(StringRef Package, StringRef Extra) {
  return (Package + "[" + Extra + "]").str();
}

std::pair<StringRef, StringRef> splitExtra(StringRef P) {
  if (!P.endswith("]"))
    return {P, ""};
  size_t Open = P.find('[');
  if (Open == StringRef::npos)
    return {P, ""};
  return {P.take_front(Open), P.drop_front(Open + 1).drop_back()};
}

} // namespace encoding

using namespace encoding;
using TermT = PackageTerm;
using facts_schema::choiceRank;

FactProvider::FactProvider(const ResolveRequest &Req,
                           const PackageLookup &Lookup, const Facts &F,
                           const KnowledgeBase &KB,
                           std::vector<std::string> Targets,
                           PackageExists Exists)
    : Req(Req), Lookup(Lookup), Exists(std::move(Exists)), F(F), KB(KB),
      Targets(std::move(Targets)) {
  NvccId = nameId(NvccPkg);
  CompilerId = nameId(CompilerPkg);
  for (const NvccFacts &N : F.Nvccs)
    if (none_of(Toolkits, [&](const NvccFacts *T) { return T->Ver == N.Ver; }))
      Toolkits.push_back(&N);
  stable_sort(Toolkits, [](const NvccFacts *A, const NvccFacts *B) {
    return B->Ver < A->Ver;
  });
  // The user's explicit choice first ($NVCC_CCBIN, $CUDAHOSTCXX, $CXX),
  // then gcc before clang, newest first within a family. One candidate per
  // version: a chosen compiler is kept over another path of that version.
  std::vector<const CompilerFacts *> Ordered;
  for (const CompilerFacts &C : F.Compilers)
    Ordered.push_back(&C);
  stable_sort(Ordered, [](const CompilerFacts *A, const CompilerFacts *B) {
    return choiceRank(A->ChosenBy) < choiceRank(B->ChosenBy);
  });
  for (const CompilerFacts *C : Ordered) {
    Version V = compilerVersion(*C);
    if (none_of(Compilers, [&](const auto &E) { return E.first == V; }))
      Compilers.emplace_back(V, C);
  }
  stable_sort(Compilers, [](const auto &A, const auto &B) {
    size_t RA = choiceRank(A.second->ChosenBy), RB = choiceRank(B.second->ChosenBy);
    if (RA != RB)
      return RA < RB;
    if (A.first.epoch() != B.first.epoch())
      return A.first.epoch() < B.first.epoch();
    return B.first < A.first;
  });
}

void FactProvider::pinRoot(const std::string &Package, VersionSet Set) {
  RootPins[Package] = std::move(Set);
}

std::vector<std::pair<std::string, VersionSet>> FactProvider::rootDeps() const {
  std::vector<std::pair<std::string, VersionSet>> Out;
  for (const auto &[Key, R] : Req.Requires) {
    size_t First = Out.size();
    addRequirement(R, Out);
    auto Pin = RootPins.find(Key);
    if (Pin != RootPins.end())
      for (size_t I = First; I < Out.size(); ++I)
        Out[I].second = Out[I].second.intersect(Pin->second);
  }
  return Out;
}

void FactProvider::addRequirement(
    const Requirement &R,
    std::vector<std::pair<std::string, VersionSet>> &Out) const {
  SmallVector<StringRef, 1> Extras(R.Extras.begin(), R.Extras.end());
  addRequirement(R.Key, R.Range, Extras, Out);
}

template <class AddF>
void FactProvider::eachDependency(StringRef Key, const VersionSet &Range,
                                  ArrayRef<StringRef> Extras, AddF Add) const {
  auto [Name, Set] = mapRequirement(Key, Range);
  if (Extras.empty() || !exists(Key))
    return Add(std::move(Name), std::move(Set));
  Add(Name, Set);
  for (StringRef E : Extras)
    Add(extraPackage(Name, E), Set);
}

void FactProvider::addRequirement(
    StringRef Key, const VersionSet &Range, ArrayRef<StringRef> Extras,
    std::vector<std::pair<std::string, VersionSet>> &Out) const {
  eachDependency(Key, Range, Extras, [&](std::string Name, VersionSet Set) {
    Out.emplace_back(std::move(Name), std::move(Set));
  });
}

void FactProvider::addNumbered(StringRef Key, const VersionSet &Range,
                               ArrayRef<StringRef> Extras,
                               Numbered &Out) const {
  eachDependency(Key, Range, Extras, [&](std::string Name, VersionSet Set) {
    Out.emplace_back(nameId(Name), std::move(Set));
  });
}

std::vector<Version> FactProvider::versions(const std::string &P) {
  if (P == Req.RootName)
    return {Version({0})};
  if (P == NvccPkg) {
    std::vector<Version> Out;
    for (const NvccFacts *T : Toolkits)
      Out.push_back(T->Ver);
    return Out;
  }
  if (P == CompilerPkg) {
    std::vector<Version> Out;
    for (const auto &C : Compilers)
      Out.push_back(C.first);
    return Out;
  }
  if (auto [Base, Extra] = splitExtra(P); !Extra.empty() && Lookup(Base))
    return versions(Base.str());
  if (const Package *Pkg = Lookup(P)) {
    // Newest first, by the releases' versions alone (a release from the
    // load cache is decoded only where it is read).
    const ReleaseList &Rs = Pkg->Releases;
    std::vector<size_t> Order(Rs.size());
    std::iota(Order.begin(), Order.end(), size_t(0));
    auto Newer = [&](size_t A, size_t B) {
      return Rs.version(B) < Rs.version(A);
    };
    // Most manifests list their releases newest first: then the order is
    // theirs, found in one pass (a stable sort allocates its buffer).
    if (!std::is_sorted(Order.begin(), Order.end(), Newer))
      stable_sort(Order, Newer);
    // A release from source, and as a binary where it has one (not for a
    // pure-Python package).
    bool Binaries = Pkg->Kind != BuildKind::Python;
    size_t WithBinary =
        Binaries ? llvm::count_if(
                       Rs, [](const Release &R) { return bool(R.Prebuilt); })
                 : 0;
    std::vector<Version> Out;
    Out.reserve(Rs.size() + WithBinary);
    for (size_t I : Order) {
      Out.push_back(Rs.version(I));
      Out.back().setEpoch(SourceEpoch);
      if (Binaries && Rs[I].Prebuilt) {
        Out.push_back(Rs.version(I));
        Out.back().setEpoch(PrebuiltEpoch);
      }
    }
    return Out;
  }
  FixedFact FF = fixedFact(P);
  if (FF.Ver)
    return {*FF.Ver};
  return {};
}

/// Walks the package's requirements (By, in key order) and a release's own
/// (Own, in key order: its keys by KeyOf), calling Emit with each of the
/// package's the release does not name and each of the release's, in key
/// order: the requirements of that release.
template <class Own, class KeyOfF, class PackageF, class OwnF>
static void overPackage(const RequirementMap &By, Own &&Release, KeyOfF KeyOf,
                        PackageF EmitPackage, OwnF EmitOwn) {
  auto A = By.begin(), AEnd = By.end();
  auto B = Release.begin(), BEnd = Release.end();
  while (A != AEnd || B != BEnd) {
    if (B == BEnd || (A != AEnd && StringRef(A->first) < KeyOf(*B))) {
      EmitPackage(*A);
      ++A;
      continue;
    }
    if (A != AEnd && StringRef(A->first) == KeyOf(*B))
      ++A;
    EmitOwn(*B);
    ++B;
  }
}

std::vector<std::pair<StringRef, const Requirement *>>
requirementsOf(const Package &Pkg, const Release &Rel) {
  std::vector<std::pair<StringRef, const Requirement *>> Out;
  Out.reserve(Pkg.Requires.size() + Rel.Requires.size());
  auto Emit = [&](const auto &E) { Out.emplace_back(E.first, &E.second); };
  overPackage(
      Pkg.Requires, Rel.Requires.get(),
      [](const auto &E) { return StringRef(E.first); }, Emit, Emit);
  return Out;
}

static RequirementRange rangeOf(StringRef Key, const Requirement &R) {
  RequirementRange Out{Key, R.Range, {}};
  for (const std::string &E : R.Extras)
    Out.Extras.push_back(E);
  return Out;
}

/// The keys, ranges and extras of requirements still encoded.
static std::vector<RequirementRange>
readRanges(const Deferred<RequirementMap>::Encoded &E, RangeMemo *Memo) {
  std::vector<RequirementRange> Out;
  if (!readRequirementRanges(E, Out, Memo))
    detail::deferredDecodeFailed(E.File, E.CacheFile);
  return Out;
}

/// A release's own requirements (Own) with the package's it does not name,
/// in key order, as requirementsOf() merges them.
static std::vector<RequirementRange>
overPackage(const Package &Pkg, std::vector<RequirementRange> Own) {
  if (Pkg.Requires.empty())
    return Own;
  std::vector<RequirementRange> Out;
  Out.reserve(Pkg.Requires.size() + Own.size());
  overPackage(
      Pkg.Requires, Own, [](const RequirementRange &R) { return R.Key; },
      [&](const auto &E) { Out.push_back(rangeOf(E.first, E.second)); },
      [&](RequirementRange &R) { Out.push_back(std::move(R)); });
  return Out;
}

std::vector<RequirementRange> requirementRangesOf(const Package &Pkg,
                                                  const Release &Rel,
                                                  RangeMemo *Memo) {
  // Left encoded: what the solver reads of it read alone.
  if (std::optional<Deferred<RequirementMap>::Encoded> E =
          Rel.Requires.encoded())
    return overPackage(Pkg, readRanges(*E, Memo));
  std::vector<RequirementRange> Own;
  Own.reserve(Rel.Requires.size());
  for (const auto &[Key, R] : Rel.Requires)
    Own.push_back(rangeOf(Key, R));
  return overPackage(Pkg, std::move(Own));
}

bool requirementRangesInto(const Package &Pkg, size_t I, RangeMemo *Memo,
                           std::vector<RequirementRange> &Out) {
  std::optional<ReleaseList::KeptBody> Body = Pkg.Releases.keptBody(I);
  if (!Body)
    return false;
  Deferred<RequirementMap>::Encoded E;
  if (!readReleaseRequires(*Body, E))
    detail::deferredDecodeFailed(Body->File, Body->CacheFile);
  Out.clear();
  if (!Pkg.Requires.empty()) {
    Out = overPackage(Pkg, readRanges(E, Memo));
    return true;
  }
  if (!readRequirementRanges(E, Out, Memo))
    detail::deferredDecodeFailed(E.File, E.CacheFile);
  return true;
}

const Package *FactProvider::lookupForDependencies(const std::string &P) {
  if (Last.Pkg && P == Last.Name)
    return Last.Pkg;
  const Package *Pkg = Lookup(P);
  if (Pkg) {
    Last.Name = P;
    Last.Pkg = Pkg;
    Last.Index = 0;
    // The solver reads a package's releases in a row.
    Pkg->Releases.prefetch();
  }
  return Pkg;
}

std::optional<size_t> FactProvider::releaseIndex(const Package &Pkg,
                                                 const Version &V) {
  // The release read last, then its neighbours (the solver reads a
  // package's versions in order, a manifest lists them either way), then
  // the whole list.
  const ReleaseList &Rs = Pkg.Releases;
  if (&Pkg == Last.Pkg) {
    // The neighbour in the direction of the last step first.
    size_t I = Last.Index, Ahead = I + Last.Step, Behind = I - Last.Step;
    for (size_t K : {Ahead, Behind, I})
      if (K < Rs.size() && Rs.version(K) == V) {
        Last.Step = K == Behind ? -Last.Step : Last.Step;
        return Last.Index = K;
      }
  }
  std::optional<size_t> Index = Rs.indexOf(V);
  if (Index && &Pkg == Last.Pkg)
    Last.Index = *Index;
  return Index;
}

PackageDependencies FactProvider::dependencies(const std::string &P,
                                               const Version &V) {
  solver::NumberedDependencies<VersionSet> N;
  numberedDependencies(P, V, N);
  if (!N.Available)
    return PackageDependencies::unavailable(std::move(N.Reason));
  std::vector<std::pair<std::string, VersionSet>> On;
  On.reserve(N.On.size() + N.ByNumber.size());
  for (auto &[Id, Set] : N.On)
    On.emplace_back(KindNames[Id], std::move(Set));
  for (auto [Id, Range] : N.ByNumber)
    On.emplace_back(KindNames[Id], rangeOf(Range));
  return PackageDependencies::available(std::move(On));
}

bool FactProvider::numberedDependencies(
    const std::string &P, const Version &V,
    solver::NumberedDependencies<VersionSet> &Out) {
  Out.Available = true;
  Out.On.clear();
  Out.ByNumber.clear();
  Out.Reason.clear();
  auto Unavailable = [&](std::string Why) {
    Out.Available = false;
    Out.Reason = std::move(Why);
    return true;
  };
  Numbered &On = Out.On;
  // The package read last, as the solver reads a package's versions in a
  // row: neither the root nor an extra (lookupForDependencies() keeps
  // neither), so those are not asked again.
  const bool Again = Last.Pkg && P == Last.Name;
  if (!Again && P == Req.RootName) {
    for (auto &[Name, Set] : rootDeps())
      On.emplace_back(nameId(Name), std::move(Set));
    return true;
  }
  if (auto [Base, Extra] =
          Again ? std::pair<StringRef, StringRef>(P, "") : splitExtra(P);
      !Extra.empty()) {
    const Package *BasePkg = Lookup(Base);
    const Release *Rel = BasePkg ? BasePkg->findRelease(V.withEpoch(0)) : nullptr;
    if (!Rel)
      return Unavailable("no such release");
    On.emplace_back(nameId(Base), VersionSet::exactly(V));
    ExtrasMap X = BasePkg->extrasFor(*Rel);
    // A release without the extra is installed without it (pip warns).
    auto It = X.find(Extra.str());
    if (It == X.end())
      return true;
    for (const auto &[Key, R] : It->second)
      if (toolOf(Key) == KeyTool::Package) {
        SmallVector<StringRef, 1> Extras(R.Extras.begin(), R.Extras.end());
        addNumbered(R.Key, R.Range, Extras, On);
      }
    return true;
  }
  const Package *Pkg = Again ? Last.Pkg : lookupForDependencies(P);
  if (!Pkg)
    return true;
  std::optional<size_t> Index = releaseIndex(*Pkg, V.withEpoch(0));
  if (!Index)
    return Unavailable("no such release");
  bool Compiles = Pkg->Kind != BuildKind::Python;
  // A pure-Python release from source whose requirements the load cache
  // gave as numbers: read from those, each key and range known already.
  if (!Compiles && V.epoch() == SourceEpoch && Pkg->Requires.empty())
    if (std::optional<ReleaseList::RequirementNumbers> Ids =
            Pkg->Releases.requirementIds(*Index);
        Ids && numberedFromIds(*Ids, Out))
      return true;
  // A pure-Python release from source needs nothing but its requirements:
  // where it is still the load cache's bytes, they are read from those
  // (requirementRangesInto()) and the release stays undecoded. Either way
  // into the provider's own list, whose room the next release reuses.
  std::vector<RequirementRange> &Reqs = ReadRanges;
  bool Kept = !Compiles && V.epoch() == SourceEpoch &&
              requirementRangesInto(*Pkg, *Index, &Ranges, Reqs);
  const Release *Rel = Kept ? nullptr : &Pkg->Releases[*Index];
  if (!Kept)
    Reqs = requirementRangesOf(*Pkg, *Rel, &Ranges);
  // Each requirement, and a compiled one's nvcc and host compiler (extras
  // add more).
  On.reserve(Reqs.size() + (Compiles ? 2 : 0));
  if (V.epoch() == PrebuiltEpoch) {
    std::string Why = prebuiltMismatch(*Pkg, *Rel);
    if (!Why.empty())
      return Unavailable(std::move(Why));
    if (std::optional<std::string> Url = prebuiltUrl(*Pkg, *Rel)) {
      auto Gone = Req.UnavailablePrebuilts.find(*Url);
      if (Gone != Req.UnavailablePrebuilts.end())
        return Unavailable(Gone->second);
    }
    for (const RequirementRange &R : Reqs)
      if (toolOf(R.Key) == KeyTool::Package)
        addNumbered(R.Key, R.range(), R.Extras, On);
    return true;
  }
  if (Compiles && !Targets.empty() && !Rel->Archs.empty()) {
    std::vector<std::string> Common = intersectArchs(Targets, *Rel);
    if (Common.empty())
      return Unavailable(
          formatv("{0} {1} compiles none of the target archs ({2})", Pkg->Name,
                  Rel->VersionText, join(Targets, ", "))
              .str());
  }
  bool HasNvcc = false, HasCompiler = false;
  for (RequirementRange &R : Reqs) {
    StringRef Key = R.Key;
    if (!Compiles && toolOf(Key) != KeyTool::Package)
      continue;
    if (!R.Extras.empty()) {
      addNumbered(Key, R.range(), R.Extras, On);
      continue;
    }
    auto Dep = mapNumbered(Key, R);
    HasNvcc |= Dep.first == NvccId;
    if (Dep.first == CompilerId) {
      if (HasCompiler) {
        // gcc and clang requirements together: either family.
        for (auto &E : On)
          if (E.first == CompilerId)
            E.second = E.second.unionWith(Dep.second);
        continue;
      }
      HasCompiler = true;
    }
    On.push_back(std::move(Dep));
  }
  if (Compiles && !HasNvcc)
    On.emplace_back(NvccId, VersionSet::any());
  if (Compiles && !HasCompiler)
    On.emplace_back(CompilerId, VersionSet::any());
  return true;
}

std::vector<SolverFact> FactProvider::facts(const std::string &P) {
  std::vector<SolverFact> Out;
  if (P == NvccPkg) {
    nvccFacts(Out);
  } else if (P == CompilerPkg) {
    if (Compilers.empty())
      Out.push_back(fact({{P, TermT::positive(VersionSet::any())}},
                         "no host C++ compiler (g++ or clang++) was found",
                         {"install a host compiler nvcc supports, e.g. "
                          "`apt install g++`"}));
  } else if (const Package *Pkg = Lookup(P)) {
    packageFacts(*Pkg, Out);
  } else if (isManifestPackage(P)) {
    // An extra: its package carries the facts.
  } else if (P != Req.RootName) {
    FixedFact FF = fixedFact(P);
    if (!FF.Ver)
      Out.push_back(
          fact({{P, TermT::positive(VersionSet::any())}}, FF.Absent, {}));
  }
  for (const SolverFact &SF : Out)
    AllFacts.push_back(SF);
  return Out;
}

std::string FactProvider::describeCandidates(StringRef P) const {
  std::vector<std::string> Items;
  if (P == NvccPkg)
    for (const NvccFacts *T : Toolkits)
      Items.push_back(T->Ver.str() + " (" + T->Path + ")");
  else
    for (const auto &C : Compilers)
      Items.push_back(C.second->Family + " " + C.second->Ver.str() + " (" +
                      C.second->Path + ")");
  StringRef What = P == NvccPkg ? "toolkit" : "host compiler";
  if (Items.size() == 1)
    return ("the only " + What + " found is " + Items.front()).str();
  return ("the " + What + "s found are " + join(Items, ", ")).str();
}

std::vector<std::string> FactProvider::archsFor(const Release &Rel,
                                                const NvccFacts *Nvcc) const {
  std::vector<std::string> Candidates;
  if (!Targets.empty())
    Candidates = Rel.Archs.empty() ? Targets : intersectArchs(Targets, Rel);
  else
    for (const Arch &A : Rel.Archs)
      Candidates.push_back(A.Name);
  std::vector<std::string> Out;
  for (const std::string &A : Candidates) {
    auto Entry = find_if(Rel.Archs, [&](const Arch &X) { return X.Name == A; });
    if (!Nvcc) {
      Out.push_back(A);
    } else if (Entry != Rel.Archs.end() && Entry->Passed) {
      // setup.py passes it whenever its condition holds: exactly these.
      if (Entry->conditionHolds(Nvcc->Ver))
        Out.push_back(A);
    } else if (nvccSupports(*Nvcc, A)) {
      Out.push_back(A);
    }
  }
  return Out;
}

std::optional<std::string> FactProvider::prebuiltUrl(const Package &Pkg,
                                                     const Release &Rel) const {
  if (!Pkg.PrebuiltUrl)
    return std::nullopt;
  auto Url = expandTemplate(
      Pkg.PrebuiltUrl->Value,
      [&](StringRef Name) -> std::optional<std::string> {
        if (Name == "version")
          return Rel.VersionText;
        if (Name == "release_tag")
          return Pkg.releaseTagFor(Rel);
        if (Name == "torch.cuda_major" && F.Torch && F.Torch->Cuda)
          return std::to_string(F.Torch->Cuda->major());
        if (Name == "torch.major_minor" && F.Torch)
          return majorMinor(F.Torch->Ver);
        if (Name == "torch.cxx11_abi_upper" && F.Torch && F.Torch->Cxx11Abi)
          return *F.Torch->Cxx11Abi ? "TRUE" : "FALSE";
        if (Name == "python.tag" && F.Python)
          return F.Python->tag();
        if (Name == "platform.tag" && F.Platform)
          return F.Platform->tag();
        return std::nullopt;
      });
  if (!Url) {
    consumeError(Url.takeError());
    return std::nullopt;
  }
  return *Url;
}

std::pair<std::string, VersionSet>
FactProvider::mapRequirement(StringRef Key, const VersionSet &R) const {
  if (Key == "gcc")
    return {CompilerPkg.str(), lift(R, GccEpoch)};
  if (Key == "clang")
    return {CompilerPkg.str(), lift(R, ClangEpoch)};
  switch (kindOf(Key)) {
  case Kind::None:
    return {Key.str(), R};
  case Kind::Python:
    // A pure-Python package has no prebuilt versions: a range over it in
    // that epoch holds none and is left out (half the intervals of every
    // set the solve makes of it; the reasons word its source part alone).
    return {Key.str(), lift(R, SourceEpoch)};
  default:
    return {Key.str(), liftTwice(R, PrebuiltEpoch, SourceEpoch)};
  }
}

std::pair<std::string, VersionSet>
FactProvider::mapRequirement(StringRef Key, VersionSet &&R) const {
  // The same as above, a pure-Python package's range moved in place.
  if (Key != "gcc" && Key != "clang" && kindOf(Key) == Kind::Python)
    return {Key.str(), lift(std::move(R), SourceEpoch)};
  return mapRequirement(Key, std::as_const(R));
}

std::pair<uint32_t, VersionSet>
FactProvider::mapNumbered(StringRef Key, RequirementRange &R) const {
  if (!R.Shared) {
    auto [Name, Set] = mapRequirement(Key, std::move(R.Range));
    return {nameId(Name), std::move(Set)};
  }
  // The slot of each way mapRequirement() maps a range (Unknown never
  // stays: kindAt() reads the manifest), and the dependee's number.
  unsigned Slot = 0;
  uint32_t Id;
  if (KeyTool T = toolOf(Key); T == KeyTool::Gcc || T == KeyTool::Clang) {
    Slot = T == KeyTool::Clang;
    Id = CompilerId;
  } else {
    Id = nameId(Key);
    Slot = packageSlot(Id);
  }
  return {Id, mappedRange(Key, Slot, R.SharedId, *R.Shared)};
}

const VersionSet &FactProvider::mappedRange(StringRef Key, unsigned Slot,
                                            uint32_t SharedId,
                                            const VersionSet &Range) const {
  if (SharedId >= MappedRanges.size())
    MappedRanges.resize(SharedId + 1);
  std::optional<VersionSet> &Mapped = MappedRanges[SharedId][Slot];
  if (!Mapped)
    Mapped = mapRequirement(Key, Range).second;
  return *Mapped;
}

FactProvider::TableMemo &
FactProvider::tableMemo(const std::shared_ptr<const RequirementTable> &T) {
  // A table per registry directory: a few at most.
  for (TableMemo &M : Tables)
    if (M.Of == T)
      return M;
  TableMemo &M = Tables.emplace_back();
  M.Of = T;
  M.Keys.assign(T->Keys.size(), TableMemo::Unread);
  M.Ranges.assign(T->Ranges.size(), {0, nullptr});
  return M;
}

bool FactProvider::numberedFromIds(
    const ReleaseList::RequirementNumbers &Ids,
    solver::NumberedDependencies<VersionSet> &Out) {
  // As the loop of numberedDependencies() over a pure-Python release's
  // requirements (none with extras: those have no numbers): a tool's key
  // left out, each other's range mapped for its dependee's kind, given by
  // its number (rangeOf()).
  TableMemo &T = tableMemo(Ids.Table);
  const RequirementTable &Table = *Ids.Table;
  auto &On = Out.ByNumber;
  On.reserve(Ids.Count);
  for (size_t P = 0; P < Ids.Count; ++P) {
    uint32_t K = Ids.key(P), R = Ids.range(P);
    if (K >= T.Keys.size() || R >= T.Ranges.size()) {
      On.clear();
      return false;
    }
    uint32_t &Id = T.Keys[K];
    if (Id == TableMemo::Unread)
      Id = toolOf(Table.Keys[K]) == KeyTool::Package ? nameId(Table.Keys[K])
                                                     : TableMemo::NotPackage;
    if (Id == TableMemo::NotPackage)
      continue;
    auto &[SharedId, Set] = T.Ranges[R];
    if (!Set &&
        !(Set = Ranges.decode(Table.Ranges[R], SourcePath(), &SharedId))) {
      On.clear();
      return false;
    }
    On.emplace_back(
        Id, mappedRangeNumber(Table.Keys[K], packageSlot(Id), SharedId, *Set));
  }
  return true;
}

VersionSet FactProvider::rangeOf(uint32_t Number) const {
  assert(Number / MappedSlots < MappedRanges.size() &&
         MappedRanges[Number / MappedSlots][Number % MappedSlots] &&
         "a range number numberedFromIds() gave");
  return *MappedRanges[Number / MappedSlots][Number % MappedSlots];
}

Version FactProvider::compilerVersion(const CompilerFacts &C) {
  return C.Ver.withEpoch(C.Family == "clang" ? ClangEpoch : GccEpoch);
}

SolverFact FactProvider::fact(std::vector<std::pair<std::string, TermT>> Terms,
                              std::string Text,
                              std::vector<std::string> HintLines) {
  if (!HintLines.empty())
    Hints[Text] = std::move(HintLines);
  return SolverFact{std::move(Terms), std::move(Text)};
}

std::string FactProvider::torchAbsentText() const {
  if (!F.Python)
    return "torch is not installed (no Python was found)";
  std::string Env = F.Python->Path.empty()
                        ? "Python " + F.Python->Ver.str()
                        : F.Python->Path + ", Python " + F.Python->Ver.str();
  return "torch is not installed in the Python environment (" + Env + ")";
}

FixedFact FactProvider::fixedFact(StringRef P) const {
  if (P == "torch")
    return {F.Torch ? std::optional(F.Torch->Ver) : std::nullopt,
            torchAbsentText()};
  if (P == "torch.cuda") {
    if (!F.Torch)
      return {std::nullopt, "torch is not installed, so torch.cuda is unknown"};
    return {F.Torch->Cuda,
            "torch " + F.Torch->Ver.str() +
                (F.Torch->CudaUnknown
                     ? " names no CUDA version (torch.version.cuda is unknown)"
                     : " is a CPU build (torch.version.cuda is None)")};
  }
  if (P == "python")
    return {F.Python ? std::optional(F.Python->Ver) : std::nullopt,
            "no Python was found"};
  if (P == "driver")
    return {F.Driver ? F.Driver->KernelVersion : std::nullopt,
            "no NVIDIA driver was found"};
  if (P == "driver.cuda")
    return {F.Driver ? F.Driver->Cuda : std::nullopt,
            "no NVIDIA driver was found"};
  if (P == "compute_capability") {
    std::optional<Version> Min;
    for (const GpuFacts &G : F.Gpus)
      if (!Min || G.ComputeCapability < *Min)
        Min = G.ComputeCapability;
    return {Min, "no GPU was found"};
  }
  auto It = F.Packages.find(P.str());
  if (It != F.Packages.end())
    return {It->second.Ver, ""};
  return {std::nullopt,
          (P + " is not installed and no manifest describes it").str()};
}

bool FactProvider::releaseCompiles(const Release &Rel, StringRef A) {
  // sm_90a is the arch-specific form of sm_90: a release that compiles sm_90
  // compiles it for the target as sm_90a.
  StringRef Base = A.endswith("a") || A.endswith("f") ? A.drop_back() : A;
  return any_of(Rel.Archs,
                [&](const Arch &R) { return R.Name == A || R.Name == Base; });
}

std::vector<std::string>
FactProvider::intersectArchs(ArrayRef<std::string> Want,
                             const Release &Rel) const {
  std::vector<std::string> Out;
  for (const std::string &A : Want)
    if (releaseCompiles(Rel, A))
      Out.push_back(A);
  return Out;
}

bool FactProvider::nvccSupports(const NvccFacts &N, StringRef A) const {
  if (!N.Archs.empty())
    return is_contained(N.Archs, A) ||
           (A.endswith("a") || A.endswith("f")
                ? is_contained(N.Archs, A.drop_back())
                : false);
  return KB.nvccRangeForArch(A).contains(N.Ver);
}

VersionSet FactProvider::nvccRangeFor(StringRef A) const {
  VersionSet R = KB.nvccRangeForArch(A);
  for (const NvccFacts *T : Toolkits) {
    if (T->Archs.empty())
      continue;
    VersionSet Exact = VersionSet::exactly(T->Ver);
    R = nvccSupports(*T, A) ? R.unionWith(Exact) : R.minus(Exact);
  }
  return R;
}

std::string FactProvider::describeTarget(StringRef A) const {
  for (const GpuFacts &G : F.Gpus)
    if (G.smArch() == A && !G.Name.empty())
      return (A + " (" + G.Name + ")").str();
  if (A.endswith("a"))
    return (A + " (the arch-specific form of " + A.drop_back() + ")").str();
  if (A.endswith("f"))
    return (A + " (the family-specific form of " + A.drop_back() + ")").str();
  return A.str();
}

std::string FactProvider::prebuiltMismatch(const Package &Pkg,
                                           const Release &Rel) const {
  const PrebuiltMatrix &M = *Rel.Prebuilt;
  if (!F.Torch)
    return torchAbsentText(); // prebuilt wheels are per torch version
  if (!F.Torch->Cuda)
    return "no prebuilt binary fits torch " + F.Torch->Ver.str() +
           (F.Torch->CudaUnknown ? " (its CUDA version is unknown)"
                                 : " (a CPU build)");
  Version TorchMM = F.Torch->Ver.withoutLocal().truncated(2);
  const Version &Cuda = *F.Torch->Cuda;
  std::string Py = F.Python ? F.Python->tag() : "";
  std::string Plat = F.Platform ? F.Platform->tag() : "";
  bool TorchOk =
      any_of(M.Torch, [&](const Version &V) { return V == TorchMM; });
  bool CudaOk = any_of(M.Cuda, [&](const Version &V) {
    return V.release().size() >= 2 ? V == Cuda.truncated(2)
                                   : V.major() == Cuda.major();
  });
  bool PyOk = M.Python.empty() || is_contained(M.Python, Py);
  bool AbiOk =
      M.Cxx11Abi.empty() ||
      (F.Torch->Cxx11Abi && is_contained(M.Cxx11Abi, *F.Torch->Cxx11Abi));
  bool PlatOk = M.Platform.empty() || is_contained(M.Platform, Plat);
  bool Excluded = M.excludes(TorchMM, Cuda.major(), Py, F.Torch->Cxx11Abi, Plat);
  if (TorchOk && CudaOk && PyOk && AbiOk && PlatOk && !Excluded)
    return "";
  std::string Combo =
      "torch " + majorMinor(TorchMM) + " / cu" + std::to_string(Cuda.major());
  if (!M.Python.empty())
    Combo += " / " + (Py.empty() ? std::string("no python") : Py);
  if (!M.Cxx11Abi.empty())
    Combo += F.Torch->Cxx11Abi
                 ? (*F.Torch->Cxx11Abi ? " / cxx11abi" : " / pre-cxx11 abi")
                 : " / unknown abi";
  if (!M.Platform.empty())
    Combo += " / " + (Plat.empty() ? std::string("unknown platform") : Plat);
  if (Excluded && TorchOk && CudaOk && PyOk && AbiOk && PlatOk)
    return "no prebuilt wheel is published for " + Combo + " (" + Pkg.Name +
           " " + Rel.VersionText + "'s publishing CI did not build it)";
  return "no prebuilt wheel is published for " + Combo;
}

void FactProvider::nvccFacts(std::vector<SolverFact> &Out) {
  std::string TorchNeed;
  if (F.Torch && F.Torch->Cuda)
    TorchNeed = majorMinor(*F.Torch->Cuda);
  if (Toolkits.empty()) {
    std::string Text = "no nvcc was found on this machine";
    if (!Req.NvccAbsentDetail.empty())
      Text += " (" + Req.NvccAbsentDetail + ")";
    std::vector<std::string> H;
    if (!TorchNeed.empty())
      H = installNvccHints(*F.Torch->Cuda);
    else
      H.push_back("install a CUDA toolkit (nvcc), e.g. NVIDIA's cuda-nvcc "
                  "package or `conda install -c nvidia cuda-nvcc`");
    Out.push_back(
        fact({{NvccPkg.str(), TermT::positive(VersionSet::any())}}, Text, H));
    return;
  }
  for (const NvccFacts *T : Toolkits) {
    std::optional<unsigned> MaxGcc = T->MaxGcc, MaxClang = T->MaxClang;
    std::string From = "its crt/host_config.h";
    if (!MaxGcc && !MaxClang) {
      if (const ToolkitRow *Row = KB.toolkit(T->Ver)) {
        MaxGcc = Row->MaxGcc;
        MaxClang = Row->MaxClang;
        From = "the knowledge base";
      }
    }
    if (!MaxGcc && !MaxClang)
      continue;
    VersionSet Allowed =
        lift(MaxGcc ? upToMajor(*MaxGcc) : VersionSet::any(), GccEpoch)
            .unionWith(lift(MaxClang ? upToMajor(*MaxClang) : VersionSet::any(),
                            ClangEpoch));
    std::string Text = formatv("nvcc {0} supports", T->Ver.str()).str();
    if (MaxGcc)
      Text += formatv(" gcc <= {0}", *MaxGcc).str();
    if (MaxGcc && MaxClang)
      Text += " and";
    if (MaxClang)
      Text += formatv(" clang <= {0}", *MaxClang).str();
    Text += " (" + From + ")";
    std::vector<std::string> H;
    if (MaxGcc)
      H.push_back(gccHint(*T, *MaxGcc));
    Out.push_back(
        fact({{NvccPkg.str(), TermT::positive(VersionSet::exactly(T->Ver))},
              {CompilerPkg.str(), TermT::negative(Allowed)}},
             Text, H));
  }
  // The driver must run the runtime of the toolkit's major.
  if (F.Driver && F.Driver->Cuda) {
    std::set<uint64_t> Majors;
    for (const NvccFacts *T : Toolkits)
      Majors.insert(T->Ver.major());
    for (uint64_t M : Majors) {
      if (M <= F.Driver->Cuda->major())
        continue;
      std::string Floor;
      if (const DriverFloorRow *Row = KB.driverFloor(M))
        Floor = "; a " + std::to_string(M) +
                ".x runtime needs a driver >= " + Row->MinDriver.str();
      std::string Drv = F.Driver->KernelVersion
                            ? " (" + F.Driver->KernelVersion->str() + ")"
                            : "";
      std::string Text = formatv("the driver{0} supports CUDA {1} at most{2}",
                                 Drv, majorMinor(*F.Driver->Cuda), Floor)
                             .str();
      std::string To;
      if (const DriverFloorRow *Row = KB.driverFloor(M))
        To = " to >= " + Row->MinDriver.str();
      Out.push_back(
          fact({{NvccPkg.str(), TermT::positive(sameMajor(M))}}, Text,
               {formatv("upgrade the NVIDIA driver{0}; or build with a {1}.x "
                        "toolkit (with a torch built for CUDA {1}.x)",
                        To, F.Driver->Cuda->major())
                    .str()}));
    }
  }
}

/// "(NVIDIA's wheels from PyPI: nvcc 13.0.88, download about 100 MiB, 266
/// MiB on disk)".
static std::string provisionCost(const ProvisionRow &Row) {
  std::string Text = "NVIDIA's wheels from PyPI: nvcc " + Row.Cuda.str();
  if (Row.DownloadMiB)
    Text += formatv(", download about {0} MiB", *Row.DownloadMiB).str();
  if (Row.InstalledMiB)
    Text += formatv(", {0} MiB on disk", *Row.InstalledMiB).str();
  return Text;
}

std::vector<std::string>
FactProvider::installNvccHints(const Version &Cuda) const {
  std::string MM = majorMinor(Cuda);
  std::string Dash = formatv("{0}-{1}", Cuda.major(), Cuda.minor()).str();
  std::string Then = "; then set CUDA_HOME to it or put its bin/ on PATH";
  std::vector<std::string> H;
  // What `cudadeps toolkit install` can assemble (manifests/cuda/
  // provisioning.toml): the same minor, else the newest of the major.
  const ProvisionRow *Same = KB.provision(Version({Cuda.major(), Cuda.minor()}));
  const ProvisionRow *Major = Same ? Same : KB.provision(Version({Cuda.major()}));
  if (Major) {
    std::string V = Same ? MM : std::to_string(Cuda.major());
    H.push_back("install an nvcc " + MM + " without root: `cudadeps toolkit "
                "install " + V + "` (" + provisionCost(*Major) +
                "; the nvcc probe then finds it), or `conda install -c nvidia "
                "cuda-nvcc=" + MM + "` or NVIDIA's cuda-nvcc-" + Dash +
                " package" + Then);
    return H;
  }
  std::string Line = "install an nvcc " + MM + ", e.g. `conda install -c "
                     "nvidia cuda-nvcc=" + MM + "` or NVIDIA's cuda-nvcc-" +
                     Dash + " package";
  if (const NoProvisionRow *No = KB.noProvision(Cuda.major())) {
    Line = "install an nvcc " + MM + ": PyPI has no nvcc " +
           std::to_string(Cuda.major()) + " for Linux (" + No->Reason +
           "); it comes from conda (`conda install -c nvidia cuda-nvcc=" + MM +
           "`), from NVIDIA's runfile without root (`cudadeps toolkit "
           "install " + MM + " --from cuda_" + MM + ".<update>_<driver>_linux"
           ".run`) or from NVIDIA's apt repository (package cuda-nvcc-" +
           Dash + ")";
  }
  H.push_back(Line + Then);
  // A torch build for a CUDA major PyPI does provision makes that usable.
  const TorchRow *Row = F.Torch ? KB.torchRow(F.Torch->Ver) : nullptr;
  if (!Row)
    return H;
  for (auto It = Row->Cuda.rbegin(); It != Row->Cuda.rend(); ++It) {
    if (It->major() <= Cuda.major())
      continue;
    const ProvisionRow *P = KB.provision(Version({It->major(), It->minor()}));
    if (!P)
      continue;
    std::string Tag = formatv("cu{0}{1}", It->major(), It->minor()).str();
    std::string How =
        Row->PypiCuda && *Row->PypiCuda == *It
            ? "the plain PyPI wheel, `pip install torch==" +
                  majorMinor(Row->Torch) + ".*`, is one"
            : "`pip install torch --index-url https://download.pytorch.org/"
              "whl/" + Tag + "`";
    H.push_back("or use a " + Tag + " build of torch " +
                majorMinor(Row->Torch) + " (" + How +
                "): then `cudadeps toolkit install " + majorMinor(*It) +
                "` provisions a usable nvcc " + majorMinor(*It) +
                " without root (" + provisionCost(*P) + ")");
    break;
  }
  return H;
}

std::string FactProvider::gccHint(const NvccFacts &T, uint64_t NvccMax) const {
  // The g++ suggested must pass torch's own table too (torch 2.11 takes
  // gcc < 14 with CUDA 12.8 where nvcc 12.8 takes gcc 14).
  uint64_t Suggest = NvccMax;
  std::string Torch;
  if (const TorchHostCompilerRow *Row = torchCompilerRow())
    if (const TorchCompilerBound *B = Row->bound("gcc", T.Ver)) {
      uint64_t TorchMax = B->Max.major() - (B->MaxInclusive ? 0 : 1);
      if (TorchMax < Suggest && B->accepted().contains(Version({TorchMax}))) {
        Suggest = TorchMax;
        Torch = formatv(" and torch {0} (gcc {1} with CUDA {2})",
                        majorMinor(F.Torch->Ver), B->rangeText(),
                        majorMinor(T.Ver))
                    .str();
      }
    }
  return formatv("install a g++ that nvcc {0}{1} accept{2}, e.g. `apt install "
                 "g++-{3}`; cudadeps finds g++-N on PATH and passes it as "
                 "-ccbin",
                 majorMinor(T.Ver), Torch, Torch.empty() ? "s" : "", Suggest)
      .str();
}

const TorchHostCompilerRow *FactProvider::torchCompilerRow() const {
  if (!F.Torch)
    return nullptr;
  const TorchFacts &T = *F.Torch;
  // torch checks only on Linux and only as a binary build: a source build
  // ("2.12.0a0+git...", a pre-release with a local label) skips it.
  if (F.Platform && F.Platform->Os != "linux")
    return nullptr;
  if (T.Ver.isPrerelease() && !T.Ver.local().empty())
    return nullptr;
  return KB.torchHostCompilers(T.Ver);
}

void FactProvider::torchCompilerFacts(const std::string &P,
                                      std::vector<SolverFact> &Out) {
  const TorchFacts &T = *F.Torch;
  const TorchHostCompilerRow *Row = torchCompilerRow();
  if (!Row)
    return;
  std::string Torch = majorMinor(T.Ver);
  VersionSet AllSource = epochRange(SourceEpoch);
  for (const NvccFacts *Nvcc : Toolkits) {
    for (const auto &[SolverVer, C] : Compilers) {
      const TorchCompilerBound *B = Row->bound(C->Family, Nvcc->Ver);
      if (!B || B->accepted().contains(C->Ver))
        continue;
      // "gcc 14" when no gcc 14.x release is accepted, else the version.
      uint64_t Major = C->Ver.major();
      std::string Named =
          C->Family + " " +
          (B->accepted().isDisjoint(
               VersionSet::between(Version({Major}), Version({Major + 1})))
               ? std::to_string(Major)
               : C->Ver.str());
      std::string Cuda = majorMinor(Nvcc->Ver);
      std::string Text =
          formatv("torch {0} rejects {1} with CUDA {2}: its "
                  "torch/utils/cpp_extension.py accepts {3} {4} for CUDA {5} "
                  "({6} {7} at {8}, nvcc {9})",
                  Torch, Named, Cuda, C->Family, B->rangeText(), B->Cuda.str(),
                  C->Family, C->Ver.str(), C->Path, Nvcc->Ver.str())
              .str();
      uint64_t Suggest = B->Max.major() - (B->MaxInclusive ? 0 : 1);
      std::optional<unsigned> NvccMax = Nvcc->MaxGcc;
      if (!NvccMax)
        if (const ToolkitRow *TR = KB.toolkit(Nvcc->Ver))
          NvccMax = TR->MaxGcc;
      std::vector<std::string> H;
      if (C->Family == "gcc" && B->accepted().contains(Version({Suggest})))
        H.push_back(gccHint(*Nvcc, NvccMax ? *NvccMax : Suggest));
      H.push_back("or set TORCH_DONT_CHECK_COMPILER_ABI=1 to skip torch's "
                  "check (the build may then fail in nvcc or at import)");
      Out.push_back(
          fact({{P, TermT::positive(AllSource)},
                {NvccPkg.str(), TermT::positive(VersionSet::exactly(Nvcc->Ver))},
                {CompilerPkg.str(),
                 TermT::positive(VersionSet::exactly(SolverVer))}},
               std::move(Text), std::move(H)));
    }
  }
}

void FactProvider::passedArchFacts(const Package &Pkg,
                                   std::vector<SolverFact> &Out) {
  std::string P = Pkg.canonicalName();
  // Per release, the archs it passes (under one condition) that some
  // toolkit found meets the condition of but cannot compile; releases with
  // the same archs, condition and toolkits share one fact.
  struct Group {
    std::vector<std::string> Archs;
    std::string Cond;
    VersionSet Bad;
    std::vector<std::string> BadText;
    VersionSet Releases;
    std::vector<std::string> Versions;
  };
  std::vector<Group> Groups;
  for (const Release &R : Pkg.Releases) {
    std::vector<Group> Mine;
    for (const Arch &A : R.Archs) {
      if (!A.Passed)
        continue;
      VersionSet Bad;
      std::vector<std::string> BadText;
      for (const NvccFacts *T : Toolkits)
        if (A.conditionHolds(T->Ver) && !nvccSupports(*T, A.Name)) {
          Bad = Bad.unionWith(VersionSet::exactly(T->Ver));
          BadText.push_back(T->Ver.str());
        }
      if (Bad.isEmpty())
        continue;
      auto G = find_if(Mine, [&](const Group &X) {
        return X.Cond == A.NvccCondText && X.Bad == Bad;
      });
      if (G == Mine.end())
        Mine.push_back({{A.Name}, A.NvccCondText, Bad, BadText, {}, {}});
      else
        G->Archs.push_back(A.Name);
    }
    for (Group &M : Mine) {
      auto G = find_if(Groups, [&](const Group &X) {
        return X.Archs == M.Archs && X.Cond == M.Cond && X.Bad == M.Bad;
      });
      if (G == Groups.end()) {
        Groups.push_back(std::move(M));
        G = std::prev(Groups.end());
      }
      G->Releases = G->Releases.unionWith(
          VersionSet::exactly(R.Ver.withEpoch(SourceEpoch)));
      G->Versions.push_back(R.VersionText);
    }
  }
  auto List = [](ArrayRef<std::string> Items) {
    if (Items.size() == 1)
      return Items.front();
    return join(Items.drop_back(), ", ") + " and " + Items.back();
  };
  for (const Group &G : Groups) {
    bool Many = G.Versions.size() > 1;
    std::string When =
        G.Cond.empty() ? "to every nvcc" : "to every nvcc " + G.Cond;
    std::string Text =
        formatv("{0} {1} {2} {3} {4}, and nvcc {5} cannot compile {6}",
                Pkg.Name, List(G.Versions), Many ? "pass" : "passes",
                List(G.Archs), When, List(G.BadText),
                G.Archs.size() > 1 ? "them" : "it")
            .str();
    VersionSet Can = VersionSet::any();
    for (const std::string &A : G.Archs)
      Can = Can.intersect(nvccRangeFor(A));
    std::vector<std::string> H;
    if (!Can.isEmpty() && !Can.isAny())
      H.push_back(formatv("build it with an nvcc {0} (it compiles {1})",
                          Can.str(), List(G.Archs))
                      .str());
    Out.push_back(fact({{P, TermT::positive(G.Releases)},
                        {NvccPkg.str(), TermT::positive(G.Bad)}},
                       Text, H));
  }
}

void FactProvider::packageFacts(const Package &Pkg,
                                std::vector<SolverFact> &Out) {
  if (Pkg.Kind == BuildKind::Python)
    return;
  passedArchFacts(Pkg, Out);
  std::string P = Pkg.canonicalName();
  VersionSet AllSource = epochRange(SourceEpoch);
  if (Pkg.Kind == BuildKind::TorchExtension && !F.Torch) {
    // Its build imports torch: without torch there is no source build.
    Out.push_back(fact({{P, TermT::positive(AllSource)}},
                       torchAbsentText() + ": " + Pkg.Name +
                           " is a torch extension (its build imports torch)",
                       {"install torch first (a CUDA build), then resolve "
                        "again"}));
  }
  if (Pkg.Kind == BuildKind::TorchExtension && F.Torch) {
    if (!F.Torch->Cuda && F.Torch->CudaUnknown) {
      Out.push_back(fact({{P, TermT::positive(AllSource)}},
                         "torch " + F.Torch->Ver.str() +
                             " names no CUDA version (no torch.cuda, no "
                             "+cuXYZ label): CUDA extensions cannot be "
                             "checked against it",
                         {"state torch.cuda (`cuda = \"12.8\"` in [torch] "
                          "of the facts file, or --set torch.cuda=12.8)"}));
    } else if (!F.Torch->Cuda) {
      Out.push_back(fact({{P, TermT::positive(AllSource)}},
                         "torch " + F.Torch->Ver.str() +
                             " is a CPU build (torch.version.cuda is None): "
                             "it cannot build CUDA extensions",
                         {"install a CUDA build of torch"}));
    } else {
      const Version &C = *F.Torch->Cuda;
      // Suggest installing a toolkit only when none of that major exists.
      bool HaveMajor = any_of(Toolkits, [&](const NvccFacts *T) {
        return T->Ver.major() == C.major();
      });
      Out.push_back(fact(
          {{P, TermT::positive(AllSource)},
           {NvccPkg.str(), TermT::negative(sameMajor(C.major()))}},
          formatv("torch {0} needs an nvcc {1}.x (torch rejects a different "
                  "CUDA major)",
                  F.Torch->Ver.str(), C.major())
              .str(),
          HaveMajor ? std::vector<std::string>{} : installNvccHints(C)));
      torchCompilerFacts(P, Out);
    }
  }
  for (const std::string &A : Targets) {
    VersionSet Releases;
    for (const Release &R : Pkg.Releases)
      if (R.Archs.empty() || releaseCompiles(R, A))
        Releases = Releases.unionWith(
            VersionSet::exactly(R.Ver.withEpoch(SourceEpoch)));
    if (Releases.isEmpty())
      continue;
    VersionSet Range = nvccRangeFor(A);
    std::string RangeText = Range.isEmpty() ? "" : Range.str();
    std::string Text = Range.isEmpty()
                           ? formatv("no known nvcc compiles the target {0}",
                                     describeTarget(A))
                                 .str()
                           : formatv("the target {0} needs nvcc {1}",
                                     describeTarget(A), RangeText)
                                 .str();
    std::vector<std::string> H;
    if (!Range.isEmpty())
      H.push_back(formatv("install an nvcc {0} for {1}", RangeText, A).str());
    Out.push_back(fact({{P, TermT::positive(Releases)},
                        {NvccPkg.str(), TermT::negative(Range)}},
                       Text, H));
    // A release that passes the target only for some nvcc versions does
    // not compile it with the others.
    for (const Release &R : Pkg.Releases) {
      auto E = find_if(R.Archs, [&](const Arch &X) { return X.Name == A; });
      if (E == R.Archs.end() || !E->NvccCond)
        continue;
      VersionSet Bad;
      for (const NvccFacts *T : Toolkits)
        if (!E->conditionHolds(T->Ver))
          Bad = Bad.unionWith(VersionSet::exactly(T->Ver));
      if (Bad.isEmpty())
        continue;
      Out.push_back(fact(
          {{P, TermT::positive(
                   VersionSet::exactly(R.Ver.withEpoch(SourceEpoch)))},
           {NvccPkg.str(), TermT::positive(Bad)}},
          formatv("{0} {1} compiles the target {2} only with nvcc {3}",
                  Pkg.Name, R.VersionText, describeTarget(A),
                  E->NvccCondText)
              .str(),
          {formatv("install an nvcc {0} for {1}", E->NvccCondText, A).str()}));
    }
  }
}

} // namespace cudadeps
