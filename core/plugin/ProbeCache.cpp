//===- ProbeCache.cpp - probe answers cached on disk, fingerprint-checked -===//

#include "core/plugin/ProbeCache.h"

#include "core/facts/FactsFile.h"
#include "core/facts/FactsSchema.h"
#include "core/support/AtomicFile.h"
#include "core/support/BoundedFile.h"
#include "core/support/JsonSupport.h"
#include "core/support/LoadCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <spdlog/spdlog.h>

using namespace llvm;

namespace cudadeps {

/// Bumped when the entry layout changes; other values are ignored.
static constexpr int64_t EntryFormat = 4;

std::string ProbeCache::defaultDir(const Environment &Env) {
  SmallString<256> P;
  if (auto X = Env.get("XDG_CACHE_HOME"); X && !X->empty() &&
                                          sys::path::is_absolute(*X)) {
    P = *X;
  } else if (auto H = Env.get("HOME"); H && !H->empty()) {
    P = *H;
    sys::path::append(P, ".cache");
  } else {
    return {};
  }
  sys::path::append(P, "cudadeps");
  return std::string(P);
}

std::string ProbeCache::entryPath(StringRef ProbeName) const {
  std::string File;
  for (char C : ProbeName)
    File += (isAlnum(C) || C == '-' || C == '_' || C == '.') ? C : '_';
  SmallString<256> P(Dir);
  sys::path::append(P, "probes", File + ".json");
  return std::string(P);
}

json::Value ProbeCache::fingerprint(StringRef Path) {
  json::Object FP{{"path", Path.str()}}; // owned: Path may not outlive it
  sys::fs::file_status St;
  if (sys::fs::status(Path, St) || !sys::fs::exists(St)) {
    FP["missing"] = true;
    return json::Value(std::move(FP));
  }
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    FP["real"] = std::string(Real);
  FP["type"] = sys::fs::is_directory(St)      ? "dir"
               : sys::fs::is_regular_file(St) ? "file"
                                              : "other";
  FP["size"] = static_cast<int64_t>(St.getSize());
  FP["mtime_ns"] = static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          St.getLastModificationTime().time_since_epoch())
          .count());
  return json::Value(std::move(FP));
}

static json::Value envValue(const Environment &Env, StringRef Name) {
  if (auto V = Env.get(Name))
    return *V;
  return nullptr;
}

static json::Array strings(const std::vector<std::string> &L) {
  json::Array A;
  for (const std::string &S : L)
    A.push_back(S);
  return A;
}

static bool readStrings(const json::Object &O, StringRef Key,
                        std::vector<std::string> &Out) {
  const json::Array *A = O.getArray(Key);
  if (!A)
    return false;
  for (const json::Value &V : *A) {
    auto S = V.getAsString();
    if (!S)
      return false;
    Out.push_back(S->str());
  }
  return true;
}

static json::Value listingToJson(const DirListing &L, json::Value Fingerprint);

/// A pattern search also records, for each directory it read, the names the
/// pattern matched there and the directory's fingerprint: an unchanged
/// directory (/usr/bin) is not read again. The fingerprints are taken before
/// the directories are listed: a directory that changes meanwhile has a newer
/// fingerprint than the one recorded, and is read again next time.
static json::Value searchToJson(const PathSearch &S, const Environment &Env) {
  json::Array Dirs;
  if (S.Name.empty()) {
    std::vector<json::Value> Before;
    for (const std::string &D : searchDirectories(S, Env))
      Before.push_back(ProbeCache::fingerprint(D));
    std::vector<DirListing> Listed = listSearchDirectories(S, Env);
    assert(Listed.size() == Before.size() && "one listing per directory");
    for (size_t I = 0; I < Listed.size(); ++I)
      Dirs.push_back(listingToJson(Listed[I], std::move(Before[I])));
  }
  return json::Object{{"variable", S.Variable},
                      {"name", S.Name},
                      {"pattern", S.Pattern},
                      {"found", strings(S.Found)},
                      {"dirs", std::move(Dirs)}};
}

static std::optional<PathSearch> searchFromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  auto Var = O->getString("variable");
  auto Name = O->getString("name");
  auto Pattern = O->getString("pattern");
  PathSearch S;
  if (!Var || !Name || !Pattern || !readStrings(*O, "found", S.Found))
    return std::nullopt;
  S.Variable = Var->str();
  S.Name = Name->str();
  S.Pattern = Pattern->str();
  return S;
}

