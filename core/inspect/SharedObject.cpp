//===- SharedObject.cpp - what an ELF shared object links and carries -----===//

#include "core/inspect/SharedObject.h"

#include "core/support/BoundedFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace llvm::object;

namespace cudadeps {

namespace {

Error cannotRead(StringRef Path, Error E) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot read " + Path + ": " +
                               toString(std::move(E)));
}

template <class ELFT>
Error readElf(const ELFFile<ELFT> &File, unsigned Parts, SharedObject &Out) {
  using Elf_Shdr = typename ELFT::Shdr;
  auto Sections = File.sections();
  if (!Sections)
    return Sections.takeError();

  const Elf_Shdr *DynSym = nullptr;
  const Elf_Shdr *Dynamic = nullptr;
  std::vector<const Elf_Shdr *> FatbinSections;
  for (const Elf_Shdr &S : *Sections) {
    if (S.sh_type == ELF::SHT_DYNSYM)
      DynSym = &S;
    else if (S.sh_type == ELF::SHT_DYNAMIC)
      Dynamic = &S;
    else if (Parts & ReadDeviceCode) {
      Expected<StringRef> Name = File.getSectionName(S);
      if (!Name)
        return Name.takeError();
      if (*Name == ".nv_fatbin" || *Name == "__nv_relfatbin")
        FatbinSections.push_back(&S);
    }
  }

  if (Dynamic) {
    auto Strings = File.getLinkAsStrtab(*Dynamic);
    if (!Strings)
      return Strings.takeError();
    // The section, bounds-checked; ELFFile::dynamicEntries() would trust
    // a damaged program header.
    auto Entries =
        File.template getSectionContentsAsArray<typename ELFT::Dyn>(*Dynamic);
    if (!Entries)
      return Entries.takeError();
    std::vector<std::string> RPath, RunPath;
    for (const auto &D : *Entries) {
      uint64_t Tag = D.getTag();
      if (Tag != ELF::DT_NEEDED && Tag != ELF::DT_RPATH &&
          Tag != ELF::DT_RUNPATH)
        continue;
      uint64_t Off = D.getVal();
      if (Off >= Strings->size())
        return createStringError(inconvertibleErrorCode(),
                                 "dynamic string offset out of range");
      StringRef Value(Strings->data() + Off);
      if (Tag == ELF::DT_NEEDED) {
        Out.Needed.push_back(Value.str());
        StringRef Major = Value;
        if (Major.consume_front("libcudart.so.")) {
          unsigned N = 0;
          if (!Major.split('.').first.getAsInteger(10, N))
            Out.CudartSoname = N;
        }
        continue;
      }
      SmallVector<StringRef, 4> Dirs;
      Value.split(Dirs, ':', -1, /*KeepEmpty=*/false);
      for (StringRef Dir : Dirs)
        (Tag == ELF::DT_RUNPATH ? RunPath : RPath).push_back(Dir.str());
    }
    Out.RunPaths = RunPath.empty() ? std::move(RPath) : std::move(RunPath);
  }

  if (DynSym) {
    auto Symbols = File.symbols(DynSym);
    if (!Symbols)
      return Symbols.takeError();
    auto Strings = File.getStringTableForSymtab(*DynSym);
    if (!Strings)
      return Strings.takeError();
    // Entry 0 is the null symbol; a table that lacks even that (sh_size 0)
    // has nothing to read.
    for (const auto &Sym :
         Symbols->empty() ? *Symbols : Symbols->drop_front()) {
      Expected<StringRef> Name = Sym.getName(*Strings);
      if (!Name)
        return Name.takeError();
      if (Name->empty())
        continue;
      uint8_t Binding = Sym.getBinding();
      if (Sym.isUndefined()) {
        if (Binding == ELF::STB_GLOBAL)
          Out.Undefined.push_back(Name->str());
        continue;
      }
      if ((Parts & ReadExports) &&
          (Binding == ELF::STB_GLOBAL || Binding == ELF::STB_WEAK ||
           Binding == ELF::STB_GNU_UNIQUE) &&
          (Sym.getVisibility() == ELF::STV_DEFAULT ||
           Sym.getVisibility() == ELF::STV_PROTECTED))
        Out.Exported.push_back(Name->str());
    }
  }

  for (const Elf_Shdr *S : FatbinSections) {
    if (S->sh_type == ELF::SHT_NOBITS)
      continue;
    auto Bytes = File.getSectionContents(*S);
    if (!Bytes)
      return Bytes.takeError();
    Expected<std::vector<FatbinEntry>> Entries =
        parseFatbin(toStringRef(*Bytes));
    if (!Entries) {
      Out.DeviceCodeError = toString(Entries.takeError());
      continue;
    }
    for (FatbinEntry &E : *Entries)
      Out.DeviceCode.push_back(std::move(E));
  }
  bool HasDeviceCode = !FatbinSections.empty();
  Out.StaticCudart = !Out.CudartSoname && HasDeviceCode;
  return Error::success();
}

