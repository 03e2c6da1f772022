//===- Fatbin.cpp - the GPU code inside a CUDA fatbinary ------------------===//

#include "core/inspect/Fatbin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

#include <algorithm>

using namespace llvm;

namespace cudadeps {

namespace {

constexpr uint32_t FatbinMagic = 0xBA55ED50;
constexpr size_t FatbinHeaderSize = 16;
constexpr size_t EntryHeaderMin = 64;

constexpr uint16_t KindPtx = 1;
constexpr uint16_t KindCubin = 2;

constexpr uint64_t FlagArchSpecific = 0x100000;
constexpr uint64_t FlagFamilySpecific = 0x200000;
constexpr uint64_t FlagCompressedLz4 = 0x2000;
constexpr uint64_t FlagCompressedZstd = 0x8000;

uint16_t read16(StringRef B, size_t Off) {
  return support::endian::read16le(B.data() + Off);
}
uint32_t read32(StringRef B, size_t Off) {
  return support::endian::read32le(B.data() + Off);
}
uint64_t read64(StringRef B, size_t Off) {
  return support::endian::read64le(B.data() + Off);
}

Error malformed(size_t Off, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "malformed fatbinary at offset " + Twine(Off) +
                               ": " + What);
}

/// "13.0" from the "Cuda compilation tools, release 13.0, V13.0.88" string
/// nvcc's tools leave in a cubin's .note.nv.tkinfo.
std::string toolkitReleaseIn(StringRef Payload) {
  static constexpr StringRef Marker = "Cuda compilation tools, release ";
  // The note sits near the front of a cubin; big cubins are not scanned
  // to their end.
  size_t At = Payload.take_front(1 << 20).find(Marker);
  if (At == StringRef::npos)
    return {};
  StringRef Rest = Payload.substr(At + Marker.size(), 16);
  size_t Len = Rest.find_first_not_of("0123456789.");
  return Rest.take_front(Len).rtrim('.').str();
}

} // namespace

std::string FatbinEntry::name() const {
  std::string S = What == Kind::Ptx ? "compute_" : "sm_";
  S += std::to_string(Arch);
  if (Variant)
    S += Variant;
  return S;
}

Expected<std::vector<FatbinEntry>> parseFatbin(StringRef Section) {
  std::vector<FatbinEntry> Entries;
  size_t Off = 0;
  while (Off < Section.size()) {
    if (Section[Off] == 0) { // padding between fatbinaries
      ++Off;
      continue;
    }
    if (Section.size() - Off < FatbinHeaderSize)
      return malformed(Off, "truncated header");
    if (read32(Section, Off) != FatbinMagic)
      return malformed(Off, "no fatbinary magic");
    uint16_t HeaderSize = read16(Section, Off + 6);
    uint64_t Size = read64(Section, Off + 8);
    if (HeaderSize < FatbinHeaderSize || HeaderSize > Section.size() - Off ||
        Size > Section.size() - Off - HeaderSize)
      return malformed(Off, "size past the end of the section");
    size_t End = Off + HeaderSize + Size;
    size_t E = Off + HeaderSize;
    while (E < End) {
      if (End - E < EntryHeaderMin)
        return malformed(E, "truncated entry header");
      uint16_t Kind = read16(Section, E);
      uint32_t EntryHeaderSize = read32(Section, E + 4);
      uint64_t PayloadSize = read64(Section, E + 8);
      if (EntryHeaderSize < EntryHeaderMin || EntryHeaderSize > End - E ||
          PayloadSize > End - E - EntryHeaderSize)
        return malformed(E, "entry size past the end of its fatbinary");
      if (Kind == KindPtx || Kind == KindCubin) {
        FatbinEntry Entry;
        Entry.What =
            Kind == KindPtx ? FatbinEntry::Kind::Ptx : FatbinEntry::Kind::Cubin;
        Entry.Arch = read32(Section, E + 28);
        uint64_t Flags = read64(Section, E + 40);
        if (Flags & FlagArchSpecific)
          Entry.Variant = 'a';
        else if (Flags & FlagFamilySpecific)
          Entry.Variant = 'f';
        Entry.Compressed =
            (Flags & (FlagCompressedLz4 | FlagCompressedZstd)) != 0;
        if (Entry.What == FatbinEntry::Kind::Ptx)
          Entry.PtxIsa = std::to_string(read16(Section, E + 26)) + "." +
                         std::to_string(read16(Section, E + 24));
        else if (!Entry.Compressed)
          Entry.ToolkitRelease = toolkitReleaseIn(
              Section.substr(E + EntryHeaderSize, PayloadSize));
        Entries.push_back(std::move(Entry));
      }
      E += EntryHeaderSize + PayloadSize;
    }
    Off = End;
  }
  return Entries;
}

GpuFitResult fitForGpu(ArrayRef<FatbinEntry> Entries, unsigned Gpu) {
  auto SameMajor = [Gpu](unsigned A) { return A / 10 == Gpu / 10; };
  GpuFitResult Best;
  for (const FatbinEntry &E : Entries) {
    if (E.What != FatbinEntry::Kind::Cubin)
      continue;
    bool Runs =
        E.Variant == 'a' ? E.Arch == Gpu : SameMajor(E.Arch) && E.Arch <= Gpu;
    if (Runs && (!Best.By || E.Arch > Best.By->Arch))
      Best = {GpuFit::Native, &E};
  }
  if (Best.By)
    return Best;
  for (const FatbinEntry &E : Entries) {
    if (E.What != FatbinEntry::Kind::Ptx)
      continue;
    bool Runs = E.Variant == 'a'   ? E.Arch == Gpu
                : E.Variant == 'f' ? SameMajor(E.Arch) && E.Arch <= Gpu
                                   : E.Arch <= Gpu;
    if (Runs && (!Best.By || E.Arch > Best.By->Arch))
      Best = {GpuFit::Jit, &E};
  }
  return Best;
}

std::vector<std::string> entryNames(ArrayRef<FatbinEntry> Entries,
                                    FatbinEntry::Kind K) {
  std::vector<const FatbinEntry *> Of;
  for (const FatbinEntry &E : Entries)
    if (E.What == K)
      Of.push_back(&E);
  llvm::stable_sort(Of, [](const FatbinEntry *A, const FatbinEntry *B) {
    return A->Arch != B->Arch ? A->Arch < B->Arch : A->Variant < B->Variant;
  });
  std::vector<std::string> Names;
  for (const FatbinEntry *E : Of) {
    std::string N = E->name();
    if (!llvm::is_contained(Names, N))
      Names.push_back(std::move(N));
  }
  return Names;
}

} // namespace cudadeps
