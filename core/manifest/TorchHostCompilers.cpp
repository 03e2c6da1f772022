//===- TorchHostCompilers.cpp - torch's host-compiler table, from data ----===//

#include "core/manifest/TorchHostCompilers.h"

#include "core/support/TomlSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cudadeps {

VersionSet TorchCompilerBound::accepted() const {
  VersionSet Low = VersionSet::atLeast(Min);
  return Low.intersect(MaxInclusive ? VersionSet::atMost(Max)
                                    : VersionSet::lessThan(Max));
}

std::string TorchCompilerBound::rangeText() const {
  return ">=" + Min.str() + (MaxInclusive ? ", <=" : ", <") + Max.str();
}

const TorchCompilerBound *
TorchHostCompilerRow::bound(StringRef Family, const Version &Nvcc) const {
  Version Release = Nvcc.withoutLocal();
  const TorchCompilerBound *MajorMinor = nullptr;
  for (const TorchCompilerBound &B : Bounds) {
    if (B.Family != Family)
      continue;
    if (B.Cuda.release().size() > 2) {
      if (B.Cuda == Release)
        return &B;
    } else if (B.Cuda == Release.truncated(2)) {
      MajorMinor = &B;
    }
  }
  return MajorMinor;
}

namespace {

class Reader {
public:
  Reader(StringRef File, DiagnosticEngine &Diags) : File(File), Diags(Diags) {}

  unsigned NumErrors = 0;

  void error(const toml::source_region &Where, const Twine &Message,
             StringRef Hint = {}) {
    ++NumErrors;
    SourceLocation L = locationOf(File, Where);
    Diags.error(L.Line, L.Column, Message, Hint);
  }

  std::optional<Version> version(const toml::node &N, StringRef What) {
    std::optional<std::string_view> S = N.value<std::string_view>();
    if (!S || !N.is_string()) {
      error(N.source(), "expected a version string for " + What + ", found " +
                            typeName(N));
      return std::nullopt;
    }
    Expected<Version> V = Version::parse(StringRef(S->data(), S->size()));
    if (!V) {
      error(N.source(), "invalid version for " + What + ": " +
                            toString(V.takeError()));
      return std::nullopt;
    }
    return std::move(*V);
  }

  void readBounds(const toml::node &N, StringRef Family, bool Inclusive,
                  TorchHostCompilerRow &Row) {
    const toml::table *T = N.as_table();
    if (!T) {
      error(N.source(), "expected a table of CUDA release = [min, max] for '" +
                            Family + "', found " + typeName(N));
      return;
    }
    for (const auto &[Key, Value] : *T) {
      std::string What = (Family + "." + StringRef(Key.str())).str();
      StringRef KeyText = Key.str();
      Expected<Version> Cuda = Version::parse(KeyText);
      if (!Cuda) {
        error(Key.source(), "invalid CUDA release '" + KeyText.take_front(80) +
                                "' in '" + Family + "': " +
                                toString(Cuda.takeError()));
        continue;
      }
      const toml::array *Pair = Value.as_array();
      if (!Pair || Pair->size() != 2) {
        error(Value.source(), "expected [min, max] for '" + What +
                                  "' (torch's (min, max) tuple), found " +
                                  typeName(Value));
        continue;
      }
      std::optional<Version> Min = version(*Pair->get(0), What + " min");
      std::optional<Version> Max = version(*Pair->get(1), What + " max");
      if (!Min || !Max)
        continue;
      TorchCompilerBound B{Family.str(), std::move(*Cuda), std::move(*Min),
                           std::move(*Max), Inclusive,
                           locationOf(File, Key.source())};
      if (B.accepted().isEmpty()) {
        error(Value.source(), "'" + What + "' accepts no compiler (" +
                                  B.rangeText() + ")");
        continue;
      }
      Row.Bounds.push_back(std::move(B));
    }
  }

  void readRow(const toml::table &T,
               const std::vector<TorchHostCompilerRow> &Known,
               std::vector<TorchHostCompilerRow> &Out) {
    static const StringRef Keys[] = {"torch", "source", "upper",
                                     "gcc",   "clang",  "note"};
    bool Ok = true;
    for (const auto &[Key, Value] : T)
      if (!is_contained(Keys, StringRef(Key.str()))) {
        StringRef Name = Key.str();
        error(Key.source(),
              "unknown key '" + Name.take_front(80) +
                  "' in [[torch_host_compilers]]",
              didYouMean(Name, Keys));
        Ok = false;
      }
    TorchHostCompilerRow Row;
    Row.Loc = locationOf(File, T.source());
    const toml::node *Torch = T.get("torch");
    if (!Torch) {
      error(T.source(), "[[torch_host_compilers]] row without 'torch' (the "
                        "torch minor, \"2.11\")");
      return;
    }
    std::optional<Version> V = version(*Torch, "'torch'");
    if (!V)
      return;
    if (V->release().size() != 2 || V->isPrerelease() || !V->local().empty()) {
      error(Torch->source(), "'torch' must be a torch minor such as \"2.11\", "
                             "not '" + V->str() + "'");
      return;
    }
    Row.Torch = std::move(*V);
    Row.Loc = locationOf(File, Torch->source());
    auto Listed = [&](const TorchHostCompilerRow &R) {
      return R.Torch == Row.Torch;
    };
    if (any_of(Known, Listed) || any_of(Out, Listed)) {
      error(Torch->source(), "torch " + Row.Torch.str() +
                                 " is listed twice in [[torch_host_compilers]]");
      return;
    }
    std::optional<std::string_view> Source =
        T.get("source") ? T.get("source")->value<std::string_view>()
                        : std::nullopt;
    if (!Source || Source->empty()) {
      error(T.get("source") ? T.get("source")->source() : Torch->source(),
            "torch " + Row.Torch.str() +
                ": every row must cite its source ('source = \"...\"')");
      Ok = false;
    } else {
      Row.Source = std::string(*Source);
    }
    bool Inclusive = false;
    if (const toml::node *Upper = T.get("upper")) {
      std::optional<std::string_view> U = Upper->value<std::string_view>();
      if (U == "inclusive")
        Inclusive = true;
      else if (U != "exclusive") {
        error(Upper->source(), "'upper' is \"exclusive\" (torch >= 2.0: "
                               "min <= version < max) or \"inclusive\" "
                               "(torch 1.13: version <= max)");
        Ok = false;
      }
    }
    if (const toml::node *Note = T.get("note"))
      Row.Note = std::string(Note->value<std::string_view>().value_or(""));
    unsigned Before = NumErrors;
    for (StringRef Family : {"gcc", "clang"})
      if (const toml::node *N = T.get(Family))
        readBounds(*N, Family, Inclusive, Row);
    if (Ok && Before == NumErrors)
      Out.push_back(std::move(Row));
  }

private:
  StringRef File;
  DiagnosticEngine &Diags;
};

} // namespace

void readTorchHostCompilers(const toml::table &Root, StringRef File,
                            const std::vector<TorchHostCompilerRow> &Known,
                            std::vector<TorchHostCompilerRow> &Out,
                            DiagnosticEngine &Diags) {
  const toml::node *Rows = Root.get("torch_host_compilers");
  if (!Rows)
    return;
  Reader R(File, Diags);
  const toml::array *A = Rows->as_array();
  if (!A || !A->is_array_of_tables()) {
    R.error(Rows->source(), "expected [[torch_host_compilers]] rows, found " +
                                typeName(*Rows));
    return;
  }
  for (const toml::node &N : *A)
    R.readRow(*N.as_table(), Known, Out);
}

} // namespace cudadeps
