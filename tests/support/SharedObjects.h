//===- SharedObjects.h - shared objects built by tests at test time -------===//
//
// Tests of the shared-object and fatbinary readers build their fixtures
// when they run: stub libraries with the host g++ (`libc10.so` exporting a
// chosen symbol), objects carrying a hand-made fatbinary in `.nv_fatbin`,
// real CUDA extensions compiled by the real nvcc (/usr/local/cuda), and
// FakeSitePackages: a virtualenv with torch and one extension package.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_SUPPORT_SHAREDOBJECTS_H
#define CUDADEPS_TESTS_SUPPORT_SHAREDOBJECTS_H

#include "core/facts/Facts.h"
#include "tests/support/FakeToolkit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::test {

struct CommandResult {
  int Code = -1;
  std::string Output; // stdout and stderr
};

/// Runs \p Argv (Argv[0] a path or a name on $PATH) and captures its output.
inline CommandResult runCommand(const std::vector<std::string> &Argv) {
  CommandResult R;
  llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName(Argv[0]);
  if (!Program) {
    R.Output = Argv[0] + ": not found";
    return R;
  }
  llvm::SmallString<128> OutPath;
  llvm::sys::fs::createTemporaryFile("cudadeps-cmd", "txt", OutPath);
  std::vector<llvm::StringRef> Args(Argv.begin(), Argv.end());
#if LLVM_VERSION_MAJOR >= 16
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                OutPath.str(), OutPath.str()};
#else
  llvm::Optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                 OutPath.str(), OutPath.str()};
#endif
  std::string Err;
  R.Code = llvm::sys::ExecuteAndWait(*Program, Args, llvm::None, Redirects, 300,
                                     0, &Err);
  auto Buf = llvm::MemoryBuffer::getFile(OutPath);
  R.Output = (Buf ? (*Buf)->getBuffer().str() : std::string()) + Err;
  llvm::sys::fs::remove(OutPath);
  return R;
}

/// Compiles \p Source (C++) into the shared library \p Out with the host
/// g++; \p Extra are more arguments (-L, -l). Returns "" or the error.
inline std::string buildSharedLibrary(const TempDir &Dir, llvm::StringRef Out,
                                      llvm::StringRef Source,
                                      std::vector<std::string> Extra = {}) {
  // The source stays out of the library's directory (which tests scan).
  std::string Src =
      Dir.sub("src/" + llvm::sys::path::filename(Out).str() + ".cpp");
  if (!writeFile(Src, Source))
    return "cannot write " + Src;
  std::vector<std::string> Argv{"g++", "-shared", "-fPIC",
                                "-o",  Out.str(), Src};
  for (std::string &A : Extra)
    Argv.push_back(std::move(A));
  CommandResult R = runCommand(Argv);
  return R.Code == 0 ? std::string() : "g++ failed: " + R.Output;
}

/// One fatbinary entry for fatbinBytes.
struct FakeEntry {
  bool Ptx = false;
  unsigned Arch = 90;
  uint64_t Flags = 0x11; // 64-bit, linux
  std::string Payload = "payload";
};

/// A fatbinary laid out as nvcc writes it (Fatbin.h).
inline std::string fatbinBytes(const std::vector<FakeEntry> &Entries) {
  auto Put = [](std::string &S, uint64_t V, unsigned Bytes) {
    for (unsigned I = 0; I < Bytes; ++I)
      S += char((V >> (8 * I)) & 0xff);
  };
  std::string Body;
  for (const FakeEntry &E : Entries) {
    unsigned HeaderSize = E.Ptx ? 80 : 64;
    std::string Payload = E.Payload;
    Payload.resize((Payload.size() + 7) / 8 * 8, '\0');
    Put(Body, E.Ptx ? 1 : 2, 2);
    Put(Body, 0x101, 2);
    Put(Body, HeaderSize, 4);
    Put(Body, Payload.size(), 8);
    Put(Body, 0, 4); // compressed size
    Put(Body, 0, 4);
    Put(Body, E.Ptx ? 0 : 8, 2); // minor (PTX ISA 9.0; cubin format 1.8)
    Put(Body, E.Ptx ? 9 : 1, 2); // major
    Put(Body, E.Arch, 4);
    Put(Body, 0, 4);
    Put(Body, 0, 4);
    Put(Body, E.Flags, 8);
    Body.append(HeaderSize - 48, '\0');
    Body += Payload;
  }
  std::string Out;
  Put(Out, 0xBA55ED50, 4);
  Put(Out, 1, 2);
  Put(Out, 16, 2);
  Put(Out, Body.size(), 8);
  return Out + Body;
}

/// C++ source of a byte array placed in the `.nv_fatbin` section.
inline std::string fatbinSectionSource(llvm::StringRef Bytes) {
  std::string S = "__attribute__((section(\".nv_fatbin\"), used, aligned(8)))\n"
                  "const unsigned char cudadeps_fatbin[] = {";
  for (unsigned char C : Bytes)
    S += std::to_string(C) + ",";
  return S + "};\n";
}

/// The real nvcc, or "" (then tests skip with the reason).
inline std::string realNvcc() {
  const char *Nvcc = "/usr/local/cuda/bin/nvcc";
  return llvm::sys::fs::can_execute(Nvcc) ? Nvcc : "";
}

