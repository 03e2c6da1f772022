//===- FactProvider.h - manifests + machine facts as a PubGrub problem ----===//
//
// The solver's view of a resolve: which versions each package has, what each
// version depends on, and the machine's facts as external incompatibilities
// with their own wording. Facts enter as conda's virtual packages do: every
// toolkit found is a candidate version of `nvcc`, every host compiler a
// candidate of `host-compiler`, fixed facts (torch, python, driver, ...)
// single versions; an absent fact is a first-class cause.
//
// The encoding: a manifest package's strategy is its solver version's epoch
// (0 = prebuilt, 1 = source or no-build); a host compiler's family is the
// epoch of `host-compiler` (0 = gcc, 1 = clang). Messages never show it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_FACTPROVIDER_H
#define CUDADEPS_CORE_PLAN_FACTPROVIDER_H

#include "core/facts/Facts.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Manifest.h"
#include "core/manifest/ManifestCodec.h"
#include "core/plan/Resolver.h"
#include "core/solver/PackageSolver.h"
#include "core/support/NameIndex.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudadeps {

namespace encoding {

/// Solver-level package names of machine facts.
inline constexpr llvm::StringLiteral NvccPkg = "nvcc";
inline constexpr llvm::StringLiteral CompilerPkg = "host-compiler";

/// The build strategy of a manifest package version is its epoch.
inline constexpr uint64_t PrebuiltEpoch = 0;
inline constexpr uint64_t SourceEpoch = 1;
/// Host compiler families are epochs of host-compiler.
inline constexpr uint64_t GccEpoch = 0;
inline constexpr uint64_t ClangEpoch = 1;

Version epochStart(uint64_t E);
VersionSet epochRange(uint64_t E);
/// The same set with every version moved into epoch E (R must be epoch 0).
VersionSet lift(const VersionSet &R, uint64_t E);
/// The same, R's intervals moved in place.
VersionSet lift(VersionSet &&R, uint64_t E);
/// lift(R, A) ∪ lift(R, B), built as one set.
VersionSet liftTwice(const VersionSet &R, uint64_t A, uint64_t B);
/// The part of S in epoch E, moved back to epoch 0.
VersionSet project(const VersionSet &S, uint64_t E);
/// "<= N" over a major version: everything below N+1.
VersionSet upToMajor(unsigned N);
VersionSet sameMajor(uint64_t M);
std::string majorMinor(const Version &V);

/// A package's extra is its own solver package, "name[extra]" (as uv and
/// poetry encode extras): each version depends on exactly that version of
/// the package plus the extra's requirements.
std::string extraPackage(llvm::StringRef Package, llvm::StringRef Extra);
/// "name[extra]" -> {"name", "extra"}; a plain name -> {name, ""}.
std::pair<llvm::StringRef, llvm::StringRef> splitExtra(llvm::StringRef P);

} // namespace encoding

/// What the machine offers for a fixed fact package, or nullopt.
struct FixedFact {
  std::optional<Version> Ver;
  std::string Absent; // wording when absent
};

class FactProvider : public PackageProvider {
public:
  /// \p Exists answers "is this a manifest package?" without loading it
  /// (Lookup answers when it is empty).
  FactProvider(const ResolveRequest &Req, const PackageLookup &Lookup,
               const Facts &F, const KnowledgeBase &KB,
               std::vector<std::string> Targets,
               PackageExists Exists = nullptr);

  /// Replaces the root's requirement on a package by a solver-level set
  /// (used to ask "why not the newest release from source?").
  void pinRoot(const std::string &Package, VersionSet Set);

  // The root's requirements, in solver terms.
  std::vector<std::pair<std::string, VersionSet>> rootDeps() const;

  std::vector<Version> versions(const std::string &P) override;

  /// numberedDependencies(), each dependee by its name.
  PackageDependencies dependencies(const std::string &P,
                                   const Version &V) override;

  /// What the solver reads: the dependees by number (nameOf()), each name
  /// numbered once, as the requirements' keys are when their kinds are
  /// looked up (kindOf()).
  bool
  numberedDependencies(const std::string &P, const Version &V,
                       solver::NumberedDependencies<VersionSet> &Out) override;
  std::string nameOf(uint32_t Id) const override { return KindNames[Id]; }
  /// A pure-Python release's requirements read from the load cache's
  /// numbers (numberedFromIds()) are numbered ranges: the range mapped for
  /// its dependee's kind (mappedRange()), numbered by its place there.
  VersionSet rangeOf(uint32_t Number) const override;

