#include "core/inspect/SharedObject.h"

#include "tests/support/RunCli.h"
#include "tests/support/SharedObjects.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

SharedObject readOk(llvm::StringRef Path, unsigned Parts) {
  llvm::Expected<SharedObject> SO = readSharedObject(Path, Parts);
  if (!SO) {
    ADD_FAILURE() << llvm::toString(SO.takeError());
    return {};
  }
  return std::move(*SO);
}

TEST(SharedObjectTest, NeededUndefinedAndExportedSymbols) {
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  std::string Stub = Dir.sub("libc10.so");
  ASSERT_EQ(
      buildSharedLibrary(Dir, Stub,
                         "namespace c10 { int stubVersion() { return 1; }\n"
                         "__attribute__((visibility(\"hidden\"))) int "
                         "hidden() { return 2; } }\n"),
      "");
  std::string Ext = Dir.sub("ext.so");
  ASSERT_EQ(buildSharedLibrary(
                Dir, Ext,
                "namespace c10 { int stubVersion(); }\n"
                "extern \"C\" __attribute__((weak)) int optional_hook();\n"
                "extern \"C\" int entry() { return c10::stubVersion() + "
                "(optional_hook ? optional_hook() : 0); }\n" +
                    fatbinSectionSource(fatbinBytes({{false, 80}})),
                {"-L" + Dir.path(), "-lc10", "-Wl,-rpath," + Dir.path()}),
            "");

  SharedObject S = readOk(Stub, ReadExports);
  EXPECT_TRUE(llvm::is_contained(S.Exported, "_ZN3c1011stubVersionEv"));
  EXPECT_FALSE(llvm::is_contained(S.Exported, "_ZN3c106hiddenEv"));

  SharedObject E = readOk(Ext, ReadDeviceCode);
  EXPECT_TRUE(llvm::is_contained(E.Needed, "libc10.so"));
  EXPECT_EQ(E.RunPaths, std::vector<std::string>{Dir.path()});
  EXPECT_TRUE(llvm::is_contained(E.Undefined, "_ZN3c1011stubVersionEv"));
  EXPECT_FALSE(llvm::is_contained(E.Undefined, "optional_hook")); // weak
  EXPECT_TRUE(E.Exported.empty()); // not asked for
  ASSERT_EQ(E.DeviceCode.size(), 1u);
  EXPECT_EQ(E.DeviceCode[0].name(), "sm_80");
  EXPECT_FALSE(E.CudartSoname);
  EXPECT_TRUE(E.StaticCudart); // device code, and no libcudart needed
}

TEST(SharedObjectTest, NotElfAndTruncatedAreErrors) {
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  ASSERT_TRUE(writeFile(Dir.sub("text.so"), "not an object"));
  llvm::Expected<SharedObject> T = readSharedObject(Dir.sub("text.so"), 0);
  ASSERT_FALSE(T);
  EXPECT_NE(llvm::toString(T.takeError()).find("is not an ELF file"),
            std::string::npos);
  ASSERT_TRUE(writeFile(Dir.sub("cut.so"), std::string("\x7f"
                                                       "ELF\x02\x01\x01",
                                                       7) +
                                               std::string(40, '\x41')));
  llvm::Expected<SharedObject> C = readSharedObject(Dir.sub("cut.so"), 0);
  ASSERT_FALSE(C);
  EXPECT_NE(llvm::toString(C.takeError()).find("cannot read"),
            std::string::npos);
  llvm::Expected<SharedObject> M = readSharedObject(Dir.sub("missing.so"), 0);
  ASSERT_FALSE(M);
  llvm::consumeError(M.takeError());
}