/// A .cu source calling c10::stubVersion() from a kernel launcher.
inline const char *extensionSource() {
  return "namespace c10 { int stubVersion(); }\n"
         "__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n"
         "extern \"C\" int launch(float *x) {\n"
         "  scale<<<1, 32>>>(x);\n"
         "  return c10::stubVersion();\n"
         "}\n";
}

/// Compiles extensionSource() into \p Out with the real nvcc for
/// \p Gencode, linking -lc10 from \p StubDir. Returns "" or the error.
inline std::string buildCudaExtension(const TempDir &Dir, llvm::StringRef Out,
                                      llvm::StringRef StubDir,
                                      std::vector<std::string> Gencode,
                                      bool SharedCudart) {
  std::string Src =
      Dir.sub("src/" + llvm::sys::path::filename(Out).str() + ".cu");
  if (!writeFile(Src, extensionSource()))
    return "cannot write " + Src;
  std::vector<std::string> Argv{realNvcc()};
  for (std::string &G : Gencode)
    Argv.push_back(std::move(G));
  for (const char *A : {"-shared", "-Xcompiler", "-fPIC"})
    Argv.push_back(A);
  if (SharedCudart) {
    Argv.push_back("--cudart");
    Argv.push_back("shared");
  }
  for (std::string A : std::vector<std::string>{"-o", Out.str(), Src,
                                                "-L" + StubDir.str(), "-lc10"})
    Argv.push_back(A);
  CommandResult R = runCommand(Argv);
  return R.Code == 0 ? std::string() : "nvcc failed: " + R.Output;
}

inline Version parsedVersion(llvm::StringRef S) {
  llvm::Expected<Version> V = Version::parse(S);
  EXPECT_TRUE(bool(V)) << S.str();
  return V ? *V : Version();
}

inline constexpr const char *StubWithSymbol =
    "namespace c10 { int stubVersion() { return 1; } }\n";
inline constexpr const char *StubWithoutSymbol =
    "namespace c10 { int otherFunction() { return 2; } }\n";

/// A fake Python environment (a virtualenv: pyvenv.cfg, lib/python3.12):
/// site-packages with torch (version.py and a stub torch/lib/libc10.so) and one
/// extension package "ext-pkg" whose _C.so needs c10::stubVersion(), links
/// libcudart.so.12 and carries GPU code, listed in its dist-info RECORD.
struct FakeSitePackages {
  TempDir Dir{"cudadeps-doctor"};
  std::string Site = Dir.sub("lib/python3.12/site-packages");
  std::string DistInfo;
  Facts F;

  /// Builds it; "" or the error.
  std::string build(llvm::StringRef DistName, const std::string &Fatbin,
                    llvm::StringRef TorchVersion = "2.11.0+cu128",
                    llvm::StringRef TorchCuda = "12.8") {
    if (!Dir.ok())
      return "no temp dir";
    if (!writeFile(Dir.sub("pyvenv.cfg"),
                   "home = /usr/bin\nversion = 3.12.3\n"))
      return "cannot write pyvenv.cfg";
    std::string TorchDir = Site + "/torch";
    if (!writeFile(TorchDir + "/version.py",
                   "__version__ = '" + TorchVersion.str() + "'\ncuda = '" +
                       TorchCuda.str() + "'\n"))
      return "cannot write version.py";
    std::string Lib = TorchDir + "/lib";
    makeDirs(Lib);
    std::string E = buildSharedLibrary(Dir, Lib + "/libc10.so", StubWithSymbol);
    if (!E.empty())
      return E;
    std::string Cudart = Dir.sub("cudart/libcudart.so.12");
    makeDirs(Dir.sub("cudart"));
    E = buildSharedLibrary(Dir, Cudart,
                           "extern \"C\" int cudaStub() { return 0; }\n",
                           {"-Wl,-soname,libcudart.so.12"});
    if (!E.empty())
      return E;
    std::string Ext = Site + "/ext_pkg/_C.so";
    makeDirs(Site + "/ext_pkg");
    E = buildSharedLibrary(
        Dir, Ext,
        "namespace c10 { int stubVersion(); }\n"
        "extern \"C\" int entry() { return c10::stubVersion(); }\n" +
            (Fatbin.empty() ? std::string() : fatbinSectionSource(Fatbin)),
        {"-Wl,--no-as-needed", "-L" + Lib, "-lc10", Cudart});
    if (!E.empty())
      return E;
    DistInfo = Site + "/" + DistName.str();
    if (!writeFile(DistInfo + "/METADATA",
                   "Metadata-Version: 2.1\nName: ext-pkg\nVersion: 1.0\n\n") ||
        !writeFile(DistInfo + "/RECORD",
                   "ext_pkg/__init__.py,,\n\"ext_pkg/_C.so\",sha256=x,1\n" +
                       llvm::sys::path::filename(DistInfo).str() +
                       "/RECORD,,\n"))
      return "cannot write the dist-info";
    TorchFacts T;
    T.Ver = parsedVersion(TorchVersion);
    T.Cuda = parsedVersion(TorchCuda);
    T.Cxx11Abi = true;
    T.From = Source::probed("cuda-runtime", TorchDir + "/version.py");
    F.Torch = T;
    F.Packages["ext-pkg"] =
        PackageFact{parsedVersion(DistName.split('-').second.rsplit('.').first),
                    Source::probed("cuda-runtime", DistInfo)};
    return "";
  }

  std::string replaceLibc10(llvm::StringRef Source) {
    return buildSharedLibrary(Dir, Site + "/torch/lib/libc10.so", Source);
  }
};

} // namespace cudadeps::test

#endif
