//===- KnowledgeBase.cpp - load and query the CUDA compatibility tables ---===//
//
// Reads manifests/cuda/*.toml ([[toolkit]], [[driver_floor]] and [[torch]]
// rows, schema
// documented at the top of each file) with TOML++, reporting every problem
// in a file with its location: unknown keys (with the nearest known one),
// wrong types, bad ranges, versions and archs, overlapping ranges, and rows
// that cite no source. A file with an error adds nothing.
//
//===----------------------------------------------------------------------===//
#include "core/manifest/KnowledgeBase.h"

#include "core/manifest/Manifest.h"
#include "core/support/BinaryCodec.h"
#include "core/support/BoundedFile.h"
#include "core/support/LoadCache.h"
#include "core/support/TomlSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>
#include <toml++/toml.h>

#include <algorithm>

using namespace llvm;

namespace cudadeps {

namespace {

using Region = toml::source_region;

const StringRef RootKeys[] = {"toolkit", "driver_floor", "torch", "provision",
                              "no_provision",
                              "torch_host_compilers"};
const StringRef ProvisionKeys[] = {"cuda",          "components", "download_mib",
                                   "installed_mib", "source",     "note"};
const StringRef NoProvisionKeys[] = {"cuda_major", "reason", "source"};
const StringRef ToolkitKeys[] = {"cuda",       "max_gcc",       "max_clang",
                                 "archs",      "arch_specific", "family",
                                 "min_driver", "source",        "note"};
const StringRef FloorKeys[] = {"cuda_major", "min_driver", "source", "note"};
const StringRef TorchKeys[] = {"torch",         "cuda",   "pypi_cuda",
                               "cuda_complete", "python", "source",
                               "note"};

/// The versions above every version of S (empty when S is empty or open
/// above).
VersionSet above(const VersionSet &S) {
  if (S.isEmpty())
    return VersionSet::empty();
  const Bound &Upper = S.intervals().back().Upper;
  if (!Upper.Value)
    return VersionSet::empty();
  return Upper.Inclusive ? VersionSet::greaterThan(*Upper.Value)
                         : VersionSet::atLeast(*Upper.Value);
}

/// The set of versions between two bounds.
VersionSet fromBounds(const Bound &Lower, const Bound &Upper) {
  VersionSet S = VersionSet::any();
  if (Lower.Value)
    S = S.intersect(Lower.Inclusive ? VersionSet::atLeast(*Lower.Value)
                                    : VersionSet::greaterThan(*Lower.Value));
  if (Upper.Value)
    S = S.intersect(Upper.Inclusive ? VersionSet::atMost(*Upper.Value)
                                    : VersionSet::lessThan(*Upper.Value));
  return S;
}

/// The smallest final release (no pre, dev, post or local part) at or above
/// an exclusive upper bound: 13 for '<13' (which stops before 13.0's
/// pre-releases), 12.9 for '<12.9'. None when it cannot be named.
std::optional<Version> firstReleaseFrom(const Bound &Upper) {
  if (!Upper.Value || Upper.Inclusive)
    return std::nullopt;
  const Version &U = *Upper.Value;
  if (U.isAfterAllPosts() || U.isAfterAllLocals() || U.epoch() != 0 ||
      U.post() || !U.local().empty())
    return std::nullopt;
  return Version(U.sentinelBase().release());
}

/// Joins neighbouring intervals whose gap holds no final release. Toolkits
/// are matched on their release numbers, so '>=12.9,<13' and '>=13.0,<13.1'
/// are one range although 13.0rc1 lies in neither.
VersionSet closeReleaseGaps(const VersionSet &S) {
  llvm::ArrayRef<Interval> Is = S.intervals();
  if (Is.size() < 2)
    return S;
  VersionSet Out;
  Bound Lower = Is.front().Lower, Upper = Is.front().Upper;
  for (size_t I = 1; I < Is.size(); ++I) {
    const Bound &NextLower = Is[I].Lower;
    std::optional<Version> R = firstReleaseFrom(Upper);
    bool NoReleaseBetween = R && NextLower.Value &&
                            (*R > *NextLower.Value ||
                             (*R == *NextLower.Value && NextLower.Inclusive));
    if (NoReleaseBetween) {
      Upper = Is[I].Upper;
      continue;
    }
    Out = Out.unionWith(fromBounds(Lower, Upper));
    Lower = NextLower;
    Upper = Is[I].Upper;
  }
  return Out.unionWith(fromBounds(Lower, Upper));
}

std::string locText(const SourceLocation &L) {
  return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

struct PendingDiag {
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
  std::string Hint;
};

/// Reads one file into rows; collects diagnostics, sorted by position at the
/// end (TOML++ iterates keys in sorted order, not in file order).
class Reader {
public:
  Reader(StringRef File, const std::vector<ToolkitRow> &OldToolkits,
         const std::vector<DriverFloorRow> &OldFloors,
         const std::vector<TorchRow> &OldTorches)
      : File(File.str()), OldToolkits(OldToolkits), OldFloors(OldFloors),
        OldTorches(OldTorches) {}

  void run(const toml::table &Root);

  std::vector<ToolkitRow> Toolkits;
  std::vector<DriverFloorRow> Floors;
  std::vector<TorchRow> Torches;
  std::vector<ProvisionRow> Provisions;
  std::vector<NoProvisionRow> NoProvisions;
  std::vector<PendingDiag> Diags;

private:
  std::string File;
  const std::vector<ToolkitRow> &OldToolkits;
  const std::vector<DriverFloorRow> &OldFloors;
  const std::vector<TorchRow> &OldTorches;

  SourceLocation loc(const Region &R) const { return locationOf(File, R); }
  void error(const Region &R, const Twine &Message, StringRef Hint = {}) {
    SourceLocation L = loc(R);
    Diags.push_back({L.Line, L.Column, Message.str(), Hint.str()});
  }

  void checkKeys(const toml::table &T, ArrayRef<StringRef> Known,
                 StringRef Where);
  const toml::node *required(const toml::table &T, StringRef Key,
                             StringRef Where, StringRef Why = {});
  std::optional<std::string> string(const toml::node &N, StringRef Key);
  std::optional<unsigned> smallUnsigned(const toml::node &N, StringRef Key);
  std::optional<Version> version(const toml::node &N, StringRef Key);
  std::optional<std::vector<std::string>> archList(const toml::node &N,
                                                   StringRef Key, char Suffix);
  std::optional<std::string> source(const toml::table &T, StringRef Where);

  void readToolkit(const toml::table &T);
  void readProvision(const toml::table &T);
  void readNoProvision(const toml::table &T);
  void readFloor(const toml::table &T);
  void readTorch(const toml::table &T);
  std::optional<Version> majorMinor(const toml::node &N, StringRef Key);
  template <typename Fn>
  void readRows(const toml::node &N, StringRef Key, Fn Read);
};

void Reader::checkKeys(const toml::table &T, ArrayRef<StringRef> Known,
                       StringRef Where) {
  for (const auto &[Key, Value] : T) {
    (void)Value;
    if (is_contained(Known, StringRef(Key.str())))
      continue;
    error(Key.source(),
          "unknown key '" + Key.str().substr(0, 80) + "' in " + Where,
          didYouMean(Key.str(), Known));
  }
}

const toml::node *Reader::required(const toml::table &T, StringRef Key,
                                   StringRef Where, StringRef Why) {
  if (const toml::node *N = T.get(Key))
    return N;
  error(T.source(),
        Where + " row has no '" + Key + "'" + (Why.empty() ? "" : "; " + Why));
  return nullptr;
}

std::optional<std::string> Reader::string(const toml::node &N, StringRef Key) {
  if (const auto *S = N.as_string())
    return S->get();
  error(N.source(), "'" + Key + "' must be a string, not " + typeName(N));
  return std::nullopt;
}

std::optional<unsigned> Reader::smallUnsigned(const toml::node &N,
                                              StringRef Key) {
  const auto *I = N.as_integer();
  if (!I) {
    error(N.source(), "'" + Key + "' must be an integer, not " + typeName(N));
    return std::nullopt;
  }
  int64_t V = I->get();
  if (V < 1 || V > 10000) {
    error(N.source(), "'" + Key +
                          "' must be a positive integer (a major "
                          "version), not " +
                          Twine(V));
    return std::nullopt;
  }
  return static_cast<unsigned>(V);
}

std::optional<Version> Reader::version(const toml::node &N, StringRef Key) {
  std::optional<std::string> Text = string(N, Key);
  if (!Text)
    return std::nullopt;
  Expected<Version> V = Version::parse(*Text);
  if (!V) {
    error(N.source(), "invalid " + Key + " '" +
                          StringRef(*Text).take_front(80) +
                          "': " + toString(V.takeError()));
    return std::nullopt;
  }
  if (V->isPrerelease() || !V->local().empty() || V->post()) {
    error(N.source(), "invalid " + Key + " '" +
                          StringRef(*Text).take_front(80) +
                          "': expected a dotted driver version such as "
                          "'525.60.13'");
    return std::nullopt;
  }
  return *V;
}

std::optional<std::vector<std::string>>
Reader::archList(const toml::node &N, StringRef Key, char Suffix) {
  const auto *A = N.as_array();
  if (!A) {
    error(N.source(), "'" + Key +
                          "' must be an array of strings such as "
                          "[\"sm_90\"], not " +
                          typeName(N));
    return std::nullopt;
  }
  std::vector<std::string> Out;
  bool Ok = true;
  for (const toml::node &E : *A) {
    const auto *S = E.as_string();
    if (!S) {
      error(E.source(),
            "'" + Key + "' entries must be strings, not " + typeName(E));
      Ok = false;
      continue;
    }
    StringRef Name = S->get();
    std::string Shown = Name.take_front(40).str();
    if (!isValidArch(Name)) {
      error(E.source(),
            "invalid arch '" + Shown + "'; expected sm_XX, sm_XXa or sm_XXf");
      Ok = false;
      continue;
    }
    char Last = Name.back();
    char Got = (Last == 'a' || Last == 'f') ? Last : 0;
    if (Got != Suffix) {
      StringRef Belongs = Got == 'a'   ? "arch_specific"
                          : Got == 'f' ? "family"
                                       : "archs";
      error(E.source(), "arch '" + Shown + "' does not belong in '" + Key +
                            "'; list it in '" + Belongs + "'");
      Ok = false;
      continue;
    }
    if (is_contained(Out, Name)) {
      error(E.source(), "duplicate arch '" + Shown + "' in '" + Key + "'");
      Ok = false;
      continue;
    }
    Out.push_back(Name.str());
  }
  if (!Ok)
    return std::nullopt;
  return Out;
}

std::optional<std::string> Reader::source(const toml::table &T,
                                          StringRef Where) {
  const toml::node *N = required(T, "source", Where,
                                 "every row must cite where its values "
                                 "come from");
  if (!N)
    return std::nullopt;
  std::optional<std::string> S = string(*N, "source");
  if (S && StringRef(*S).trim().empty()) {
    error(N->source(), "'source' is empty; cite where the row's values come "
                       "from");
    return std::nullopt;
  }
  return S;
}

void Reader::readToolkit(const toml::table &T) {
  const StringRef Where = "[[toolkit]]";
  checkKeys(T, ToolkitKeys, Where);
  ToolkitRow Row;
  Row.Loc = loc(T.source());
  bool Ok = true;

  if (const toml::node *N = required(T, "cuda", Where)) {
    if (std::optional<std::string> Text = string(*N, "cuda")) {
      Expected<VersionSet> R = VersionSet::parse(*Text);
      std::string Shown = StringRef(*Text).take_front(80).str();
      if (!R) {
        error(N->source(),
              "invalid range '" + Shown + "': " + toString(R.takeError()));
        Ok = false;
      } else if (R->isEmpty()) {
        error(N->source(), "range '" + Shown + "' contains no version");
        Ok = false;
      } else if (!R->intervals().front().Lower.Value ||
                 !R->intervals().back().Upper.Value) {
        error(N->source(),
              "range '" + Shown + "' must have a lower and an upper bound",
              "toolkits past the sources are unverified; write e.g. "
              "'>=13.3,<13.4'");
        Ok = false;
      } else {
        Row.Range = std::move(*R);
        Row.RangeText = *Text;
        SourceLocation L = loc(N->source());
        auto Overlaps = [&](const ToolkitRow &O) {
          if (Row.Range.isDisjoint(O.Range))
            return false;
          error(N->source(), "range '" + Shown + "' overlaps '" + O.RangeText +
                                 "' (" + locText(O.Loc) + ")");
          return true;
        };
        Row.Loc = L;
        if (any_of(OldToolkits, Overlaps) || any_of(Toolkits, Overlaps))
          Ok = false;
      }
    } else {
      Ok = false;
    }
  } else {
    Ok = false;
  }

  if (const toml::node *N = T.get("max_gcc")) {
    Row.MaxGcc = smallUnsigned(*N, "max_gcc");
    Ok &= Row.MaxGcc.has_value();
  }
  if (const toml::node *N = T.get("max_clang")) {
    Row.MaxClang = smallUnsigned(*N, "max_clang");
    Ok &= Row.MaxClang.has_value();
  }
  struct ListKey {
    StringRef Key;
    char Suffix;
    std::vector<std::string> *Into;
  };
  for (const ListKey &K : {ListKey{"archs", 0, &Row.Archs},
                           ListKey{"arch_specific", 'a', &Row.ArchSpecific},
                           ListKey{"family", 'f', &Row.Family}}) {
    const toml::node *N = T.get(K.Key);
    if (!N)
      continue;
    if (auto L = archList(*N, K.Key, K.Suffix))
      *K.Into = std::move(*L);
    else
      Ok = false;
  }
  if (const toml::node *N = T.get("min_driver")) {
    Row.MinDriver = version(*N, "min_driver");
    Ok &= Row.MinDriver.has_value();
  }
  if (const toml::node *N = T.get("note")) {
    std::optional<std::string> S = string(*N, "note");
    Ok &= S.has_value();
    Row.Note = S.value_or("");
  }
  std::optional<std::string> Src = source(T, Where);
  Ok &= Src.has_value();
  if (!Ok)
    return;
  Row.Source = std::move(*Src);
  Toolkits.push_back(std::move(Row));
}

void Reader::readFloor(const toml::table &T) {
  const StringRef Where = "[[driver_floor]]";
  checkKeys(T, FloorKeys, Where);
  DriverFloorRow Row;
  Row.Loc = loc(T.source());
  bool Ok = true;

  if (const toml::node *N = required(T, "cuda_major", Where)) {
    std::optional<unsigned> Major = smallUnsigned(*N, "cuda_major");
    if (Major) {
      Row.CudaMajor = *Major;
      Row.Loc = loc(N->source());
      auto Same = [&](const DriverFloorRow &O) {
        if (O.CudaMajor != Row.CudaMajor)
          return false;
        error(N->source(), "a driver floor for CUDA " + Twine(*Major) +
                               " is already defined at " + locText(O.Loc));
        return true;
      };
      if (any_of(OldFloors, Same) || any_of(Floors, Same))
        Ok = false;
    } else {
      Ok = false;
    }
  } else {
    Ok = false;
  }
  if (const toml::node *N = required(T, "min_driver", Where)) {
    std::optional<Version> V = version(*N, "min_driver");
    Ok &= V.has_value();
    if (V)
      Row.MinDriver = std::move(*V);
  } else {
    Ok = false;
  }
  if (const toml::node *N = T.get("note")) {
    std::optional<std::string> S = string(*N, "note");
    Ok &= S.has_value();
    Row.Note = S.value_or("");
  }
  std::optional<std::string> Src = source(T, Where);
  Ok &= Src.has_value();
  if (!Ok)
    return;
  Row.Source = std::move(*Src);
  Floors.push_back(std::move(Row));
}

/// A plain release version of one or two parts ("2.8", "12.6").
std::optional<Version> Reader::majorMinor(const toml::node &N, StringRef Key) {
  std::optional<std::string> Text = string(N, Key);
  if (!Text)
    return std::nullopt;
  std::string Shown = StringRef(*Text).take_front(80).str();
  Expected<Version> V = Version::parse(*Text);
  if (!V) {
    error(N.source(),
          "invalid " + Key + " '" + Shown + "': " + toString(V.takeError()));
    return std::nullopt;
  }
  if (V->isPrerelease() || !V->local().empty() || V->post() ||
      V->release().size() > 2 || V->epoch() != 0) {
    error(N.source(), "invalid " + Key + " '" + Shown +
                          "': expected major.minor such as '2.8'");
    return std::nullopt;
  }
  return *V;
}

void Reader::readTorch(const toml::table &T) {
  const StringRef Where = "[[torch]]";
  checkKeys(T, TorchKeys, Where);
  TorchRow Row;
  Row.Loc = loc(T.source());
  bool Ok = true;

  if (const toml::node *N = required(T, "torch", Where)) {
    std::optional<Version> V = majorMinor(*N, "torch");
    if (V) {
      Row.Torch = *V;
      Row.Loc = loc(N->source());
      auto Same = [&](const TorchRow &O) {
        if (O.Torch != Row.Torch)
          return false;
        error(N->source(), "torch " + Row.Torch.str() +
                               " is already defined at " + locText(O.Loc));
        return true;
      };
      if (any_of(OldTorches, Same) || any_of(Torches, Same))
        Ok = false;
    } else {
      Ok = false;
    }
  } else {
    Ok = false;
  }
  if (const toml::node *N = required(T, "cuda", Where)) {
    const auto *A = N->as_array();
    if (!A || A->empty()) {
      error(N->source(), "'cuda' must be a non-empty array of toolkit "
                         "versions such as [\"12.6\", \"12.8\"]");
      Ok = false;
    } else {
      for (const toml::node &E : *A) {
        std::optional<Version> V = majorMinor(E, "cuda");
        if (V)
          Row.Cuda.push_back(*V);
        Ok &= V.has_value();
      }
    }
  } else {
    Ok = false;
  }
  if (const toml::node *N = T.get("pypi_cuda")) {
    std::optional<Version> V = majorMinor(*N, "pypi_cuda");
    if (V && !Row.Cuda.empty() && !is_contained(Row.Cuda, *V)) {
      error(N->source(), "pypi_cuda '" + V->str() +
                             "' is not one of the row's 'cuda' toolkits",
            "list it in 'cuda' too: the PyPI wheel is one of the builds");
      V.reset();
    }
    Ok &= V.has_value();
    Row.PypiCuda = V;
  }
  if (const toml::node *N = T.get("cuda_complete")) {
    if (const auto *B = N->as_boolean()) {
      Row.CudaComplete = B->get();
    } else {
      error(N->source(),
            "'cuda_complete' must be true or false, not " + typeName(*N));
      Ok = false;
    }
  }
  if (const toml::node *N = T.get("python")) {
    if (std::optional<std::string> Text = string(*N, "python")) {
      Expected<VersionSet> R = VersionSet::parse(*Text);
      if (!R) {
        error(N->source(), "invalid range '" +
                               StringRef(*Text).take_front(80) +
                               "': " + toString(R.takeError()));
        Ok = false;
      } else {
        Row.Python = std::move(*R);
        Row.PythonText = *Text;
      }
    } else {
      Ok = false;
    }
  }
  if (const toml::node *N = T.get("note")) {
    std::optional<std::string> S = string(*N, "note");
    Ok &= S.has_value();
    Row.Note = S.value_or("");
  }
  std::optional<std::string> Src = source(T, Where);
  Ok &= Src.has_value();
  if (!Ok)
    return;
  Row.Source = std::move(*Src);
  Torches.push_back(std::move(Row));
}

template <typename Fn>
void Reader::readRows(const toml::node &N, StringRef Key, Fn Read) {
  const auto *A = N.as_array();
  if (!A || !A->is_array_of_tables()) {
    error(N.source(), "'" + Key + "' must be an array of tables ([[" + Key +
                          "]]), not " + typeName(N));
    return;
  }
  for (const toml::node &E : *A)
    (this->*Read)(*E.as_table());
}

void Reader::readProvision(const toml::table &T) {
  const StringRef Where = "[[provision]]";
  checkKeys(T, ProvisionKeys, Where);
  ProvisionRow Row;
  Row.Loc = loc(T.source());
  bool Ok = true;
  if (const toml::node *N = required(T, "cuda", Where)) {
    std::optional<Version> V = version(*N, "cuda");
    Ok &= V.has_value();
    if (V) {
      Row.Cuda = std::move(*V);
      Row.Loc = loc(N->source());
    }
  } else {
    Ok = false;
  }
  if (const toml::node *N = required(T, "components", Where)) {
    const toml::table *C = N->as_table();
    if (!C) {
      error(N->source(), "'components' must be a table of distribution = "
                         "\"version\", not " + typeName(*N));
      Ok = false;
    } else {
      for (const auto &[Key, Value] : *C) {
        std::optional<Version> V = version(Value, "version");
        Ok &= V.has_value();
        if (V)
          Row.Components.emplace_back(std::string(Key.str()), std::move(*V));
      }
      if (Ok && !Row.component("nvidia-cuda-nvcc")) {
        error(N->source(), "'components' has no nvidia-cuda-nvcc");
        Ok = false;
      }
    }
  } else {
    Ok = false;
  }
  for (auto [Key, Out] : {std::pair{"download_mib", &Row.DownloadMiB},
                          std::pair{"installed_mib", &Row.InstalledMiB}})
    if (const toml::node *N = T.get(Key)) {
      *Out = smallUnsigned(*N, Key);
      Ok &= Out->has_value();
    }
  if (const toml::node *N = T.get("note")) {
    std::optional<std::string> S = string(*N, "note");
    Ok &= S.has_value();
    Row.Note = S.value_or("");
  }
  std::optional<std::string> Src = source(T, Where);
  Ok &= Src.has_value();
  if (!Ok)
    return;
  Row.Source = std::move(*Src);
  Provisions.push_back(std::move(Row));
}

void Reader::readNoProvision(const toml::table &T) {
  const StringRef Where = "[[no_provision]]";
  checkKeys(T, NoProvisionKeys, Where);
  NoProvisionRow Row;
  Row.Loc = loc(T.source());
  bool Ok = true;
  if (const toml::node *N = required(T, "cuda_major", Where)) {
    std::optional<unsigned> Major = smallUnsigned(*N, "cuda_major");
    Ok &= Major.has_value();
    Row.CudaMajor = Major.value_or(0);
  } else {
    Ok = false;
  }
  if (const toml::node *N = required(T, "reason", Where)) {
    std::optional<std::string> S = string(*N, "reason");
    Ok &= S.has_value();
    Row.Reason = S.value_or("");
  } else {
    Ok = false;
  }
  std::optional<std::string> Src = source(T, Where);
  Ok &= Src.has_value();
  if (!Ok)
    return;
  Row.Source = std::move(*Src);
  NoProvisions.push_back(std::move(Row));
}

void Reader::run(const toml::table &Root) {
  for (const auto &[Key, Value] : Root) {
    StringRef Name = Key.str();
    if (Name == "toolkit")
      readRows(Value, Name, &Reader::readToolkit);
    else if (Name == "driver_floor")
      readRows(Value, Name, &Reader::readFloor);
    else if (Name == "torch")
      readRows(Value, Name, &Reader::readTorch);
    else if (Name == "provision")
      readRows(Value, Name, &Reader::readProvision);
    else if (Name == "no_provision")
      readRows(Value, Name, &Reader::readNoProvision);
    else if (Name == "torch_host_compilers")
      continue; // readTorchHostCompilers (TorchHostCompilers.cpp)
    else
      error(Key.source(), "unknown key '" + Name.take_front(80) + "'",
            didYouMean(Name, RootKeys));
  }
}

} // namespace

bool ToolkitRow::compiles(StringRef Arch) const {
  if (!isValidArch(Arch))
    return false;
  const std::vector<std::string> &List = Arch.endswith("a")   ? ArchSpecific
                                         : Arch.endswith("f") ? Family
                                                              : Archs;
  return is_contained(List, Arch);
}

Error KnowledgeBase::addFile(StringRef Text, StringRef FileName) {
  Memo = std::make_shared<RangeMemo>(); // the rows change
  DiagnosticEngine Diags(FileName.str(), Text.str());
  Expected<toml::table> Parsed = parseToml(Text, FileName);
  if (!Parsed)
    return tomlErrorAsDiagnostic(Parsed.takeError(), Text);
  Reader R(FileName, Toolkits, Floors, Torches);
  R.run(*Parsed);
  std::stable_sort(R.Diags.begin(), R.Diags.end(),
                   [](const PendingDiag &A, const PendingDiag &B) {
                     return std::tie(A.Line, A.Column) <
                            std::tie(B.Line, B.Column);
                   });
  for (const PendingDiag &D : R.Diags)
    Diags.error(D.Line, D.Column, D.Message, D.Hint);
  std::vector<TorchHostCompilerRow> NewTorchCompilers;
  readTorchHostCompilers(*Parsed, FileName, TorchCompilers,
                         NewTorchCompilers, Diags);
  if (Diags.hasErrors())
    return Diags.takeError();

  spdlog::debug("knowledge base: {} toolkit rows, {} driver floors from {}",
                R.Toolkits.size(), R.Floors.size(), FileName.str());
  std::move(R.Toolkits.begin(), R.Toolkits.end(), std::back_inserter(Toolkits));
  std::move(R.Floors.begin(), R.Floors.end(), std::back_inserter(Floors));
  std::move(R.Torches.begin(), R.Torches.end(), std::back_inserter(Torches));
  std::move(R.Provisions.begin(), R.Provisions.end(),
            std::back_inserter(Provisions));
  std::move(R.NoProvisions.begin(), R.NoProvisions.end(),
            std::back_inserter(NoProvisions));
  std::move(NewTorchCompilers.begin(), NewTorchCompilers.end(),
            std::back_inserter(TorchCompilers));
  return Error::success();
}

// A field added to one of these rows must be added to its list below (and
// LoadCache's FormatVersion bumped): the sizes catch a forgotten one.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(ToolkitRow) == 240 && sizeof(DriverFloorRow) == 112 &&
                  sizeof(TorchRow) == 216 && sizeof(ProvisionRow) == 144 &&
                  sizeof(NoProvisionRow) == 88 &&
                  sizeof(TorchCompilerBound) == 128 &&
                  sizeof(TorchHostCompilerRow) == 128,
              "a knowledge-base row changed: update its field list here");
#endif

template <class C> void fields(C &Cd, ToolkitRow &X) {
  Cd(X.Range, X.RangeText, X.MaxGcc, X.MaxClang, X.Archs, X.MinDriver,
     X.Source, X.Loc, X.ArchSpecific, X.Family, X.Note);
}
template <class C> void fields(C &Cd, DriverFloorRow &X) {
  Cd(X.CudaMajor, X.MinDriver, X.Source, X.Loc, X.Note);
}
template <class C> void fields(C &Cd, TorchRow &X) {
  Cd(X.Torch, X.Cuda, X.Python, X.PythonText, X.Source, X.Loc, X.Note,
     X.PypiCuda, X.CudaComplete);
}
template <class C> void fields(C &Cd, ProvisionRow &X) {
  Cd(X.Cuda, X.Components, X.DownloadMiB, X.InstalledMiB, X.Source, X.Loc,
     X.Note);
}
template <class C> void fields(C &Cd, NoProvisionRow &X) {
  Cd(X.CudaMajor, X.Reason, X.Source, X.Loc);
}
template <class C> void fields(C &Cd, TorchCompilerBound &X) {
  Cd(X.Family, X.Cuda, X.Min, X.Max, X.MaxInclusive, X.Loc);
}
template <class C> void fields(C &Cd, TorchHostCompilerRow &X) {
  Cd(X.Torch, X.Bounds, X.Source, X.Loc, X.Note);
}

template <class C> void fields(C &Cd, KnowledgeBase &KB) {
  Cd(KB.Toolkits, KB.Floors, KB.Torches, KB.Provisions, KB.NoProvisions,
     KB.TorchCompilers);
}

std::string KnowledgeBase::encode() const {
  BinaryEncoder E("");
  E(const_cast<KnowledgeBase &>(*this));
  return E.take();
}

std::optional<KnowledgeBase> KnowledgeBase::decode(StringRef Bytes) {
  KnowledgeBase KB;
  BinaryDecoder D(Bytes, "");
  D(KB);
  if (!D.ok())
    return std::nullopt;
  return KB;
}

Expected<KnowledgeBase> KnowledgeBase::loadDirectory(StringRef Dir,
                                                     StringRef CacheDir) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (sys::path::extension(It->path()) == ".toml")
      Files.push_back(It->path());
  }
  if (EC)
    return createStringError(EC,
                             "cannot read knowledge base directory '%s': %s",
                             Dir.str().c_str(), EC.message().c_str());
  if (Files.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no *.toml files in knowledge base directory '%s'",
                             Dir.str().c_str());
  llvm::sort(Files);

  // The rows of one file may depend on the files before it (duplicates), so
  // the cache keeps the whole result, valid while every file is unchanged.
  LoadCache Cache(CacheDir, "knowledge-base", Dir);
  LoadCacheContents Now;
  for (const std::string &Path : Files) {
    std::optional<FileIdentity> Id;
    if (Cache.enabled())
      Id = identifyFile(Path); // before reading: a later change shows
    if (!Id) {
      Now.Files.clear();
      break;
    }
    Now.Files.push_back({sys::path::filename(Path).str(), *Id, "", {}});
  }
  if (!Now.Files.empty()) {
    LoadCacheContents Old = Cache.read();
    bool Same = Old.Files.size() == Now.Files.size() && !Old.Combined.empty();
    for (size_t I = 0; Same && I < Now.Files.size(); ++I)
      Same = Old.Files[I].Name == Now.Files[I].Name &&
             Old.Files[I].Id == Now.Files[I].Id;
    if (Same)
      if (std::optional<KnowledgeBase> KB = decode(Old.Combined))
        return std::move(*KB);
  }

  KnowledgeBase KB;
  for (const std::string &Path : Files) {
    Expected<std::string> Text =
        readBoundedFile(Path, MaxKnowledgeBaseFileBytes, "knowledge base file");
    if (!Text)
      return Text.takeError();
    if (Error E = KB.addFile(*Text, Path))
      return E;
  }
  if (!Now.Files.empty()) {
    Now.Combined = KB.encode();
    Cache.write(Now);
  }
  return KB;
}

