//===- FakeToolkit.h - fake toolkits, compilers and trees for probe tests -===//
//
// Probe tests build small fake machines in a fresh temporary directory:
// TempDir owns it and removes it; writeFile creates parents and can mark a
// file executable; makeFakeToolkit lays out <root>/bin/nvcc (a shell script
// answering --version in nvcc's real five-line format and --list-gpu-code)
// and <root>/include/crt/host_config.h with nvcc's real limit lines.
// ProbeRunOf runs one probe against such a machine with real processes.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_SUPPORT_FAKETOOLKIT_H
#define CUDADEPS_TESTS_SUPPORT_FAKETOOLKIT_H

#include "core/plugin/Probe.h"
#include "core/support/Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace cudadeps::test {

/// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
public:
  explicit TempDir(llvm::StringRef Prefix = "cudadeps-probe") {
    llvm::SmallString<256> P;
    if (!llvm::sys::fs::createUniqueDirectory(Prefix, P)) {
      // Real path: /tmp may itself be a symlink, and probes resolve paths.
      llvm::SmallString<256> Real;
      if (!llvm::sys::fs::real_path(P, Real))
        P = Real;
      Path = std::string(P.str());
    }
  }
  ~TempDir() {
    // std::filesystem, not llvm::sys::fs::remove_directories: that one
    // leaves the FIFOs hostile-input tests make (and so their directories).
    std::error_code EC;
    if (!Path.empty())
      std::filesystem::remove_all(Path, EC);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return Path; }
  bool ok() const { return !Path.empty(); }
  /// path() + "/" + Rel.
  std::string sub(llvm::StringRef Rel) const {
    llvm::SmallString<256> P(Path);
    llvm::sys::path::append(P, Rel);
    return std::string(P.str());
  }

private:
  std::string Path;
};

inline bool makeDirs(llvm::StringRef Dir) {
  return !llvm::sys::fs::create_directories(Dir);
}

/// Writes \p Text to \p Path, creating parent directories.
inline bool writeFile(llvm::StringRef Path, llvm::StringRef Text,
                      bool Executable = false) {
  if (!makeDirs(llvm::sys::path::parent_path(Path)))
    return false;
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    if (EC)
      return false;
    Out << Text;
  }
  if (Executable)
    return !llvm::sys::fs::setPermissions(
        Path, llvm::sys::fs::perms(0755));
  return true;
}

inline bool makeSymlink(llvm::StringRef Target, llvm::StringRef Link) {
  if (!makeDirs(llvm::sys::path::parent_path(Link)))
    return false;
  return !llvm::sys::fs::create_link(Target, Link);
}

struct FakeToolkitSpec {
  std::string Release = "12.8";  // "release 12.8"
  std::string Full = "12.8.93";  // "V12.8.93"
  unsigned GnuAbove = 14;        // `#if __GNUC__ > 14`
  unsigned ClangAtLeast = 20;    // `__clang_major__ >= 20`
  std::vector<std::string> Archs = {"sm_75", "sm_80", "sm_86", "sm_89",
                                    "sm_90", "sm_100", "sm_120"};
  /// When set, nvcc sleeps this long before answering anything.
  unsigned SleepSeconds = 0;
  /// When set, <root>/version.json names this cuda_nvcc version.
  std::string VersionJson = {};
  /// Put host_config.h under targets/x86_64-linux/include/crt instead.
  bool HeaderUnderTargets = false;
};

