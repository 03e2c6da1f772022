//===- Overrides.cpp - --set KEY=VALUE and CUDADEPS_FACTS -----------------===//

#include "core/facts/Overrides.h"
#include "core/facts/FactsFile.h"
#include "core/facts/FactsSchema.h"
#include "core/support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace cudadeps {

namespace schema = facts_schema;

/// Stands in for a path that an override implies but does not give.
static const char OverriddenPath[] = "(overridden)";

namespace {

/// Why a value was refused: a message and an optional hint.
struct Refusal {
  std::string Message;
  std::string Hint;
};
using Result = std::optional<Refusal>;

Result refuse(const Twine &Message, const Twine &Hint = "") {
  return Refusal{Message.str(), Hint.str()};
}

struct Handler {
  StringRef Key;
  Result (*Apply)(Facts &F, StringRef Key, StringRef Value, const Source &Src);
};

} // namespace

//===----------------------------------------------------------------------===//
// Value parsers
//===----------------------------------------------------------------------===//

static Result parseVersion(StringRef Key, StringRef Value, Version &Out) {
  if (auto Message = schema::checkVersion(Value, Key, Out))
    return refuse(*Message);
  return std::nullopt;
}

static Result parseUnsigned(StringRef Key, StringRef Value, int64_t &Out) {
  if (Value.getAsInteger(10, Out))
    return refuse("invalid value " + schema::shown(Value) + " for '" + Key +
                  "': expected a whole number");
  return std::nullopt;
}

static SmallVector<StringRef, 8> splitList(StringRef Value) {
  SmallVector<StringRef, 8> Parts;
  Value.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef &P : Parts)
    P = P.trim();
  llvm::erase_if(Parts, [](StringRef P) { return P.empty(); });
  return Parts;
}

//===----------------------------------------------------------------------===//
// Handlers, one per key
//===----------------------------------------------------------------------===//

static Result setDriver(Facts &F, StringRef Key, StringRef Value,
                        const Source &Src) {
  if (!Value.empty())
    return refuse("'driver' takes only an empty value (no NVIDIA driver)",
                  "set driver.version or driver.cuda to give a version");
  F.Driver.reset();
  return std::nullopt;
}

static DriverFacts &ensureDriver(Facts &F, const Source &Src) {
  if (!F.Driver) {
    F.Driver.emplace();
    F.Driver->KernelSource = F.Driver->CudaSource = Src;
  }
  return *F.Driver;
}

static Result setDriverVersion(Facts &F, StringRef Key, StringRef Value,
                               const Source &Src) {
  std::optional<Version> V;
  if (!Value.empty()) {
    V.emplace();
    if (Result R = parseVersion(Key, Value, *V))
      return R;
  } else if (!F.Driver) {
    return std::nullopt;
  }
  DriverFacts &D = ensureDriver(F, Src);
  if (Key == "driver.version") {
    D.KernelVersion = V;
    D.KernelSource = Src;
  } else {
    D.Cuda = V;
    D.CudaSource = Src;
  }
  return std::nullopt;
}

static Result setGpu(Facts &F, StringRef Key, StringRef Value,
                     const Source &Src) {
  std::vector<GpuFacts> Gpus;
  for (StringRef Cc : splitList(Value)) {
    GpuFacts G;
    G.Name = OverriddenPath;
    G.From = Src;
    if (auto Message = schema::checkComputeCapability(Cc, G.ComputeCapability))
      return refuse("invalid value for 'gpu': " + *Message);
    Gpus.push_back(std::move(G));
  }
  F.Gpus = std::move(Gpus);
  return std::nullopt;
}

static Result setNvcc(Facts &F, StringRef Key, StringRef Value,
                      const Source &Src) {
  if (Value.empty()) {
    F.Nvccs.clear();
    return std::nullopt;
  }
  NvccFacts N;
  if (Result R = parseVersion(Key, Value, N.Ver))
    return R;
  N.Path = OverriddenPath;
  N.From = Src;
  F.Nvccs = {std::move(N)};
  return std::nullopt;
}

static Result needToolkits(const Facts &F, StringRef Key) {
  if (F.Nvccs.empty())
    return refuse("'" + Key + "' needs a CUDA toolkit and there is none",
                  "set nvcc=VERSION first");
  return std::nullopt;
}

