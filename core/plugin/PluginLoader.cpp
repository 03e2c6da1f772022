//===- PluginLoader.cpp - external probe plugins behind the C ABI ---------===//

#include "core/plugin/PluginLoader.h"

#include "core/facts/FactsFile.h"
#include "core/plugin/PluginAbi.h"
#include "core/support/IsolatedChild.h"
#include "core/support/JsonSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <dlfcn.h>

using namespace llvm;

namespace cudadeps {

char PluginLoadError::ID = 0;

std::error_code PluginLoadError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

static Error loadError(PluginLoadError::Kind K, StringRef Path,
                       const Twine &Message) {
  return make_error<PluginLoadError>(K, Path.str(), Message.str());
}

namespace {

/// A Probe backed by a plugin. The plugin's code never runs in cudadeps:
/// each probe loads it again in an isolated child (IsolatedChild.h).
class ExternalProbe : public Probe {
public:
  ExternalProbe(std::string Name, std::string Ver, std::string Path)
      : Name(std::move(Name)), Ver(std::move(Ver)), Path(std::move(Path)) {}

  StringRef name() const override { return Name; }
  StringRef version() const override { return Ver; }
  std::string origin() const override { return Path; }
  Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;
  /// The plugin is loaded and asked in an isolated (forked) child.
  bool forksChildren() const override { return true; }

private:
  Error pluginError(const Twine &Message) const;

  std::string Name;
  std::string Ver;
  std::string Path;
};

} // namespace

static Error pluginError(StringRef Name, StringRef Path,
                         const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "plugin '%s' (%s): %s",
                           Name.str().c_str(), Path.str().c_str(),
                           Message.str().c_str());
}

Error ExternalProbe::pluginError(const Twine &Message) const {
  return cudadeps::pluginError(Name, Path, Message);
}

/// Reads an optional array of strings \p Key of \p Obj into \p Out.
static Error readStrings(const json::Object &Obj, StringRef Key,
                        std::vector<std::string> &Out) {
  const json::Value *V = Obj.get(Key);
  if (!V)
    return Error::success();
  const json::Array *A = V->getAsArray();
  if (!A)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' must be an array of strings",
                             Key.str().c_str());
  for (const json::Value &E : *A) {
    std::optional<StringRef> S;
    if (auto Str = E.getAsString())
      S = *Str;
    if (!S)
      return createStringError(inconvertibleErrorCode(),
                               "'%s' must be an array of strings",
                               Key.str().c_str());
    Out.push_back(S->str());
  }
  return Error::success();
}

/// In the isolated child: loads the plugin and returns its checked
/// descriptor, or nullptr.
static const cudadeps_plugin *openInChild(const char *Path) {
  void *Lib = ::dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  void *Sym = Lib ? ::dlsym(Lib, CUDADEPS_PLUGIN_ENTRY_NAME) : nullptr;
  if (!Sym)
    return nullptr;
  const cudadeps_plugin *Desc =
      reinterpret_cast<cudadeps_plugin_entry_fn>(Sym)();
  if (!Desc || Desc->abi_version != CUDADEPS_PLUGIN_ABI_VERSION ||
      !Desc->probe)
    return nullptr;
  return Desc;
}

/// A plugin's probe may run commands of its own, each within the command
/// timeout: it gets twice that, and at least a second -- never past the
/// probe phase's deadline.
static std::chrono::milliseconds pluginTimeout(const ProbeContext &Ctx) {
  return Ctx.timeLeftFor(std::max<std::chrono::milliseconds>(
      2 * Ctx.CommandTimeout, std::chrono::seconds(1)));
}

/// The keys of an answer that are about the answer, not facts.
static constexpr StringLiteral MetaKeys[] = {"searched", "warnings", "inputs",
                                             "env_inputs"};