// Every prefix of a real shared object, and copies with bytes flipped in
// its headers and tables, read as a value or an error: never a crash and
// never a read outside the file (the suite also runs under ASan).
TEST(SharedObjectTest, DamagedObjectsNeverCrash) {
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  std::string Lib = Dir.sub("libx.so");
  ASSERT_EQ(buildSharedLibrary(
                Dir, Lib,
                "namespace c10 { int stubVersion(); }\n"
                "extern \"C\" int entry() { return c10::stubVersion(); }\n" +
                    fatbinSectionSource(
                        fatbinBytes({{false, 80}, {true, 90, 0x100011}}))),
            "");
  std::string Bytes = readWhole(Lib);
  ASSERT_GT(Bytes.size(), 1000u);
  std::string Damaged = Dir.sub("damaged.so");
  unsigned Errors = 0, Read = 0;
  auto Try = [&](const std::string &Contents) {
    ASSERT_TRUE(writeFile(Damaged, Contents));
    llvm::Expected<SharedObject> SO =
        readSharedObject(Damaged, ReadExports | ReadDeviceCode);
    if (SO)
      ++Read;
    else {
      ++Errors;
      llvm::consumeError(SO.takeError());
    }
  };
  for (size_t N = 0; N < Bytes.size(); N += 211)
    Try(Bytes.substr(0, N));
  // The ELF and program headers lead the file, the section headers end it.
  auto Flip = [&](size_t At) {
    std::string Flipped = Bytes;
    Flipped[At] = char(~Flipped[At]);
    Try(Flipped);
  };
  for (size_t At = 0; At < 512; At += 7)
    Flip(At);
  for (size_t At = Bytes.size() - 1600; At < Bytes.size(); At += 11)
    Flip(At);
  EXPECT_GT(Errors, 0u);
  EXPECT_GT(Read, 0u);
}

// A dynamic symbol table of size 0 lacks even the null symbol: read as a
// library that exports nothing, not a walk before the table's start.
TEST(SharedObjectTest, EmptyDynamicSymbolTable) {
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  std::string Lib = Dir.sub("libx.so");
  ASSERT_EQ(
      buildSharedLibrary(Dir, Lib, "extern \"C\" int entry() { return 1; }\n"),
      "");
  std::string Bytes = readWhole(Lib);
  auto Read = [&](size_t At, unsigned Width) -> uint64_t {
    uint64_t V = 0;
    for (unsigned I = 0; I < Width && At + I < Bytes.size(); ++I)
      V |= uint64_t(uint8_t(Bytes[At + I])) << (8 * I);
    return V;
  };
  ASSERT_EQ(Bytes[4], 2); // ELFCLASS64
  ASSERT_EQ(Bytes[5], 1); // little-endian
  uint64_t ShOff = Read(0x28, 8), ShEntSize = Read(0x3A, 2),
           ShNum = Read(0x3C, 2);
  ASSERT_LE(ShOff + ShEntSize * ShNum, Bytes.size());
  bool Cut = false;
  for (uint64_t I = 0; I < ShNum; ++I) {
    size_t Header = ShOff + I * ShEntSize;
    if (Read(Header + 4, 4) != 11) // SHT_DYNSYM
      continue;
    for (unsigned B = 0; B < 8; ++B)
      Bytes[Header + 32 + B] = 0; // sh_size
    Cut = true;
  }
  ASSERT_TRUE(Cut);
  std::string Damaged = Dir.sub("empty-dynsym.so");
  ASSERT_TRUE(writeFile(Damaged, Bytes));
  SharedObject S = readOk(Damaged, ReadExports | ReadDeviceCode);
  EXPECT_TRUE(S.Exported.empty());
  EXPECT_TRUE(S.Undefined.empty());
}

TEST(SharedObjectTest, OuterNamespaceAndDemangling) {
  EXPECT_EQ(outerNamespace("_ZN3c105ErrorC2ENS_14SourceLocationESs"), "c10");
  EXPECT_EQ(outerNamespace("_ZNK2at10TensorBase8data_ptrIfEEPT_v"), "at");
  EXPECT_EQ(outerNamespace("_ZTVN5torch8autograd4NodeE"), "torch");
  EXPECT_EQ(outerNamespace("_ZN3c104cuda9SetDeviceEi"), "c10");
  EXPECT_EQ(outerNamespace("_ZNSt6vectorIiSaIiEE9push_backERKi"), "");
  EXPECT_EQ(outerNamespace("_ZSt4cout"), "");
  EXPECT_EQ(outerNamespace("THPVariable_Wrap"), "");
  EXPECT_EQ(outerNamespace("_Z9somethingv"), "something");
  EXPECT_EQ(outerNamespace("_ZN99short"), ""); // length past the end
  EXPECT_EQ(demangledName("_ZN3c104cuda9SetDeviceEi"),
            "c10::cuda::SetDevice(int)");
  EXPECT_EQ(demangledName("plain_c"), "plain_c");
}