const Version *ProvisionRow::component(StringRef Name) const {
  for (const auto &[N, V] : Components)
    if (N == Name)
      return &V;
  return nullptr;
}

const ProvisionRow *KnowledgeBase::provision(const Version &Wanted) const {
  ReleaseNumbers WantNumbers = Wanted.release();
  ArrayRef<uint64_t> Want = WantNumbers;
  const ProvisionRow *Best = nullptr;
  for (const ProvisionRow &Row : Provisions) {
    ReleaseNumbers HaveNumbers = Row.Cuda.release();
    ArrayRef<uint64_t> Have = HaveNumbers;
    if (Have.size() < Want.size() || Have.take_front(Want.size()) != Want)
      continue;
    if (Have.size() == Want.size())
      return &Row;
    if (!Best || Best->Cuda < Row.Cuda)
      Best = &Row;
  }
  return Best;
}

const NoProvisionRow *KnowledgeBase::noProvision(uint64_t Major) const {
  for (const NoProvisionRow &Row : NoProvisions)
    if (Row.CudaMajor == Major)
      return &Row;
  return nullptr;
}

const ToolkitRow *KnowledgeBase::toolkit(const Version &Nvcc) const {
  if (Nvcc.release().empty())
    return nullptr;
  Version Release(Nvcc.release());
  for (const ToolkitRow &Row : Toolkits)
    if (Row.Range.contains(Release))
      return &Row;
  return nullptr;
}

