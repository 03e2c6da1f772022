//===- Manifest.h - the data model of manifest schema 1 -------------------===//
//
// A manifest (DESIGN.md section 4) describes a package (how to fetch, build
// or download it, and what it requires), a project (what a user wants), or
// both. ManifestLoader.h turns TOML into these structs and validates them;
// everything here is already checked: versions and specifiers are parsed,
// template placeholders are known, archs are well formed.
//
// Every value that a later stage may point at (a requirement, a release, an
// arch, a template) keeps its SourceLocation so the solver and the builder
// can report "file:line:col" too.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_MANIFEST_H
#define CUDADEPS_CORE_MANIFEST_MANIFEST_H

#include "core/support/Boxed.h"
#include "core/support/Deferred.h"
#include "core/support/Diagnostic.h"
#include "core/support/SharedBytes.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"

#include <atomic>
#include <compare>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// The only schema this cudadeps reads.
inline constexpr int64_t ManifestSchema = 1;

/// A string with the place it was written.
struct Located {
  std::string Value;
  SourceLocation Loc;
};

/// One requirement: KEY = "SPECIFIER" in a [requires] table or one PEP
/// 508-style string of a project's `requires` list.
///
/// Keys name facts or packages:
///  - fact keys (knownFactKeys()): nvcc, driver, driver.cuda, torch,
///    torch.cuda, python, gcc, clang, triton, compute_capability;
///  - anything else is a package name: another manifest's package or an
///    installed Python distribution (a [packages] fact). Package keys are
///    stored in canonical form (canonicalPackageName()).
/// A dotted key whose first part is a fact namespace (torch., driver., ...)
/// must be a known fact: 'torch.cdua' is an error with a suggestion, and so
/// is a fact with something glued on ('nvcc_version'; a package of that name
/// is written 'nvcc-version'). A key that is a package name close to a fact
/// ('pyhton') loads with a warning. In TOML, write "torch.cuda" quoted when
/// `torch` itself is also a key of the same table.
///
/// A package key may name extras of that package, as PEP 508 does:
/// `"fla-core[cuda]" = "==0.6.0"` in a [requires] table, "name[cuda]" in a
/// project's list. The key is then the package's canonical name and the
/// extras are kept (canonical too) in Extras.
struct Requirement {
  std::string Key;       // canonical: "nvcc", "torch.cuda", "causal-conv1d"
  VersionSet Range;      // VersionSet::any() for "*" or a bare project name
  std::string Text;      // the specifier as written: ">=11.6", "*"
  std::vector<std::string> Extras; // "name[cuda]": {"cuda"}
  SourceLocation Loc;    // the value (the string), where errors point
  SourceLocation KeyLoc; // the key ([requires]) or the string (project)
};

/// Requirements by canonical key.
using RequirementMap = std::map<std::string, Requirement>;

/// A CUDA architecture such as sm_90, sm_90a or sm_100f.
///
/// In a release's `archs` an arch is written either as a plain string (the
/// release compiles it when the chosen nvcc can, and skips it otherwise) or
/// as a table that says what setup.py really passes:
///   { arch = "sm_80" }                     passed with every nvcc
///   { archs = ["sm_100", "sm_120"], nvcc = ">=12.8" }
///                                          passed only by such an nvcc
/// A table entry is Passed: the build hands it to nvcc whenever its condition
/// holds, so an nvcc that meets the condition but cannot compile the arch
/// fails the build (the release then needs another nvcc). The condition is
/// tested against nvcc's major.minor, the `release X.Y` that setup.py parses
/// from `nvcc -V` (12.9.86 is 12.9, so "<=12.9" holds for it).
struct Arch {
  std::string Name;
  SourceLocation Loc;
  /// Written as a table: passed to nvcc whenever NvccCond holds.
  bool Passed = false;
  /// The nvcc versions (major.minor) for which it is passed; none = always.
  std::optional<VersionSet> NvccCond = {};
  std::string NvccCondText = {}; // as written: ">=13.0"
  /// The compute capability number: 90 for sm_90a, 120 for sm_120.
  unsigned number() const;
  /// True when the build passes (or, for a plain entry, may compile) this
  /// arch with nvcc \p Nvcc: no condition, or major.minor of Nvcc in it.
  bool conditionHolds(const Version &Nvcc) const;
};

/// The published binary matrix of one release ([release.prebuilt]). Each
/// list is a dimension; a binary exists for each combination (the package's
/// [prebuilt] url template names it).
/// The dimensions of a prebuilt matrix, and of one of its `exclude` entries.
struct MatrixDims {
  std::vector<Version> Torch;        // major.minor: 2.6, 2.10
  std::vector<Version> Cuda;         // CUDA major (or major.minor): 12
  std::vector<std::string> Python;   // wheel tags: cp312
  std::vector<bool> Cxx11Abi;        // empty = the ABI is not in the name
  std::vector<std::string> Platform; // linux_x86_64, linux_aarch64
};

