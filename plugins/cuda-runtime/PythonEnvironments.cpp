//===- PythonEnvironments.cpp - Python environments found by reading files ===//

#include "plugins/cuda-runtime/PythonEnvironments.h"

#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

namespace cudadeps::probes {

/// "3.12.3" from pyvenv.cfg's "version = 3.12.3" (venv) or
/// "version_info = 3.12.3.final.0" (virtualenv).
static std::optional<std::string> versionFromPyvenvCfg(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    auto [Key, Value] = Line.split('=');
    Key = Key.trim();
    Value = Value.trim();
    if (Key != "version" && Key != "version_info")
      continue;
    llvm::SmallVector<llvm::StringRef, 4> M;
    if (llvm::Regex("^([0-9]+\\.[0-9]+(\\.[0-9]+)?)").match(Value, &M))
      return M[1].str();
  }
  return std::nullopt;
}

/// "3.12.3" from conda-meta/python-3.12.3-h1234_0_cpython.json.
static std::optional<std::pair<std::string, std::string>>
versionFromCondaMeta(llvm::StringRef Prefix) {
  std::string Meta = joinPath(Prefix, "conda-meta");
  llvm::Regex Pattern("^python-([0-9]+\\.[0-9]+(\\.[0-9]+)?)-.*\\.json$");
  for (const std::string &Name : listDirectory(Meta)) {
    llvm::SmallVector<llvm::StringRef, 4> M;
    if (Pattern.match(Name, &M))
      return std::make_pair(M[1].str(), joinPath(Meta, Name));
  }
  return std::nullopt;
}

/// "3.12" from "python3.12" or "python3.13t".
static std::optional<std::string> minorFromName(llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 4> M;
  if (llvm::Regex("^python(3\\.[0-9]+)t?$").match(Name, &M))
    return M[1].str();
  return std::nullopt;
}

/// "3.12.3" -> "3.12".
static std::string majorMinor(llvm::StringRef V) {
  auto [Major, Rest] = V.split('.');
  return (Major + "." + Rest.split('.').first).str();
}

static bool lessMinor(const std::string &A, const std::string &B) {
  unsigned MA = 0, MB = 0;
  llvm::StringRef(A).split('.').second.getAsInteger(10, MA);
  llvm::StringRef(B).split('.').second.getAsInteger(10, MB);
  return MA < MB;
}

PythonEnvironment describePythonPrefix(llvm::StringRef Prefix,
                                       llvm::StringRef FoundVia,
                                       llvm::StringRef Interpreter) {
  PythonEnvironment E;
  E.Prefix = Prefix.str();
  E.FoundVia = FoundVia.str();
  E.Interpreter = Interpreter.str();

  std::string Cfg = joinPath(Prefix, "pyvenv.cfg");
  if (auto Text = readTextFile(Cfg)) {
    E.Inputs.push_back(Cfg);
    if (auto V = versionFromPyvenvCfg(*Text)) {
      E.Version = *V;
      E.VersionFrom = Cfg;
    }
  }
  if (!E.Version) {
    if (auto Conda = versionFromCondaMeta(Prefix)) {
      E.Version = Conda->first;
      E.VersionFrom = Conda->second;
    }
  }

  // Which lib/python3.X: the one the version names, else the one the
  // interpreter's real file name names, else the only (or newest) one.
  std::vector<std::string> LibMinors;
  for (const char *Lib : {"lib", "lib64"})
    for (const std::string &Name : listDirectory(joinPath(Prefix, Lib)))
      if (auto Minor = minorFromName(Name))
        appendUnique(LibMinors, *Minor);
  std::sort(LibMinors.begin(), LibMinors.end(), lessMinor);

  std::optional<std::string> Minor;
  if (E.Version)
    Minor = majorMinor(*E.Version);
  if (!Minor && !Interpreter.empty()) {
    std::string Real = realPathOf(Interpreter);
    if (auto FromName = minorFromName(llvm::sys::path::filename(Real))) {
      Minor = *FromName;
      E.Version = *FromName;
      E.VersionFrom = Real;
    }
  }
  if (!Minor && !LibMinors.empty()) {
    Minor = LibMinors.back();
    E.Version = *Minor;
    E.VersionFrom = joinPath(Prefix, "lib", "python" + *Minor);
  }
  if (!Minor)
    return E;

  std::string Py = "python" + *Minor;
  std::vector<std::string> Candidates = {
      joinPath(Prefix, "lib", Py, "site-packages"),
      joinPath(Prefix, "lib64", Py, "site-packages"),
      joinPath(Prefix, "local", "lib", Py, "dist-packages"),
      joinPath(Prefix, "lib", Py, "dist-packages"),
      joinPath(Prefix, "lib", "python3", "dist-packages"),
      joinPath(Prefix, "lib", Py + "t", "site-packages"),
  };
  std::vector<std::string> Seen;
  for (const std::string &Dir : Candidates) {
    std::string Real = realPathOf(Dir);
    if (Real.empty() || !isDirectory(Real) ||
        std::find(Seen.begin(), Seen.end(), Real) != Seen.end())
      continue;
    Seen.push_back(Real);
    E.SitePackages.push_back(Dir);
  }
  return E;
}

static std::string interpreterIn(llvm::StringRef Prefix) {
  for (const char *Name : {"python3", "python"}) {
    std::string P = joinPath(Prefix, "bin", Name);
    if (isExecutableFile(P))
      return P;
  }
  return {};
}

static std::string prefixOfInterpreter(llvm::StringRef Interpreter) {
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(Interpreter))
      .str();
}

std::vector<PythonEnvironment>
findPythonEnvironments(const Environment &Env,
                       std::vector<PathSearch> &Searches) {
  std::vector<PythonEnvironment> Found;
  std::vector<std::string> RealPrefixes;
  auto Add = [&](PythonEnvironment E) {
    std::string Real = realPathOf(E.Prefix);
    if (Real.empty())
      Real = E.Prefix;
    if (std::find(RealPrefixes.begin(), RealPrefixes.end(), Real) !=
        RealPrefixes.end())
      return;
    RealPrefixes.push_back(Real);
    Found.push_back(std::move(E));
  };

  for (const char *Var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    std::optional<std::string> Prefix = Env.get(Var);
    if (!Prefix || Prefix->empty() || !isDirectory(*Prefix))
      continue;
    Add(describePythonPrefix(*Prefix, std::string("$") + Var,
                             interpreterIn(*Prefix)));
  }

  std::vector<std::string> Pythons =
      searchPath(Env, "PATH", "python3", Searches);
  if (Pythons.empty())
    return Found;
  const std::string &Python = Pythons.front();
  // A venv's bin/python3 is a symlink to the base interpreter: its prefix is
  // where the link is. Only when that has no layout, follow the link.
  PythonEnvironment AsFound =
      describePythonPrefix(prefixOfInterpreter(Python), "python3 on $PATH", Python);
  if (!AsFound.SitePackages.empty()) {
    Add(std::move(AsFound));
    return Found;
  }
  std::string Real = realPathOf(Python);
  PythonEnvironment Resolved =
      describePythonPrefix(prefixOfInterpreter(Real), "python3 on $PATH", Python);
  Add(Resolved.SitePackages.empty() ? std::move(AsFound) : std::move(Resolved));
  return Found;
}

} // namespace cudadeps::probes
