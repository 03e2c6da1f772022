//===- PlatformProbe.cpp - the "platform" probe: OS, CPU, memory, glibc ---===//

#include "plugins/platform/PlatformProbe.h"

#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Support/Host.h"

#include <cmath>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

namespace cudadeps {
namespace platform {

std::optional<double> memTotalGib(llvm::StringRef MemInfo) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  MemInfo.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("MemTotal:"))
      continue;
    Line = Line.trim();
    auto [Number, Unit] = Line.split(' ');
    unsigned long long Kb = 0;
    if (Number.getAsInteger(10, Kb) || Unit.trim() != "kB")
      return std::nullopt;
    double Gib = static_cast<double>(Kb) / (1024.0 * 1024.0);
    return std::round(Gib * 10.0) / 10.0; // one decimal is plenty
  }
  return std::nullopt;
}

} // namespace platform

namespace {

static std::optional<unsigned> usableCpus() {
#if defined(__linux__)
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0 && CPU_COUNT(&Set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&Set));
#endif
  unsigned N = std::thread::hardware_concurrency();
  return N ? std::optional<unsigned>(N) : std::nullopt;
}

class PlatformProbe : public Probe {
public:
  llvm::StringRef name() const override { return "platform"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override {
    ProbeAnswer Answer;
    PlatformFacts P;
    llvm::Triple T(llvm::sys::getProcessTriple());
    P.Os = llvm::Triple::getOSTypeName(T.getOS()).str();
    if (T.isOSDarwin())
      P.Os = "macos";
    P.Arch = T.getArchName().str();
    P.Cpus = usableCpus();
    std::string MemInfo = probes::underRoot(Ctx.SysRoot, "/proc/meminfo");
    if (std::optional<std::string> Text = probes::readTextFile(MemInfo, 64 << 10))
      P.MemoryGib = platform::memTotalGib(*Text);
    std::string From = "process triple " + T.str() + ", " + MemInfo;
#if defined(__GLIBC__)
    llvm::Expected<Version> Glibc = Version::parse(gnu_get_libc_version());
    if (Glibc)
      P.Glibc = std::move(*Glibc);
    else
      Answer.Warnings.push_back("cannot read the glibc version: " +
                                llvm::toString(Glibc.takeError()));
    From += ", gnu_get_libc_version()";
#endif
    P.From = Source::probed("platform", From);
    Answer.Found.Platform = std::move(P);
    Answer.What = ProbeAnswer::Kind::Found;
    return Answer;
  }
};

} // namespace

std::unique_ptr<Probe> createPlatformProbe() {
  return std::make_unique<PlatformProbe>();
}

} // namespace cudadeps
