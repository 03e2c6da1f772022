#include "core/build/Pip.h"

#include "core/build/FailureCause.h"
#include "core/support/Hash.h"
#include "core/support/Interrupt.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps {

char PrebuiltNotFound::ID = 0;

void PrebuiltNotFound::log(raw_ostream &OS) const {
  OS << "the published binary " << Url << " does not exist";
  if (!Detail.empty())
    OS << " (" << Detail << ")";
}

std::error_code PrebuiltNotFound::convertToErrorCode() const {
  return std::make_error_code(std::errc::no_such_file_or_directory);
}

std::string downloadDirFor(StringRef Url, StringRef CacheDir) {
  SmallString<256> D(CacheDir);
  sys::path::append(D, "downloads", sha256Hex(Url).substr(0, 16));
  return std::string(D);
}

static std::string firstWheel(StringRef Dir) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    if (StringRef(It->path()).endswith(".whl"))
      return It->path();
  return {};
}

/// pip's line that says the URL does not exist, or "".
static std::string notFoundLine(StringRef Output) {
  SmallVector<StringRef, 0> Lines;
  Output.split(Lines, '\n');
  for (StringRef L : Lines)
    if (L.contains("404") || L.contains("No such file or directory") ||
        L.contains("does not exist"))
      return L.trim().take_front(300).str();
  return {};
}

Error runPip(const std::vector<std::string> &Argv, const PipOptions &Opts,
             StringRef What) {
  ProcessRequest R;
  R.Argv = Argv;
  R.Env = Opts.Env;
  R.Timeout = std::chrono::milliseconds(0);
  Expected<ProcessResult> Res = Opts.Runner->run(R);
  if (!Res)
    return Res.takeError();
  if (Res->Interrupted || interruptRequested())
    return makeInterrupted(What);
  if (Res->ExitCode != 0)
    return createStringError(inconvertibleErrorCode(), "%s failed (%s):\n%s",
                             What.str().c_str(),
                             describeProblem(R, *Res).c_str(),
                             lastLines(Res->Out + Res->Err, 12).c_str());
  return Error::success();
}

Expected<std::string> fetchPrebuilt(StringRef Url, const PipOptions &Opts) {
  std::string Dir = downloadDirFor(Url, Opts.CacheDir);
  std::string Have = firstWheel(Dir);
  if (!Have.empty())
    return Have;
  if (Opts.Offline)
    return createStringError(inconvertibleErrorCode(),
                             "offline: the prebuilt wheel %s is not in the "
                             "cache (%s); run once without --offline to "
                             "fetch it",
                             Url.str().c_str(), Dir.c_str());
  if (Opts.Python.empty())
    return createStringError(inconvertibleErrorCode(),
                             "fetching %s needs a Python with pip (the facts "
                             "have no [python])",
                             Url.str().c_str());
  SmallString<256> Parent(sys::path::parent_path(Dir));
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return createStringError(EC, "cannot create %s: %s", Parent.c_str(),
                             EC.message().c_str());
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueDirectory(
          Dir + ".tmp", Tmp))
    return createStringError(EC, "cannot create a directory in %s: %s",
                             Parent.c_str(), EC.message().c_str());
  auto Cleanup = make_scope_exit([&] {
    if (!Tmp.empty())
      (void)sys::fs::remove_directories(Tmp);
  });
  ProcessRequest R;
  R.Argv = pipDownloadArgv(Opts, Url, Tmp);
  R.Env = Opts.Env;
  R.Timeout = std::chrono::milliseconds(0);
  Expected<ProcessResult> Res = Opts.Runner->run(R);
  if (!Res)
    return Res.takeError();
  if (Res->Interrupted || interruptRequested())
    return makeInterrupted("downloading " + Url);
  std::string Output = Res->Out + Res->Err;
  if (Res->ExitCode != 0) {
    std::string Line = notFoundLine(Output);
    if (!Line.empty())
      return make_error<PrebuiltNotFound>(Url.str(), Line);
    return createStringError(
        inconvertibleErrorCode(), "cannot download %s with pip (%s):\n%s",
        Url.str().c_str(), describeProblem(R, *Res).c_str(),
        lastLines(Output, 12).c_str());
  }
  std::string Got = firstWheel(Tmp);
  if (Got.empty())
    return createStringError(inconvertibleErrorCode(),
                             "pip downloaded no wheel from %s",
                             Url.str().c_str());
  if (std::error_code EC = sys::fs::rename(Tmp, Dir)) {
    // Another run got there first: use its download.
    std::string Theirs = firstWheel(Dir);
    if (!Theirs.empty())
      return Theirs;
    return createStringError(EC, "cannot move the download to %s: %s",
                             Dir.c_str(), EC.message().c_str());
  }
  Tmp.clear();
  return firstWheel(Dir);
}

std::vector<std::string> pipDownloadArgv(const PipOptions &Opts,
                                         StringRef Url, StringRef Dest) {
  std::vector<std::string> Argv = {Opts.Python, "-m", "pip", "download",
                                   "--no-deps", "--disable-pip-version-check",
                                   "--dest", Dest.str()};
  Argv.insert(Argv.end(), Opts.TargetArgs.begin(), Opts.TargetArgs.end());
  Argv.push_back(Url.str());
  return Argv;
}

std::vector<std::string> pipInstallArgv(const PipOptions &Opts,
                                        ArrayRef<std::string> Args,
                                        StringRef WheelsDir) {
  std::vector<std::string> Argv = {Opts.Python, "-m", "pip", "install",
                                   "--no-deps",
                                   "--disable-pip-version-check"};
  if (Opts.Offline) {
    Argv.push_back("--no-index");
    Argv.push_back("--find-links");
    Argv.push_back(WheelsDir.str());
  }
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  return Argv;
}

} // namespace cudadeps