static Result setNvccPath(Facts &F, StringRef Key, StringRef Value,
                          const Source &Src) {
  if (Value.empty())
    return refuse("'nvcc.path' cannot be empty",
                  "write nvcc= for a machine without a CUDA toolkit");
  if (Result R = needToolkits(F, Key))
    return R;
  if (F.Nvccs.size() > 1)
    return refuse("'nvcc.path' is ambiguous: there are " +
                      Twine(F.Nvccs.size()) + " toolkits",
                  "set nvcc=VERSION first to keep a single one");
  F.Nvccs.front().Path = Value.str();
  F.Nvccs.front().From = Src;
  return std::nullopt;
}

static Result setNvccMaxCompiler(Facts &F, StringRef Key, StringRef Value,
                                 const Source &Src) {
  if (Result R = needToolkits(F, Key))
    return R;
  std::optional<unsigned> Major;
  if (!Value.empty()) {
    int64_t N = 0;
    if (Result R = parseUnsigned(Key, Value, N))
      return R;
    if (auto Message = schema::checkCompilerMajor(N, Key))
      return refuse(*Message);
    Major = static_cast<unsigned>(N);
  }
  for (NvccFacts &N : F.Nvccs) {
    (Key == "nvcc.max_gcc" ? N.MaxGcc : N.MaxClang) = Major;
    N.From = Src;
  }
  return std::nullopt;
}

static Result setNvccArchs(Facts &F, StringRef Key, StringRef Value,
                           const Source &Src) {
  if (Result R = needToolkits(F, Key))
    return R;
  std::vector<std::string> Archs;
  for (StringRef Arch : splitList(Value)) {
    if (auto Message = schema::checkArch(Arch))
      return refuse("invalid value for 'nvcc.archs': " + *Message);
    Archs.push_back(Arch.str());
  }
  for (NvccFacts &N : F.Nvccs) {
    N.Archs = Archs;
    N.From = Src;
  }
  return std::nullopt;
}

static Result setCompiler(Facts &F, StringRef Family, StringRef Value,
                          const Source &Src) {
  CompilerFacts C;
  if (!Value.empty()) {
    if (Result R = parseVersion(Family, Value, C.Ver))
      return R;
  }
  llvm::erase_if(F.Compilers,
                 [&](const CompilerFacts &C) { return C.Family == Family; });
  if (Value.empty())
    return std::nullopt;
  C.Path = OverriddenPath;
  C.Family = Family.str();
  C.From = Src;
  F.Compilers.push_back(std::move(C));
  return std::nullopt;
}

static Result setCompilerPath(Facts &F, StringRef Key, StringRef Value,
                              const Source &Src) {
  StringRef Family = Key.take_until([](char C) { return C == '.'; });
  if (Value.empty())
    return refuse("'" + Key + "' cannot be empty",
                  "write " + Family + "= for no " + Family + " compiler");
  CompilerFacts *Only = nullptr;
  unsigned Count = 0;
  for (CompilerFacts &C : F.Compilers) {
    if (C.Family == Family) {
      Only = &C;
      ++Count;
    }
  }
  if (Count != 1)
    return refuse("'" + Key + "' needs exactly one " + Family +
                      " compiler, there are " + Twine(Count),
                  "set " + Family + "=VERSION first");
  Only->Path = Value.str();
  Only->From = Src;
  return std::nullopt;
}

static Result setPython(Facts &F, StringRef Key, StringRef Value,
                        const Source &Src) {
  if (Value.empty()) {
    F.Python.reset();
    return std::nullopt;
  }
  Version V;
  if (Result R = parseVersion(Key, Value, V))
    return R;
  if (!F.Python)
    F.Python = PythonFacts{OverriddenPath, {}, {}};
  F.Python->Ver = std::move(V);
  F.Python->From = Src;
  return std::nullopt;
}

static Result setPythonPath(Facts &F, StringRef Key, StringRef Value,
                            const Source &Src) {
  if (Value.empty())
    return refuse("'python.path' cannot be empty",
                  "write python= for a machine without Python");
  if (!F.Python)
    return refuse("'python.path' needs a Python and there is none",
                  "set python=VERSION first");
  F.Python->Path = Value.str();
  F.Python->From = Src;
  return std::nullopt;
}