Expected<ProbeAnswer> ExternalProbe::probe(const ProbeContext &Ctx) {
  // Everything the child needs is prepared before fork().
  cudadeps_probe_request Request{};
  Request.abi_version = CUDADEPS_PLUGIN_ABI_VERSION;
  Request.command_timeout_ms = static_cast<uint32_t>(
      std::max<int64_t>(0, Ctx.timeLeftFor(Ctx.CommandTimeout).count()));
  Request.sysroot = Ctx.SysRoot.c_str();
  IsolatedOptions Opts;
  Opts.Timeout = pluginTimeout(Ctx);
  if (Opts.Timeout.count() == 0)
    return make_error<ProbeTimeoutError>(
        "plugin '" + Name + "' (" + Path +
            ") was not run: the probe phase's deadline had passed",
        ProbeTimeout{"plugin '" + Name + "'", Opts.Timeout});
  Opts.OutputCap = MaxPluginAnswerBytes + 1;
  IsolatedOutcome O = runIsolated(
      [&]() -> int {
        const cudadeps_plugin *Desc = openInChild(Path.c_str());
        if (!Desc)
          return 120;
        char *Raw = Desc->probe(&Request);
        if (!Raw)
          return writeAnswer("N", 1) ? 0 : 121;
        bool Ok = writeAnswer("A", 1) && writeAnswer(Raw, std::strlen(Raw));
        return Ok ? 0 : 121;
      },
      Opts);
  if (O.What == IsolatedOutcome::Kind::OverCap)
    return pluginError("its answer is larger than " +
                       Twine(MaxPluginAnswerBytes) + " bytes (killed)");
  if (O.What == IsolatedOutcome::Kind::TimedOut)
    return make_error<ProbeTimeoutError>(
        toString(pluginError("the plugin " + O.describeFailure(Opts))),
        ProbeTimeout{"plugin '" + Name + "'", Opts.Timeout});
  if (O.What == IsolatedOutcome::Kind::Exited && O.ExitCode == 120)
    return pluginError("it could not be loaded again to probe");
  if (O.What != IsolatedOutcome::Kind::Exited || O.ExitCode != 0)
    return pluginError("the plugin " + O.describeFailure(Opts) +
                       (O.What == IsolatedOutcome::Kind::Exited
                            ? " before it answered"
                            : ""));
  if (O.Output == "N")
    return pluginError("the probe callback returned no answer");
  if (O.Output.empty() || O.Output.front() != 'A')
    return pluginError("the plugin ended without an answer");
  std::string Text = O.Output.substr(1);
  spdlog::trace("plugin {} answered: {}", Name, Text);
  return parsePluginAnswer(Text, Name, Path);
}

Expected<ProbeAnswer> parsePluginAnswer(StringRef Text, StringRef Name,
                                        StringRef Path) {
  auto pluginError = [&](const Twine &Message) {
    return cudadeps::pluginError(Name, Path, Message);
  };
  Expected<json::Value> Parsed = parseJson(Text);
  if (!Parsed)
    return pluginError("invalid JSON answer: " + toString(Parsed.takeError()));
  json::Object *Obj = Parsed->getAsObject();
  if (!Obj)
    return pluginError("the answer must be a JSON object");

  if (const json::Value *E = Obj->get("error")) {
    auto Msg = E->getAsString();
    return pluginError(Msg ? *Msg : "error (no message)");
  }

  ProbeAnswer Answer;
  for (auto [Key, Into] :
       {std::pair<StringRef, std::vector<std::string> *>{"searched",
                                                          &Answer.Searched},
        {"warnings", &Answer.Warnings},
        {"inputs", &Answer.Inputs},
        {"env_inputs", &Answer.EnvInputs}})
    if (Error E = readStrings(*Obj, Key, *Into))
      return pluginError(toString(std::move(E)));
  // The plugin file is an input of every answer: a rebuilt plugin re-probes.
  Answer.Inputs.push_back(Path.str());

  if (const json::Value *NP = Obj->get("not_present")) {
    auto Reason = NP->getAsString();
    if (!Reason)
      return pluginError("'not_present' must be a string (the reason)");
    Answer.What = ProbeAnswer::Kind::NotPresent;
    Answer.NotPresentReason = Reason->str();
    return Answer;
  }

  for (StringRef Key : MetaKeys)
    Obj->erase(Key);
  Expected<Facts> F =
      factsFromJson(*Parsed, ("plugin " + Name + " (" + Path + ")").str(),
                    Source::probed(Name.str(), Path.str()));
  if (!F)
    return F.takeError();
  Answer.What = ProbeAnswer::Kind::Found;
  Answer.Found = std::move(*F);
  return Answer;
}

