//===- LockFile.h - cudadeps.lock: a decision and what it rested on --------===//
//
// `cudadeps resolve MANIFEST --lock FILE` records, in TOML:
//   - the decision for each package (version, strategy, nvcc, host compiler,
//     archs, prebuilt URL, fallback) and where its source comes from (git
//     URL, tag, the commit the manifest pins);
//   - the facts the decisions rest on, each with its source;
//   - the SHA-256 of every manifest and knowledge-base file read.
// `--locked` computes the same for this machine now and reports every
// difference (drift) precisely: which fact, old → new, from which source;
// which manifest changed; which part of which decision.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_LOCKFILE_H
#define CUDADEPS_CORE_PLAN_LOCKFILE_H

#include "core/facts/Facts.h"
#include "core/plan/Resolution.h"
#include "core/plan/Resolver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cudadeps {

/// The lock format this cudadeps writes and reads.
inline constexpr int64_t LockVersion = 1;

/// Lock files larger than this are refused before reading.
inline constexpr uint64_t MaxLockBytes = 16 << 20;

struct LockedFile {
  std::string Path; // relative to the lock's directory, or "{data}/..."
  std::string Sha256;
  bool operator==(const LockedFile &) const = default;
};

struct LockedFact {
  std::string Key;    // "nvcc /usr/local/cuda/bin/nvcc", "torch.cuda"
  std::string Value;  // "13.0.88"
  std::string Source; // "probed by nvcc from ..."
};

struct LockedPackage {
  std::string Name;
  std::string Version; // empty for a fallback or unsatisfiable package
  std::string Strategy;
  std::string Nvcc, NvccVersion;         // source builds that compile
  std::string Compiler, CompilerVersion; // "gcc 12.2.0"
  std::vector<std::string> Archs;
  std::string PrebuiltUrl;
  std::string Fallback;
  std::string Git, Tag, Commit; // where the source comes from
  bool operator==(const LockedPackage &) const = default;
};

struct Lock {
  int64_t Version = LockVersion;
  std::string Cudadeps; // the version that wrote it
  std::string Status;   // "resolved", "fallback"
  std::vector<std::string> TargetArchs;
  std::string TargetOrigin;
  std::vector<LockedFile> Files;
  std::vector<LockedPackage> Packages;
  std::vector<LockedFact> Facts;
};

/// The facts a lock records, in a stable order: driver, GPUs, toolkits,
/// compilers, python, torch, the Python distributions named in
/// \p PackageKeys, the platform (without CPU and memory sizes, which only
/// size MAX_JOBS).
std::vector<LockedFact> lockedFacts(const Facts &F,
                                    llvm::ArrayRef<std::string> PackageKeys);

/// The lock of a resolution. \p Files are the manifest and knowledge-base
/// files read (hashed here); paths under \p LockDir are stored relative to
/// it, paths under \p DataDir (the installed manifests) as
/// "{data}/cuda/toolkits.toml", so a lock reads the same on every machine.
llvm::Expected<Lock> makeLock(const Resolution &R, const Facts &F,
                              const PackageLookup &Lookup,
                              llvm::ArrayRef<std::string> Files,
                              llvm::StringRef LockDir, llvm::StringRef DataDir);

/// The TOML text of \p L (stable: the same lock gives the same bytes).
std::string writeLock(const Lock &L);

/// Reads a lock file's text; errors are located (file:line:col).
llvm::Expected<Lock> parseLock(llvm::StringRef Text, llvm::StringRef File);

/// Every difference between the lock (\p Locked) and now (\p Now), one
/// sentence each: "nvcc /usr/local/cuda/bin/nvcc: 13.0.88 → 13.1.0
/// (probed by nvcc from ...)". Empty when nothing drifted.
std::vector<std::string> lockDrift(const Lock &Locked, const Lock &Now);

} // namespace cudadeps

#endif