static Result setTorch(Facts &F, StringRef Key, StringRef Value,
                       const Source &Src) {
  if (Value.empty()) {
    F.Torch.reset();
    return std::nullopt;
  }
  Version V;
  if (Result R = parseVersion(Key, Value, V))
    return R;
  if (!F.Torch)
    F.Torch.emplace();
  if (auto Cuda = torchCudaOfLocal(V.local())) {
    F.Torch->Cuda = *Cuda;
    F.Torch->CudaUnknown = false;
  }
  F.Torch->Ver = std::move(V);
  F.Torch->From = Src;
  return std::nullopt;
}

static Result needTorch(const Facts &F, StringRef Key) {
  if (!F.Torch)
    return refuse("'" + Key + "' needs torch and there is none",
                  "set torch=VERSION first");
  return std::nullopt;
}

static Result setTorchCuda(Facts &F, StringRef Key, StringRef Value,
                           const Source &Src) {
  if (Result R = needTorch(F, Key))
    return R;
  std::optional<Version> V;
  if (!Value.empty()) {
    V.emplace();
    if (Result R = parseVersion(Key, Value, *V))
      return R;
  }
  F.Torch->Cuda = V;
  F.Torch->CudaUnknown = false;
  F.Torch->From = Src;
  return std::nullopt;
}

static Result setTorchAbi(Facts &F, StringRef Key, StringRef Value,
                          const Source &Src) {
  if (Result R = needTorch(F, Key))
    return R;
  std::string Lower = Value.lower();
  std::optional<bool> Abi;
  if (Lower == "true" || Lower == "1")
    Abi = true;
  else if (Lower == "false" || Lower == "0")
    Abi = false;
  else if (!Lower.empty())
    return refuse("invalid value " + schema::shown(Value) +
                  " for 'torch.cxx11_abi': expected true or false");
  F.Torch->Cxx11Abi = Abi;
  F.Torch->AbiFrom = Src;
  return std::nullopt;
}

static Result setPlatform(Facts &F, StringRef Key, StringRef Value,
                          const Source &Src) {
  if (!Value.empty())
    return refuse("'platform' takes only an empty value (nothing known)",
                  "set platform.os, platform.arch, ... one by one");
  F.Platform.reset();
  return std::nullopt;
}

static Result setPlatformField(Facts &F, StringRef Key, StringRef Value,
                               const Source &Src) {
  PlatformFacts P = F.Platform.value_or(PlatformFacts{});
  StringRef Field = Key.drop_front(StringRef("platform.").size());
  if (Field == "os") {
    P.Os = Value.str();
  } else if (Field == "arch") {
    P.Arch = Value.str();
  } else if (Field == "cpus") {
    P.Cpus.reset();
    if (!Value.empty()) {
      int64_t N = 0;
      if (Result R = parseUnsigned(Key, Value, N))
        return R;
      if (auto Message = schema::checkCpus(N))
        return refuse(*Message);
      P.Cpus = static_cast<unsigned>(N);
    }
  } else if (Field == "memory_gib") {
    P.MemoryGib.reset();
    if (!Value.empty()) {
      double D = 0;
      if (Value.getAsDouble(D))
        return refuse("invalid value " + schema::shown(Value) +
                      " for 'platform.memory_gib': expected a number");
      if (auto Message = schema::checkMemoryGib(D))
        return refuse(*Message);
      P.MemoryGib = D;
    }
  } else {
    P.Glibc.reset();
    if (!Value.empty()) {
      Version V;
      if (Result R = parseVersion(Key, Value, V))
        return R;
      P.Glibc = std::move(V);
    }
  }
  P.From = Src;
  F.Platform = std::move(P);
  return std::nullopt;
}

static Result setPackage(Facts &F, StringRef Name, StringRef Value,
                         const Source &Src) {
  if (Value.empty()) {
    F.Packages.erase(Name.str());
    return std::nullopt;
  }
  Version V;
  if (Result R = parseVersion(Name, Value, V))
    return R;
  F.Packages[Name.str()] = PackageFact{std::move(V), Src};
  return std::nullopt;
}

static Result setGcc(Facts &F, StringRef Key, StringRef Value,
                     const Source &Src) {
  return setCompiler(F, Key, Value, Src);
}