VersionSet KnowledgeBase::nvccRangeForArch(StringRef Arch) const {
  std::lock_guard<std::mutex> Guard(Memo->Lock);
  auto It = Memo->ByArch.find(Arch);
  if (It == Memo->ByArch.end())
    It = Memo->ByArch.emplace(Arch.str(), computeNvccRangeForArch(Arch)).first;
  return It->second;
}

VersionSet KnowledgeBase::computeNvccRangeForArch(StringRef Arch) const {
  VersionSet All, Out;
  for (const ToolkitRow &Row : Toolkits) {
    All = All.unionWith(Row.Range);
    if (Row.compiles(Arch))
      Out = Out.unionWith(Row.Range);
  }
  // The newest row's archs are assumed to stay in later toolkits.
  VersionSet Later = above(All);
  if (!Later.isEmpty())
    for (const ToolkitRow &Row : Toolkits)
      if (Row.compiles(Arch) && above(Row.Range) == Later) {
        Out = Out.unionWith(Later);
        break;
      }
  return closeReleaseGaps(Out);
}

VersionSet KnowledgeBase::knownRange() const {
  VersionSet All;
  for (const ToolkitRow &Row : Toolkits)
    All = All.unionWith(Row.Range);
  return closeReleaseGaps(All);
}

const DriverFloorRow *KnowledgeBase::driverFloor(uint64_t CudaMajor) const {
  for (const DriverFloorRow &Row : Floors)
    if (Row.CudaMajor == CudaMajor)
      return &Row;
  return nullptr;
}

std::vector<uint64_t> TorchRow::cudaMajors() const {
  std::vector<uint64_t> Out;
  for (const Version &V : Cuda)
    if (!V.release().empty() && !is_contained(Out, V.release().front()))
      Out.push_back(V.release().front());
  llvm::sort(Out);
  return Out;
}

bool TorchRow::hasCudaMajor(uint64_t Major) const {
  return !CudaComplete || is_contained(cudaMajors(), Major);
}

const TorchRow *KnowledgeBase::torchRow(const Version &Torch) const {
  ReleaseNumbers R = Torch.release();
  if (R.size() < 2)
    return nullptr;
  for (const TorchRow &Row : Torches)
    if (Row.Torch.release().size() == 2 && Row.Torch.release()[0] == R[0] &&
        Row.Torch.release()[1] == R[1])
      return &Row;
  return nullptr;
}

const TorchHostCompilerRow *
KnowledgeBase::torchHostCompilers(const Version &Torch) const {
  Version Minor = Torch.withoutLocal().truncated(2);
  for (const TorchHostCompilerRow &R : TorchCompilers)
    if (R.Torch == Minor)
      return &R;
  return nullptr;
}

} // namespace cudadeps