/// One `exclude` entry of a prebuilt matrix: the combinations that match
/// every dimension it names were not built (a CI matrix `exclude:` entry, or
/// a combination its build logic cannot produce). Empty lists match all.
struct MatrixExclude : MatrixDims {
  SourceLocation Loc;
};

struct PrebuiltMatrix : MatrixDims {
  std::vector<MatrixExclude> Exclude;
  /// The release (tag) the binaries are attached to when it is not the
  /// release's own git tag: {release_tag} in the [prebuilt] url.
  std::optional<Located> Tag;
  SourceLocation Loc;

  /// True when an `exclude` entry removes this combination. An absent value
  /// (no python, unknown ABI) matches only entries that do not name it.
  bool excludes(const Version &TorchMM, uint64_t CudaMajor,
                llvm::StringRef PythonTag, std::optional<bool> Abi,
                llvm::StringRef PlatformTag) const;
};

/// Extras of a package (PEP 508 `name[extra]`): what each one adds.
using ExtrasMap = std::map<std::string, RequirementMap>;

struct Release {
  Version Ver;
  std::string VersionText;           // as written: "1.6.1.post4"
  SourceLocation Loc;                // the `version` value
  // The three below are absent from most releases: boxed, a pointer each.
  Boxed<Located> Tag;    // overrides the package's tag template
  Boxed<Located> Commit; // pins the commit the tag must resolve to
  /// Where its values were read: the files and the tag or build
  /// ("setup.py and publish.yaml at v1.6.1.post4"). lint warns without it.
  Boxed<Located> Source;
  /// Overrides [requires] key by key. From the load cache it stays encoded
  /// until first read (a solve reads a few releases of each package).
  Deferred<RequirementMap> Requires;
  ExtrasMap Extras;                  // [release.extras.NAME]: replaces [extras.NAME]
  std::vector<Arch> Archs;           // empty = not declared
  Boxed<PrebuiltMatrix> Prebuilt; // absent from most releases
};

struct RequirementTable;
/// Set in a release's offset among its list's requirement numbers
/// (RequirementTableBuilder::add()): it has none.
inline constexpr uint32_t NoRequirementIds = uint32_t(1) << 31;
/// A word of those numbers: four bytes, little-endian, anywhere.
inline uint32_t requirementWord(const char *At) {
  return llvm::support::endian::read32le(At);
}

/// A package's releases, in file order: a vector of Release, except that
/// from the load cache each release's version is decoded at once and the
/// rest of it when the release is first read. A solve lists the versions of
/// every release of each package it weighs and reads a few of them; the
/// rest of a release (its text, locations, requirements, archs) was most of
/// what decoding a large registry cost, and of its memory. version(I) and
/// find() read only versions. Reading is const and safe from several
/// threads; anything that changes the list, or reads it through a non-const
/// reference, decodes every release first.
class ReleaseList {
public:
  /// Decodes Bytes (what the codec wrote after a release's version) into
  /// Out, whose Ver is already set; false when they do not decode.
  using DecodeFn = bool (*)(llvm::StringRef Bytes, const SourcePath &File,
                            const SourcePath &CacheFile,
                            const std::shared_ptr<const void> &Owner,
                            Release &Out);

  ReleaseList() = default;
  ReleaseList(const ReleaseList &O);
  ReleaseList &operator=(const ReleaseList &O);
  ReleaseList(ReleaseList &&O) noexcept = default;
  ReleaseList &operator=(ReleaseList &&O) noexcept = default;
  ~ReleaseList();

  size_t size() const { return Kept ? Kept->Versions.size() : Items.size(); }
  bool empty() const { return size() == 0; }
  /// Release I's version, without decoding the rest of it.
  const Version &version(size_t I) const {
    return Kept ? Kept->Versions[I] : Items[I].Ver;
  }
  /// The release with version V (compared as Release::Ver is), or null;
  /// only that release is decoded.
  const Release *find(const Version &V) const;
  /// The place of the release with version V, or nullopt; nothing decoded.
  std::optional<size_t> indexOf(const Version &V) const;

  /// A release still kept as the bytes of all but its version (keep()):
  /// the bytes, what keeps them alive and where they were read.
  struct KeptBody {
    llvm::StringRef Bytes;
    std::shared_ptr<const void> Owner;
    SourcePath File, CacheFile;
  };
  /// Release I as its bytes while it is not decoded yet (a reader of a
  /// part of it can read that part alone), else nullopt.
  std::optional<KeptBody> keptBody(size_t I) const;

