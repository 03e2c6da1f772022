//===- ProbeRunner.cpp - run every probe concurrently and merge the facts -===//

#include "core/plugin/ProbeRunner.h"

#include "core/plugin/ProbeCache.h"

#include "llvm/ADT/STLExtras.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <thread>

using namespace llvm;

namespace cudadeps {

char ProbeTimeoutError::ID = 0;

StringRef statusName(ProbeReport::Status S) {
  switch (S) {
  case ProbeReport::Status::Found:
    return "found";
  case ProbeReport::Status::NotPresent:
    return "not-present";
  case ProbeReport::Status::Error:
    return "error";
  }
  llvm_unreachable("bad probe status");
}

namespace {
/// The outcome of one probe, filled in by its thread.
struct Slot {
  ProbeReport Report;
  Facts Found;
  /// The cache's answer, looked up before any thread starts.
  std::optional<ProbeAnswer> Cached;
};
} // namespace

static void runOne(Probe &P, const ProbeContext &Ctx,
                   const ProbeRunOptions &Opts, Slot &Out) {
  ProbeReport &R = Out.Report;
  R.Name = P.name().str();
  R.Version = P.version().str();
  R.Origin = P.origin();
  auto Start = std::chrono::steady_clock::now();
  auto Finish = [&] {
    R.Elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - Start);
    spdlog::debug("probe {}: {} in {} ms{}", R.Name, statusName(R.What),
                  R.Elapsed.count(), R.FromCache ? " (cached)" : "");
  };

  std::optional<ProbeAnswer> Answer = std::move(Out.Cached);
  R.FromCache = Answer.has_value();
  if (!Answer) {
    Expected<ProbeAnswer> A = P.probe(Ctx);
    if (!A) {
      R.What = ProbeReport::Status::Error;
      R.Reason = toString(handleErrors(
          A.takeError(), [&](std::unique_ptr<ProbeTimeoutError> T) -> Error {
            R.TimedOut.push_back(T->timeout());
            return Error(std::move(T));
          }));
      if (!StringRef(R.Reason).contains(R.Name))
        R.Reason = "probe '" + R.Name + "' failed: " + R.Reason;
      Finish();
      return;
    }
    Answer = std::move(*A);
    if (Opts.Cache)
      if (Error E = Opts.Cache->store(P, Ctx, *Answer))
        spdlog::debug("probe cache: {}", toString(std::move(E)));
  }
  R.What = Answer->What == ProbeAnswer::Kind::Found
               ? ProbeReport::Status::Found
               : ProbeReport::Status::NotPresent;
  R.Reason = std::move(Answer->NotPresentReason);
  R.Warnings = std::move(Answer->Warnings);
  R.TimedOut = std::move(Answer->TimedOut);
  R.Searched = std::move(Answer->Searched);
  R.Inputs = Answer->Inputs;
  R.EnvInputs = Answer->EnvInputs;
  // A hook that re-runs when an input changes cannot repeat a search or a
  // listing: it watches the variable and the directory.
  for (const PathSearch &S : Answer->Searches)
    if (!is_contained(R.EnvInputs, S.Variable))
      R.EnvInputs.push_back(S.Variable);
  for (const DirListing &L : Answer->Listings)
    if (!is_contained(R.Inputs, L.Dir))
      R.Inputs.push_back(L.Dir);
  if (R.What == ProbeReport::Status::Found)
    Out.Found = std::move(Answer->Found);
  Finish();
}

/// Runs one probe, turning an escaped C++ exception into an error report
/// (plugins are third-party code; cudadeps itself does not throw).
static void runGuarded(Probe &P, const ProbeContext &Ctx,
                       const ProbeRunOptions &Opts, Slot &Out) {
  try {
    runOne(P, Ctx, Opts, Out);
  } catch (const std::exception &E) {
    Out.Report.What = ProbeReport::Status::Error;
    Out.Report.Reason =
        "probe '" + P.name().str() + "' failed: " + std::string(E.what());
  } catch (...) {
    Out.Report.What = ProbeReport::Status::Error;
    Out.Report.Reason = "probe '" + P.name().str() + "' failed";
  }
}

ProbeRun runProbes(ArrayRef<Probe *> Probes, const ProbeContext &Ctx,
                   const ProbeRunOptions &Opts) {
  std::vector<Slot> Slots(Probes.size());
  // Cached answers first, on this thread: a warm run (a few milliseconds of
  // file reads) starts no thread, which on a loaded machine would each wait
  // for a core. Only the probes that must really run get threads.
  if (Opts.Cache && !Opts.Refresh)
    for (size_t I = 0; I < Probes.size(); ++I)
      Slots[I].Cached = Opts.Cache->lookup(*Probes[I], Ctx);
  // Then, still before any thread starts, the probes that fork children
  // which do not exec (plugins, libcuda): forked while other threads run, a
  // child may inherit a lock one of them holds and hang (Probe::forksChildren).
  std::vector<bool> Here(Probes.size());
  for (size_t I = 0; I < Probes.size(); ++I) {
    Here[I] = Slots[I].Cached.has_value() || Probes[I]->forksChildren();
    if (Here[I])
      runGuarded(*Probes[I], Ctx, Opts, Slots[I]);
  }
  // A thread pays only when two probes can overlap: a warm run whose one
  // uncached probe is the platform's (never cached) runs it here too.
  if (llvm::count(Here, false) == 1) {
    size_t Last = llvm::find(Here, false) - Here.begin();
    Here[Last] = true;
    runGuarded(*Probes[Last], Ctx, Opts, Slots[Last]);
  }
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Probes.size(); ++I)
    if (!Here[I])
      Threads.emplace_back(runGuarded, std::ref(*Probes[I]), std::cref(Ctx),
                           std::cref(Opts), std::ref(Slots[I]));
  for (std::thread &T : Threads)
    T.join();

  ProbeRun Run;
  for (Slot &S : Slots) {
    if (S.Report.What == ProbeReport::Status::Found)
      mergeFacts(Run.Merged, S.Found);
    Run.Reports.push_back(std::move(S.Report));
  }
  return Run;
}

} // namespace cudadeps