/// A listing with the directory's fingerprint, taken before the names were
/// read: while that is unchanged the names are too, and the directory need
/// not be read.
static json::Value listingToJson(const DirListing &L, json::Value Fingerprint) {
  return json::Object{{"dir", L.Dir},
                      {"pattern", L.Pattern},
                      {"names", strings(L.Names)},
                      {"fingerprint", std::move(Fingerprint)}};
}

static std::optional<DirListing> listingFromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  auto Dir = O->getString("dir");
  auto Pattern = O->getString("pattern");
  DirListing L;
  if (!Dir || !Pattern || !readStrings(*O, "names", L.Names))
    return std::nullopt;
  L.Dir = Dir->str();
  L.Pattern = Pattern->str();
  return L;
}

/// The answer's installed distributions as rows [name, version, kind, by,
/// from], taken out of its facts: a warm run reads every package of the
/// entries it uses (the cuda-runtime probe's is 94 distributions here), and
/// rows of strings parse at a fraction of the cost of one object (with a
/// source object) per package.
static json::Array takePackageRows(json::Object &FactsJson) {
  json::Array Rows;
  json::Object *Packages = FactsJson.getObject("packages");
  if (!Packages)
    return Rows;
  std::vector<std::string> Names;
  for (const auto &KV : *Packages)
    Names.push_back(KV.first.str());
  llvm::sort(Names);
  for (const std::string &Name : Names) {
    const json::Object *P = Packages->getObject(Name);
    const json::Object *S = P ? P->getObject("source") : nullptr;
    auto Field = [](const json::Object *O, StringRef Key) -> json::Value {
      auto V = O ? O->getString(Key) : None;
      return V ? V->str() : std::string();
    };
    Rows.push_back(json::Array{json::Value(Name), Field(P, "version"),
                               Field(S, "kind"), Field(S, "by"),
                               Field(S, "from")});
  }
  FactsJson.erase("packages");
  return Rows;
}

/// Reads takePackageRows' rows into \p Out; false when one is not five
/// strings with a name, a version and a source kind.
static bool readPackageRows(const json::Array &Rows,
                            std::map<std::string, PackageFact> &Out) {
  for (const json::Value &V : Rows) {
    const json::Array *Row = V.getAsArray();
    if (!Row || Row->size() != 5)
      return false;
    StringRef Field[5];
    for (size_t I = 0; I < 5; ++I) {
      auto S = (*Row)[I].getAsString();
      if (!S)
        return false;
      Field[I] = *S;
    }
    PackageFact F;
    if (Field[0].trim().empty() ||
        facts_schema::checkVersion(Field[1], Field[0], F.Ver))
      return false;
    if (Field[2] == "probed")
      F.From.How = Source::Kind::Probed;
    else if (Field[2] == "declared")
      F.From.How = Source::Kind::Declared;
    else if (Field[2] == "overridden")
      F.From.How = Source::Kind::Overridden;
    else
      return false;
    F.From.By = Field[3].str();
    F.From.From = Field[4].str();
    Out[Field[0].str()] = std::move(F);
  }
  return true;
}

/// The parts of the entry that must match for it to be used. The program's
/// identity makes a rebuilt cudadeps, whose probes may differ from the
/// version's release, probe again.
static json::Object keyOf(const Probe &P, const ProbeContext &Ctx) {
  return json::Object{{"format", EntryFormat},
                      {"cudadeps", CUDADEPS_VERSION},
                      {"program", json::fixUTF8(programIdentity())},
                      {"probe", P.name()},
                      {"version", P.version()},
                      {"origin", P.origin()},
                      {"sysroot", Ctx.SysRoot}};
}