Expected<std::unique_ptr<Probe>> loadPlugin(StringRef PathIn) {
  SmallString<256> Path(PathIn);
  sys::fs::make_absolute(Path);
  std::string P(Path);
  if (!sys::fs::exists(P))
    return loadError(PluginLoadError::Kind::CannotLoad, P,
                     "cannot load plugin '" + P + "': no such file");

  // The checks run in an isolated child: a plugin whose constructors or
  // entry point crash, hang or exit is reported, and cudadeps goes on.
  IsolatedOptions Opts;
  Opts.Timeout = PluginLoadTimeout;
  Opts.OutputCap = 64u << 10;
  IsolatedOutcome O = runIsolated(
      [&]() -> int {
        char Line[1024];
        void *Lib = ::dlopen(P.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!Lib) {
          const char *E = ::dlerror();
          int N = snprintf(Line, sizeof(Line), "0%s", E ? E : "dlopen failed");
          writeAnswer(Line, std::min<size_t>(N, sizeof(Line) - 1));
          return 0;
        }
        void *Sym = ::dlsym(Lib, CUDADEPS_PLUGIN_ENTRY_NAME);
        if (!Sym)
          return writeAnswer("1", 1) ? 0 : 1;
        auto Entry = reinterpret_cast<cudadeps_plugin_entry_fn>(Sym);
        const cudadeps_plugin *Desc = Entry();
        if (!Desc)
          return writeAnswer("2", 1) ? 0 : 1;
        if (Desc->abi_version != CUDADEPS_PLUGIN_ABI_VERSION) {
          int N = snprintf(Line, sizeof(Line), "3%u", Desc->abi_version);
          writeAnswer(Line, std::min<size_t>(N, sizeof(Line) - 1));
          return 0;
        }
        const char *Missing = !Desc->probe       ? "probe callback"
                              : !Desc->free_text ? "free_text callback"
                              : !Desc->name || !*Desc->name ? "name"
                                                            : nullptr;
        if (Missing) {
          int N = snprintf(Line, sizeof(Line), "4%s", Missing);
          writeAnswer(Line, std::min<size_t>(N, sizeof(Line) - 1));
          return 0;
        }
        int N = snprintf(Line, sizeof(Line), "K%.200s\n%.200s", Desc->name,
                         Desc->version ? Desc->version : "");
        writeAnswer(Line, std::min<size_t>(N, sizeof(Line) - 1));
        return 0;
      },
      Opts);
  if (O.What != IsolatedOutcome::Kind::Exited || O.ExitCode != 0 ||
      O.Output.empty())
    return loadError(PluginLoadError::Kind::CannotLoad, P,
                     "cannot load plugin '" + P + "': it " +
                         (O.Output.empty() && O.What ==
                                                  IsolatedOutcome::Kind::Exited &&
                                  O.ExitCode == 0
                              ? std::string("ended without a word")
                              : O.describeFailure(Opts)) +
                         " while loading");
  StringRef Reply(O.Output);
  char Code = Reply.front();
  StringRef Rest = Reply.drop_front();
  switch (Code) {
  case '0':
    return loadError(PluginLoadError::Kind::CannotLoad, P,
                     "cannot load plugin '" + P + "': " + Rest);
  case '1':
    return loadError(PluginLoadError::Kind::NoEntrySymbol, P,
                     "plugin '" + P + "' has no entry symbol '" +
                         CUDADEPS_PLUGIN_ENTRY_NAME +
                         "' (is it a cudadeps plugin, declared extern \"C\"?)");
  case '2':
    return loadError(PluginLoadError::Kind::NullCallback, P,
                     "plugin '" + P + "': " + CUDADEPS_PLUGIN_ENTRY_NAME +
                         " returned a null descriptor");
  case '3':
    return loadError(PluginLoadError::Kind::WrongAbiVersion, P,
                     "plugin '" + P + "' uses plugin ABI version " + Rest +
                         "; this cudadeps supports version " +
                         Twine(CUDADEPS_PLUGIN_ABI_VERSION));
  case '4':
    return loadError(PluginLoadError::Kind::NullCallback, P,
                     "plugin '" + P + "' has a null " + Rest);
  case 'K':
    break;
  default:
    return loadError(PluginLoadError::Kind::CannotLoad, P,
                     "cannot load plugin '" + P + "': a garbled reply");
  }
  auto [Name, Version] = Rest.split('\n');
  spdlog::debug("loaded plugin {} {} from {}", Name.str(), Version.str(), P);
  return std::make_unique<ExternalProbe>(Name.str(), Version.str(), P);
}

