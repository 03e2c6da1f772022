//===- probe_cache.cpp - fuzz probe-cache entries ---------------------------===//
//
// ProbeCache::lookup() reads <dir>/probes/<name>.json, which anything with
// write access to the cache directory may have written. The input is
// written there (a private temporary directory) and looked up for a probe
// named "fuzz"; whatever lookup returns must be a usable answer.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/plugin/ProbeCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace cudadeps;

namespace {

class FuzzProbe : public Probe {
public:
  llvm::StringRef name() const override { return "fuzz"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &) override {
    return ProbeAnswer::notPresent("never probed");
  }
};

/// Lookups run nothing; a command would be a bug.
class NoRunner : public ProcessRunner {
public:
  llvm::Expected<ProcessResult> run(const ProcessRequest &) override {
    fuzz::fail("a probe-cache lookup ran a command", "");
  }
};

std::string &cacheDir() {
  static std::string Dir;
  return Dir;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("cudadeps-fuzz-cache", Dir))
    fuzz::fail("cannot create a temporary directory", EC.message());
  llvm::SmallString<128> Probes(Dir);
  llvm::sys::path::append(Probes, "probes");
  if (std::error_code EC = llvm::sys::fs::create_directories(Probes))
    fuzz::fail("cannot create the probes directory", EC.message());
  cacheDir() = std::string(Dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  ProbeCache Cache(cacheDir());
  FuzzProbe P;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Cache.entryPath(P.name()), EC);
    if (EC)
      fuzz::fail("cannot write the cache entry", EC.message());
    OS << fuzz::asText(Data, Size);
  }
  MapEnvironment Env;
  NoRunner Runner;
  ProbeContext Ctx{Env, Runner};
  std::optional<ProbeAnswer> A = Cache.lookup(P, Ctx);
  if (A && A->What == ProbeAnswer::Kind::NotPresent && !(A->Found == Facts()))
    fuzz::fail("a cached not-present answer carries facts", "");
  return 0;
}
