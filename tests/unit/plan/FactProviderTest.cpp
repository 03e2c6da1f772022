//===- FactProviderTest.cpp - what the solver reads of each release -------===//
#include "core/plan/FactProvider.h"

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
  ThreePackages() {
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
  }
  /// A pure-Python package Name whose releases are \p Releases (TOML).
  void add(const std::string &Name, const std::string &Releases) {
    std::string Text = "schema = 1\n[package]\nname = \"" + Name +
                       "\"\ngit = \"https://example.invalid/" + Name +
                       ".git\"\ntag = \"v{version}\"\nbuild = \"python\"\n" +
                       Releases;
    auto M = parseManifest(Text, Name + ".toml");
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Manifests.emplace(Name, std::move(*M));
  }
  PackageLookup lookup() const {
    return [this](llvm::StringRef N) -> const Package * {
      auto It = Manifests.find(N.str());
      return It == Manifests.end() ? nullptr : &*It->second.Pkg;
    };
  }
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
TEST(FactProvider, DependenciesInAnyOrderAreThoseOfAFreshProvider) {
  ThreePackages T;
  PackageLookup L = T.lookup();
  Facts F;
  KnowledgeBase KB;
  ResolveRequest Req;
  FactProvider Reused(Req, L, F, KB, {});
  const std::pair<const char *, const char *> Asks[] = {
      {"a", "1.0"}, {"a", "2.0"}, {"a", "3.0"}, {"b", "1.0"}, {"a", "2.0"},
      {"a", "1.0"}, {"b", "3.0"}, {"b", "2.0"}, {"b", "1.0"}, {"a", "3.0"},
      {"a", "3.0"}, {"a", "4.0"}, {"a", "1.0"}, {"c", "2.0"}, {"b", "3.0"},
      {"a", "0.5"}, {"b", "2.0"}};
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
}

} // namespace