/// The answer \p Entry holds if it is still valid for \p Ctx; otherwise
/// nullopt with the reason in \p Why. \p Restore is set when it is valid
/// but a directory's fingerprint changed (the entry should be rewritten).
static std::optional<ProbeAnswer>
answerOf(const json::Object &EntryObj, const Probe &P, const ProbeContext &Ctx,
         StringRef Path, bool &Restore, std::string &Why) {
  const json::Object *Entry = &EntryObj;
  auto Miss = [&](StringRef Reason) -> std::optional<ProbeAnswer> {
    Why = Reason.str();
    return std::nullopt;
  };
  for (const auto &[K, V] : keyOf(P, Ctx)) {
    const json::Value *Stored = Entry->get(K);
    if (!Stored || *Stored != V)
      return Miss(("'" + K.str() + "' differs").c_str());
  }
  const json::Object *Env = Entry->getObject("env");
  const json::Array *Inputs = Entry->getArray("inputs");
  const json::Object *Ans = Entry->getObject("answer");
  if (!Env || !Inputs || !Ans)
    return Miss("incomplete entry");
  for (const auto &[Name, Value] : *Env)
    if (envValue(Ctx.Env, Name) != Value)
      return Miss(("$" + Name.str() + " changed").c_str());
  for (const json::Value &FP : *Inputs) {
    const json::Object *O = FP.getAsObject();
    auto InputPath = O ? O->getString("path") : None;
    if (!InputPath)
      return Miss("bad input fingerprint");
    if (ProbeCache::fingerprint(*InputPath) != FP)
      return Miss((*InputPath + " changed").str().c_str());
  }
  ProbeAnswer A;
  const json::Array *Searches = Entry->getArray("searches");
  const json::Array *Listings = Entry->getArray("listings");
  if (!Searches || !Listings)
    return Miss("incomplete entry");
  // A directory whose fingerprint changed is read again; the entry is
  // rewritten with the new fingerprint when what it holds is the same.
  auto NamesIn = [&](const json::Value &V,
                     std::optional<DirListing> &L) -> bool {
    L = listingFromJson(V);
    const json::Value *FP =
        V.getAsObject() ? V.getAsObject()->get("fingerprint") : nullptr;
    if (!L || !FP)
      return false;
    if (ProbeCache::fingerprint(L->Dir) != *FP) {
      runDirListing(*L);
      Restore = true;
    }
    return true;
  };
  for (const json::Value &V : *Searches) {
    std::optional<PathSearch> S = searchFromJson(V);
    const json::Array *Dirs = S ? V.getAsObject()->getArray("dirs") : nullptr;
    if (!Dirs)
      return Miss("bad search");
    std::vector<DirListing> Known;
    for (const json::Value &D : *Dirs) {
      std::optional<DirListing> L;
      if (!NamesIn(D, L))
        return Miss("bad search");
      Known.push_back(std::move(*L));
    }
    auto List = [&](StringRef Dir, StringRef Pattern) {
      for (const DirListing &L : Known)
        if (L.Dir == Dir && L.Pattern == Pattern)
          return L.Names;
      DirListing L{Dir.str(), Pattern.str(), {}}; // not searched before
      return runDirListing(L);
    };
    PathSearch Again = *S;
    if (runPathSearch(Again, Ctx.Env, List) != S->Found)
      return Miss(("what $" + S->Variable + " finds changed").c_str());
    A.Searches.push_back(std::move(*S));
  }
  for (const json::Value &V : *Listings) {
    std::optional<DirListing> L;
    if (!NamesIn(V, L))
      return Miss("bad listing");
    DirListing Stored = *listingFromJson(V);
    if (L->Names != Stored.Names)
      return Miss((L->Dir + " has other entries").c_str());
    A.Listings.push_back(std::move(Stored));
  }

  auto Kind = Ans->getString("kind");
  if (Kind == StringRef("found"))
    A.What = ProbeAnswer::Kind::Found;
  else if (Kind == StringRef("not_present"))
    A.What = ProbeAnswer::Kind::NotPresent;
  else
    return Miss("bad answer kind");
  if (auto R = Ans->getString("reason"))
    A.NotPresentReason = R->str();
  if (!readStrings(*Ans, "searched", A.Searched) ||
      !readStrings(*Ans, "warnings", A.Warnings) ||
      !readStrings(*Ans, "inputs", A.Inputs) ||
      !readStrings(*Ans, "env_inputs", A.EnvInputs))
    return Miss("bad answer lists");
  const json::Value *F = Ans->get("facts");
  if (!F)
    return Miss("no facts");
  Expected<Facts> Found =
      factsFromJson(*F, Path, Source::probed(P.name().str(), ""));
  if (!Found) {
    consumeError(Found.takeError());
    return Miss("facts do not parse");
  }
  A.Found = std::move(*Found);
  const json::Array *Rows = Ans->getArray("package_rows");
  if (!Rows || !readPackageRows(*Rows, A.Found.Packages))
    return Miss("bad package rows");
  return A;
}