static const Handler Handlers[] = {
    {"driver", setDriver},
    {"driver.version", setDriverVersion},
    {"driver.cuda", setDriverVersion},
    {"gpu", setGpu},
    {"nvcc", setNvcc},
    {"nvcc.path", setNvccPath},
    {"nvcc.max_gcc", setNvccMaxCompiler},
    {"nvcc.max_clang", setNvccMaxCompiler},
    {"nvcc.archs", setNvccArchs},
    {"gcc", setGcc},
    {"gcc.path", setCompilerPath},
    {"clang", setGcc},
    {"clang.path", setCompilerPath},
    {"python", setPython},
    {"python.path", setPythonPath},
    {"torch", setTorch},
    {"torch.cuda", setTorchCuda},
    {"torch.cxx11_abi", setTorchAbi},
    {"platform", setPlatform},
    {"platform.os", setPlatformField},
    {"platform.arch", setPlatformField},
    {"platform.cpus", setPlatformField},
    {"platform.memory_gib", setPlatformField},
    {"platform.glibc", setPlatformField},
};

ArrayRef<StringRef> overrideKeys() {
  static const StringRef Keys[] = {
      "driver",
      "driver.version",
      "driver.cuda",
      "gpu",
      "nvcc",
      "nvcc.path",
      "nvcc.max_gcc",
      "nvcc.max_clang",
      "nvcc.archs",
      "gcc",
      "gcc.path",
      "clang",
      "clang.path",
      "python",
      "python.path",
      "torch",
      "torch.cuda",
      "torch.cxx11_abi",
      "platform",
      "platform.os",
      "platform.arch",
      "platform.cpus",
      "platform.memory_gib",
      "platform.glibc",
  };
  static_assert(std::size(Keys) == std::size(Handlers));
  return Keys;
}

/// PEP 508 distribution names: letters, digits, '.', '_', '-', starting and
/// ending with a letter or digit.
static bool isPackageName(StringRef Name) {
  if (Name.empty() || !isAlnum(Name.front()) || !isAlnum(Name.back()))
    return false;
  return all_of(Name, [](char C) {
    return isAlnum(C) || C == '.' || C == '_' || C == '-';
  });
}

static Result applyKey(Facts &F, StringRef Key, StringRef Value,
                       const Source &Src) {
  for (const Handler &H : Handlers)
    if (H.Key == Key)
      return H.Apply(F, Key, Value, Src);

  ArrayRef<StringRef> Keys = overrideKeys();
  StringRef Name = Key;
  if (Name.consume_front("packages.")) {
    if (!isPackageName(Name))
      return refuse("invalid package name " + schema::shown(Name));
    return setPackage(F, Name, Value, Src);
  }
  StringRef Root = Key.take_until([](char C) { return C == '.'; });
  if (Root != Key && is_contained(Keys, Root))
    return refuse("unknown key " + schema::shown(Key),
                  schema::suggest(Key, Keys));
  // triton is a fact of its own (manifests require it by that name).
  if (Key == "triton")
    return setPackage(F, Key, Value, Src);
  // Any other bare name is an error: "--set tirton=3" is a typo, not a
  // package called "tirton". Python distributions are named explicitly.
  if (!isPackageName(Key))
    return refuse("invalid key " + schema::shown(Key),
                  "keys are " + join(Keys, ", ") +
                      ", triton and packages.NAME (a Python distribution)");
  std::vector<StringRef> Candidates(Keys.begin(), Keys.end());
  Candidates.push_back("triton");
  std::vector<std::string> Installed;
  for (const auto &Entry : F.Packages)
    Installed.push_back("packages." + Entry.first);
  for (const std::string &P : Installed)
    Candidates.push_back(P);
  std::string Hint = schema::suggest(Key, Candidates);
  if (Hint.empty())
    Hint = schema::suggest(("packages." + Key).str(), Candidates);
  std::string Explicit = ("packages." + Key + "=" + Value).str();
  return refuse("unknown key " + schema::shown(Key),
                (Hint.empty() ? "" : Hint + " ") +
                    "(for a Python distribution named '" + Key.str() +
                    "', write " + Explicit + ")");
}

static Error refusalError(const Source &Src, StringRef KeyEqValue, Refusal R) {
  std::string Where = Src.By.empty() ? ("--set " + KeyEqValue).str() : Src.By;
  return make_error<DiagnosticError>(SourceLocation{Where, 0, 0},
                                     std::move(R.Message), std::string(),
                                     std::move(R.Hint));
}