// The fatbinary reader against the real nvcc's output: an extension compiled
// for one arch against a stub libc10.so.
TEST(SharedObjectTest, RealNvccExtension) {
  std::string Nvcc = realNvcc();
  if (Nvcc.empty())
    GTEST_SKIP() << "no nvcc at /usr/local/cuda/bin/nvcc";
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  ASSERT_EQ(
      buildSharedLibrary(Dir, Dir.sub("libc10.so"),
                         "namespace c10 { int stubVersion() { return 1; } }\n"),
      "");
  std::string Ext = Dir.sub("ext.so");
  ASSERT_EQ(buildCudaExtension(Dir, Ext, Dir.path(),
                               {"-gencode", "arch=compute_90,code=sm_90"},
                               /*SharedCudart=*/false),
            "");
  SharedObject E = readOk(Ext, ReadDeviceCode);
  EXPECT_EQ(E.DeviceCodeError, "");
  EXPECT_TRUE(llvm::is_contained(E.Undefined, "_ZN3c1011stubVersionEv"));
  ASSERT_FALSE(E.DeviceCode.empty());
  EXPECT_EQ(entryNames(E.DeviceCode, FatbinEntry::Kind::Cubin),
            std::vector<std::string>{"sm_90"});
  EXPECT_TRUE(entryNames(E.DeviceCode, FatbinEntry::Kind::Ptx).empty());
  EXPECT_TRUE(E.StaticCudart); // nvcc links cudart statically by default
  EXPECT_FALSE(E.CudartSoname);

  // The toolkit note names the release nvcc reports.
  CommandResult V = runCommand({Nvcc, "--version"});
  size_t At = V.Output.find("release ");
  ASSERT_NE(At, std::string::npos) << V.Output;
  std::string Release =
      V.Output.substr(At + 8, V.Output.find(',', At) - At - 8);
  for (const FatbinEntry &F : E.DeviceCode) {
    if (!F.Compressed) {
      EXPECT_EQ(F.ToolkitRelease, Release);
    }
  }

  // cuobjdump, where the toolkit has it, lists the same code.
  std::string Cuobjdump = "/usr/local/cuda/bin/cuobjdump";
  if (llvm::sys::fs::can_execute(Cuobjdump)) {
    CommandResult L = runCommand({Cuobjdump, "--list-elf", Ext});
    EXPECT_NE(L.Output.find("sm_90"), std::string::npos) << L.Output;
  } else {
    std::cout << "[ note ] no cuobjdump in /usr/local/cuda/bin: checked "
                 "against the -gencode nvcc was given\n";
  }
}

TEST(SharedObjectTest, RealNvccSharedCudartAndPtx) {
  std::string Nvcc = realNvcc();
  if (Nvcc.empty())
    GTEST_SKIP() << "no nvcc at /usr/local/cuda/bin/nvcc";
  TempDir Dir("cudadeps-inspect");
  ASSERT_TRUE(Dir.ok());
  ASSERT_EQ(
      buildSharedLibrary(Dir, Dir.sub("libc10.so"),
                         "namespace c10 { int stubVersion() { return 1; } }\n"),
      "");
  std::string Ext = Dir.sub("ext.so");
  ASSERT_EQ(
      buildCudaExtension(Dir, Ext, Dir.path(),
                         {"-gencode", "arch=compute_80,code=[sm_80,compute_80]",
                          "-gencode", "arch=compute_90a,code=sm_90a"},
                         /*SharedCudart=*/true),
      "");
  SharedObject E = readOk(Ext, ReadDeviceCode);
  EXPECT_EQ(entryNames(E.DeviceCode, FatbinEntry::Kind::Cubin),
            (std::vector<std::string>{"sm_80", "sm_90a"}));
  EXPECT_EQ(entryNames(E.DeviceCode, FatbinEntry::Kind::Ptx),
            std::vector<std::string>{"compute_80"});
  ASSERT_TRUE(E.CudartSoname);
  CommandResult V = runCommand({Nvcc, "--version"});
  size_t At = V.Output.find("release ");
  ASSERT_NE(At, std::string::npos);
  EXPECT_EQ(std::to_string(*E.CudartSoname),
            V.Output.substr(At + 8, V.Output.find('.', At) - At - 8));
  EXPECT_FALSE(E.StaticCudart);
}

} // namespace
