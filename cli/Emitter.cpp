//===- Emitter.cpp - `resolve --emit cmake|make|env`: the pre-build hooks --===//
#include "cli/Emitter.h"
#include "cli/EmitQuoting.h"

#include "core/version/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps::cli {

namespace {

/// The toolchain the selected source builds share.
struct Toolchain {
  const NvccFacts *Nvcc = nullptr;
  const CompilerFacts *Cxx = nullptr;
  std::vector<std::string> Archs; // union, in first-seen order
  std::string CudaHome;
};

std::vector<const PackageResolution *>
selected(const Resolution &R, ArrayRef<std::string> Only) {
  std::vector<const PackageResolution *> Out;
  for (const PackageResolution &P : R.Packages)
    if (Only.empty() || is_contained(Only, P.Name))
      Out.push_back(&P);
  return Out;
}

Toolchain toolchainOf(ArrayRef<const PackageResolution *> Packages) {
  Toolchain T;
  for (const PackageResolution *P : Packages) {
    if (P->How != Strategy::Source)
      continue;
    if (P->Nvcc && !T.Nvcc)
      T.Nvcc = &*P->Nvcc;
    if (P->Compiler && !T.Cxx)
      T.Cxx = &*P->Compiler;
    for (const std::string &A : P->Archs)
      if (!is_contained(T.Archs, A))
        T.Archs.push_back(A);
  }
  if (T.Nvcc)
    T.CudaHome = toolkitRoot(T.Nvcc->Path);
  return T;
}

/// A value on its way into a file, with what it is for error messages.
struct Value {
  std::string Text;
  std::string What; // "the nvcc path"
  std::string From; // "probed by nvcc from ...", may be empty
};

Value plain(std::string Text, std::string What) {
  return {std::move(Text), std::move(What), {}};
}

Error refusal(StringRef Language, const Value &V, Error Why) {
  std::string From = V.From.empty() ? "" : " (" + V.From + ")";
  return createStringError(inconvertibleErrorCode(),
                           "cannot write " + V.What + " " +
                               quoteForMessage(V.Text, 120) + From +
                               " into a " + Language +
                               " file safely: " + toString(std::move(Why)));
}

/// The writer of one target language. Values are quoted by the language's
/// rules; the first value that cannot be written is kept as the error.
class Writer {
public:
  Writer(StringRef Kind) : Kind(Kind), OS(Out) {}

  /// A comment line; bytes that could end it (a newline, or a backslash
  /// that continues a Make comment) are written as \xNN.
  void comment(const Twine &Text) { OS << "# " << commentText(Text) << '\n'; }

  /// Raw text the emitter itself composed (never a value).
  void line(StringRef Text) { OS << Text << '\n'; }

  /// One scalar variable.
  void set(StringRef Name, const Value &V) { list(Name, {V}); }

  /// A list variable: a CMake list, a Make list of shell words, a shell
  /// variable of ';'-joined elements.
  void list(StringRef Name, ArrayRef<Value> Items) {
    if (Failed)
      return;
    if (Kind == "cmake") {
      std::string Joined;
      for (const Value &V : Items) {
        if (Error E = checkCMakeElement(V.Text))
          return fail(refusal("CMake", V, std::move(E)));
        Joined += (Joined.empty() ? "" : ";") + V.Text;
      }
      OS << "set(" << Name << ' ' << cmakeQuoted(Joined) << ")\n";
    } else if (Kind == "make") {
      std::vector<std::string> Words;
      for (const Value &V : Items) {
        Expected<std::string> Q = makeWord(V.Text);
        if (!Q)
          return fail(refusal("Make", V, Q.takeError()));
        if (!Q->empty())
          Words.push_back(std::move(*Q));
      }
      OS << Name << " :=" << (Words.empty() ? "" : " ") << join(Words, " ")
         << '\n';
    } else {
      std::string Joined;
      for (const Value &V : Items)
        Joined += (Joined.empty() ? "" : ";") + V.Text;
      exportVar(Name, {Joined, Items.empty() ? "" : Items.front().What,
                       Items.empty() ? "" : Items.front().From});
    }
  }

  /// export NAME=VALUE (sh); \p PrependTo puts the value in front of it;
  /// \p Note is a comment at the end of the line.
  void exportVar(StringRef Name, const Value &V, StringRef PrependTo = {},
                 StringRef Note = {}) {
    if (Failed)
      return;
    if (!isShellVariableName(Name))
      return fail(createStringError(
          inconvertibleErrorCode(),
          "cannot export " + quoteForMessage(Name, 60) +
              (V.From.empty() ? "" : " (" + V.From + ")") +
              ": not a shell variable name ([A-Za-z_][A-Za-z0-9_]*)"));
    Expected<std::string> Q = shellWord(V.Text);
    if (!Q)
      return fail(refusal("shell", V, Q.takeError()));
    OS << "export " << Name << '=' << *Q;
    if (!PrependTo.empty())
      OS << ":\"$" << PrependTo << '"';
    if (!Note.empty())
      OS << "  # " << commentText(Note);
    OS << '\n';
  }