static bool isPluginFileName(StringRef Name) {
  return Name.endswith(".so") || Name.contains(".so.") ||
         Name.endswith(".dylib") || Name.endswith(".dll");
}

/// Adds \p Entry (a file, or a directory's plugin files in name order).
static void addEntry(StringRef Entry, bool MustExist,
                     std::vector<std::string> &Out, StringSet<> &Seen) {
  auto Add = [&](StringRef File) {
    SmallString<256> Abs(File);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    if (Seen.insert(Abs).second)
      Out.push_back(std::string(Abs));
  };
  if (!sys::fs::is_directory(Entry)) {
    if (MustExist || sys::fs::exists(Entry))
      Add(Entry);
    return;
  }
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Entry, EC), End; !EC && It != End;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (isPluginFileName(Name) && !sys::fs::is_directory(It->path()))
      Files.push_back(It->path());
  }
  llvm::sort(Files);
  for (const std::string &F : Files)
    Add(F);
}

std::vector<std::string> findPluginFiles(const PluginSearchPath &Search) {
  std::vector<std::string> Out;
  StringSet<> Seen;
  for (const std::string &P : Search.CommandLine)
    addEntry(P, /*MustExist=*/true, Out, Seen);
  if (Search.EnvPath) {
    SmallVector<StringRef, 8> Parts;
    StringRef(*Search.EnvPath).split(Parts, ':', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      addEntry(P, /*MustExist=*/true, Out, Seen);
  }
  if (!Search.InstalledDir.empty() && sys::fs::is_directory(Search.InstalledDir))
    addEntry(Search.InstalledDir, /*MustExist=*/false, Out, Seen);
  return Out;
}

ExternalPlugins loadPlugins(const PluginSearchPath &Search) {
  ExternalPlugins Result;
  for (const std::string &File : findPluginFiles(Search)) {
    Expected<std::unique_ptr<Probe>> P = loadPlugin(File);
    if (!P) {
      handleAllErrors(
          P.takeError(),
          [&](const PluginLoadError &E) {
            Result.Failures.push_back({E.path(), E.kind(), E.message()});
          },
          [&](const ErrorInfoBase &E) {
            Result.Failures.push_back(
                {File, PluginLoadError::Kind::CannotLoad, E.message()});
          });
      continue;
    }
    auto Same = llvm::find_if(Result.Probes, [&](const auto &Q) {
      return Q->name() == (*P)->name();
    });
    if (Same != Result.Probes.end()) {
      Result.Failures.push_back(
          {File, PluginLoadError::Kind::Shadowed,
           "plugin '" + File + "' is ignored: a plugin named '" +
               (*P)->name().str() + "' was already loaded from " +
               (*Same)->origin()});
      continue;
    }
    Result.Probes.push_back(std::move(*P));
  }
  return Result;
}

} // namespace cudadeps
