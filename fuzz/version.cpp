//===- version.cpp - fuzz PEP 440 versions and specifier sets --------------===//
//
// The input is split at its first newline: a version for Version::parse()
// and a specifier set for VersionSet::parse(). What parses must print back
// to itself (str() then parse() is the identity), and the set algebra the
// solver relies on must hold for it.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/plan/FactProvider.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto [VText, SText] = fuzz::asText(Data, Size).split('\n');
  llvm::Expected<Version> V = Version::parse(VText);
  Version *PV = fuzz::valueOrNull(V);
  if (PV) {
    std::string S = PV->str();
    llvm::Expected<Version> Back = Version::parse(S);
    if (!Back)
      fuzz::fail("Version::str() does not parse: " +
                     llvm::toString(Back.takeError()),
                 S);
    if (!(*Back == *PV) || Back->str() != S)
      fuzz::fail("Version::parse(str()) differs", S);
  }
  llvm::Expected<VersionSet> Set = VersionSet::parse(SText);
  VersionSet *PS = fuzz::valueOrNull(Set);
  if (!PS)
    return 0;
  std::string S = PS->str();
  if (!PS->isEmpty()) {
    llvm::Expected<VersionSet> Back = VersionSet::parse(S);
    if (!Back)
      fuzz::fail("VersionSet::str() does not parse: " +
                     llvm::toString(Back.takeError()),
                 S);
    if (!(*Back == *PS))
      fuzz::fail("VersionSet::parse(str()) differs", S);
  }
  VersionSet C = PS->complement();
  if (!PS->intersect(C).isEmpty())
    fuzz::fail("a set meets its complement", S);
  if (!PS->unionWith(C).isAny())
    fuzz::fail("a set and its complement do not cover everything", S);
  if (!(C.complement() == *PS))
    fuzz::fail("the complement of the complement differs", S);
  // The resolver's strategies as epochs: liftTwice() writes its set
  // without normalizing it, so it must be the normalized union.
  if (llvm::all_of(PS->intervals(), [](const Interval &I) {
        return (!I.Lower.Value || I.Lower.Value->epoch() == 0) &&
               (!I.Upper.Value || I.Upper.Value->epoch() == 0);
      })) {
    using namespace encoding;
    if (!(liftTwice(*PS, PrebuiltEpoch, SourceEpoch) ==
          lift(*PS, PrebuiltEpoch).unionWith(lift(*PS, SourceEpoch))))
      fuzz::fail("liftTwice() is not the union of both lifts", S);
  }
  if (PV && !PV->isSentinel() && PS->contains(*PV) == C.contains(*PV))
    fuzz::fail("a version is in both or neither of a set and its complement",
               PV->str() + " / " + S);
  return 0;
}
