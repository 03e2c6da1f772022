//===- CudaRuntimeProbe.cpp - the "cuda-runtime" probe --------------------===//

#include "plugins/cuda-runtime/CudaRuntimeProbe.h"

#include "core/inspect/SharedObject.h"
#include "plugins/cuda-runtime/PythonEnvironments.h"
#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <spdlog/spdlog.h>

namespace cudadeps {
namespace runtime {

/// The value of a Python string literal or None on the right of `Name =`
/// (optionally annotated: `Name: Optional[str] = ...`).
static std::optional<std::optional<std::string>>
assignedString(llvm::StringRef Text, llvm::StringRef Name) {
  llvm::Regex Assign(("^" + Name + "[ \t]*(:[^=]*)?=[ \t]*(None|'([^']*)'|\"([^\"]*)\")").str());
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 5> M;
    if (!Assign.match(Line.rtrim(), &M))
      continue;
    if (M[2] == "None")
      return std::optional<std::string>();
    return std::optional<std::string>(M[3].empty() ? M[4].str() : M[3].str());
  }
  return std::nullopt;
}

std::optional<TorchVersionFile> parseTorchVersionPy(llvm::StringRef Text) {
  std::optional<std::optional<std::string>> V = assignedString(Text, "__version__");
  if (!V || !*V || (*V)->empty())
    return std::nullopt;
  TorchVersionFile F;
  F.Version = **V;
  if (std::optional<std::optional<std::string>> C = assignedString(Text, "cuda"))
    F.Cuda = *C;
  return F;
}

std::optional<bool> parseCxx11Abi(llvm::StringRef CMakeText) {
  llvm::SmallVector<llvm::StringRef, 2> M;
  if (llvm::Regex("_GLIBCXX_USE_CXX11_ABI=([01])").match(CMakeText, &M))
    return M[1] == "1";
  return std::nullopt;
}

std::optional<bool> cxx11AbiOfSymbols(llvm::ArrayRef<std::string> Needed,
                                      llvm::ArrayRef<std::string> Defined) {
  bool New = false, Old = false;
  auto Look = [&](llvm::StringRef S) {
    // std::__cxx11::basic_string<...> members, and any name carrying the
    // [abi:cxx11] tag libstdc++ adds to functions returning such strings.
    if (S.startswith("_ZNSt7__cxx11") || S.startswith("_ZNKSt7__cxx11") ||
        S.contains("B5cxx11"))
      New = true;
    // Members of the pre-C++11 std::string (std::basic_string<char>, "Ss").
    else if (S.startswith("_ZNSs") || S.startswith("_ZNKSs"))
      Old = true;
  };
  for (const std::string &S : Needed)
    Look(S);
  for (const std::string &S : Defined)
    Look(S);
  if (New == Old)
    return std::nullopt;
  return New;
}

std::string normalizeDistributionName(llvm::StringRef Name) {
  std::string Out;
  bool Separator = false;
  for (char C : Name.trim()) {
    if (C == '-' || C == '_' || C == '.') {
      Separator = true;
      continue;
    }
    if (Separator && !Out.empty())
      Out += '-';
    Separator = false;
    Out += llvm::toLower(C);
  }
  return Out;
}

std::optional<std::pair<std::string, std::string>>
parseDistInfoDirName(llvm::StringRef DirName) {
  llvm::StringRef Stem = DirName;
  if (!Stem.consume_back(".dist-info") && !Stem.consume_back(".egg-info"))
    return std::nullopt;
  // Wheel names escape '-' in the name as '_', so the first '-' ends it.
  auto [Name, Rest] = Stem.split('-');
  llvm::StringRef Ver = Rest.split('-').first; // egg-info: "1.0-py3.11"
  if (Name.empty() || Ver.empty())
    return std::nullopt;
  return std::make_pair(normalizeDistributionName(Name), Ver.str());
}

std::optional<std::pair<std::string, std::string>>
parseMetadata(llvm::StringRef Text) {
  std::string Name, Ver;
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim();
    if (Line.empty())
      break; // the headers end at the first blank line
    if (Line.consume_front("Name:"))
      Name = normalizeDistributionName(Line.trim());
    else if (Line.consume_front("Version:"))
      Ver = Line.trim().str();
  }
  if (Name.empty() || Ver.empty())
    return std::nullopt;
  return std::make_pair(Name, Ver);
}

} // namespace runtime

