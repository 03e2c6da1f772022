//===- ProbeInputs.cpp - searches and listings a probe's answer depends on ===//

#include "core/plugin/ProbeInputs.h"

#include "core/plugin/NamePattern.h"

#include "core/support/Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace cudadeps {

static bool isExecutableFile(const Twine &Path) {
  return sys::fs::is_regular_file(Path) && sys::fs::can_execute(Path);
}

/// The sorted names in \p Dir that \p Pattern matches (every name when it
/// is null); empty when \p Dir cannot be read.
static std::vector<std::string> matchingNames(StringRef Dir,
                                              const NamePattern *Pattern) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Pattern || Pattern->match(Name))
      Names.push_back(Name.str());
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

static void addOnce(std::vector<std::string> &List, std::string Item) {
  if (std::find(List.begin(), List.end(), Item) == List.end())
    List.push_back(std::move(Item));
}

std::vector<std::string> searchDirectories(const PathSearch &S,
                                           const Environment &Env) {
  std::string Value = Env.get(S.Variable).value_or("");
  SmallVector<StringRef, 16> Dirs;
  StringRef(Value).split(Dirs, ':', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Dirs.begin(), Dirs.end());
}

std::vector<DirListing> listSearchDirectories(const PathSearch &S,
                                              const Environment &Env) {
  std::vector<DirListing> Out;
  NamePattern Pattern(S.Pattern);
  // /bin and /usr/bin are often one directory: it is read once.
  std::vector<std::pair<sys::fs::UniqueID, size_t>> Read;
  for (std::string &Dir : searchDirectories(S, Env)) {
    DirListing L{std::move(Dir), S.Pattern, {}};
    sys::fs::UniqueID ID;
    bool Known = !sys::fs::getUniqueID(L.Dir, ID);
    auto Same = llvm::find_if(Read, [&](const auto &R) { return R.first == ID; });
    if (Known && Same != Read.end()) {
      L.Names = Out[Same->second].Names;
    } else if (Pattern.isValid()) {
      L.Names = matchingNames(L.Dir, &Pattern);
      if (Known)
        Read.emplace_back(ID, Out.size());
    }
    Out.push_back(std::move(L));
  }
  return Out;
}

const std::vector<std::string> &
runPathSearch(PathSearch &S, const Environment &Env, SearchLister List) {
  S.Found.clear();
  if (S.Name.empty() && !NamePattern(S.Pattern).isValid())
    return S.Found;
  auto Add = [&](StringRef Dir, StringRef Name) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, Name);
    if (isExecutableFile(Candidate))
      addOnce(S.Found, std::string(Candidate));
  };
  if (!S.Name.empty()) {
    for (const std::string &Dir : searchDirectories(S, Env))
      Add(Dir, S.Name);
  } else if (List) {
    for (const std::string &Dir : searchDirectories(S, Env))
      for (const std::string &Name : List(Dir, S.Pattern))
        Add(Dir, Name);
  } else {
    for (const DirListing &L : listSearchDirectories(S, Env))
      for (const std::string &Name : L.Names)
        Add(L.Dir, Name);
  }
  return S.Found;
}

const std::vector<std::string> &runDirListing(DirListing &L) {
  L.Names.clear();
  if (L.Pattern.empty()) {
    L.Names = matchingNames(L.Dir, nullptr);
    return L.Names;
  }
  NamePattern Pattern(L.Pattern);
  if (Pattern.isValid())
    L.Names = matchingNames(L.Dir, &Pattern);
  return L.Names;
}

} // namespace cudadeps
