//===- FactsJsonTest.cpp - facts as JSON ----------------------------------===//

#include "FactsTestUtil.h"

#include "core/facts/FactsFile.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::testing;
using namespace llvm;

TEST(FactsJsonTest, RoundTripIsExactSourcesIncluded) {
  Facts F = richFacts();
  json::Value V = factsToJson(F);
  Expected<Facts> Back = factsFromJson(V, "facts.json");
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_EQ(*Back, F);
  for (size_t I = 0; I < F.Gpus.size(); ++I)
    EXPECT_EQ(Back->Gpus[I].From, F.Gpus[I].From);
  EXPECT_EQ(Back->Driver->CudaSource, F.Driver->CudaSource);
  EXPECT_EQ(Back->Packages.at("zope.interface").From,
            Source::overridden("--set zope.interface=7.2"));

  // Through text as well: what a plugin or `probe --format json` prints.
  std::string Text = formatv("{0:2}", V).str();
  Expected<Facts> FromText =
      factsFromJsonText(Text, "facts.json", Source::declared("unused"));
  ASSERT_TRUE(bool(FromText)) << toString(FromText.takeError());
  EXPECT_EQ(*FromText, F);
  EXPECT_EQ(*FromText->Platform->MemoryGib, 503.7421875);
}

TEST(FactsJsonTest, EmptyFactsRoundTrip) {
  Expected<Facts> Back = factsFromJson(factsToJson(Facts()), "x");
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, Facts());
}

TEST(FactsJsonTest, ShapeOfTheOutput) {
  json::Value V = factsToJson(richFacts());
  const json::Object *O = V.getAsObject();
  ASSERT_TRUE(O);
  const json::Object *Nvcc = (*O->getArray("nvcc"))[0].getAsObject();
  ASSERT_TRUE(Nvcc);
  EXPECT_EQ(Nvcc->getString("version"), StringRef("12.8.93"));
  EXPECT_EQ(Nvcc->getInteger("max_gcc").getValueOr(0), 14);
  const json::Object *Src = Nvcc->getObject("source");
  ASSERT_TRUE(Src);
  EXPECT_EQ(Src->getString("kind"), StringRef("probed"));
  EXPECT_EQ(Src->getString("by"), StringRef("nvcc"));
  EXPECT_EQ(Src->getString("from"),
            StringRef("/usr/local/cuda-12.8/bin/nvcc --version"));
  EXPECT_EQ(
      (*O->getArray("gpu"))[1].getAsObject()->getString("compute_capability"),
      StringRef("12.0"));
  EXPECT_EQ(O->getObject("packages")->getObject("triton")->getString("version"),
            StringRef("3.6.0"));
  EXPECT_EQ(O->getObject("torch")->getBoolean("cxx11_abi"), true);
}

TEST(FactsJsonTest, PluginJsonWithoutSourcesGetsTheDefault) {
  Source Default = Source::probed("acme-probe", "libacme.so");
  Expected<Facts> F = factsFromJsonText(R"({
    "driver": {"version": "575.51.03", "cuda": "12.9"},
    "gpu": [{"name": "NVIDIA RTX PRO 6000", "compute_capability": "12.0"}],
    "nvcc": [{"path": "/opt/cuda/bin/nvcc", "version": "12.9.41"}],
    "packages": {"triton": "3.4.0"},
    "python": null
  })",
                                        "acme-probe", Default);
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ(F->Driver->KernelSource, Default);
  EXPECT_EQ(F->Driver->CudaSource, Default);
  EXPECT_EQ(F->Gpus[0].From, Default);
  EXPECT_EQ(F->Gpus[0].smArch(), "sm_120");
  EXPECT_EQ(F->Nvccs[0].From, Default);
  EXPECT_EQ(F->Packages.at("triton").From, Default);
  EXPECT_EQ(F->Packages.at("triton").Ver, ver("3.4.0"));
  EXPECT_FALSE(F->Python);

  // The two-argument form defaults to "declared in ORIGIN".
  Expected<Facts> G = factsFromJson(
      json::Object{{"torch", json::Object{{"version", "2.8.0"}}}}, "in.json");
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->Torch->From, Source::declared("in.json"));
}