  std::vector<SolverFact> facts(const std::string &P) override;

  // --- queries used after solving ---------------------------------------

  const NvccFacts *toolkit(const Version &V) const {
    for (const NvccFacts *T : Toolkits)
      if (T->Ver == V)
        return T;
    return nullptr;
  }
  const CompilerFacts *compiler(const Version &V) const {
    for (const auto &C : Compilers)
      if (C.first == V)
        return C.second;
    return nullptr;
  }
  const std::vector<const NvccFacts *> &toolkits() const { return Toolkits; }
  const std::vector<std::pair<Version, const CompilerFacts *>> &
  compilers() const {
    return Compilers;
  }
  const std::vector<SolverFact> &allFacts() const { return AllFacts; }
  /// A manifest package, or an extra of one.
  bool isManifestPackage(const std::string &P) const {
    return exists(encoding::splitExtra(P).first);
  }
  /// Whether P names a manifest package (its manifest need not be loaded).
  /// Remembered: every release's requirements ask it of their keys.
  bool exists(llvm::StringRef P) const {
    return kindOf(P, /*Load=*/false) != Kind::None;
  }
  const Package *package(const std::string &P) const { return Lookup(P); }

  /// The version of an installed Python distribution the facts list
  /// ([packages]), or nullopt.
  std::optional<Version> installedVersion(llvm::StringRef P) const {
    auto It = F.Packages.find(P.str());
    if (It == F.Packages.end())
      return std::nullopt;
    return It->second.Ver;
  }

  /// "the toolkits found are 12.1.105 (/usr/local/cuda-12.1/bin/nvcc), ..."
  std::string describeCandidates(llvm::StringRef P) const;
  const std::vector<std::string> &hintsFor(const std::string &Text) const {
    static const std::vector<std::string> None;
    auto It = Hints.find(Text);
    return It == Hints.end() ? None : It->second;
  }

  /// The archs a build compiles: target ∩ release ∩ what nvcc supports.
  std::vector<std::string> archsFor(const Release &Rel,
                                    const NvccFacts *Nvcc) const;

  std::optional<std::string> prebuiltUrl(const Package &Pkg,
                                         const Release &Rel) const;

  /// Solver-level name and set of a requirement KEY = RANGE.
  std::pair<std::string, VersionSet> mapRequirement(llvm::StringRef Key,
                                                    const VersionSet &R) const;
  std::pair<std::string, VersionSet> mapRequirement(llvm::StringRef Key,
                                                    VersionSet &&R) const;
  /// mapRequirement, plus one dependency per extra the requirement names.
  void
  addRequirement(const Requirement &R,
                 std::vector<std::pair<std::string, VersionSet>> &Out) const;
  void
  addRequirement(llvm::StringRef Key, const VersionSet &Range,
                 llvm::ArrayRef<llvm::StringRef> Extras,
                 std::vector<std::pair<std::string, VersionSet>> &Out) const;

private:
  static Version compilerVersion(const CompilerFacts &C);

  SolverFact fact(std::vector<std::pair<std::string, PackageTerm>> Terms,
                  std::string Text, std::vector<std::string> HintLines);

  FixedFact fixedFact(llvm::StringRef P) const;

  std::vector<std::string> intersectArchs(llvm::ArrayRef<std::string> Want,
                                          const Release &Rel) const;

  /// Whether Rel's arch list has A (or, for sm_90a/sm_100f, its base arch).
  static bool releaseCompiles(const Release &Rel, llvm::StringRef A);

  /// "torch is not installed in the Python environment (/usr/bin/python3,
  /// Python 3.12.3)".
  std::string torchAbsentText() const;

  bool nvccSupports(const NvccFacts &N, llvm::StringRef A) const;

  /// The toolkit versions that can compile A: the knowledge base's range,
  /// corrected by what each toolkit found says of itself.
  VersionSet nvccRangeFor(llvm::StringRef A) const;

  std::string describeTarget(llvm::StringRef A) const;

  /// Why the published binaries of Rel do not fit this machine; "" if one
  /// does.
  std::string prebuiltMismatch(const Package &Pkg, const Release &Rel) const;

  void nvccFacts(std::vector<SolverFact> &Out);

  std::vector<std::string> installNvccHints(const Version &Cuda) const;

  void packageFacts(const Package &Pkg, std::vector<SolverFact> &Out);