  const Release &operator[](size_t I) const {
    return Kept ? keptAt(I) : Items[I];
  }
  Release &operator[](size_t I) { return all()[I]; }
  const Release &front() const { return (*this)[0]; }
  const Release &back() const { return (*this)[size() - 1]; }
  Release &front() { return all().front(); }
  Release &back() { return all().back(); }
  void reserve(size_t N) { all().reserve(N); }
  void push_back(Release R) { all().push_back(std::move(R)); }
  void clear() {
    Kept.reset();
    Items.clear();
  }

  template <class L, class R> class Iter {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Release;
    using difference_type = std::ptrdiff_t;
    using pointer = R *;
    using reference = R &;
    Iter() = default;
    Iter(L *List, size_t I) : List(List), I(I) {}
    R &operator*() const { return (*List)[I]; }
    R *operator->() const { return &(*List)[I]; }
    R &operator[](difference_type N) const { return (*List)[I + N]; }
    Iter &operator++() { return ++I, *this; }
    Iter operator++(int) { return Iter(List, I++); }
    Iter &operator--() { return --I, *this; }
    Iter operator--(int) { return Iter(List, I--); }
    Iter &operator+=(difference_type N) { return I += N, *this; }
    Iter &operator-=(difference_type N) { return I -= N, *this; }
    Iter operator+(difference_type N) const { return Iter(List, I + N); }
    Iter operator-(difference_type N) const { return Iter(List, I - N); }
    difference_type operator-(const Iter &O) const {
      return difference_type(I) - difference_type(O.I);
    }
    bool operator==(const Iter &O) const { return I == O.I; }
    auto operator<=>(const Iter &O) const { return I <=> O.I; }

  private:
    L *List = nullptr;
    size_t I = 0;
  };
  using const_iterator = Iter<const ReleaseList, const Release>;
  using iterator = Iter<ReleaseList, Release>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  iterator begin() {
    all();
    return {this, 0};
  }
  iterator end() { return {this, all().size()}; }

  /// Keeps each release as its version and the bytes of the rest (views
  /// into what Owner keeps alive), decoded by Decode when first read.
  void keep(std::vector<Version> Versions, std::vector<llvm::StringRef> Bytes,
            std::shared_ptr<const void> Owner, SourcePath File,
            SourcePath CacheFile, DecodeFn Decode);
  /// Release I's requirements as (key, range) numbers into Table, a
  /// table of its registry directory's keys and ranges
  /// (core/manifest/RequirementIds.h), in their map's order: Count pairs
  /// of four-byte words read in place (each number is checked against the
  /// table where it is read).
  struct RequirementNumbers {
    const std::shared_ptr<const RequirementTable> &Table;
    const char *Pairs;
    size_t Count;
    uint32_t key(size_t P) const { return requirementWord(Pairs + 8 * P); }
    uint32_t range(size_t P) const {
      return requirementWord(Pairs + 8 * P + 4);
    }
  };
  /// Those of release I where the list is kept as bytes and was given
  /// them (keepRequirementIds()), else nullopt (also where its offsets do
  /// not read).
  std::optional<RequirementNumbers> requirementIds(size_t I) const {
    if (!Kept || Kept->Ids.empty())
      return std::nullopt;
    const char *W = Kept->Ids.data();
    const size_t N = Kept->Versions.size();
    uint32_t From = requirementWord(W + 4 * (1 + I));
    uint32_t To = requirementWord(W + 4 * (2 + I)) & ~NoRequirementIds;
    if ((From & NoRequirementIds) || From > To ||
        To > requirementWord(W + 4 * (N + 1)))
      return std::nullopt;
    return RequirementNumbers{Kept->IdTable, W + 4 * (N + 2) + 8 * size_t(From),
                              To - From};
  }
  /// Gives a list kept as bytes its releases' numbers \p Ids in \p Table
  /// (as RequirementTableBuilder::add() wrote them; releaseNumbersFit()
  /// checked them for this many releases); nothing otherwise.
  void keepRequirementIds(std::shared_ptr<const RequirementTable> Table,
                          llvm::StringRef Ids);
  /// Whether release I is still kept as bytes (for tests).
  bool isEncoded(size_t I) const;
  /// Asks the processor to fetch the start of each release still kept as
  /// bytes (where its requirements are) ahead of its reading: a reader of
  /// every release of a package in turn then waits for memory about once,
  /// not once per release. Nothing is read or decoded.
  void prefetch() const;

private:
  struct KeptReleases {
    std::vector<Version> Versions;
    std::vector<llvm::StringRef> Bytes;
    /// Per release: decoded, or null while it is bytes.
    std::unique_ptr<std::atomic<Release *>[]> Decoded;
    std::shared_ptr<const void> Owner;
    SourcePath File, CacheFile;
    DecodeFn Decode = nullptr;
    /// keepRequirementIds()' (Ids empty without them).
    std::shared_ptr<const RequirementTable> IdTable;
    llvm::StringRef Ids;
    ~KeptReleases();
  };

