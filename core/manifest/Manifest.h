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

#include "core/support/Diagnostic.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

#include "llvm/ADT/StringRef.h"

#include <map>
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
struct Requirement {
  std::string Key;       // canonical: "nvcc", "torch.cuda", "causal-conv1d"
  VersionSet Range;      // VersionSet::any() for "*" or a bare project name
  std::string Text;      // the specifier as written: ">=11.6", "*"
  std::vector<std::string> Extras; // project requirements only: "name[cuda]"
  SourceLocation Loc;    // the value (the string), where errors point
  SourceLocation KeyLoc; // the key ([requires]) or the string (project)
};

/// Requirements by canonical key.
using RequirementMap = std::map<std::string, Requirement>;

/// A CUDA architecture such as sm_90, sm_90a or sm_100f.
struct Arch {
  std::string Name;
  SourceLocation Loc;
  /// The compute capability number: 90 for sm_90a, 120 for sm_120.
  unsigned number() const;
};

/// The published binary matrix of one release ([release.prebuilt]). Each
/// list is a dimension; a binary exists for each combination (the package's
/// [prebuilt] url template names it).
struct PrebuiltMatrix {
  std::vector<Version> Torch;        // major.minor: 2.6, 2.10
  std::vector<Version> Cuda;         // CUDA major (or major.minor): 12
  std::vector<std::string> Python;   // wheel tags: cp312
  std::vector<bool> Cxx11Abi;        // empty = the ABI is not in the name
  std::vector<std::string> Platform; // linux_x86_64, linux_aarch64
  SourceLocation Loc;
};

struct Release {
  Version Ver;
  std::string VersionText;           // as written: "1.6.1.post4"
  SourceLocation Loc;                // the `version` value
  std::optional<Located> Tag;        // overrides the package's tag template
  std::optional<Located> Commit;     // pins the commit the tag must resolve to
  RequirementMap Requires;           // overrides [requires] key by key
  std::vector<Arch> Archs;           // empty = not declared
  std::optional<PrebuiltMatrix> Prebuilt;
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
  std::vector<Release> Releases; // in file order
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
  std::string Text; // the source text, for diagnostics of later checks
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