  /// torch's own host-compiler table (cpp_extension.py, the knowledge base's
  /// torch-host-compilers.toml): for each toolkit and each host compiler
  /// torch rejects with it, a fact against building \p P from source.
  void torchCompilerFacts(const std::string &P, std::vector<SolverFact> &Out);
  /// Releases that pass an arch to nvcc unconditionally (or under a
  /// condition) cannot be built by a toolkit that meets the condition but
  /// cannot compile the arch.
  void passedArchFacts(const Package &Pkg, std::vector<SolverFact> &Out);
  /// torch's host-compiler table for the installed torch, when torch applies
  /// it (a binary build on Linux); else null.
  const TorchHostCompilerRow *torchCompilerRow() const;
  /// "install a g++ that nvcc 12.8 accepts, e.g. `apt install g++-14`": the
  /// newest g++ below nvcc's limit (NvccMax) and torch's table, if it applies.
  std::string gccHint(const NvccFacts &T, uint64_t NvccMax) const;

  const ResolveRequest &Req;
  const PackageLookup &Lookup;
  PackageExists Exists;
  /// The package dependencies() read last, and the place in its release
  /// list of the release it read: the solver asks for one package's
  /// versions one after another, in order, so that the next one is found
  /// without a lookup by name or a walk of the list (a package the lookup
  /// has found keeps its place).
  struct LastRead {
    std::string Name;
    const Package *Pkg = nullptr;
    size_t Index = 0;
    /// The step from the release read before it to Index (1 or -1, as a
    /// size_t that wraps): a manifest lists its releases newest first or
    /// oldest first, and the solver reads them in one order.
    size_t Step = 1;
  };
  LastRead Last;
  const Package *lookupForDependencies(const std::string &P);
  using Numbered = std::vector<std::pair<uint32_t, VersionSet>>;
  /// mapRequirement() for a requirement read with the provider's memo
  /// (Shared), the name numbered: each distinct range mapped once per kind
  /// of key (MappedRanges).
  std::pair<uint32_t, VersionSet> mapNumbered(llvm::StringRef Key,
                                              RequirementRange &R) const;
  /// The slot of MappedRanges for a requirement on the package numbered Id
  /// (its kind's).
  unsigned packageSlot(uint32_t Id) const {
    Kind K = kindAt(Id);
    return K == Kind::None ? 2 : K == Kind::Python ? 3 : 4;
  }
  /// What mapRequirement() makes of Range, number SharedId in Ranges, for
  /// Key, whose slot is Slot: made once per range and slot.
  const VersionSet &mappedRange(llvm::StringRef Key, unsigned Slot,
                                uint32_t SharedId,
                                const VersionSet &Range) const;
  /// What numberedDependencies() reads of a registry's requirement table
  /// (core/manifest/RequirementIds.h), each key and range once: per key,
  /// its number (nameId()), NotPackage (a tool's key) or Unread; per range,
  /// its number in Ranges and the set (null: not read yet).
  struct TableMemo {
    static constexpr uint32_t Unread = ~uint32_t(0);
    static constexpr uint32_t NotPackage = ~uint32_t(1);
    std::shared_ptr<const RequirementTable> Of;
    std::vector<uint32_t> Keys;
    std::vector<std::pair<uint32_t, const VersionSet *>> Ranges;
  };
  std::vector<TableMemo> Tables; // one per registry directory read
  TableMemo &tableMemo(const std::shared_ptr<const RequirementTable> &T);
  /// numberedDependencies() of a pure-Python release from source whose
  /// requirements are numbers (ReleaseList::requirementIds()), into
  /// Out.ByNumber, each range by its number (rangeOf()); false,
  /// Out.ByNumber cleared, when a number is not in the table or a range of
  /// it does not decode (read the release then).
  bool numberedFromIds(const ReleaseList::RequirementNumbers &Ids,
                       solver::NumberedDependencies<VersionSet> &Out);
  /// addRequirement(), the names numbered.
  void addNumbered(llvm::StringRef Key, const VersionSet &Range,
                   llvm::ArrayRef<llvm::StringRef> Extras, Numbered &Out) const;
  /// addRequirement()'s dependencies, each given to Add(name, set).
  template <class AddF>
  void eachDependency(llvm::StringRef Key, const VersionSet &Range,
                      llvm::ArrayRef<llvm::StringRef> Extras, AddF Add) const;
  std::optional<size_t> releaseIndex(const Package &Pkg, const Version &V);
  /// What a name is: not asked yet (Unasked), not a manifest package, one
  /// whose manifest was not read yet (Unknown), a pure-Python one (its
  /// versions all from source, SourceEpoch, so that a range over it is
  /// lifted into that epoch alone: mapRequirement()) or another kind.
  enum class Kind : uint8_t { Unasked, None, Unknown, Python, Compiled };
  /// The number of name P (nameOf()), given on first sight.
  uint32_t nameId(llvm::StringRef P) const {
    auto [At, New] = KindIndex.intern<std::string_view>(
        std::string_view(P.data(), P.size()), KindNames);
    if (New)
      Kinds.push_back(Kind::Unasked);
    return At;
  }
  /// The kind of the name numbered At. With \p Load, a manifest package's
  /// manifest is read to tell its kind.
  Kind kindAt(uint32_t At, bool Load = true) const {
    if (Kinds[At] == Kind::Unasked) {
      llvm::StringRef P = KindNames[At];
      Kinds[At] = (Exists ? Exists(P) : Lookup(P) != nullptr) ? Kind::Unknown
                                                              : Kind::None;
    }
    if (Load && Kinds[At] == Kind::Unknown) {
      const Package *Pkg = Lookup(KindNames[At]);
      Kinds[At] =
          Pkg && Pkg->Kind == BuildKind::Python ? Kind::Python : Kind::Compiled;
    }
    return Kinds[At];
  }
  /// Remembered: every release's requirements ask it of their keys.
  Kind kindOf(llvm::StringRef P, bool Load = true) const {
    return kindAt(nameId(P), Load);
  }
  /// Each name numbered (the keys kindOf() was asked, the dependees
  /// numberedDependencies() names), its kind, and an index of the names
  /// (a lookup per requirement read: one probe of a flat array).
  mutable std::vector<std::string> KindNames;
  mutable std::vector<Kind> Kinds;
  mutable NameIndex<std::string> KindIndex;
  /// The numbers of NvccPkg and CompilerPkg.
  uint32_t NvccId = 0, CompilerId = 0;
  /// Every release's requirements read through it: a range decoded once.
  RangeMemo Ranges;
  /// The requirements numberedDependencies() reads last (their room kept).
  std::vector<RequirementRange> ReadRanges;
  /// Per range of Ranges (by its number there), what mapRequirement()
  /// makes of it for a key that is gcc, clang, or of Kind None, Python or
  /// Compiled.
  static constexpr unsigned MappedSlots = 5;
  mutable std::vector<std::array<std::optional<VersionSet>, MappedSlots>>
      MappedRanges;
  /// The number of MappedRanges[SharedId][Slot] (rangeOf()), made first.
  uint32_t mappedRangeNumber(llvm::StringRef Key, unsigned Slot,
                             uint32_t SharedId, const VersionSet &Range) const {
    mappedRange(Key, Slot, SharedId, Range);
    return SharedId * MappedSlots + Slot;
  }
  const Facts &F;
  const KnowledgeBase &KB;
  std::vector<std::string> Targets;
  std::vector<const NvccFacts *> Toolkits;
  std::vector<std::pair<Version, const CompilerFacts *>> Compilers;
  std::map<std::string, std::vector<std::string>> Hints;
  std::vector<SolverFact> AllFacts;
  std::map<std::string, VersionSet> RootPins;
};

/// The entries of Pkg.requirementsFor(Rel), in its (key) order, without
/// building the merged map: the package's requirements with the release's
/// own in place of those it names (views of the package's own).
std::vector<std::pair<llvm::StringRef, const Requirement *>>
requirementsOf(const Package &Pkg, const Release &Rel);

/// The same entries as the solver reads them (key, range, extras): a
/// release's requirements still encoded (the load cache's) are read without
/// being decoded whole (readRequirementRanges()), and stay encoded.
/// With \p Memo, the ranges read from bytes are the memo's (Shared).
std::vector<RequirementRange> requirementRangesOf(const Package &Pkg,
                                                  const Release &Rel,
                                                  RangeMemo *Memo = nullptr);
/// The same for release I of Pkg while it is kept as bytes
/// (ReleaseList::keptBody()), read from them without decoding the release,
/// into \p Out (cleared first, its room reused); false, and Out untouched,
/// once it is decoded (read that one).
bool requirementRangesInto(const Package &Pkg, size_t I, RangeMemo *Memo,
                           std::vector<RequirementRange> &Out);

} // namespace cudadeps

#endif