/// The entries of a cache file: {"entries": [...]}, most recently stored
/// first; nullptr when it is not one.
static const json::Array *entriesOf(const json::Value &File) {
  const json::Object *O = File.getAsObject();
  return O ? O->getArray("entries") : nullptr;
}

std::optional<ProbeAnswer> ProbeCache::lookup(const Probe &P,
                                              const ProbeContext &Ctx) const {
  if (Dir.empty())
    return std::nullopt;
  std::string Path = entryPath(P.name());
  auto Miss = [&](StringRef Why) -> std::optional<ProbeAnswer> {
    spdlog::debug("probe cache: {} not used: {}", Path, Why);
    return std::nullopt;
  };
  // An entry is never trusted blindly: a FIFO, /dev/zero or a huge file in
  // its place is a miss, not a hang or an exhausted memory.
  Expected<std::string> Text =
      readBoundedFile(Path, MaxCacheEntryBytes, "probe cache entry");
  if (!Text)
    return Miss(toString(Text.takeError()));
  Expected<json::Value> Parsed = parseJson(*Text);
  if (!Parsed)
    return Miss("not valid JSON: " + toString(Parsed.takeError()));
  const json::Array *Entries = entriesOf(*Parsed);
  if (!Entries)
    return Miss("not a list of entries");
  std::string Reasons;
  for (const json::Value &E : *Entries) {
    const json::Object *Entry = E.getAsObject();
    bool Restore = false;
    std::string Why = "not an object";
    std::optional<ProbeAnswer> A =
        Entry ? answerOf(*Entry, P, Ctx, Path, Restore, Why) : std::nullopt;
    if (!A) {
      Reasons += (Reasons.empty() ? "" : "; ") + Why;
      continue;
    }
    spdlog::debug("probe cache: {} hit", P.name());
    if (Restore)
      if (Error Err = store(P, Ctx, *A))
        spdlog::debug("probe cache: {}", toString(std::move(Err)));
    return A;
  }
  return Miss(Reasons.empty() ? "no entries" : Reasons);
}

/// What tells one situation of the machine from another: the values of the
/// environment and what the searches found. An entry stored for the same
/// situation replaces the older one; entries of other situations (a shell's
/// $PATH and the one pyenv gives Python) are kept side by side.
static json::Value situationOf(const json::Object &Entry) {
  json::Array Searches;
  if (const json::Array *A = Entry.getArray("searches"))
    for (const json::Value &V : *A)
      if (std::optional<PathSearch> S = searchFromJson(V))
        Searches.push_back(json::Object{{"variable", S->Variable},
                                        {"name", S->Name},
                                        {"pattern", S->Pattern},
                                        {"found", strings(S->Found)}});
  const json::Object *Env = Entry.getObject("env");
  return json::Object{
      {"env", Env ? json::Value(json::Object(*Env)) : json::Value(nullptr)},
      {"searches", std::move(Searches)}};
}

