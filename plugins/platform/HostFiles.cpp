//===- HostFiles.cpp - small file-system helpers shared by the probes -----===//

#include "plugins/platform/HostFiles.h"

#include "core/support/BoundedFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <thread>

namespace cudadeps::probes {

std::string underRoot(llvm::StringRef SysRoot, llvm::StringRef AbsPath) {
  if (SysRoot.empty())
    return AbsPath.str();
  llvm::SmallString<256> P(SysRoot);
  llvm::sys::path::append(P, AbsPath);
  return std::string(P.str());
}

std::string joinPath(llvm::StringRef A, llvm::StringRef B, llvm::StringRef C,
                     llvm::StringRef D, llvm::StringRef E) {
  llvm::SmallString<256> P(A);
  for (llvm::StringRef Part : {B, C, D, E})
    if (!Part.empty())
      llvm::sys::path::append(P, Part);
  return std::string(P.str());
}

std::optional<std::string> readTextFile(llvm::StringRef Path, size_t Limit) {
  // Never a FIFO (it would block), a device (/dev/zero never ends) or a
  // directory; /proc files report a size of 0 but are read within Limit.
  if (Path.empty())
    return std::nullopt;
  llvm::Expected<std::string> Text = readFileHead(Path, Limit, "file");
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return std::nullopt;
  }
  return std::move(*Text);
}

std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (Path.empty() || llvm::sys::fs::real_path(Path, Real))
    return {};
  return std::string(Real.str());
}

bool isDirectory(llvm::StringRef Path) {
  return !Path.empty() && llvm::sys::fs::is_directory(Path);
}

bool isRegularFile(llvm::StringRef Path) {
  return !Path.empty() && llvm::sys::fs::is_regular_file(Path);
}

bool isExecutableFile(llvm::StringRef Path) {
  return isRegularFile(Path) && llvm::sys::fs::can_execute(Path);
}

std::vector<std::string> listDirectory(llvm::StringRef Dir) {
  std::vector<std::string> Names;
  if (Dir.empty())
    return Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  std::sort(Names.begin(), Names.end());
  return Names;
}

std::vector<std::string> splitSearchPath(llvm::StringRef List) {
  std::vector<std::string> Parts;
  llvm::SmallVector<llvm::StringRef, 16> Pieces;
  List.split(Pieces, ':', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Piece : Pieces)
    Parts.push_back(Piece.str());
  return Parts;
}

std::vector<std::string> findAllInSearchPath(llvm::StringRef Name,
                                             llvm::StringRef SearchPath) {
  PathSearch S{"PATH", Name.str(), "", {}};
  return runPathSearch(S, MapEnvironment({{"PATH", SearchPath.str()}}));
}

std::vector<std::string> searchPath(const Environment &Env,
                                    llvm::StringRef Variable,
                                    llvm::StringRef Name,
                                    std::vector<PathSearch> &Searches) {
  PathSearch S{Variable.str(), Name.str(), "", {}};
  runPathSearch(S, Env);
  if (std::find(Searches.begin(), Searches.end(), S) == Searches.end())
    Searches.push_back(S);
  return S.Found;
}

std::vector<std::string> searchPathMatching(const Environment &Env,
                                            llvm::StringRef Variable,
                                            llvm::StringRef Pattern,
                                            std::vector<PathSearch> &Searches) {
  PathSearch S{Variable.str(), "", Pattern.str(), {}};
  runPathSearch(S, Env);
  if (std::find(Searches.begin(), Searches.end(), S) == Searches.end())
    Searches.push_back(S);
  return S.Found;
}

std::vector<std::string> listDirectoryMatching(llvm::StringRef Dir,
                                               llvm::StringRef Pattern,
                                               ProbeAnswer &Answer) {
  DirListing L{Dir.str(), Pattern.str(), {}};
  runDirListing(L);
  if (std::find(Answer.Listings.begin(), Answer.Listings.end(), L) ==
      Answer.Listings.end())
    Answer.Listings.push_back(L);
  return L.Names;
}