Error applyOverride(Facts &F, StringRef KeyEqValue, Source Src) {
  if (!KeyEqValue.contains('='))
    return refusalError(
        Src, KeyEqValue,
        {"expected KEY=VALUE, found " + schema::shown(KeyEqValue),
         "an empty VALUE means absent, e.g. nvcc="});
  auto [RawKey, RawValue] = KeyEqValue.split('=');
  StringRef Key = RawKey.trim();
  StringRef Value = RawValue.trim();
  if (Key.empty())
    return refusalError(Src, KeyEqValue, {"missing key before '='", ""});
  if (Value.contains('\0'))
    return refusalError(
        Src, KeyEqValue,
        {("the value for '" + Key + "' contains a NUL character").str(), ""});
  if (Result R = applyKey(F, Key, Value, Src))
    return refusalError(Src, KeyEqValue, std::move(*R));
  return Error::success();
}

Error applyOverrides(Facts &F, ArrayRef<std::string> Sets) {
  std::vector<Diagnostic> Diags;
  for (const std::string &S : Sets) {
    Error E = applyOverride(F, S, Source::overridden("--set " + S));
    handleAllErrors(
        std::move(E),
        [&](const DiagnosticError &D) { append_range(Diags, D.diagnostics()); },
        [&](const ErrorInfoBase &Info) {
          Diagnostic D;
          D.Loc.File = "--set " + S;
          D.Message = Info.message();
          Diags.push_back(std::move(D));
        });
  }
  if (Diags.empty())
    return Error::success();
  return make_error<DiagnosticError>(std::move(Diags));
}

//===----------------------------------------------------------------------===//
// CUDADEPS_FACTS
//===----------------------------------------------------------------------===//

template <typename Fn> static void forEachSource(Facts &F, Fn Visit) {
  if (F.Driver) {
    Visit(F.Driver->KernelSource);
    Visit(F.Driver->CudaSource);
  }
  for (GpuFacts &G : F.Gpus)
    Visit(G.From);
  for (NvccFacts &N : F.Nvccs)
    Visit(N.From);
  for (CompilerFacts &C : F.Compilers)
    Visit(C.From);
  if (F.Python)
    Visit(F.Python->From);
  if (F.Torch) {
    Visit(F.Torch->From);
    Visit(F.Torch->AbiFrom);
  }
  for (auto &Entry : F.Packages)
    Visit(Entry.second.From);
  if (F.Platform)
    Visit(F.Platform->From);
}

/// Adds a note naming \p Variable to an error from reading its file.
static Error noteEnvironment(Error E, StringRef Path, StringRef Variable) {
  std::vector<Diagnostic> Diags;
  handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &D) { append_range(Diags, D.diagnostics()); },
      [&](const ErrorInfoBase &Info) {
        Diagnostic D;
        D.Loc.File = Path.str();
        D.Message = Info.message();
        Diags.push_back(std::move(D));
      });
  Diagnostic Note;
  Note.Level = Severity::Note;
  Note.Loc.File = Variable.str();
  Note.Message = ("the facts file was named by " + Variable + "=" + Path).str();
  Diags.push_back(std::move(Note));
  return make_error<DiagnosticError>(std::move(Diags));
}

Expected<std::optional<Facts>> loadFactsFromEnv() {
  Optional<std::string> Path = sys::Process::GetEnv("CUDADEPS_FACTS");
  if (!Path || Path->empty())
    return std::nullopt;
  Expected<Facts> F = readFactsFileNamedBy(*Path, "CUDADEPS_FACTS");
  if (!F)
    return F.takeError();
  return std::optional<Facts>(std::move(*F));
}

Expected<Facts> readFactsFileNamedBy(StringRef Path, StringRef Variable) {
  Expected<Facts> F = readFactsFile(Path);
  if (!F)
    return noteEnvironment(F.takeError(), Path, Variable);
  forEachSource(*F, [&](Source &S) {
    if (S.How == Source::Kind::Declared)
      S.From = (S.From.empty() ? S.By : S.From) + " via " + Variable.str();
  });
  return F;
}

Expected<std::optional<Facts>> loadDeclaredFacts(StringRef FactsOption) {
  if (!FactsOption.empty()) {
    Expected<Facts> F = readFactsFile(FactsOption);
    if (!F)
      return F.takeError();
    return std::optional<Facts>(std::move(*F));
  }
  return loadFactsFromEnv();
}

} // namespace cudadeps
