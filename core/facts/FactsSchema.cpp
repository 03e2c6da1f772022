//===- FactsSchema.cpp - value rules shared by the facts readers ----------===//

#include "core/facts/FactsSchema.h"
#include "core/support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <charconv>
#include <cmath>

using namespace llvm;

namespace cudadeps::facts_schema {

static const StringRef TableNames[] = {"driver",   "gpu",     "nvcc",
                                       "compiler", "python",  "torch",
                                       "packages", "platform"};
static const StringRef DriverKeys[] = {"version", "cuda"};
static const StringRef GpuKeys[] = {"name", "compute_capability"};
static const StringRef NvccKeys[] = {"path", "version", "max_gcc", "max_clang",
                                     "archs"};
static const StringRef CompilerKeys[] = {"path", "family", "version",
                                         "nvcc_default", "chosen_by"};
static const StringRef PythonKeys[] = {"path", "version"};
static const StringRef TorchKeys[] = {"version", "cuda", "cxx11_abi"};
static const StringRef PlatformKeys[] = {"os", "arch", "cpus", "memory_gib",
                                         "glibc"};

static const StringRef GpuRequired[] = {"compute_capability"};
static const StringRef NvccRequired[] = {"path", "version"};
static const StringRef CompilerRequired[] = {"path", "family", "version"};
static const StringRef VersionRequired[] = {"version"};

static const StringRef Families[] = {"gcc", "clang"};

ArrayRef<StringRef> tableNames() { return TableNames; }

ArrayRef<StringRef> keysOf(StringRef Table) {
  if (Table == "driver")
    return DriverKeys;
  if (Table == "gpu")
    return GpuKeys;
  if (Table == "nvcc")
    return NvccKeys;
  if (Table == "compiler")
    return CompilerKeys;
  if (Table == "python")
    return PythonKeys;
  if (Table == "torch")
    return TorchKeys;
  if (Table == "platform")
    return PlatformKeys;
  return {};
}

bool isArrayTable(StringRef Table) {
  return Table == "gpu" || Table == "nvcc" || Table == "compiler";
}

ArrayRef<StringRef> requiredKeysOf(StringRef Table) {
  if (Table == "gpu")
    return GpuRequired;
  if (Table == "nvcc")
    return NvccRequired;
  if (Table == "compiler")
    return CompilerRequired;
  if (Table == "python" || Table == "torch")
    return VersionRequired;
  return {};
}

std::string shown(StringRef Text) {
  constexpr size_t MaxShown = 40;
  std::string Out = "'";
  for (char C : Text.take_front(MaxShown)) {
    unsigned char U = static_cast<unsigned char>(C);
    if (U >= 0x20 && U < 0x7f) {
      Out += C;
    } else {
      Out += "\\x";
      Out += hexdigit(U >> 4, /*LowerCase=*/true);
      Out += hexdigit(U & 15, /*LowerCase=*/true);
    }
  }
  if (Text.size() > MaxShown)
    Out += "...";
  Out += "'";
  return Out;
}

std::string suggest(StringRef Word, ArrayRef<StringRef> Candidates) {
  if (Word.size() > 64)
    return {};
  return didYouMean(Word, Candidates);
}

std::optional<std::string> checkVersion(StringRef Text, StringRef Key,
                                        Version &Out) {
  if (Text.trim().empty())
    return "empty version for " + shown(Key);
  Expected<Version> V = Version::parse(Text);
  if (!V) {
    // Version says "invalid version 'x': why"; say which key it was for.
    std::string Message = toString(V.takeError());
    StringRef Why = Message;
    size_t Colon = Why.find("': ");
    if (Why.startswith("invalid version '") && Colon != StringRef::npos)
      Why = Why.substr(Colon + 3);
    return ("invalid version " + shown(Text) + " for " + shown(Key) + ": " +
            Why)
        .str();
  }
  Out = std::move(*V);
  return std::nullopt;
}

static bool isDigits(StringRef S, size_t MinLen, size_t MaxLen) {
  return S.size() >= MinLen && S.size() <= MaxLen &&
         all_of(S, [](char C) { return isDigit(C); });
}

std::optional<std::string> checkComputeCapability(StringRef Text,
                                                  Version &Out) {
  auto [Major, Minor] = Text.split('.');
  if (!Text.contains('.') || !isDigits(Major, 1, 2) || !isDigits(Minor, 1, 2))
    return "invalid compute capability " + shown(Text) +
           ": expected MAJOR.MINOR, e.g. \"9.0\"";
  unsigned Ma = 0, Mi = 0;
  Major.getAsInteger(10, Ma);
  Minor.getAsInteger(10, Mi);
  if (Ma == 0)
    return "invalid compute capability " + shown(Text) +
           ": the major version starts at 1";
  Out = Version({Ma, Mi});
  return std::nullopt;
}

std::optional<std::string> checkArch(StringRef Text) {
  StringRef Rest = Text;
  bool Ok = Rest.consume_front("sm_");
  if (Ok && (Rest.endswith("a") || Rest.endswith("f")))
    Rest = Rest.drop_back();
  if (Ok && isDigits(Rest, 2, 3) && Rest.front() != '0')
    return std::nullopt;
  return "invalid architecture " + shown(Text) +
         ": expected sm_NN with an optional 'a' or 'f' suffix (sm_90, "
         "sm_90a, sm_100f)";
}

std::optional<std::string> checkFamily(StringRef Text) {
  if (is_contained(Families, Text))
    return std::nullopt;
  return "invalid compiler family " + shown(Text) +
         ": expected \"gcc\" or \"clang\"";
}

std::string familyHint(StringRef Text) {
  std::string Lower = Text.lower();
  if (Lower == "g++" || Lower == "gnu" || Lower == "cc" || Lower == "c++")
    return "did you mean 'gcc'?";
  if (Lower == "clang++" || Lower == "llvm")
    return "did you mean 'clang'?";
  return suggest(Text, Families);
}

std::optional<std::string> checkChosenBy(StringRef Text) {
  for (StringRef Known : chosenByVariables())
    if (Text == Known)
      return std::nullopt;
  return "unknown 'chosen_by' " + shown(Text) + "; expected " +
         join(chosenByVariables(), ", ");
}

size_t choiceRank(StringRef By) {
  ArrayRef<StringRef> Vars = chosenByVariables();
  const auto *It = find(Vars, By);
  return It == Vars.end() ? Vars.size() : size_t(It - Vars.begin());
}

ArrayRef<StringRef> chosenByVariables() {
  static const StringRef Vars[] = {"$NVCC_CCBIN", "$CUDAHOSTCXX", "$CXX"};
  return Vars;
}

std::optional<std::string> checkCpus(int64_t Value) {
  if (Value < 1 || Value > MaxCpus)
    return ("'cpus' must be between 1 and " + Twine(MaxCpus) + ", found " +
            Twine(Value))
        .str();
  return std::nullopt;
}

std::optional<std::string> checkCompilerMajor(int64_t Value, StringRef Key) {
  if (Value < 1 || Value > MaxCompilerMajor)
    return ("'" + Key + "' must be a major version between 1 and " +
            Twine(MaxCompilerMajor) + ", found " + Twine(Value))
        .str();
  return std::nullopt;
}

std::optional<std::string> checkMemoryGib(double Value) {
  if (!std::isfinite(Value) || Value <= 0 || Value > MaxMemoryGib) {
    std::string Shown = std::isnan(Value) ? "nan" : std::to_string(Value);
    if (std::isfinite(Value)) {
      char Buffer[64];
      auto [End, Ec] = std::to_chars(Buffer, Buffer + sizeof(Buffer), Value);
      Shown.assign(Buffer, End);
    }
    return ("'memory_gib' must be more than 0 and at most " +
            Twine(static_cast<int64_t>(MaxMemoryGib)) + ", found " + Shown)
        .str();
  }
  return std::nullopt;
}

std::string computeCapabilityText(const Version &V) {
  return std::to_string(V.major()) + "." + std::to_string(V.minor());
}

} // namespace cudadeps::facts_schema