/// Skips an Itanium <source-name> (<length><identifier>) at the front of
/// \p S and returns the identifier; "" when S does not start with one.
StringRef takeSourceName(StringRef &S) {
  size_t Digits = S.find_first_not_of("0123456789");
  if (Digits == 0 || Digits == StringRef::npos)
    return {};
  unsigned Len = 0;
  if (S.take_front(Digits).getAsInteger(10, Len) || Len > S.size() - Digits)
    return {};
  StringRef Name = S.substr(Digits, Len);
  S = S.drop_front(Digits + Len);
  return Name;
}

} // namespace

Expected<SharedObject> readSharedObject(StringRef Path, unsigned Parts) {
  // Mapped, not copied; a FIFO or a device in its place is refused.
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      mapBoundedFile(Path, MaxSharedObjectBytes, "shared object");
  if (!Buf)
    return Buf.takeError();
  StringRef Bytes = (*Buf)->getBuffer();
  if (!Bytes.startswith("\x7f"
                        "ELF") ||
      Bytes.size() < ELF::EI_NIDENT)
    return createStringError(inconvertibleErrorCode(),
                             Path + " is not an ELF file");
  SharedObject Out;
  Out.Path = Path.str();
  unsigned char Class = Bytes[ELF::EI_CLASS];
  unsigned char Data = Bytes[ELF::EI_DATA];
  auto Read = [&](auto Parsed) -> Error {
    if (!Parsed)
      return Parsed.takeError();
    return readElf(*Parsed, Parts, Out);
  };
  Error E = Error::success();
  if (Class == ELF::ELFCLASS64 && Data == ELF::ELFDATA2LSB)
    E = Read(ELFFile<ELF64LE>::create(Bytes));
  else if (Class == ELF::ELFCLASS64 && Data == ELF::ELFDATA2MSB)
    E = Read(ELFFile<ELF64BE>::create(Bytes));
  else if (Class == ELF::ELFCLASS32 && Data == ELF::ELFDATA2LSB)
    E = Read(ELFFile<ELF32LE>::create(Bytes));
  else if (Class == ELF::ELFCLASS32 && Data == ELF::ELFDATA2MSB)
    E = Read(ELFFile<ELF32BE>::create(Bytes));
  else
    E = createStringError(inconvertibleErrorCode(), "unknown ELF class");
  if (E)
    return cannotRead(Path, std::move(E));
  return Out;
}

std::string outerNamespace(StringRef Mangled) {
  StringRef S = Mangled;
  if (!S.consume_front("_Z"))
    return {};
  // vtable, VTT, typeinfo, typeinfo name, guard variable for ...
  for (StringRef Special : {"TV", "TT", "TI", "TS", "GV"})
    if (S.consume_front(Special))
      break;
  if (S.consume_front("N")) {
    while (!S.empty() &&
           (S.front() == 'r' || S.front() == 'V' || S.front() == 'K' ||
            S.front() == 'R' || S.front() == 'O'))
      S = S.drop_front();
  }
  if (S.startswith("St") || S.startswith("S")) // std:: and substitutions
    return {};
  return takeSourceName(S).str();
}

std::string demangledName(StringRef Mangled) {
  return llvm::demangle(Mangled.str());
}

} // namespace cudadeps