namespace {

using namespace probes;

constexpr const char *InterpreterQuery =
    "import sys, sysconfig; print('%d.%d.%d' % sys.version_info[:3]); "
    "p = sysconfig.get_paths(); print(p['purelib']); print(p['platlib'])";

static std::optional<Version> parseQuietly(llvm::StringRef Text) {
  llvm::Expected<Version> V = Version::parse(Text);
  if (V)
    return std::move(*V);
  llvm::consumeError(V.takeError());
  return std::nullopt;
}

class CudaRuntimeProbe : public Probe {
public:
  llvm::StringRef name() const override { return "cuda-runtime"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;

private:
  void askInterpreter(const ProbeContext &Ctx, PythonEnvironment &E,
                      ProbeAnswer &Answer) const;
  void readTorch(llvm::StringRef Site, ProbeAnswer &Answer) const;
  void readCxx11Abi(llvm::StringRef Site, TorchFacts &T,
                    ProbeAnswer &Answer) const;
  void readDistributions(llvm::StringRef Site,
                         const std::vector<std::string> &Names,
                         ProbeAnswer &Answer) const;
  void readCudaRuntime(llvm::StringRef Site, ProbeAnswer &Answer) const;
};

void CudaRuntimeProbe::askInterpreter(const ProbeContext &Ctx,
                                      PythonEnvironment &E,
                                      ProbeAnswer &Answer) const {
  std::string What = E.Interpreter + " -c 'import sys, sysconfig ...'";
  std::optional<ProcessResult> Result =
      runTool(Ctx, {E.Interpreter, "-c", InterpreterQuery}, What, Answer);
  if (!Result)
    return;
  if (Result->ExitCode != 0) {
    Answer.Warnings.push_back(What + " exited with code " +
                              std::to_string(Result->ExitCode));
    return;
  }
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(Result->Out).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return;
  if (!E.Version) {
    E.Version = Lines[0].trim().str();
    E.VersionFrom = E.Interpreter + " -c sys.version_info";
  }
  if (E.SitePackages.empty())
    for (size_t I = 1; I < Lines.size(); ++I) {
      std::string Dir = Lines[I].trim().str();
      if (isDirectory(Dir))
        appendUnique(E.SitePackages, Dir);
    }
}

void CudaRuntimeProbe::readTorch(llvm::StringRef Site, ProbeAnswer &Answer) const {
  std::string VersionPy = joinPath(Site, "torch", "version.py");
  std::optional<std::string> Text = readTextFile(VersionPy);
  if (!Text)
    return;
  Answer.Inputs.push_back(VersionPy);
  std::optional<runtime::TorchVersionFile> F = runtime::parseTorchVersionPy(*Text);
  std::optional<Version> Ver = F ? parseQuietly(F->Version) : std::nullopt;
  if (!Ver) {
    Answer.Warnings.push_back(VersionPy + " names no torch version");
    return;
  }
  TorchFacts T;
  T.Ver = std::move(*Ver);
  if (F->Cuda) {
    T.Cuda = parseQuietly(*F->Cuda);
    if (!T.Cuda)
      Answer.Warnings.push_back(VersionPy + ": cannot read cuda = '" + *F->Cuda + "'");
  }
  T.From = Source::probed("cuda-runtime", VersionPy);
  readCxx11Abi(Site, T, Answer);
  Answer.Found.Torch = std::move(T);
}

void CudaRuntimeProbe::readCxx11Abi(llvm::StringRef Site, TorchFacts &T,
                                    ProbeAnswer &Answer) const {
  std::string Lib = joinPath(Site, "torch", "lib", "libc10.so");
  if (isRegularFile(Lib)) {
    Answer.Inputs.push_back(Lib);
    llvm::Expected<SharedObject> SO = readSharedObject(Lib, ReadExports);
    if (!SO) {
      Answer.Warnings.push_back("cannot read the C++ ABI of torch: " +
                                llvm::toString(SO.takeError()));
    } else if ((T.Cxx11Abi = runtime::cxx11AbiOfSymbols(SO->Undefined,
                                                         SO->Exported))) {
      T.AbiFrom = Source::probed(
          "cuda-runtime", Lib + (*T.Cxx11Abi ? " (std::__cxx11 symbols)"
                                             : " (pre-C++11 std::string symbols)"));
      return;
    }
  }
  std::string CMake = joinPath(Site, "torch", "share", "cmake");
  for (const std::string &Config :
       {joinPath(CMake, "Torch", "TorchConfig.cmake"),
        joinPath(CMake, "Caffe2", "Caffe2Targets.cmake"),
        joinPath(CMake, "Caffe2", "Caffe2Config.cmake")}) {
    std::optional<std::string> Cfg = readTextFile(Config);
    if (!Cfg)
      continue;
    Answer.Inputs.push_back(Config);
    if ((T.Cxx11Abi = runtime::parseCxx11Abi(*Cfg))) {
      T.AbiFrom = Source::probed("cuda-runtime", Config);
      return;
    }
  }
}

void CudaRuntimeProbe::readDistributions(llvm::StringRef Site,
                                         const std::vector<std::string> &Names,
                                         ProbeAnswer &Answer) const {
  for (const std::string &Dir : Names) {
    llvm::StringRef D(Dir);
    if (!D.endswith(".dist-info") && !D.endswith(".egg-info"))
      continue;
    std::string Path = joinPath(Site, Dir);
    std::optional<std::pair<std::string, std::string>> Dist =
        runtime::parseDistInfoDirName(Dir);
    std::optional<Version> Ver = Dist ? parseQuietly(Dist->second) : std::nullopt;
    if (!Ver) {
      // The directory name is not name-version: ask the metadata.
      for (const char *Meta : {"METADATA", "PKG-INFO"})
        if (std::optional<std::string> Text =
                readTextFile(joinPath(Path, Meta), 256 << 10)) {
          Answer.Inputs.push_back(joinPath(Path, Meta));
          if ((Dist = runtime::parseMetadata(*Text)) &&
              (Ver = parseQuietly(Dist->second)))
            break;
        }
    }
    if (!Dist || !Ver) {
      spdlog::debug("cuda-runtime probe: cannot read {}", Path);
      continue;
    }
    // The first site directory (the most specific) wins.
    Answer.Found.Packages.try_emplace(
        Dist->first, PackageFact{std::move(*Ver), Source::probed("cuda-runtime", Path)});
  }
}

void CudaRuntimeProbe::readCudaRuntime(llvm::StringRef Site,
                                       ProbeAnswer &Answer) const {
  std::string Nvidia = joinPath(Site, "nvidia");
  llvm::Regex Soname("^libcudart\\.so\\.([0-9]+)(\\.[0-9]+)*$");
  for (const std::string &Flavour : listDirectoryMatching(Nvidia, "", Answer)) {
    std::string Lib = joinPath(Nvidia, Flavour, "lib");
    for (const std::string &Name :
         listDirectoryMatching(Lib, "^libcudart\\.so\\.", Answer)) {
      llvm::SmallVector<llvm::StringRef, 3> M;
      unsigned Major = 0;
      if (!Soname.match(Name, &M) || M[1].getAsInteger(10, Major))
        continue;
      Version V({Major});
      auto It = Answer.Found.Packages.find("libcudart");
      if (It != Answer.Found.Packages.end() && !(It->second.Ver < V))
        continue;
      Answer.Found.Packages["libcudart"] =
          PackageFact{V, Source::probed("cuda-runtime", joinPath(Lib, Name))};
    }
  }
}

llvm::Expected<ProbeAnswer> CudaRuntimeProbe::probe(const ProbeContext &Ctx) {
  ProbeAnswer Answer;
  // $PATH is not an input: the search of it for python3 is; a pyenv shim
  // picks its interpreter by $PYENV_VERSION.
  Answer.EnvInputs = {"VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION"};
  for (const char *Var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    std::optional<std::string> V = Ctx.Env.get(Var);
    Answer.Searched.push_back(std::string("$") + Var +
                              (V && !V->empty() ? "=" + *V : " (unset)"));
  }
  Answer.Searched.push_back("python3 on $PATH");

  std::vector<PythonEnvironment> Envs =
      findPythonEnvironments(Ctx.Env, Answer.Searches);
  if (Envs.empty())
    return notPresentKeeping(std::move(Answer), "no Python environment found");
  PythonEnvironment &E = Envs.front();
  if ((E.SitePackages.empty() || !E.Version) && !E.Interpreter.empty())
    askInterpreter(Ctx, E, Answer);
  for (std::string &Input : E.Inputs)
    appendUnique(Answer.Inputs, std::move(Input));

  PythonFacts Py;
  Py.Path = E.Interpreter.empty() ? joinPath(E.Prefix, "bin", "python3") : E.Interpreter;
  if (E.Version) {
    if (std::optional<Version> V = parseQuietly(*E.Version)) {
      Py.Ver = std::move(*V);
      Py.From = Source::probed("cuda-runtime", E.VersionFrom);
      Answer.Found.Python = std::move(Py);
    }
  }
  if (!Answer.Found.Python)
    Answer.Warnings.push_back("cannot tell the Python version of " + E.Prefix);

  for (const std::string &Site : E.SitePackages) {
    Answer.Searched.push_back(Site);
    // What the facts rest on: the distributions' names, torch and nvidia/
    // (a __pycache__ or another file created there changes nothing).
    std::vector<std::string> Names = listDirectoryMatching(
        Site, "\\.(dist|egg)-info$|^(torch|nvidia)$", Answer);
    if (!Answer.Found.Torch)
      readTorch(Site, Answer);
    readDistributions(Site, Names, Answer);
    readCudaRuntime(Site, Answer);
  }

  if (!Answer.Found.Python && E.SitePackages.empty()) {
    return notPresentKeeping(std::move(Answer),
                             "no readable Python environment found");
  }
  Answer.What = ProbeAnswer::Kind::Found;
  return Answer;
}

} // namespace

std::unique_ptr<Probe> createCudaRuntimeProbe() {
  return std::make_unique<CudaRuntimeProbe>();
}

} // namespace cudadeps