TEST(FactsJsonTest, ErrorsNameTheJsonPath) {
  auto D = diagnosticsOf(factsFromJsonText(R"({
    "gpu": [{"compute_capability": "9.0"}, {"compute_capability": 9.0}],
    "nvcc": [{"version": "12.8", "archs": ["sm_90", "sm9"]}],
    "compiler": [{"path": "/g++", "family": "gnu", "version": "13"}],
    "torch": {"version": "2.9", "source": {"kind": "guessed"}},
    "pyhton": {}
  })",
                                           "plugin:acme",
                                           Source::probed("acme", "")));
  std::vector<std::string> Messages;
  for (const Diagnostic &Diag : D) {
    EXPECT_EQ(Diag.Loc.File, "plugin:acme");
    Messages.push_back(Diag.Message);
  }
  ASSERT_EQ(Messages.size(), 6u) << join(Messages, "\n");
  EXPECT_EQ(Messages[0], "gpu[1].compute_capability: expected a string for "
                         "'compute_capability', found number");
  EXPECT_EQ(Messages[1], "nvcc[0]: missing required key 'path'");
  EXPECT_TRUE(StringRef(Messages[2])
                  .startswith("nvcc[0].archs[1]: invalid architecture 'sm9'"));
  EXPECT_TRUE(
      StringRef(Messages[3])
          .startswith("compiler[0].family: invalid compiler family 'gnu'"));
  EXPECT_TRUE(
      StringRef(Messages[4])
          .startswith("torch.source.kind: invalid source kind 'guessed'"));
  EXPECT_EQ(Messages[5], "pyhton: unknown key 'pyhton'");
  EXPECT_EQ(D[5].Hint, "did you mean 'python'?");
}

TEST(FactsJsonTest, MisspeltRequiredKeyIsOneError) {
  auto D = diagnosticsOf(
      factsFromJsonText(R"({"nvcc": [{"path": "/n", "verison": "12.8"}]})", "p",
                        Source::probed("p", "")));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message, "nvcc[0]: unknown key 'verison'");
  EXPECT_EQ(D[0].Hint, "did you mean 'version'?");
}

TEST(FactsJsonTest, SyntaxErrorIsLocated) {
  auto D = diagnosticsOf(
      factsFromJsonText("{\n  \"gpu\": [,]\n}", "p", Source::probed("p", "")));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 2u);
  EXPECT_GT(D[0].Loc.Column, 0u);
  EXPECT_TRUE(StringRef(D[0].Message).startswith("invalid JSON: "));
  EXPECT_EQ(D[0].SourceLine, "  \"gpu\": [,]");
}

TEST(FactsJsonTest, HostileJson) {
  Source S = Source::probed("p", "");
  EXPECT_FALSE(bool(factsFromJsonText("[1, 2, 3]", "p", S)) ? true : false);
  consumeError(factsFromJsonText("[1, 2, 3]", "p", S).takeError());
  auto D = diagnosticsOf(factsFromJsonText(
      std::string(100000, '[') + std::string(100000, ']'), "p", S));
  EXPECT_FALSE(D.empty());
  D = diagnosticsOf(factsFromJsonText("\"\xff\"", "p", S));
  EXPECT_FALSE(D.empty());
  D = diagnosticsOf(factsFromJsonText(
      R"({"platform": {"cpus": 1e300, "memory_gib": -1}})", "p", S));
  ASSERT_EQ(D.size(), 2u);
  D = diagnosticsOf(factsFromJsonText(R"({"gpu": {"name": "x"}})", "p", S));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message, "gpu: expected an array, found object");
}