Error ProbeCache::store(const Probe &P, const ProbeContext &Ctx,
                        const ProbeAnswer &A) const {
  // A timeout is not a fact about the machine: the next run asks again.
  if (Dir.empty() ||
      (A.Inputs.empty() && A.Searches.empty() && A.Listings.empty()) ||
      !A.TimedOut.empty())
    return Error::success();
  // JSON holds UTF-8 only: an entry whose environment, input paths, found
  // files, listings or texts are not (a CUDA_HOME with byte 0xff) could not be read back as it was
  // written -- its inputs would never match -- so it is not written.
  auto Utf8 = [](const std::vector<std::string> &L) {
    return llvm::all_of(L, [](const std::string &S) { return json::isUTF8(S); });
  };
  bool Representable = Utf8(A.Inputs) && Utf8(A.Searched) &&
                       Utf8(A.Warnings) && json::isUTF8(A.NotPresentReason);
  for (const std::string &Name : A.EnvInputs)
    if (auto V = Ctx.Env.get(Name); V && !json::isUTF8(*V))
      Representable = false;
  for (const PathSearch &S : A.Searches)
    Representable = Representable && Utf8(S.Found);
  for (const DirListing &L : A.Listings)
    Representable = Representable && json::isUTF8(L.Dir) && Utf8(L.Names);
  if (!Representable) {
    spdlog::debug("probe cache: {} not stored: a value is not UTF-8",
                  P.name());
    return Error::success();
  }
  json::Object Entry = keyOf(P, Ctx);
  json::Object Env;
  for (const std::string &Name : A.EnvInputs)
    Env[Name] = envValue(Ctx.Env, Name);
  json::Array Inputs;
  for (const std::string &In : A.Inputs)
    Inputs.push_back(fingerprint(In));
  json::Array Searches, Listings;
  for (const PathSearch &S : A.Searches)
    Searches.push_back(searchToJson(S, Ctx.Env));
  // The probe listed its directories before this fingerprint can be taken:
  // each is fingerprinted, then listed again, and one that holds other names
  // than the probe saw changed while it probed. Its new fingerprint would
  // vouch for the old names, so the answer is not stored.
  for (const DirListing &L : A.Listings) {
    json::Value Fingerprint = fingerprint(L.Dir);
    DirListing Now{L.Dir, L.Pattern, {}};
    if (runDirListing(Now) != L.Names) {
      spdlog::debug("probe cache: {} not stored: {} changed while probing",
                    P.name(), L.Dir);
      return Error::success();
    }
    Listings.push_back(listingToJson(L, std::move(Fingerprint)));
  }
  Entry["env"] = std::move(Env);
  Entry["inputs"] = std::move(Inputs);
  Entry["searches"] = std::move(Searches);
  Entry["listings"] = std::move(Listings);
  json::Value FactsJson = factsToJson(A.Found);
  json::Array Rows = takePackageRows(*FactsJson.getAsObject());
  Entry["answer"] = json::Object{
      {"kind", A.What == ProbeAnswer::Kind::Found ? "found" : "not_present"},
      {"reason", A.NotPresentReason},
      {"searched", strings(A.Searched)},
      {"warnings", strings(A.Warnings)},
      {"inputs", strings(A.Inputs)},
      {"env_inputs", strings(A.EnvInputs)},
      {"facts", std::move(FactsJson)},
      {"package_rows", std::move(Rows)}};

  std::string Path = entryPath(P.name());
  // The new entry first, then the other situations' entries of this probe
  // (same key), at most MaxEntriesPerProbe in all.
  json::Value Situation = situationOf(Entry);
  json::Object Key = keyOf(P, Ctx);
  json::Array Entries;
  Entries.push_back(std::move(Entry));
  if (Expected<std::string> Old =
          readBoundedFile(Path, MaxCacheEntryBytes, "probe cache entry")) {
    Expected<json::Value> Parsed = parseJson(*Old);
    const json::Array *List = Parsed ? entriesOf(*Parsed) : nullptr;
    if (!Parsed)
      consumeError(Parsed.takeError());
    for (const json::Value &V : List ? *List : json::Array()) {
      const json::Object *O = V.getAsObject();
      if (!O || Entries.size() >= MaxEntriesPerProbe ||
          situationOf(*O) == Situation ||
          !llvm::all_of(Key, [&](const auto &KV) {
            const json::Value *Stored = O->get(KV.first);
            return Stored && *Stored == KV.second;
          }))
        continue;
      Entries.push_back(V);
    }
  } else {
    consumeError(Old.takeError());
  }

  StringRef Parent = sys::path::parent_path(Path);
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return createStringError(EC, "cannot create cache directory '%s': %s",
                             Parent.str().c_str(), EC.message().c_str());
  // Compact: a warm run parses every entry of the file it reads. Readers
  // see the old or the new entry, never a partial one.
  std::string Text =
      formatv("{0}", json::Value(json::Object{{"entries", std::move(Entries)}}))
          .str() +
      "\n";
  if (std::error_code EC = writeFileAtomically(Path, Text))
    return createStringError(EC, "cannot write cache entry '%s': %s",
                             Path.c_str(), EC.message().c_str());
  return Error::success();
}

} // namespace cudadeps
