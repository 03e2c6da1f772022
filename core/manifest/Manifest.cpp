#include "core/manifest/Manifest.h"

#include "core/manifest/Template.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cassert>
#include <mutex>

using namespace llvm;

namespace cudadeps {

StringRef buildKindName(BuildKind K) {
  switch (K) {
  case BuildKind::TorchExtension:
    return "torch-extension";
  case BuildKind::Python:
    return "python";
  case BuildKind::CMake:
    return "cmake";
  case BuildKind::Command:
    return "command";
  }
  llvm_unreachable("bad build kind");
}

std::optional<BuildKind> parseBuildKind(StringRef Name) {
  for (BuildKind K : {BuildKind::TorchExtension, BuildKind::Python,
                      BuildKind::CMake, BuildKind::Command})
    if (buildKindName(K) == Name)
      return K;
  return std::nullopt;
}

std::string canonicalPackageName(StringRef Name) {
  std::string Out;
  bool InSep = false;
  for (char C : Name) {
    if (C == '-' || C == '_' || C == '.') {
      if (!InSep)
        Out += '-';
      InSep = true;
      continue;
    }
    InSep = false;
    Out += toLower(C);
  }
  return Out;
}

bool isValidPackageName(StringRef Name) {
  if (Name.empty() || Name.size() > 200)
    return false;
  if (!isAlnum(Name.front()) || !isAlnum(Name.back()))
    return false;
  return llvm::all_of(Name, [](char C) {
    return isAlnum(C) || C == '-' || C == '_' || C == '.';
  });
}

bool isValidArch(StringRef Name) {
  if (!Name.consume_front("sm_"))
    return false;
  if (Name.endswith("a") || Name.endswith("f"))
    Name = Name.drop_back();
  if (Name.size() < 2 || Name.size() > 3 || Name.front() == '0')
    return false;
  return llvm::all_of(Name, isDigit);
}

std::string archHint(StringRef Text) {
  StringRef T = Text.trim();
  std::string Lower = T.lower();
  StringRef L(Lower);
  std::string Suffix;
  std::string Why = "an arch is sm_ and two or three digits";
  std::string Digits;
  bool Prefixed = L.consume_front("compute_") || L.consume_front("sm_") ||
                  L.consume_front("sm");
  if (!Prefixed && L.contains('.')) {
    Why = "write the arch, not the compute capability";
    auto [Major, Minor] = L.split('.');
    if (!Major.empty() && !Minor.empty() && all_of(Major, isDigit)) {
      StringRef M = Minor;
      if (M.endswith("a") || M.endswith("f")) {
        Suffix = M.take_back(1).str();
        M = M.drop_back();
      }
      if (!M.empty() && all_of(M, isDigit))
        Digits = (Major + M).str();
    }
  }
  if (Digits.empty()) {
    StringRef M = L;
    if (M.endswith("a") || M.endswith("f")) {
      Suffix = M.take_back(1).str();
      M = M.drop_back();
    }
    if (!M.empty() && all_of(M, isDigit))
      Digits = M.str();
  }
  std::string Candidate = "sm_" + Digits + Suffix;
  if (!Digits.empty() && isValidArch(Candidate))
    return "did you mean '" + Candidate + "'? (" + Why + ")";
  return "write an arch as sm_ and two or three digits, optionally with an "
         "'a' or 'f' suffix: sm_90, sm_90a, sm_100f";
}

unsigned Arch::number() const {
  StringRef Digits = StringRef(Name).drop_front(3).take_while(isDigit);
  unsigned N = 0;
  if (Digits.getAsInteger(10, N))
    return 0;
  return N;
}

ArrayRef<StringRef> knownFactKeys() {
  static const StringRef Keys[] = {"nvcc",  "driver", "driver.cuda",
                                   "torch", "torch.cuda", "python",
                                   "gcc",   "clang",  "triton",
                                   "compute_capability"};
  return Keys;
}

bool isFactKey(StringRef Key) { return llvm::is_contained(knownFactKeys(), Key); }

std::string Package::canonicalName() const { return canonicalPackageName(Name); }

RequirementMap Package::requirementsFor(const Release &R) const {
  RequirementMap Out = Requires;
  for (const auto &[Key, Req] : R.Requires)
    Out.insert_or_assign(Key, Req);
  return Out;
}

const Release *Package::findRelease(const Version &V) const {
  return Releases.find(V);
}

namespace {
/// First reads of kept releases: rare (a few per package) and short.
std::mutex &keptReleaseLock() {
  static std::mutex Lock;
  return Lock;
}
} // namespace

ReleaseList::ReleaseList(const ReleaseList &O) {
  Items.reserve(O.size());
  for (size_t I = 0; I < O.size(); ++I)
    Items.push_back(O[I]);
}

ReleaseList &ReleaseList::operator=(const ReleaseList &O) {
  if (this != &O)
    *this = ReleaseList(O);
  return *this;
}

ReleaseList::~ReleaseList() = default;

ReleaseList::KeptReleases::~KeptReleases() {
  for (size_t I = 0; I < Versions.size(); ++I)
    delete Decoded[I].load(std::memory_order_relaxed);
}

const Release *ReleaseList::find(const Version &V) const {
  std::optional<size_t> I = indexOf(V);
  return I ? &(*this)[*I] : nullptr;
}

std::optional<size_t> ReleaseList::indexOf(const Version &V) const {
  for (size_t I = 0; I < size(); ++I)
    if (version(I) == V)
      return I;
  return std::nullopt;
}

std::optional<ReleaseList::KeptBody> ReleaseList::keptBody(size_t I) const {
  if (!Kept || Kept->Decoded[I].load(std::memory_order_acquire))
    return std::nullopt;
  return KeptBody{Kept->Bytes[I], Kept->Owner, Kept->File, Kept->CacheFile};
}

void ReleaseList::keep(std::vector<Version> Versions,
                       std::vector<StringRef> Bytes,
                       std::shared_ptr<const void> Owner, SourcePath File,
                       SourcePath CacheFile, DecodeFn Decode) {
  assert(Versions.size() == Bytes.size());
  Items.clear();
  auto K = std::make_unique<KeptReleases>();
  K->Decoded = std::make_unique<std::atomic<Release *>[]>(Versions.size());
  for (size_t I = 0; I < Versions.size(); ++I)
    K->Decoded[I].store(nullptr, std::memory_order_relaxed);
  K->Versions = std::move(Versions);
  K->Bytes = std::move(Bytes);
  K->Owner = std::move(Owner);
  K->File = std::move(File);
  K->CacheFile = std::move(CacheFile);
  K->Decode = Decode;
  Kept = std::move(K);
}

void ReleaseList::keepRequirementIds(
    std::shared_ptr<const RequirementTable> Table, llvm::StringRef Ids) {
  if (!Kept || !Table || Ids.size() < 4 * (Kept->Versions.size() + 2))
    return;
  Kept->IdTable = std::move(Table);
  Kept->Ids = Ids;
}

void ReleaseList::prefetch() const {
  if (!Kept)
    return;
  for (llvm::StringRef B : Kept->Bytes) {
    __builtin_prefetch(B.data());
    if (B.size() > 64)
      __builtin_prefetch(B.data() + 64);
  }
}

bool ReleaseList::isEncoded(size_t I) const {
  return Kept && !Kept->Decoded[I].load(std::memory_order_acquire);
}

const Release &ReleaseList::keptAt(size_t I) const {
  assert(I < Kept->Versions.size() && "release index out of range");
  if (Release *R = Kept->Decoded[I].load(std::memory_order_acquire))
    return *R;
  std::lock_guard<std::mutex> Lock(keptReleaseLock());
  if (Release *R = Kept->Decoded[I].load(std::memory_order_relaxed))
    return *R; // another thread decoded it meanwhile
  auto R = std::make_unique<Release>();
  R->Ver = Kept->Versions[I];
  if (!Kept->Decode(Kept->Bytes[I], Kept->File, Kept->CacheFile, Kept->Owner,
                    *R))
    detail::deferredDecodeFailed(Kept->File, Kept->CacheFile);
  Kept->Decoded[I].store(R.get(), std::memory_order_release);
  return *R.release();
}

std::vector<Release> &ReleaseList::all() {
  if (Kept) [[unlikely]] {
    std::vector<Release> Out;
    Out.reserve(Kept->Versions.size());
    for (size_t I = 0; I < Kept->Versions.size(); ++I)
      Out.push_back(std::move(const_cast<Release &>(keptAt(I))));
    Kept.reset();
    Items = std::move(Out);
  }
  return Items;
}

const Located &Package::tagTemplateFor(const Release &R) const {
  return R.Tag ? *R.Tag : Tag;
}

std::string Package::gitTagFor(const Release &R) const {
  Expected<std::string> T = expandTemplate(
      tagTemplateFor(R).Value,
      [&](StringRef Name) -> std::optional<std::string> {
        if (Name == "version")
          return R.VersionText;
        return std::nullopt;
      });
  if (!T) {
    consumeError(T.takeError());
    return tagTemplateFor(R).Value;
  }
  return *T;
}

std::string Package::releaseTagFor(const Release &R) const {
  if (R.Prebuilt && R.Prebuilt->Tag)
    return R.Prebuilt->Tag->Value;
  return gitTagFor(R);
}

ExtrasMap Package::extrasFor(const Release &R) const {
  ExtrasMap Out = Extras;
  for (const auto &[Name, Reqs] : R.Extras)
    Out.insert_or_assign(Name, Reqs);
  return Out;
}

bool Arch::conditionHolds(const Version &Nvcc) const {
  if (!NvccCond)
    return true;
  return NvccCond->contains(Nvcc.withoutLocal().truncated(2));
}

bool PrebuiltMatrix::excludes(const Version &TorchMM, uint64_t CudaMajor,
                              StringRef PythonTag, std::optional<bool> Abi,
                              StringRef PlatformTag) const {
  return llvm::any_of(Exclude, [&](const MatrixExclude &E) {
    auto Has = [](const auto &List, const auto &V) {
      return List.empty() || llvm::is_contained(List, V);
    };
    bool CudaOk = E.Cuda.empty() || llvm::any_of(E.Cuda, [&](const Version &C) {
                    return C.major() == CudaMajor;
                  });
    bool AbiOk = E.Cxx11Abi.empty() || (Abi && Has(E.Cxx11Abi, *Abi));
    bool PyOk = E.Python.empty() || (!PythonTag.empty() && Has(E.Python, PythonTag.str()));
    bool PlatOk = E.Platform.empty() ||
                  (!PlatformTag.empty() && Has(E.Platform, PlatformTag.str()));
    return Has(E.Torch, TorchMM) && CudaOk && AbiOk && PyOk && PlatOk;
  });
}

} // namespace cudadeps