  Expected<std::string> take() {
    if (Failed)
      return std::move(Failed);
    return std::move(Out);
  }

private:
  /// Text for a comment: bytes that could end it (a newline, or a
  /// backslash that continues a Make comment) are written as \xNN.
  static std::string commentText(const Twine &Text) {
    std::string Out;
    for (char C : Text.str()) {
      unsigned char U = C;
      if (U >= 0x20 && U < 0x7f && C != '\\') {
        Out += C;
        continue;
      }
      Out += "\\x";
      Out += hexdigit(U >> 4, true);
      Out += hexdigit(U & 15, true);
    }
    return Out;
  }

  void fail(Error E) {
    if (!Failed)
      Failed = std::move(E);
    else
      consumeError(std::move(E));
  }

  std::string Kind;
  std::string Out;
  raw_string_ostream OS;
  Error Failed = Error::success();
};

void writeToolchain(Writer &W, StringRef Kind, const Toolchain &T,
                    StringRef Launcher) {
  Value Nvcc, Home, Cxx;
  if (T.Nvcc) {
    Nvcc = {T.Nvcc->Path, "the nvcc path", T.Nvcc->From.describe()};
    Home = {T.CudaHome, "the toolkit directory", T.Nvcc->From.describe()};
  }
  if (T.Cxx)
    Cxx = {T.Cxx->Path, "the host compiler path", T.Cxx->From.describe()};
  Value Launch = plain(Launcher.str(), "the compiler launcher");
  if (Kind == "cmake") {
    if (T.Nvcc) {
      W.set("CMAKE_CUDA_COMPILER", Nvcc);
      W.set("CUDAToolkit_ROOT", Home);
    }
    if (T.Cxx)
      W.set("CMAKE_CUDA_HOST_COMPILER", Cxx);
    if (!T.Archs.empty()) {
      std::vector<Value> Nums;
      std::string Numbers = archNumbers(T.Archs);
      for (StringRef N : split(Numbers, ';'))
        Nums.push_back(plain(N.str(), "an arch"));
      W.list("CMAKE_CUDA_ARCHITECTURES", Nums);
    }
    if (!Launcher.empty())
      W.set("CMAKE_CUDA_COMPILER_LAUNCHER", Launch);
  } else if (Kind == "make") {
    if (T.Nvcc) {
      W.set("NVCC", Nvcc);
      W.set("CUDA_HOME", Home);
    }
    if (T.Cxx)
      W.set("NVCC_CCBIN", Cxx);
    if (!T.Archs.empty()) {
      std::vector<Value> Flags;
      std::string Gencode = gencodeFlags(T.Archs);
      for (StringRef F : split(Gencode, ' '))
        Flags.push_back(plain(F.str(), "an nvcc flag"));
      W.list("CUDA_ARCH_FLAGS", Flags);
    }
    if (!Launcher.empty())
      W.set("CUDA_LAUNCHER", Launch);
  }
}

/// CUDADEPS_STATUS, CUDADEPS_PACKAGES and CUDADEPS_<PACKAGE>_* (cmake and
/// make): what was decided for each package.
void writeDecisions(Writer &W, const Resolution &R,
                    ArrayRef<const PackageResolution *> Packages) {
  W.set("CUDADEPS_STATUS", plain(statusName(R.Status).str(), "the status"));
  std::vector<Value> Names;
  for (const PackageResolution *P : Packages)
    Names.push_back(plain(P->Name, "a package name"));
  W.list("CUDADEPS_PACKAGES", Names);
  for (const PackageResolution *P : Packages) {
    std::string Prefix = "CUDADEPS_" + variableNamePart(P->Name) + "_";
    W.comment(P->Name + ": " + strategyName(P->How));
    W.set(Prefix + "STRATEGY",
          plain(strategyName(P->How).str(), "a strategy"));
    W.set(Prefix + "VERSION",
          plain(P->Ver ? P->Ver->str() : "", "a package version"));
    std::vector<Value> Archs;
    for (const std::string &A : P->Archs)
      Archs.push_back(plain(A, "an arch"));
    W.list(Prefix + "ARCHS", Archs);
    W.set(Prefix + "FALLBACK",
          plain(P->Fallback ? P->Fallback->Name : "",
                "the fallback name of " + P->Name));
    W.set(Prefix + "PREBUILT_URL",
          plain(P->PrebuiltUrl.value_or(""), "the prebuilt URL of " + P->Name));
  }
}

/// CUDADEPS_INPUTS, CUDADEPS_ENV_INPUTS. An input the language cannot
/// hold as a plain element (a CMake list element with ';', a Make
/// prerequisite with a space, ':' or '%') is left out: it only makes the
/// hook re-run less eagerly.
void writeInputs(Writer &W, const EmitRequest &Req) {
  std::vector<Value> Files, Names;
  for (const std::string &F : Req.Inputs) {
    // A Make prerequisite must exist (or make stops: no rule to make it),
    // and /proc and /sys change under a running system.
    bool Fits = Req.Kind == "cmake"
                    ? !errorToBool(checkCMakeElement(F))
                    : all_of(F,
                             [](char C) {
                               return isAlnum(C) ||
                                      StringRef("_@+=,./-").contains(C);
                             }) &&
                          sys::fs::exists(F) &&
                          !StringRef(F).startswith("/proc/") &&
                          !StringRef(F).startswith("/sys/");
    if (Fits)
      Files.push_back(plain(F, "an input file"));
  }
  for (const std::string &N : Req.EnvInputs)
    if (isShellVariableName(N))
      Names.push_back(plain(N, "an environment variable name"));
  W.comment("what the decision rests on: the hook re-runs when one changes");
  W.list("CUDADEPS_INPUTS", Files);
  W.list("CUDADEPS_ENV_INPUTS", Names);
}

/// export NAME=VALUE for one build variable (PATH-like ones prepended).
void exportBuildVar(Writer &W, const BuildVar &V) {
  W.exportVar(V.Name, {V.Value, "the value of " + V.Name, V.Origin},
              V.Prepend ? StringRef(V.Name) : StringRef(), V.Origin);
}

/// `env`: the build environment of each source build, and each chosen
/// fallback's selection variables.
void writeBuildEnvs(Writer &W, ArrayRef<const PackageResolution *> Packages,
                    const std::map<std::string, std::vector<BuildVar>> &Envs) {
  std::vector<std::pair<const PackageResolution *, const std::vector<BuildVar> *>>
      Builds;
  for (const PackageResolution *P : Packages)
    if (auto It = Envs.find(P->Name); It != Envs.end())
      Builds.push_back({P, &It->second});
  // What every build shares is exported directly.
  auto Shared = [&](const BuildVar &V) {
    return all_of(Builds, [&](const auto &B) {
      return any_of(*B.second, [&](const BuildVar &X) {
        return X.Name == V.Name && X.Value == V.Value && X.Prepend == V.Prepend;
      });
    });
  };
  if (!Builds.empty())
    for (const BuildVar &V : *Builds.front().second)
      if (Shared(V))
        exportBuildVar(W, V);
  if (Builds.size() > 1)
    for (const auto &[P, Vars] : Builds) {
      if (all_of(*Vars, Shared))
        continue;
      std::string Fn = "cudadeps_env_" + StringRef(variableNamePart(P->Name)).lower();
      W.comment(P->Name + (P->Ver ? " " + P->Ver->str() : "") +
                " needs more: run " + Fn + " before building it (or emit "
                "with --package " + P->Name + ")");
      W.line(Fn + "() {");
      for (const BuildVar &V : *Vars)
        if (!Shared(V))
          exportBuildVar(W, V);
      W.line("}");
    }
  for (const PackageResolution *P : Packages)
    if (P->Fallback)
      for (const auto &[K, V] : P->Fallback->Env)
        W.exportVar(K, {V, "the value of " + K,
                        "fallback '" + P->Fallback->Name + "' of " + P->Name});
}

} // namespace

Expected<std::string> renderEmit(const Resolution &R, const EmitRequest &Req) {
  std::vector<const PackageResolution *> Packages =
      selected(R, Req.Packages);
  Toolchain T = toolchainOf(Packages);
  Writer W(Req.Kind);
  if (Req.Kind == "env")
    W.comment("generated by cudadeps resolve: source this file");
  else
    W.comment("generated by cudadeps resolve: the toolchain for the CUDA "
              "builds");
  writeToolchain(W, Req.Kind, T, Req.Launcher);
  if (Req.Kind == "env")
    writeBuildEnvs(W, Packages, Req.BuildEnvs);
  else {
    writeDecisions(W, R, Packages);
    writeInputs(W, Req);
  }
  return W.take();
}

} // namespace cudadeps::cli
