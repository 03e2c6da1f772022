//===- FactsJson.cpp - facts as JSON --------------------------------------===//

#include "core/support/JsonSupport.h"
#include "core/facts/FactsFile.h"
#include "core/facts/FactsSchema.h"
#include "core/support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cudadeps {

namespace schema = facts_schema;

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static StringRef kindName(Source::Kind K) {
  switch (K) {
  case Source::Kind::Probed:
    return "probed";
  case Source::Kind::Declared:
    return "declared";
  case Source::Kind::Overridden:
    return "overridden";
  }
  llvm_unreachable("bad source kind");
}

json::Value sourceToJson(const Source &S) {
  return json::Object{
      {"kind", kindName(S.How)}, {"by", S.By}, {"from", S.From}};
}

/// JSON strings must be UTF-8; bytes that are not become U+FFFD.
static json::Value text(const std::string &S) {
  if (json::isUTF8(S))
    return S;
  return json::fixUTF8(S);
}

json::Value factsToJson(const Facts &F) {
  json::Object Root;
  if (F.Driver) {
    json::Object D;
    if (F.Driver->KernelVersion)
      D["version"] = F.Driver->KernelVersion->str();
    if (F.Driver->Cuda)
      D["cuda"] = F.Driver->Cuda->str();
    D["source"] = sourceToJson(F.Driver->KernelSource);
    D["cuda_source"] = sourceToJson(F.Driver->CudaSource);
    Root["driver"] = std::move(D);
  }
  json::Array Gpus;
  for (const GpuFacts &G : F.Gpus)
    Gpus.push_back(
        json::Object{{"name", text(G.Name)},
                     {"compute_capability",
                      schema::computeCapabilityText(G.ComputeCapability)},
                     {"source", sourceToJson(G.From)}});
  Root["gpu"] = std::move(Gpus);
  json::Array Nvccs;
  for (const NvccFacts &N : F.Nvccs) {
    json::Object O{{"path", text(N.Path)},
                   {"version", N.Ver.str()},
                   {"source", sourceToJson(N.From)}};
    if (N.MaxGcc)
      O["max_gcc"] = static_cast<int64_t>(*N.MaxGcc);
    if (N.MaxClang)
      O["max_clang"] = static_cast<int64_t>(*N.MaxClang);
    json::Array Archs;
    for (const std::string &Arch : N.Archs)
      Archs.push_back(text(Arch));
    O["archs"] = std::move(Archs);
    Nvccs.push_back(std::move(O));
  }
  Root["nvcc"] = std::move(Nvccs);
  json::Array Compilers;
  for (const CompilerFacts &C : F.Compilers)
    Compilers.push_back(json::Object{
        {"path", text(C.Path)},
        {"family", text(C.Family)},
        {"version", C.Ver.str()},
        {"nvcc_default", C.NvccDefault},
        {"chosen_by", C.ChosenBy.empty() ? json::Value(nullptr)
                                         : json::Value(text(C.ChosenBy))},
        {"source", sourceToJson(C.From)}});
  Root["compiler"] = std::move(Compilers);
  if (F.Python)
    Root["python"] = json::Object{{"path", text(F.Python->Path)},
                                  {"version", F.Python->Ver.str()},
                                  {"source", sourceToJson(F.Python->From)}};
  if (F.Torch) {
    json::Object T{{"version", F.Torch->Ver.str()},
                   {"source", sourceToJson(F.Torch->From)}};
    if (F.Torch->Cuda)
      T["cuda"] = F.Torch->Cuda->str();
    if (F.Torch->CudaUnknown)
      T["cuda_unknown"] = true;
    if (F.Torch->Cxx11Abi) {
      T["cxx11_abi"] = *F.Torch->Cxx11Abi;
      T["cxx11_abi_source"] = sourceToJson(F.Torch->AbiFrom);
    }
    Root["torch"] = std::move(T);
  }
  json::Object Packages;
  for (const auto &[Name, Package] : F.Packages)
    Packages[text(Name).getAsString()->str()] = json::Object{
        {"version", Package.Ver.str()}, {"source", sourceToJson(Package.From)}};
  Root["packages"] = std::move(Packages);
  if (F.Platform) {
    const PlatformFacts &P = *F.Platform;
    json::Object O{{"os", text(P.Os)},
                   {"arch", text(P.Arch)},
                   {"source", sourceToJson(P.From)}};
    if (P.Cpus)
      O["cpus"] = static_cast<int64_t>(*P.Cpus);
    if (P.MemoryGib)
      O["memory_gib"] = *P.MemoryGib;
    if (P.Glibc)
      O["glibc"] = P.Glibc->str();
    Root["platform"] = std::move(O);
  }
  return Root;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

static StringRef jsonKind(const json::Value &V) {
  switch (V.kind()) {
  case json::Value::Null:
    return "null";
  case json::Value::Boolean:
    return "boolean";
  case json::Value::Number:
    return "number";
  case json::Value::String:
    return "string";
  case json::Value::Array:
    return "array";
  case json::Value::Object:
    return "object";
  }
  return "value";
}

namespace {

/// Reads the JSON form, collecting every error with its JSON path.
class JsonReader {
public:
  JsonReader(StringRef Origin, const Source &Default)
      : Origin(Origin.str()), Default(Default) {}

  Facts read(const json::Value &V);
  Error takeError() {
    if (Diags.empty())
      return Error::success();
    return make_error<DiagnosticError>(std::move(Diags));
  }

private:
  void error(const Twine &Path, const Twine &Message, StringRef Hint = {}) {
    Diagnostic D;
    D.Loc.File = Origin;
    D.Message = (Path + ": " + Message).str();
    D.Hint = Hint.str();
    Diags.push_back(std::move(D));
  }

  void checkKeys(const json::Object &O, const Twine &Path,
                 ArrayRef<StringRef> Known);
  bool requireKeys(const json::Object &O, const Twine &Path,
                   ArrayRef<StringRef> Keys);
  Source source(const json::Object &O, StringRef Key, const Twine &Path);
  std::optional<std::string> string(const json::Object &O, StringRef Key,
                                    const Twine &Path, bool NonEmpty = false);
  std::optional<Version> version(const json::Object &O, StringRef Key,
                                 const Twine &Path);
  std::optional<int64_t> integer(const json::Object &O, StringRef Key,
                                 const Twine &Path);
  const json::Object *object(const json::Value &V, const Twine &Path);

  void readDriver(const json::Object &O);
  void readGpu(const json::Object &O, const Twine &Path);
  void readNvcc(const json::Object &O, const Twine &Path);
  void readCompiler(const json::Object &O, const Twine &Path);
  void readPython(const json::Object &O);
  void readTorch(const json::Object &O);
  void readPackages(const json::Object &O);
  void readPlatform(const json::Object &O);

  std::string Origin;
  Source Default;
  std::vector<Diagnostic> Diags;
  Facts F;
};

} // namespace

static const StringRef SourceKeys[] = {"kind", "by", "from"};
static const StringRef KindNames[] = {"probed", "declared", "overridden"};

void JsonReader::checkKeys(const json::Object &O, const Twine &Path,
                           ArrayRef<StringRef> Known) {
  std::vector<std::string> Keys;
  for (const auto &KV : O)
    Keys.push_back(KV.first.str());
  llvm::sort(Keys);
  for (const std::string &Key : Keys)
    if (!is_contained(Known, Key))
      error(Path, "unknown key " + schema::shown(Key),
            schema::suggest(Key, Known));
}

bool JsonReader::requireKeys(const json::Object &O, const Twine &Path,
                             ArrayRef<StringRef> Keys) {
  bool Ok = true;
  for (StringRef Key : Keys) {
    if (O.get(Key))
      continue;
    Ok = false;
    // A misspelt key ("verison") was reported as unknown already.
    bool Misspelt = any_of(O, [&](const auto &KV) {
      StringRef Other = KV.first;
      return Other.size() <= 64 && nearestName(Other, {Key}) == Key.str();
    });
    if (!Misspelt)
      error(Path, "missing required key '" + Key + "'");
  }
  return Ok;
}

const json::Object *JsonReader::object(const json::Value &V,
                                       const Twine &Path) {
  if (const json::Object *O = V.getAsObject())
    return O;
  error(Path, "expected an object, found " + jsonKind(V));
  return nullptr;
}

Source JsonReader::source(const json::Object &O, StringRef Key,
                          const Twine &Path) {
  const json::Value *V = O.get(Key);
  if (!V || V->kind() == json::Value::Null)
    return Default;
  std::string Where = (Path + "." + Key).str();
  const json::Object *S = object(*V, Where);
  if (!S)
    return Default;
  checkKeys(*S, Where, SourceKeys);
  Source Out = Default;
  if (auto Kind = string(*S, "kind", Where)) {
    if (*Kind == "probed")
      Out.How = Source::Kind::Probed;
    else if (*Kind == "declared")
      Out.How = Source::Kind::Declared;
    else if (*Kind == "overridden")
      Out.How = Source::Kind::Overridden;
    else
      error(Where + ".kind",
            "invalid source kind " + schema::shown(*Kind) +
                ": expected \"probed\", \"declared\" or \"overridden\"",
            schema::suggest(*Kind, KindNames));
  } else if (!S->get("kind")) {
    error(Where, "missing required key 'kind'");
  }
  Out.By = string(*S, "by", Where).value_or("");
  Out.From = string(*S, "from", Where).value_or("");
  return Out;
}

std::optional<std::string> JsonReader::string(const json::Object &O,
                                              StringRef Key, const Twine &Path,
                                              bool NonEmpty) {
  const json::Value *V = O.get(Key);
  if (!V)
    return std::nullopt;
  auto S = V->getAsString();
  if (!S) {
    error(Path + "." + Key,
          "expected a string for '" + Key + "', found " + jsonKind(*V));
    return std::nullopt;
  }
  if (S->contains('\0')) {
    error(Path + "." + Key, "'" + Key + "' contains a NUL character");
    return std::nullopt;
  }
  if (NonEmpty && S->trim().empty()) {
    error(Path + "." + Key, "'" + Key + "' must not be empty");
    return std::nullopt;
  }
  return S->str();
}

std::optional<Version> JsonReader::version(const json::Object &O, StringRef Key,
                                           const Twine &Path) {
  std::optional<std::string> Text = string(O, Key, Path);
  if (!Text)
    return std::nullopt;
  Version V;
  if (auto Message = schema::checkVersion(*Text, Key, V)) {
    error(Path + "." + Key, *Message);
    return std::nullopt;
  }
  return V;
}

std::optional<int64_t> JsonReader::integer(const json::Object &O, StringRef Key,
                                           const Twine &Path) {
  const json::Value *V = O.get(Key);
  if (!V)
    return std::nullopt;
  if (auto I = V->getAsInteger())
    return *I;
  error(Path + "." + Key,
        "expected an integer for '" + Key + "', found " + jsonKind(*V));
  return std::nullopt;
}

static SmallVector<StringRef, 8> withSource(ArrayRef<StringRef> Keys,
                                            ArrayRef<StringRef> Extra = {}) {
  SmallVector<StringRef, 8> Out(Keys.begin(), Keys.end());
  Out.push_back("source");
  Out.append(Extra.begin(), Extra.end());
  return Out;
}

void JsonReader::readDriver(const json::Object &O) {
  static const StringRef CudaSource[] = {"cuda_source"};
  checkKeys(O, "driver", withSource(schema::keysOf("driver"), CudaSource));
  DriverFacts D;
  D.KernelVersion = version(O, "version", "driver");
  D.Cuda = version(O, "cuda", "driver");
  D.KernelSource = source(O, "source", "driver");
  D.CudaSource = O.get("cuda_source") ? source(O, "cuda_source", "driver")
                                      : D.KernelSource;
  F.Driver = std::move(D);
}

void JsonReader::readGpu(const json::Object &O, const Twine &Path) {
  checkKeys(O, Path, withSource(schema::keysOf("gpu")));
  bool Ok = requireKeys(O, Path, schema::requiredKeysOf("gpu"));
  GpuFacts G;
  G.Name = string(O, "name", Path).value_or("");
  if (auto Text = string(O, "compute_capability", Path)) {
    if (auto Message =
            schema::checkComputeCapability(*Text, G.ComputeCapability)) {
      error(Path + ".compute_capability", *Message);
      Ok = false;
    }
  } else {
    Ok = false;
  }
  G.From = source(O, "source", Path);
  if (Ok)
    F.Gpus.push_back(std::move(G));
}

void JsonReader::readNvcc(const json::Object &O, const Twine &Path) {
  checkKeys(O, Path, withSource(schema::keysOf("nvcc")));
  bool Ok = requireKeys(O, Path, schema::requiredKeysOf("nvcc"));
  NvccFacts N;
  auto P = string(O, "path", Path, /*NonEmpty=*/true);
  auto V = version(O, "version", Path);
  Ok = Ok && P && V;
  if (P)
    N.Path = *P;
  if (V)
    N.Ver = *V;
  for (StringRef Key : {"max_gcc", "max_clang"}) {
    std::optional<int64_t> Major = integer(O, Key, Path);
    if (!Major)
      continue;
    if (auto Message = schema::checkCompilerMajor(*Major, Key)) {
      error(Path + "." + Key, *Message);
      continue;
    }
    (Key == "max_gcc" ? N.MaxGcc : N.MaxClang) = static_cast<unsigned>(*Major);
  }
  if (const json::Value *Archs = O.get("archs")) {
    if (const json::Array *A = Archs->getAsArray()) {
      for (size_t I = 0; I < A->size(); ++I) {
        std::string Where = (Path + ".archs[" + Twine(I) + "]").str();
        auto S = (*A)[I].getAsString();
        if (!S) {
          error(Where, "expected a string, found " + jsonKind((*A)[I]));
          continue;
        }
        if (auto Message = schema::checkArch(*S)) {
          error(Where, *Message);
          continue;
        }
        N.Archs.push_back(S->str());
      }
    } else {
      error(Path + ".archs",
            "expected an array of strings, found " + jsonKind(*Archs));
    }
  }
  N.From = source(O, "source", Path);
  if (Ok)
    F.Nvccs.push_back(std::move(N));
}

void JsonReader::readCompiler(const json::Object &O, const Twine &Path) {
  checkKeys(O, Path, withSource(schema::keysOf("compiler")));
  bool Ok = requireKeys(O, Path, schema::requiredKeysOf("compiler"));
  CompilerFacts C;
  auto P = string(O, "path", Path, /*NonEmpty=*/true);
  auto Family = string(O, "family", Path);
  auto V = version(O, "version", Path);
  if (Family) {
    if (auto Message = schema::checkFamily(*Family)) {
      error(Path + ".family", *Message, schema::familyHint(*Family));
      Family.reset();
    }
  }
  if (const json::Value *D = O.get("nvcc_default")) {
    if (auto B = D->getAsBoolean())
      C.NvccDefault = *B;
    else if (D->kind() != json::Value::Null)
      error(Path + ".nvcc_default",
            "expected a boolean for 'nvcc_default', found " + jsonKind(*D));
  }
  if (const json::Value *By = O.get("chosen_by")) {
    if (auto S = By->getAsString()) {
      if (auto Message = schema::checkChosenBy(*S))
        error(Path + ".chosen_by", *Message);
      else
        C.ChosenBy = S->str();
    } else if (By->kind() != json::Value::Null) {
      error(Path + ".chosen_by",
            "expected a string for 'chosen_by', found " + jsonKind(*By));
    }
  }
  C.From = source(O, "source", Path);
  if (Ok && P && Family && V) {
    C.Path = *P;
    C.Family = *Family;
    C.Ver = *V;
    F.Compilers.push_back(std::move(C));
  }
}

void JsonReader::readPython(const json::Object &O) {
  checkKeys(O, "python", withSource(schema::keysOf("python")));
  bool Ok = requireKeys(O, "python", schema::requiredKeysOf("python"));
  PythonFacts P;
  P.Path = string(O, "path", "python").value_or("");
  auto V = version(O, "version", "python");
  P.From = source(O, "source", "python");
  if (Ok && V) {
    P.Ver = *V;
    F.Python = std::move(P);
  }
}

void JsonReader::readTorch(const json::Object &O) {
  static const StringRef TorchExtra[] = {"cuda_unknown", "cxx11_abi_source"};
  checkKeys(O, "torch", withSource(schema::keysOf("torch"), TorchExtra));
  bool Ok = requireKeys(O, "torch", schema::requiredKeysOf("torch"));
  TorchFacts T;
  auto V = version(O, "version", "torch");
  T.Cuda = version(O, "cuda", "torch");
  if (const json::Value *U = O.get("cuda_unknown")) {
    if (auto B = U->getAsBoolean())
      T.CudaUnknown = *B && !T.Cuda;
    else
      error("torch.cuda_unknown",
            "expected a boolean for 'cuda_unknown', found " + jsonKind(*U));
  }
  if (const json::Value *Abi = O.get("cxx11_abi")) {
    if (auto B = Abi->getAsBoolean())
      T.Cxx11Abi = *B;
    else if (Abi->kind() != json::Value::Null)
      error("torch.cxx11_abi",
            "expected a boolean for 'cxx11_abi', found " + jsonKind(*Abi));
  }
  T.From = source(O, "source", "torch");
  if (O.get("cxx11_abi_source"))
    T.AbiFrom = source(O, "cxx11_abi_source", "torch");
  if (Ok && V) {
    T.Ver = *V;
    F.Torch = std::move(T);
  }
}

void JsonReader::readPackages(const json::Object &O) {
  static const StringRef PackageKeys[] = {"version", "source"};
  for (const auto &KV : O) {
    std::string Name = KV.first.str();
    std::string Path =
        "packages." + (Name.size() > 40 ? Name.substr(0, 40) + "..." : Name);
    if (StringRef(Name).trim().empty()) {
      error("packages", "empty package name");
      continue;
    }
    std::optional<std::string> Text;
    Source From = Default;
    if (auto S = KV.second.getAsString()) {
      Text = S->str();
    } else if (const json::Object *P = KV.second.getAsObject()) {
      checkKeys(*P, Path, PackageKeys);
      if (!P->get("version"))
        error(Path, "missing required key 'version'");
      Text = string(*P, "version", Path);
      From = source(*P, "source", Path);
    } else {
      error(Path, "expected a version string or an object, found " +
                      jsonKind(KV.second));
    }
    if (!Text)
      continue;
    Version V;
    if (auto Message = schema::checkVersion(*Text, Name, V)) {
      error(Path, *Message);
      continue;
    }
    F.Packages[Name] = PackageFact{std::move(V), std::move(From)};
  }
}

void JsonReader::readPlatform(const json::Object &O) {
  checkKeys(O, "platform", withSource(schema::keysOf("platform")));
  PlatformFacts P;
  P.Os = string(O, "os", "platform").value_or("");
  P.Arch = string(O, "arch", "platform").value_or("");
  if (auto Cpus = integer(O, "cpus", "platform")) {
    if (auto Message = schema::checkCpus(*Cpus))
      error("platform.cpus", *Message);
    else
      P.Cpus = static_cast<unsigned>(*Cpus);
  }
  if (const json::Value *M = O.get("memory_gib")) {
    if (auto D = M->getAsNumber()) {
      if (auto Message = schema::checkMemoryGib(*D))
        error("platform.memory_gib", *Message);
      else
        P.MemoryGib = *D;
    } else {
      error("platform.memory_gib",
            "expected a number for 'memory_gib', found " + jsonKind(*M));
    }
  }
  P.Glibc = version(O, "glibc", "platform");
  P.From = source(O, "source", "platform");
  F.Platform = std::move(P);
}

Facts JsonReader::read(const json::Value &V) {
  const json::Object *Root = V.getAsObject();
  if (!Root) {
    error("facts", "expected an object, found " + jsonKind(V));
    return {};
  }
  ArrayRef<StringRef> Tables = schema::tableNames();
  std::vector<std::string> Keys;
  for (const auto &KV : *Root)
    Keys.push_back(KV.first.str());
  // Object order is a hash order; report in a stable order.
  llvm::sort(Keys, [&](const std::string &A, const std::string &B) {
    auto Rank = [&](StringRef K) {
      return std::find(Tables.begin(), Tables.end(), K) - Tables.begin();
    };
    return std::pair(Rank(A), A) < std::pair(Rank(B), B);
  });
  for (const std::string &Key : Keys) {
    const json::Value &Value = *Root->get(Key);
    if (!is_contained(Tables, Key)) {
      error(Key.size() > 40 ? Key.substr(0, 40) + "..." : Key,
            "unknown key " + schema::shown(Key), schema::suggest(Key, Tables));
      continue;
    }
    if (Value.kind() == json::Value::Null)
      continue; // null = absent
    if (schema::isArrayTable(Key)) {
      const json::Array *A = Value.getAsArray();
      if (!A) {
        error(Key, "expected an array, found " + jsonKind(Value));
        continue;
      }
      for (size_t I = 0; I < A->size(); ++I) {
        std::string Path = (Key + "[" + Twine(I) + "]").str();
        const json::Object *O = object((*A)[I], Path);
        if (!O)
          continue;
        if (Key == "gpu")
          readGpu(*O, Path);
        else if (Key == "nvcc")
          readNvcc(*O, Path);
        else
          readCompiler(*O, Path);
      }
      continue;
    }
    const json::Object *O = object(Value, Key);
    if (!O)
      continue;
    if (Key == "driver")
      readDriver(*O);
    else if (Key == "python")
      readPython(*O);
    else if (Key == "torch")
      readTorch(*O);
    else if (Key == "packages")
      readPackages(*O);
    else
      readPlatform(*O);
  }
  return std::move(F);
}

Expected<Facts> factsFromJson(const json::Value &V, StringRef Origin,
                              const Source &Default) {
  JsonReader Reader(Origin, Default);
  Facts F = Reader.read(V);
  if (Error E = Reader.takeError())
    return E;
  return F;
}

Expected<Facts> factsFromJson(const json::Value &V, StringRef Origin) {
  return factsFromJson(V, Origin, Source::declared(Origin.str()));
}

Expected<Facts> factsFromJsonText(StringRef Text, StringRef Origin,
                                  const Source &Default) {
  if (std::optional<size_t> Offset = findJsonTooDeep(Text)) {
    StringRef Before = Text.take_front(*Offset);
    unsigned Line = 1 + Before.count('\n');
    size_t LineStart = Before.rfind('\n');
    unsigned Col =
        *Offset - (LineStart == StringRef::npos ? 0 : LineStart + 1) + 1;
    return make_error<DiagnosticError>(SourceLocation{Origin.str(), Line, Col},
                                       "invalid JSON: nested more than " +
                                           std::to_string(MaxJsonDepth) +
                                           " levels deep",
                                       sourceLine(Text, Line));
  }
  Expected<json::Value> V = json::parse(Text);
  if (!V) {
    // json::ParseError says "[3:5, byte=20]: Expected ..."; keep the
    // location as a location.
    unsigned Line = 0, Col = 0;
    std::string Message;
    handleAllErrors(
        V.takeError(),
        [&](const json::ParseError &E) {
          std::string Full = E.message();
          Message = Full;
          StringRef Rest(Full);
          if (Rest.consume_front("[")) {
            StringRef Where = Rest.take_until([](char C) { return C == ','; });
            auto [L, C] = Where.split(':');
            if (!L.getAsInteger(10, Line) && !C.getAsInteger(10, Col)) {
              size_t Close = Rest.find("]: ");
              if (Close != StringRef::npos)
                Message = Rest.substr(Close + 3).str();
            }
          }
        },
        [&](const ErrorInfoBase &E) { Message = E.message(); });
    if (!Message.empty())
      Message[0] = toLower(Message[0]);
    return make_error<DiagnosticError>(SourceLocation{Origin.str(), Line, Col},
                                       "invalid JSON: " + Message,
                                       sourceLine(Text, Line));
  }
  return factsFromJson(*V, Origin, Default);
}

} // namespace cudadeps
