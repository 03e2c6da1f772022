//===- FactProviderTest.cpp - what the solver reads of each release -------===//
#include "core/plan/FactProvider.h"

#include "core/manifest/ManifestCodec.h"
#include "core/manifest/ManifestLoader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace cudadeps;

namespace {

/// Three pure-Python packages whose releases each require something of their
/// own (the manifest lists them newest first for "a", oldest first for
/// "b"), so that reading one release for another shows.
struct ThreePackages {
  /// With \p Kept, each manifest as the load cache hands it out: encoded,
  /// its releases kept as bytes until read (what the provider reads of a
  /// pure-Python release from source then comes from those bytes).
  explicit ThreePackages(bool Kept = false) : Kept(Kept) {
    add("a", R"([[release]]
version = "3.0"
[release.requires]
b = ">=2"
[[release]]
version = "2.0"
[release.requires]
b = "<2"
c = ">=1"
[[release]]
version = "1.0"
[release.requires]
c = "==1.*"
)");
    add("b", R"([[release]]
version = "1.0"
[release.requires]
c = ">=2"
[[release]]
version = "2.0"
[[release]]
version = "3.0"
[release.requires]
a = "<3"
)");
    add("c", R"([[release]]
version = "1.0"
[[release]]
version = "2.0"
)");
    // Requirements of the package, one of them overridden by a release.
    add("d", R"([requires]
a = ">=2"
c = "<2"
[[release]]
version = "1.0"
[[release]]
version = "2.0"
[release.requires]
a = "==1.*"
b = ">=3"
)");
  }
  /// A pure-Python package Name whose releases are \p Releases (TOML).
  void add(const std::string &Name, const std::string &Releases) {
    std::string Text = "schema = 1\n[package]\nname = \"" + Name +
                       "\"\ngit = \"https://example.invalid/" + Name +
                       ".git\"\ntag = \"v{version}\"\nbuild = \"python\"\n" +
                       Releases;
    auto M = parseManifest(Text, Name + ".toml");
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    if (!Kept) {
      Manifests.emplace(Name, std::move(*M));
      return;
    }
    auto Blob = std::make_shared<const std::string>(encodeManifest(*M));
    std::optional<Manifest> Decoded =
        decodeManifestDeferred(Blob, Name + ".toml", SourcePath("cache.bin"));
    ASSERT_TRUE(Decoded);
    ASSERT_TRUE(Decoded->Pkg->Releases.keptBody(0)) << "kept as bytes";
    Manifests.emplace(Name, std::move(*Decoded));
  }
  PackageLookup lookup() const {
    return [this](llvm::StringRef N) -> const Package * {
      auto It = Manifests.find(N.str());
      return It == Manifests.end() ? nullptr : &*It->second.Pkg;
    };
  }
  bool Kept;
  std::map<std::string, Manifest> Manifests;
};

/// What a provider answers, as text that compares.
std::string describe(const PackageDependencies &D) {
  if (!D.Available)
    return "unavailable: " + D.Reason;
  std::string Out;
  for (const auto &[Name, Set] : D.On)
    Out += Name + " " + Set.str() + "; ";
  return Out;
}

Version source(llvm::StringRef V) {
  return cantFail(Version::parse(V)).withEpoch(encoding::SourceEpoch);
}

// The provider remembers the package and the release it read last; asked in
// any order (one package's versions in either direction, another package in
// between, the same release again, a version it does not have), each answer
// is the one a provider that has read nothing before gives.
class FactProviderOrder : public testing::TestWithParam<bool> {};

TEST_P(FactProviderOrder, DependenciesInAnyOrderAreThoseOfAFreshProvider) {
  ThreePackages T(GetParam());
  PackageLookup L = T.lookup();
  Facts F;
  KnowledgeBase KB;
  ResolveRequest Req;
  FactProvider Reused(Req, L, F, KB, {});
  const std::pair<const char *, const char *> Asks[] = {
      {"a", "1.0"}, {"a", "2.0"}, {"a", "3.0"}, {"b", "1.0"}, {"a", "2.0"},
      {"a", "1.0"}, {"b", "3.0"}, {"b", "2.0"}, {"b", "1.0"}, {"a", "3.0"},
      {"a", "3.0"}, {"a", "4.0"}, {"a", "1.0"}, {"c", "2.0"}, {"b", "3.0"},
      {"a", "0.5"}, {"b", "2.0"}, {"d", "1.0"}, {"d", "2.0"}, {"a", "2.0"},
      {"d", "1.0"}};
  std::vector<std::string> Seen;
  for (auto [Pkg, V] : Asks) {
    FactProvider Fresh(Req, L, F, KB, {});
    std::string Want = describe(Fresh.dependencies(Pkg, source(V)));
    std::string Got = describe(Reused.dependencies(Pkg, source(V)));
    EXPECT_EQ(Got, Want) << Pkg << " " << V;
    Seen.push_back(Got);
  }
  // The releases do differ, so that reading the wrong one would show.
  EXPECT_NE(Seen[0], Seen[1]);
  EXPECT_NE(Seen[1], Seen[2]);
  EXPECT_NE(Seen[6], Seen[7]);
  EXPECT_EQ(Seen[11].rfind("unavailable: ", 0), 0u) << Seen[11];
  EXPECT_EQ(Seen[15].rfind("unavailable: ", 0), 0u) << Seen[15];
  EXPECT_NE(Seen[2].find("b "), std::string::npos) << Seen[2];
  // The package's requirements, with the release's own in their place.
  EXPECT_EQ(Seen[17].find("b "), std::string::npos) << Seen[17];
  EXPECT_NE(Seen[17].find("c "), std::string::npos) << Seen[17];
  EXPECT_NE(Seen[18].find("b "), std::string::npos) << Seen[18];
  EXPECT_NE(Seen[17], Seen[18]);
  EXPECT_EQ(Seen[20], Seen[17]);
}

TEST_P(FactProviderOrder, VersionsAreNewestFirstInWhateverOrderListed) {
  // "a" lists its releases newest first (taken as listed), "b" oldest
  // first, "e" neither (both sorted).
  ThreePackages T(GetParam());
  T.add("e", R"([[release]]
version = "2.0"
[[release]]
version = "1.0"
[[release]]
version = "3.0"
)");
  PackageLookup L = T.lookup();
  Facts F;
  KnowledgeBase KB;
  ResolveRequest Req;
  FactProvider P(Req, L, F, KB, {});
  auto Texts = [&](const std::string &Pkg) {
    std::vector<std::string> Out;
    for (const Version &V : P.versions(Pkg)) {
      EXPECT_EQ(V.epoch(), encoding::SourceEpoch) << Pkg;
      Out.push_back(V.withEpoch(0).str());
    }
    return Out;
  };
  using Lines = std::vector<std::string>;
  EXPECT_EQ(Texts("a"), (Lines{"3.0", "2.0", "1.0"}));
  EXPECT_EQ(Texts("b"), (Lines{"3.0", "2.0", "1.0"}));
  EXPECT_EQ(Texts("e"), (Lines{"3.0", "2.0", "1.0"}));
}

// Parsed manifests, and manifests as the load cache keeps them (what the
// solver reads of a release from its bytes, into a list reused release
// after release).
INSTANTIATE_TEST_SUITE_P(FactProvider, FactProviderOrder, testing::Bool());

} // namespace
