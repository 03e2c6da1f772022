//===- PluginLoader.cpp - external probe plugins behind the C ABI ---------===//

#include "core/plugin/PluginLoader.h"

#include "core/facts/FactsFile.h"
#include "core/plugin/PluginAbi.h"
#include "core/support/JsonSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <algorithm>

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

/// A Probe backed by a loaded plugin's descriptor.
class ExternalProbe : public Probe {
public:
  ExternalProbe(const cudadeps_plugin *Desc, std::string Path)
      : Desc(Desc), Name(Desc->name),
        Ver(Desc->version ? Desc->version : ""), Path(std::move(Path)) {}

  StringRef name() const override { return Name; }
  StringRef version() const override { return Ver; }
  std::string origin() const override { return Path; }
  Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;

private:
  Error pluginError(const Twine &Message) const {
    return createStringError(inconvertibleErrorCode(),
                             "plugin '%s' (%s): %s", Name.c_str(),
                             Path.c_str(), Message.str().c_str());
  }

  const cudadeps_plugin *Desc;
  std::string Name;
  std::string Ver;
  std::string Path;
};

} // namespace

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

/// The keys of an answer that are about the answer, not facts.
static constexpr StringLiteral MetaKeys[] = {"searched", "warnings", "inputs",
                                             "env_inputs"};

Expected<ProbeAnswer> ExternalProbe::probe(const ProbeContext &Ctx) {
  cudadeps_probe_request Request{};
  Request.abi_version = CUDADEPS_PLUGIN_ABI_VERSION;
  Request.command_timeout_ms =
      static_cast<uint32_t>(std::max<int64_t>(0, Ctx.CommandTimeout.count()));
  Request.sysroot = Ctx.SysRoot.c_str();

  char *Raw = Desc->probe(&Request);
  if (!Raw)
    return pluginError("the probe callback returned no answer");
  std::string Text(Raw);
  Desc->free_text(Raw);
  spdlog::trace("plugin {} answered: {}", Name, Text);

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
  Answer.Inputs.push_back(Path);

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
  Expected<Facts> F = factsFromJson(*Parsed, "plugin " + Name + " (" + Path + ")",
                                    Source::probed(Name, Path));
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

  std::string ErrMsg;
  sys::DynamicLibrary Lib =
      sys::DynamicLibrary::getPermanentLibrary(P.c_str(), &ErrMsg);
  if (!Lib.isValid())
    return loadError(PluginLoadError::Kind::CannotLoad, P,
                     "cannot load plugin '" + P + "': " + ErrMsg);

  void *Sym = Lib.getAddressOfSymbol(CUDADEPS_PLUGIN_ENTRY_NAME);
  if (!Sym)
    return loadError(PluginLoadError::Kind::NoEntrySymbol, P,
                     "plugin '" + P + "' has no entry symbol '" +
                         CUDADEPS_PLUGIN_ENTRY_NAME +
                         "' (is it a cudadeps plugin, declared extern \"C\"?)");

  auto Entry = reinterpret_cast<cudadeps_plugin_entry_fn>(Sym);
  const cudadeps_plugin *Desc = Entry();
  if (!Desc)
    return loadError(PluginLoadError::Kind::NullCallback, P,
                     "plugin '" + P + "': " + CUDADEPS_PLUGIN_ENTRY_NAME +
                         " returned a null descriptor");
  if (Desc->abi_version != CUDADEPS_PLUGIN_ABI_VERSION)
    return loadError(PluginLoadError::Kind::WrongAbiVersion, P,
                     "plugin '" + P + "' uses plugin ABI version " +
                         Twine(Desc->abi_version) +
                         "; this cudadeps supports version " +
                         Twine(CUDADEPS_PLUGIN_ABI_VERSION));
  const char *Missing = !Desc->probe       ? "probe"
                        : !Desc->free_text ? "free_text"
                        : !Desc->name || !*Desc->name ? "name"
                                                      : nullptr;
  if (Missing)
    return loadError(PluginLoadError::Kind::NullCallback, P,
                     "plugin '" + P + "' has a null " + Missing +
                         (StringRef(Missing) == "name" ? "" : " callback"));
  spdlog::debug("loaded plugin {} {} from {}", Desc->name,
                Desc->version ? Desc->version : "", P);
  return std::make_unique<ExternalProbe>(Desc, P);
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