  std::vector<Release> Items;         // every release, when none is kept
  std::unique_ptr<KeptReleases> Kept; // else this

  const Release &keptAt(size_t I) const;
  /// Every release decoded into Items (Kept dropped), for a change.
  std::vector<Release> &all();
};

enum class BuildKind { TorchExtension, Python, CMake, Command };

/// "torch-extension", "python", "cmake", "command".
llvm::StringRef buildKindName(BuildKind K);
std::optional<BuildKind> parseBuildKind(llvm::StringRef Name);

/// [build]: knobs for the build step. Strings are templates.
struct BuildSpec {
  std::vector<Located> Command;       // argv for build = "command"
  std::vector<Located> CMakeArgs;     // extra configure args for "cmake"
  std::map<std::string, Located> Env; // [build.env]
  bool Submodules = true;             // fetch git submodules too
  /// Memory one compile job needs, used to size MAX_JOBS (nvcc is memory
  /// bound); absent = the builder's default.
  std::optional<double> MemoryPerJobGib;
  SourceLocation Loc;
};

/// A declared alternative when the package cannot be had; always says what
/// it costs.
struct Fallback {
  std::string Name;
  std::string Summary;
  std::string Impact;
  std::map<std::string, Located> Env; // what to set to select it at runtime
  RequirementMap Requires;            // what the fallback itself needs
  SourceLocation Loc;                 // the `name` value
};

struct Package {
  std::string Name; // as written
  SourceLocation NameLoc;
  std::string Summary;
  std::optional<Located> Git;
  /// Tag template, e.g. "v{version}"; defaults to "v{version}".
  Located Tag;
  BuildKind Kind = BuildKind::TorchExtension; // `build = "..."`
  SourceLocation KindLoc;
  RequirementMap Requires;      // [requires], for every release
  ExtrasMap Extras;             // [extras.NAME], for every release
  ReleaseList Releases;         // in file order
  BuildSpec Build;              // [build]
  std::optional<Located> PrebuiltUrl; // [prebuilt] url template
  std::vector<Fallback> Fallbacks;
  SourceLocation Loc;           // the [package] header

  /// The canonical name, used for registry lookups and requirement keys.
  std::string canonicalName() const;
  /// [requires] with the release's overrides applied.
  RequirementMap requirementsFor(const Release &R) const;
  /// The release with this version, or nullptr.
  const Release *findRelease(const Version &V) const;
  /// The tag of a release: its own tag, else the package template.
  const Located &tagTemplateFor(const Release &R) const;
  /// The git tag a release is checked out at: its tag template expanded
  /// with its version as written ("v{version}" -> "v1.6.1"; a release with
  /// tag = "v1.6.1.post4" gives that).
  std::string gitTagFor(const Release &R) const;
  /// The GitHub release its binaries are attached to ({release_tag}):
  /// [release.prebuilt] tag, else gitTagFor(R).
  std::string releaseTagFor(const Release &R) const;
  /// The extras of a release: [extras] with [release.extras] entries
  /// replacing whole extras.
  ExtrasMap extrasFor(const Release &R) const;
};

struct Project {
  std::string Name;
  SourceLocation NameLoc;
  RequirementMap Requires;
  /// Registry directories named by the project, resolved against the
  /// directory of the manifest; searched after --registry.
  std::vector<Located> Registry;
  std::vector<Arch> TargetArchs; // [target] archs; empty = detect
  SourceLocation Loc;
};

struct Manifest {
  std::string File; // path as given to the loader ("<input>" for text)
  /// The source text, for diagnostics of later checks. From the load cache
  /// a view into the cache file (a large registry's texts are megabytes,
  /// read only where a diagnostic quotes a line).
  SharedBytes Text;
  std::optional<Package> Pkg;
  std::optional<Project> Proj;
  /// Warnings found while loading (an error makes loading fail instead).
  std::vector<Diagnostic> Warnings;
};

/// PEP 503 normalisation: lowercase, runs of '-', '_', '.' become '-'.
std::string canonicalPackageName(llvm::StringRef Name);

/// True for a PEP 508 distribution name: letters, digits, '-', '_', '.',
/// starting and ending with a letter or digit.
bool isValidPackageName(llvm::StringRef Name);

/// True for sm_NN, sm_NNa, sm_NNf (two or three digits).
bool isValidArch(llvm::StringRef Name);

/// What an invalid arch spelling most likely means, as a hint: "did you mean
/// 'sm_90'? (write the arch, not the compute capability)" for "9.0", "90",
/// "sm90", "compute_90" or "SM_90"; a general description otherwise.
std::string archHint(llvm::StringRef Text);

/// The fact keys a requirement may name (DESIGN.md section 3/4).
llvm::ArrayRef<llvm::StringRef> knownFactKeys();
bool isFactKey(llvm::StringRef Key);

} // namespace cudadeps

#endif
