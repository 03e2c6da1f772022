//===- PlatformProbe.h - the "platform" probe: OS, CPU, memory, glibc -----===//
//
// os and arch from the process triple (llvm::sys::getProcessTriple: what
// cudadeps itself runs as, which is what it builds for), CPUs usable by this
// process (sched_getaffinity, else std::thread::hardware_concurrency), memory
// from <SysRoot>/proc/meminfo MemTotal, glibc from gnu_get_libc_version().
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_PLATFORM_PLATFORMPROBE_H
#define CUDADEPS_PLUGINS_PLATFORM_PLATFORMPROBE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>

namespace cudadeps {

std::unique_ptr<Probe> createPlatformProbe();

namespace platform {
/// GiB from /proc/meminfo's "MemTotal:  131891532 kB"; nullopt when absent.
std::optional<double> memTotalGib(llvm::StringRef MemInfo);
} // namespace platform

} // namespace cudadeps

#endif