inline std::string fakeNvccScript(const FakeToolkitSpec &S) {
  std::string Script = "#!/bin/sh\n";
  if (S.SleepSeconds)
    Script += "exec /bin/sleep " + std::to_string(S.SleepSeconds) + "\n";
  Script += "case \"$1\" in\n--version)\n"
            "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
            "echo 'Copyright (c) 2005-2025 NVIDIA Corporation'\n"
            "echo 'Built on Fri_Feb_21_20:23:50_PST_2025'\n"
            "echo 'Cuda compilation tools, release " + S.Release + ", V" + S.Full + "'\n"
            "echo 'Build cuda_" + S.Release + ".r" + S.Release + "/compiler.35583870_0'\n"
            ";;\n--list-gpu-code)\n";
  for (const std::string &A : S.Archs)
    Script += "echo " + A + "\n";
  Script += ";;\n*) echo \"nvcc fatal   : Unknown option '$1'\" >&2; exit 1;;\nesac\n";
  return Script;
}

inline std::string fakeHostConfig(unsigned GnuAbove, unsigned ClangAtLeast) {
  std::string G = std::to_string(GnuAbove), C = std::to_string(ClangAtLeast);
  return "#if defined(__GNUC__)\n\n"
         "#if __GNUC__ > " + G + "\n\n"
         "#error -- unsupported GNU version! gcc versions later than " + G +
         " are not supported! The nvcc flag '-allow-unsupported-compiler' can "
         "be used to override this version check\n\n"
         "#endif /* __GNUC__ > " + G + " */\n\n"
         "#if defined(__HORIZON__)\n"
         "#if (__clang_major__ >= 99) || (__clang_major__ < 3)\n"
         "#error -- unsupported HOS clang version! The version must be must be "
         "less than 99 and greater than 3.2 .\n"
         "#endif\n#endif /* __HORIZON__  */\n\n"
         "#if defined(__clang__) && !defined(__ibmxl_vrm__)\n\n"
         "#if (__clang_major__ >= " + C + ") || (__clang_major__ < 3) || "
         "((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n"
         "#error -- unsupported clang version! clang version must be less than " +
         C + " and greater than 3.2 .\n\n"
         "#endif\n\n#endif\n\n#endif /* __GNUC__ */\n";
}

/// Lays out a toolkit at \p Root; returns the path of its nvcc.
inline std::string makeFakeToolkit(llvm::StringRef Root,
                                   const FakeToolkitSpec &S = {}) {
  llvm::SmallString<256> Nvcc(Root);
  llvm::sys::path::append(Nvcc, "bin", "nvcc");
  writeFile(Nvcc, fakeNvccScript(S), /*Executable=*/true);
  llvm::SmallString<256> Header(Root);
  if (S.HeaderUnderTargets)
    llvm::sys::path::append(Header, "targets", "x86_64-linux");
  llvm::sys::path::append(Header, "include", "crt", "host_config.h");
  writeFile(Header, fakeHostConfig(S.GnuAbove, S.ClangAtLeast));
  if (!S.VersionJson.empty()) {
    llvm::SmallString<256> Json(Root);
    llvm::sys::path::append(Json, "version.json");
    writeFile(Json, "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
                    "      \"version\" : \"" + S.Release + ".20250221\"\n   },\n"
                    "   \"cuda_nvcc\" : {\n      \"name\" : \"CUDA NVCC\",\n"
                    "      \"version\" : \"" + S.VersionJson + "\"\n   }\n}\n");
  }
  return std::string(Nvcc.str());
}

/// Runs the probe that \p Create makes with a fake environment, real
/// processes and an optional fake SysRoot; a probe Error fails the test.
template <std::unique_ptr<Probe> (*Create)()> struct ProbeRunOf {
  MapEnvironment Env;
  RealProcessRunner Runner;
  std::string SysRoot;
  std::chrono::milliseconds Timeout{10000};

  ProbeAnswer run() {
    ProbeContext Ctx{Env, Runner, Timeout, SysRoot};
    llvm::Expected<ProbeAnswer> A = Create()->probe(Ctx);
    if (!A) {
      ADD_FAILURE() << llvm::toString(A.takeError());
      return {};
    }
    return std::move(*A);
  }
};

/// One line per element, for failure messages.
inline std::string joined(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &X : V)
    S += X + "\n";
  return S;
}

} // namespace cudadeps::test

#endif
