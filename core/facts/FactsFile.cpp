//===- FactsFile.cpp - reading and writing facts files (TOML) -------------===//

#include "core/facts/FactsFile.h"
#include "core/facts/FactsSchema.h"
#include "core/support/BoundedFile.h"
#include "core/support/Diagnostic.h"
#include "core/support/Printable.h"
#include "core/support/TomlSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>

using namespace llvm;

namespace cudadeps {

namespace schema = facts_schema;

//===----------------------------------------------------------------------===//
// Checks on the raw text
//===----------------------------------------------------------------------===//

/// Reports text that is not a facts file at all: NUL bytes or bytes that
/// are not UTF-8. Such files are reported at 1:1.
static bool checkIsText(StringRef Text, DiagnosticEngine &Diags) {
  size_t Nul = Text.find('\0');
  if (Nul != StringRef::npos) {
    Diags.error(1, 1,
                "not a facts file: it contains NUL bytes (offset " +
                    Twine(Nul) + ")",
                "a facts file is TOML text; write one with `cudadeps probe "
                "--format toml`");
    return false;
  }
  const UTF8 *Begin = reinterpret_cast<const UTF8 *>(Text.begin());
  const UTF8 *End = reinterpret_cast<const UTF8 *>(Text.end());
  const UTF8 *Cursor = Begin;
  if (!isLegalUTF8String(&Cursor, End)) {
    size_t Offset = Cursor - Begin;
    StringRef Before = Text.take_front(Offset);
    unsigned Line = 1 + Before.count('\n');
    size_t LineStart = Before.rfind('\n');
    unsigned Col =
        Offset - (LineStart == StringRef::npos ? 0 : LineStart + 1) + 1;
    Diags.error(1, 1,
                "not a facts file: it is not UTF-8 text (invalid byte at " +
                    Twine(Line) + ":" + Twine(Col) + ")",
                "a facts file is TOML text; write one with `cudadeps probe "
                "--format toml`");
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

static StringRef typeName(toml::node_type T) {
  switch (T) {
  case toml::node_type::none:
    return "nothing";
  case toml::node_type::table:
    return "table";
  case toml::node_type::array:
    return "array";
  case toml::node_type::string:
    return "string";
  case toml::node_type::integer:
    return "integer";
  case toml::node_type::floating_point:
    return "float";
  case toml::node_type::boolean:
    return "boolean";
  case toml::node_type::date:
    return "date";
  case toml::node_type::time:
    return "time";
  case toml::node_type::date_time:
    return "date-time";
  }
  return "value";
}

namespace {

struct Entry {
  std::string Key;
  toml::source_region KeyWhere;
  const toml::node *Node;
};

/// A TOML table's entries in the order they appear in the file (TOML++
/// keeps them sorted by key), so that diagnostics come out in file order.
std::vector<Entry> entriesInFileOrder(const toml::table &T) {
  std::vector<Entry> Out;
  for (auto &&[Key, Node] : T)
    Out.push_back({std::string(Key.str()), Key.source(), &Node});
  std::stable_sort(Out.begin(), Out.end(), [](const Entry &A, const Entry &B) {
    return std::pair(A.KeyWhere.begin.line, A.KeyWhere.begin.column) <
           std::pair(B.KeyWhere.begin.line, B.KeyWhere.begin.column);
  });
  return Out;
}

class TomlReader {
public:
  TomlReader(DiagnosticEngine &Diags, StringRef File)
      : Diags(Diags), File(File.str()) {}

  Facts read(const toml::table &Root);
  /// Hands the errors to the engine in file order.
  void flush();

private:
  struct Pending {
    unsigned Line, Column;
    std::string Message, Hint;
  };
  void error(const toml::source_region &Where, const Twine &Message,
             StringRef Hint = {}) {
    Errors.push_back(
        {Where.begin.line, Where.begin.column, Message.str(), Hint.str()});
  }
  Source sourceAt(const toml::source_region &Where) const {
    return Source::declared(File,
                            File + ":" + std::to_string(Where.begin.line));
  }

  /// Reports unknown keys; returns the known keys they look like typos of.
  std::vector<std::string> checkKeys(const toml::table &T, StringRef Table,
                                     StringRef Label);
  /// Reports missing required keys, except those in \p Misspelt (already
  /// reported as a typo). False if one is missing.
  bool requireKeys(const toml::table &T, StringRef Table, StringRef Label,
                   ArrayRef<std::string> Misspelt);

  std::optional<std::string> getString(const toml::table &T, StringRef Key,
                                       bool NonEmpty = false);
  std::optional<Version> getVersion(const toml::table &T, StringRef Key);
  std::optional<int64_t> getInteger(const toml::table &T, StringRef Key);
  std::optional<double> getNumber(const toml::table &T, StringRef Key);
  std::optional<bool> getBool(const toml::table &T, StringRef Key);
  void expected(const toml::node &N, StringRef What, StringRef Key) {
    error(N.source(), "expected " + What + " for '" + Key + "', found " +
                          typeName(N.type()));
  }

  void readTable(StringRef Name, const toml::table &T);
  void readArrayEntry(StringRef Name, const toml::table &T);
  void readDriver(const toml::table &T);
  void readGpu(const toml::table &T);
  void readNvcc(const toml::table &T);
  void readCompiler(const toml::table &T);
  void readPython(const toml::table &T);
  void readTorch(const toml::table &T);
  void readPackages(const toml::table &T);
  void readPlatform(const toml::table &T);

  DiagnosticEngine &Diags;
  std::string File;
  Facts F;
  std::vector<Pending> Errors;
};

} // namespace

void TomlReader::flush() {
  std::stable_sort(
      Errors.begin(), Errors.end(), [](const Pending &A, const Pending &B) {
        return std::pair(A.Line, A.Column) < std::pair(B.Line, B.Column);
      });
  for (Pending &P : Errors)
    Diags.error(std::max(1u, P.Line), std::max(1u, P.Column), P.Message,
                P.Hint);
  Errors.clear();
}

std::vector<std::string>
TomlReader::checkKeys(const toml::table &T, StringRef Table, StringRef Label) {
  ArrayRef<StringRef> Known = schema::keysOf(Table);
  std::vector<std::string> Misspelt;
  for (const Entry &E : entriesInFileOrder(T)) {
    if (is_contained(Known, E.Key))
      continue;
    std::optional<std::string> Near;
    if (E.Key.size() <= 64)
      Near = nearestName(E.Key, Known);
    error(E.KeyWhere, "unknown key " + schema::shown(E.Key) + " in " + Label,
          Near ? "did you mean '" + *Near + "'?" : "");
    if (Near)
      Misspelt.push_back(*Near);
  }
  return Misspelt;
}

bool TomlReader::requireKeys(const toml::table &T, StringRef Table,
                             StringRef Label, ArrayRef<std::string> Misspelt) {
  bool Ok = true;
  for (StringRef Key : schema::requiredKeysOf(Table)) {
    if (T.contains(std::string_view(Key.data(), Key.size())))
      continue;
    Ok = false;
    if (!is_contained(Misspelt, Key))
      error(T.source(), "missing required key '" + Key + "' in " + Label);
  }
  return Ok;
}

static const toml::node *lookup(const toml::table &T, StringRef Key) {
  return T.get(std::string_view(Key.data(), Key.size()));
}

std::optional<std::string> TomlReader::getString(const toml::table &T,
                                                 StringRef Key, bool NonEmpty) {
  const toml::node *N = lookup(T, Key);
  if (!N)
    return std::nullopt;
  const auto *S = N->as_string();
  if (!S) {
    expected(*N, "a string", Key);
    return std::nullopt;
  }
  const std::string &Value = S->get();
  if (Value.find('\0') != std::string::npos) {
    error(N->source(), "'" + Key + "' contains a NUL character");
    return std::nullopt;
  }
  if (NonEmpty && StringRef(Value).trim().empty()) {
    error(N->source(), "'" + Key + "' must not be empty");
    return std::nullopt;
  }
  return Value;
}

std::optional<Version> TomlReader::getVersion(const toml::table &T,
                                              StringRef Key) {
  std::optional<std::string> Text = getString(T, Key);
  if (!Text)
    return std::nullopt;
  Version V;
  if (auto Message = schema::checkVersion(*Text, Key, V)) {
    error(lookup(T, Key)->source(), *Message);
    return std::nullopt;
  }
  return V;
}

std::optional<int64_t> TomlReader::getInteger(const toml::table &T,
                                              StringRef Key) {
  const toml::node *N = lookup(T, Key);
  if (!N)
    return std::nullopt;
  if (const auto *I = N->as_integer())
    return I->get();
  expected(*N, "an integer", Key);
  return std::nullopt;
}

std::optional<double> TomlReader::getNumber(const toml::table &T,
                                            StringRef Key) {
  const toml::node *N = lookup(T, Key);
  if (!N)
    return std::nullopt;
  if (const auto *I = N->as_integer())
    return static_cast<double>(I->get());
  if (const auto *D = N->as_floating_point())
    return D->get();
  expected(*N, "a number", Key);
  return std::nullopt;
}

std::optional<bool> TomlReader::getBool(const toml::table &T, StringRef Key) {
  const toml::node *N = lookup(T, Key);
  if (!N)
    return std::nullopt;
  if (const auto *B = N->as_boolean())
    return B->get();
  expected(*N, "a boolean (true or false)", Key);
  return std::nullopt;
}

void TomlReader::readDriver(const toml::table &T) {
  checkKeys(T, "driver", "[driver]");
  DriverFacts D;
  D.KernelSource = D.CudaSource = sourceAt(T.source());
  D.KernelVersion = getVersion(T, "version");
  if (D.KernelVersion)
    D.KernelSource = sourceAt(lookup(T, "version")->source());
  D.Cuda = getVersion(T, "cuda");
  if (D.Cuda)
    D.CudaSource = sourceAt(lookup(T, "cuda")->source());
  F.Driver = std::move(D);
}

void TomlReader::readGpu(const toml::table &T) {
  std::vector<std::string> Misspelt = checkKeys(T, "gpu", "[[gpu]]");
  bool Ok = requireKeys(T, "gpu", "[[gpu]]", Misspelt);
  GpuFacts G;
  G.From = sourceAt(T.source());
  if (auto Name = getString(T, "name"))
    G.Name = *Name;
  if (auto Text = getString(T, "compute_capability")) {
    if (auto Message =
            schema::checkComputeCapability(*Text, G.ComputeCapability)) {
      error(lookup(T, "compute_capability")->source(), *Message);
      Ok = false;
    }
  } else {
    Ok = false;
  }
  if (Ok)
    F.Gpus.push_back(std::move(G));
}

void TomlReader::readNvcc(const toml::table &T) {
  std::vector<std::string> Misspelt = checkKeys(T, "nvcc", "[[nvcc]]");
  bool Ok = requireKeys(T, "nvcc", "[[nvcc]]", Misspelt);
  NvccFacts N;
  N.From = sourceAt(T.source());
  auto Path = getString(T, "path", /*NonEmpty=*/true);
  auto Ver = getVersion(T, "version");
  Ok = Ok && Path && Ver;
  if (Path)
    N.Path = *Path;
  if (Ver)
    N.Ver = *Ver;
  for (StringRef Key : {"max_gcc", "max_clang"}) {
    std::optional<int64_t> Major = getInteger(T, Key);
    if (!Major)
      continue;
    if (auto Message = schema::checkCompilerMajor(*Major, Key)) {
      error(lookup(T, Key)->source(), *Message);
      continue;
    }
    (Key == "max_gcc" ? N.MaxGcc : N.MaxClang) = static_cast<unsigned>(*Major);
  }
  if (const toml::node *Archs = lookup(T, "archs")) {
    if (const auto *A = Archs->as_array()) {
      for (const toml::node &Arch : *A) {
        const auto *S = Arch.as_string();
        if (!S) {
          error(Arch.source(),
                "expected a string in 'archs', found " + typeName(Arch.type()));
          continue;
        }
        if (auto Message = schema::checkArch(S->get())) {
          error(Arch.source(), *Message);
          continue;
        }
        N.Archs.push_back(S->get());
      }
    } else {
      expected(*Archs, "an array of strings", "archs");
    }
  }
  if (Ok)
    F.Nvccs.push_back(std::move(N));
}

void TomlReader::readCompiler(const toml::table &T) {
  std::vector<std::string> Misspelt = checkKeys(T, "compiler", "[[compiler]]");
  bool Ok = requireKeys(T, "compiler", "[[compiler]]", Misspelt);
  CompilerFacts C;
  C.From = sourceAt(T.source());
  auto Path = getString(T, "path", /*NonEmpty=*/true);
  auto Family = getString(T, "family");
  auto Ver = getVersion(T, "version");
  if (Family) {
    if (auto Message = schema::checkFamily(*Family)) {
      error(lookup(T, "family")->source(), *Message,
            schema::familyHint(*Family));
      Family.reset();
    }
  }
  C.NvccDefault = getBool(T, "nvcc_default").value_or(false);
  if (auto By = getString(T, "chosen_by")) {
    if (auto Message = schema::checkChosenBy(*By))
      error(lookup(T, "chosen_by")->source(), *Message, "");
    else
      C.ChosenBy = *By;
  }
  if (Ok && Path && Family && Ver) {
    C.Path = *Path;
    C.Family = *Family;
    C.Ver = *Ver;
    F.Compilers.push_back(std::move(C));
  }
}

void TomlReader::readPython(const toml::table &T) {
  std::vector<std::string> Misspelt = checkKeys(T, "python", "[python]");
  bool Ok = requireKeys(T, "python", "[python]", Misspelt);
  PythonFacts P;
  P.From = sourceAt(T.source());
  if (auto Path = getString(T, "path", /*NonEmpty=*/true))
    P.Path = *Path;
  auto Ver = getVersion(T, "version");
  if (Ok && Ver) {
    P.Ver = *Ver;
    F.Python = std::move(P);
  }
}

void TomlReader::readTorch(const toml::table &T) {
  std::vector<std::string> Misspelt = checkKeys(T, "torch", "[torch]");
  bool Ok = requireKeys(T, "torch", "[torch]", Misspelt);
  TorchFacts Torch;
  Torch.From = sourceAt(T.source());
  auto Ver = getVersion(T, "version");
  const toml::node *Cuda = lookup(T, "cuda");
  if (Cuda && Cuda->value<std::string_view>() == "none") {
    // torch.version.cuda is None: a CPU build, said explicitly.
  } else if (Cuda) {
    Torch.Cuda = getVersion(T, "cuda");
  } else if (Ver) {
    // No `cuda` key: the local label tells (+cu128 -> 12.8, +cpu -> none);
    // without one, whether torch is a CUDA build is not known.
    if (auto FromLabel = torchCudaOfLocal(Ver->local()))
      Torch.Cuda = *FromLabel;
    else
      Torch.CudaUnknown = true;
  }
  Torch.Cxx11Abi = getBool(T, "cxx11_abi");
  if (const toml::node *Abi = lookup(T, "cxx11_abi"))
    Torch.AbiFrom = sourceAt(Abi->source());
  if (Ok && Ver) {
    Torch.Ver = *Ver;
    F.Torch = std::move(Torch);
  }
}

void TomlReader::readPackages(const toml::table &T) {
  for (const Entry &E : entriesInFileOrder(T)) {
    if (StringRef(E.Key).trim().empty()) {
      error(E.KeyWhere, "empty package name in [packages]");
      continue;
    }
    const auto *S = E.Node->as_string();
    if (!S) {
      error(E.Node->source(),
            "expected a version string for package " + schema::shown(E.Key) +
                ", found " + typeName(E.Node->type()),
            E.Node->is_table() ? "write one `name = \"version\"` line per "
                                 "package"
                               : "");
      continue;
    }
    Version V;
    if (auto Message = schema::checkVersion(S->get(), E.Key, V)) {
      error(E.Node->source(), *Message);
      continue;
    }
    F.Packages[E.Key] = PackageFact{std::move(V), sourceAt(E.KeyWhere)};
  }
}

void TomlReader::readPlatform(const toml::table &T) {
  checkKeys(T, "platform", "[platform]");
  PlatformFacts P;
  P.From = sourceAt(T.source());
  if (auto Os = getString(T, "os", /*NonEmpty=*/true))
    P.Os = *Os;
  if (auto Arch = getString(T, "arch", /*NonEmpty=*/true))
    P.Arch = *Arch;
  if (auto Cpus = getInteger(T, "cpus")) {
    if (auto Message = schema::checkCpus(*Cpus))
      error(lookup(T, "cpus")->source(), *Message);
    else
      P.Cpus = static_cast<unsigned>(*Cpus);
  }
  if (auto Memory = getNumber(T, "memory_gib")) {
    if (auto Message = schema::checkMemoryGib(*Memory))
      error(lookup(T, "memory_gib")->source(), *Message);
    else
      P.MemoryGib = *Memory;
  }
  P.Glibc = getVersion(T, "glibc");
  F.Platform = std::move(P);
}

void TomlReader::readTable(StringRef Name, const toml::table &T) {
  if (Name == "driver")
    readDriver(T);
  else if (Name == "python")
    readPython(T);
  else if (Name == "torch")
    readTorch(T);
  else if (Name == "packages")
    readPackages(T);
  else if (Name == "platform")
    readPlatform(T);
}

void TomlReader::readArrayEntry(StringRef Name, const toml::table &T) {
  if (Name == "gpu")
    readGpu(T);
  else if (Name == "nvcc")
    readNvcc(T);
  else if (Name == "compiler")
    readCompiler(T);
}

Facts TomlReader::read(const toml::table &Root) {
  ArrayRef<StringRef> Tables = schema::tableNames();
  for (const Entry &E : entriesInFileOrder(Root)) {
    const toml::node &N = *E.Node;
    if (!is_contained(Tables, E.Key)) {
      bool IsTable = N.is_table() || N.is_array_of_tables();
      error(E.KeyWhere,
            Twine("unknown ") + (IsTable ? "table" : "key") + " " +
                schema::shown(E.Key),
            schema::suggest(E.Key, Tables));
      continue;
    }
    if (schema::isArrayTable(E.Key)) {
      const auto *A = N.as_array();
      if (!A) {
        error(N.source(),
              "expected an array of tables for '" + E.Key + "', found " +
                  typeName(N.type()),
              ("write [[" + E.Key + "]] once per entry"));
        continue;
      }
      for (const toml::node &Element : *A) {
        if (const auto *T = Element.as_table())
          readArrayEntry(E.Key, *T);
        else
          error(Element.source(),
                "expected a table in '" + E.Key + "', found " +
                    typeName(Element.type()),
                ("write [[" + E.Key + "]] once per entry"));
      }
      continue;
    }
    const auto *T = N.as_table();
    if (!T) {
      error(N.source(),
            "expected a table for '" + E.Key + "', found " + typeName(N.type()),
            ("write [" + E.Key + "] and its keys on the lines below"));
      continue;
    }
    readTable(E.Key, *T);
  }
  return std::move(F);
}

/// TOML++ says "Error while parsing key-value pair: expected '='"; make it
/// a cudadeps diagnostic (lowercase, says what kind of error).
static std::string syntaxMessage(std::string_view Description) {
  std::string Message(Description);
  StringRef Prefix = "Error while parsing ";
  if (StringRef(Message).startswith(Prefix))
    return "syntax error in " + Message.substr(Prefix.size());
  if (!Message.empty())
    Message[0] = toLower(Message[0]);
  return "syntax error: " + Message;
}

/// The byte offset of 1-based \p Line, \p Col in \p Text (columns counted
/// in bytes), clamped to the text.
static size_t offsetOf(StringRef Text, unsigned Line, unsigned Col) {
  size_t Pos = 0;
  for (unsigned L = 1; L < Line; ++L) {
    size_t NL = Text.find('\n', Pos);
    if (NL == StringRef::npos)
      return Text.size();
    Pos = NL + 1;
  }
  return std::min(Text.size(), Pos + (Col ? Col - 1 : 0));
}

/// Makes TOML++'s syntax errors say what went wrong where a user would look.
static void reportSyntaxError(const TomlSyntaxError &E, StringRef Text,
                              DiagnosticEngine &Diags) {
  unsigned Line = E.Line;
  unsigned Col = E.Column;
  std::string Message = syntaxMessage(E.Description);
  size_t At = offsetOf(Text, Line, Col);
  char C = At < Text.size() ? Text[At] : '\n';
  StringRef Description(E.Description);
  if (Description.startswith("Error while parsing string") &&
      (C == '\n' || C == '\r'))
    Message = "syntax error: unterminated string (no closing quote on this "
              "line)";
  if (Description.contains("not representable")) {
    // TOML++ points after the number; point at its start.
    size_t Start = At;
    while (Start > 0 && (isAlnum(Text[Start - 1]) || Text[Start - 1] == '_' ||
                         Text[Start - 1] == '+' || Text[Start - 1] == '-'))
      --Start;
    Col -= At - Start;
  }
  Diags.error(Line, Col, Message);
}

Expected<Facts> parseFactsToml(StringRef Text, StringRef FileName) {
  {
    // No source line for a file that is not text: it would echo binary.
    DiagnosticEngine NotText(FileName.str());
    if (!checkIsText(Text, NotText))
      return NotText.takeError();
  }
  DiagnosticEngine Diags(FileName.str(), Text.str());
  Expected<toml::table> Parsed = parseToml(Text, FileName);
  if (!Parsed) {
    handleAllErrors(
        Parsed.takeError(),
        [&](const TomlSyntaxError &E) {
          if (E.Guard)
            Diags.error(E.Line, E.Column, E.Message);
          else
            reportSyntaxError(E, Text, Diags);
        },
        [&](const ErrorInfoBase &E) { Diags.error(1, 1, E.message()); });
    return Diags.takeError();
  }
  TomlReader Reader(Diags, FileName);
  Facts F = Reader.read(*Parsed);
  Reader.flush();
  if (Error E = Diags.takeError())
    return E;
  return F;
}

Expected<Facts> readFactsFile(StringRef Path) {
  Expected<std::string> Text =
      readBoundedFile(Path, MaxFactsFileSize, "facts file");
  if (!Text)
    return make_error<DiagnosticError>(SourceLocation{Path.str(), 0, 0},
                                       toString(Text.takeError()));
  return parseFactsToml(*Text, Path);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static std::string quote(StringRef S) { return tomlString(S); }

static std::string tomlKey(StringRef Key) {
  bool Bare = !Key.empty() && all_of(Key, [](char C) {
    return isAlnum(C) || C == '_' || C == '-';
  });
  return Bare ? Key.str() : quote(Key);
}

/// The shortest text that reads back as the same double.
static std::string formatNumber(double D) {
  if (std::isfinite(D) && D == std::floor(D) && std::fabs(D) < 1e15)
    return std::to_string(static_cast<int64_t>(D));
  char Buffer[64];
  auto [End, Ec] = std::to_chars(Buffer, Buffer + sizeof(Buffer), D);
  std::string Text(Buffer, End);
  if (Text == "inf")
    return "inf";
  if (Text.find_first_of(".en") == std::string::npos)
    Text += ".0";
  return Text;
}

/// A comment naming where a fact came from. TOML comments may not hold
/// control characters (nor anything but UTF-8): a path or --set value that
/// has them is written with visible escapes, so the file reads back.
static void comment(raw_ostream &OS, const Source &S) {
  OS << "# " << printableText(S.describe()) << '\n';
}

std::string writeFactsToml(const Facts &F) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "# cudadeps facts: what one machine has (read with --facts FILE)\n"
     << "# a missing table means absent: no [[nvcc]] = no CUDA toolkit\n";
  if (F.Driver) {
    const DriverFacts &D = *F.Driver;
    OS << '\n';
    if (!D.KernelVersion && !D.Cuda)
      comment(OS, D.KernelSource);
    OS << "[driver]\n";
    if (D.KernelVersion) {
      comment(OS, D.KernelSource);
      OS << "version = " << quote(D.KernelVersion->str()) << '\n';
    }
    if (D.Cuda) {
      comment(OS, D.CudaSource);
      OS << "cuda = " << quote(D.Cuda->str()) << '\n';
    }
  }
  for (const GpuFacts &G : F.Gpus) {
    OS << '\n';
    comment(OS, G.From);
    OS << "[[gpu]]\n";
    if (!G.Name.empty())
      OS << "name = " << quote(G.Name) << '\n';
    OS << "compute_capability = "
       << quote(facts_schema::computeCapabilityText(G.ComputeCapability))
       << '\n';
  }
  for (const NvccFacts &N : F.Nvccs) {
    OS << '\n';
    comment(OS, N.From);
    OS << "[[nvcc]]\n"
       << "path = " << quote(N.Path) << '\n'
       << "version = " << quote(N.Ver.str()) << '\n';
    if (N.MaxGcc)
      OS << "max_gcc = " << *N.MaxGcc << '\n';
    if (N.MaxClang)
      OS << "max_clang = " << *N.MaxClang << '\n';
    if (!N.Archs.empty()) {
      OS << "archs = [";
      ListSeparator Sep(", ");
      for (const std::string &Arch : N.Archs)
        OS << Sep << quote(Arch);
      OS << "]\n";
    }
  }
  for (const CompilerFacts &C : F.Compilers) {
    OS << '\n';
    comment(OS, C.From);
    OS << "[[compiler]]\n"
       << "path = " << quote(C.Path) << '\n'
       << "family = " << quote(C.Family) << '\n'
       << "version = " << quote(C.Ver.str()) << '\n';
    if (C.NvccDefault)
      OS << "nvcc_default = true\n";
    if (!C.ChosenBy.empty())
      OS << "chosen_by = " << quote(C.ChosenBy) << '\n';
  }
  if (F.Python) {
    OS << '\n';
    comment(OS, F.Python->From);
    OS << "[python]\n";
    if (!F.Python->Path.empty())
      OS << "path = " << quote(F.Python->Path) << '\n';
    OS << "version = " << quote(F.Python->Ver.str()) << '\n';
  }
  if (F.Torch) {
    OS << '\n';
    comment(OS, F.Torch->From);
    OS << "[torch]\n"
       << "version = " << quote(F.Torch->Ver.str()) << '\n';
    if (F.Torch->Cuda)
      OS << "cuda = " << quote(F.Torch->Cuda->str()) << '\n';
    else if (!F.Torch->CudaUnknown)
      OS << "cuda = \"none\"  # torch.version.cuda is None: a CPU build\n";
    if (F.Torch->Cxx11Abi) {
      // Where the ABI came from, unless that is this table's own file.
      const Source &A = F.Torch->AbiFrom, &T = F.Torch->From;
      bool SameFile = A.How == Source::Kind::Declared &&
                      (A.By.empty() ||
                       (T.How == Source::Kind::Declared && A.By == T.By));
      if (!SameFile)
        comment(OS, A);
      OS << "cxx11_abi = " << (*F.Torch->Cxx11Abi ? "true" : "false") << '\n';
    }
  }
  if (!F.Packages.empty()) {
    OS << "\n[packages]\n";
    for (const auto &[Name, Package] : F.Packages) {
      comment(OS, Package.From);
      OS << tomlKey(Name) << " = " << quote(Package.Ver.str()) << '\n';
    }
  }
  if (F.Platform) {
    const PlatformFacts &P = *F.Platform;
    OS << '\n';
    comment(OS, P.From);
    OS << "[platform]\n";
    if (!P.Os.empty())
      OS << "os = " << quote(P.Os) << '\n';
    if (!P.Arch.empty())
      OS << "arch = " << quote(P.Arch) << '\n';
    if (P.Cpus)
      OS << "cpus = " << *P.Cpus << '\n';
    if (P.MemoryGib)
      OS << "memory_gib = " << formatNumber(*P.MemoryGib) << '\n';
    if (P.Glibc)
      OS << "glibc = " << quote(P.Glibc->str()) << '\n';
  }
  return Out;
}

} // namespace cudadeps