std::string findInSearchPath(llvm::StringRef Name, llvm::StringRef SearchPath) {
  std::vector<std::string> Found = findAllInSearchPath(Name, SearchPath);
  return Found.empty() ? std::string() : Found.front();
}

std::string formatSeconds(std::chrono::milliseconds Duration) {
  long long Ms = Duration.count();
  if (Ms % 1000 == 0)
    return std::to_string(Ms / 1000) + "s";
  std::string Text = std::to_string(Ms / 1000) + "." + std::to_string(Ms % 1000 + 1000).substr(1);
  while (Text.back() == '0')
    Text.pop_back();
  return Text + "s";
}

std::optional<ProcessResult> runTool(const ProbeContext &Ctx,
                                     std::vector<std::string> Argv,
                                     llvm::StringRef What,
                                     ProbeAnswer &Answer) {
  ProcessRequest Request;
  Request.Argv = std::move(Argv);
  Request.Env = Ctx.Env.all();
  Request.Timeout = Ctx.timeLeftFor(Ctx.CommandTimeout);
  bool Shortened = Request.Timeout < Ctx.CommandTimeout;
  if (Request.Timeout.count() == 0) {
    Answer.Warnings.push_back(What.str() +
                              " was not run: the probe phase's deadline had "
                              "passed");
    Answer.TimedOut.push_back({What.str(), Request.Timeout});
    return std::nullopt;
  }
  llvm::Expected<ProcessResult> Result = Ctx.Runner.run(Request);
  if (!Result) {
    Answer.Warnings.push_back(What.str() + ": " +
                              llvm::toString(Result.takeError()));
    return std::nullopt;
  }
  if (Result->TimedOut) {
    Answer.Warnings.push_back(
        What.str() + " timed out after " + formatSeconds(Request.Timeout) +
        (Shortened ? ", cut short by the probe phase's deadline" : ""));
    Answer.TimedOut.push_back({What.str(), Request.Timeout});
    return std::nullopt;
  }
  if (Result->OutputExceeded) {
    Answer.Warnings.push_back(What.str() + ": " +
                              describeProblem(Request, *Result));
    return std::nullopt;
  }
  return std::move(*Result);
}

ProbeAnswer notPresentKeeping(ProbeAnswer &&Answer, std::string Reason) {
  ProbeAnswer None =
      ProbeAnswer::notPresent(std::move(Reason), std::move(Answer.Searched));
  None.Warnings = std::move(Answer.Warnings);
  None.TimedOut = std::move(Answer.TimedOut);
  None.Inputs = std::move(Answer.Inputs);
  None.EnvInputs = std::move(Answer.EnvInputs);
  None.Searches = std::move(Answer.Searches);
  None.Listings = std::move(Answer.Listings);
  return None;
}

void runInParallel(size_t Count, llvm::function_ref<void(size_t)> Fn,
                   size_t MaxParallel) {
  for (size_t Begin = 0; Begin < Count; Begin += MaxParallel) {
    std::vector<std::thread> Threads;
    for (size_t I = Begin; I < std::min(Count, Begin + MaxParallel); ++I)
      Threads.emplace_back([Fn, I] { Fn(I); });
    for (std::thread &T : Threads)
      T.join();
  }
}

void mergeNotes(ProbeAnswer &Answer, ProbeAnswer &&Notes) {
  for (std::string &W : Notes.Warnings)
    Answer.Warnings.push_back(std::move(W));
  for (std::string &In : Notes.Inputs)
    Answer.Inputs.push_back(std::move(In));
  for (ProbeTimeout &T : Notes.TimedOut)
    Answer.TimedOut.push_back(std::move(T));
}

void appendUnique(std::vector<std::string> &List, std::string Item) {
  if (std::find(List.begin(), List.end(), Item) == List.end())
    List.push_back(std::move(Item));
}

} // namespace cudadeps::probes
