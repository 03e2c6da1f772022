// `resolve --format json` writes each package's object as it prints
// (printJson): the same bytes as llvm::json printing the whole document,
// keys sorted, nulls where a part is absent.
#include "cli/ResolveRender.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::cli;

namespace {

Version v(llvm::StringRef S) { return llvm::cantFail(Version::parse(S)); }

Resolution sample() {
  Resolution R;
  R.Status = ResolveStatus::Fallback;
  R.TargetArchs = {"sm_90"};
  R.TargetOrigin = "the GPU";
  R.Warnings = {"a \"quoted\"\nwarning"};
  PackageResolution Full;
  Full.Name = "causal-conv1d";
  Full.Requested = true;
  Full.Ver = v("1.6.1.post4");
  Full.How = Strategy::Source;
  NvccFacts N;
  N.Path = "/usr/local/cuda/bin/nvcc";
  N.Ver = v("12.8.93");
  Full.Nvcc = N;
  CompilerFacts C;
  C.Path = "/usr/bin/g++-13";
  C.Family = "gcc";
  C.Ver = v("13.3.0");
  C.ChosenBy = "$NVCC_CCBIN";
  Full.Compiler = C;
  Full.Archs = {"sm_80", "sm_90"};
  Full.PrebuiltUrl = "https://example.invalid/x.whl";
  ChosenFallback FB;
  FB.Name = "torch";
  FB.Summary = "pure PyTorch";
  FB.Impact = "slower";
  FB.Env = {{"Z_LAST", "1"}, {"A_FIRST", "old"}, {"A_FIRST", "new"}};
  Full.Fallback = FB;
  Full.NotPreferred = "not the newest: because x";
  Full.Because = {"one", "two"};
  Full.NotChosen = {"prebuilt: none for torch 2.11"};
  Full.Hints = {"a hint: \"quoted\", tab\t, \u00e9"};
  PackageResolution Bare;
  Bare.Name = "p";
  R.Packages = {Full, Bare};
  return R;
}

TEST(ResolveJson, PackagesPrintAsTheWholeDocumentWould) {
  Resolution R = sample();
  Facts F;
  llvm::json::Value Doc = renderJson(R, F);
  (*Doc.getAsObject())["added"] = "by a command"; // as lock and emit are
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  printJson(OS, Doc, R);
  OS.flush();

  llvm::Expected<llvm::json::Value> Back = llvm::json::parse(Printed);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << Printed;
  // Printing what was read gives the same bytes: the keys are in
  // llvm::json's order at every level, and the layout is its own.
  EXPECT_EQ(Printed, llvm::formatv("{0:2}", *Back).str());

  const llvm::json::Object &O = *Back->getAsObject();
  EXPECT_EQ(O.getString("added"), llvm::StringRef("by a command"));
  EXPECT_EQ(O.getString("status"), llvm::StringRef("fallback"));
  const llvm::json::Array &Ps = *O.getArray("packages");
  ASSERT_EQ(Ps.size(), 2u);
  const llvm::json::Object &P = *Ps[0].getAsObject();
  EXPECT_EQ(P.getString("name"), llvm::StringRef("causal-conv1d"));
  EXPECT_EQ(P.getBoolean("requested"), true);
  EXPECT_EQ(P.getString("version"), llvm::StringRef("1.6.1.post4"));
  EXPECT_EQ(P.getString("strategy"), llvm::StringRef("source"));
  EXPECT_EQ(P.getString("explanation"),
            llvm::StringRef("because one\nand two"));
  EXPECT_EQ(P.getObject("compiler")->getString("chosen_by"),
            llvm::StringRef("$NVCC_CCBIN"));
  EXPECT_EQ(P.getObject("nvcc")->getString("version"),
            llvm::StringRef("12.8.93"));
  const llvm::json::Object &Env = *P.getObject("fallback")->getObject("env");
  EXPECT_EQ(Env.size(), 2u);
  EXPECT_EQ(Env.getString("A_FIRST"), llvm::StringRef("new")); // the last
  EXPECT_EQ((*P.getArray("hints"))[0].getAsString(),
            llvm::StringRef("a hint: \"quoted\", tab\t, \u00e9"));
  const llvm::json::Object &B = *Ps[1].getAsObject();
  for (const char *Null : {"version", "nvcc", "compiler", "fallback",
                           "prebuilt_url", "not_preferred"})
    EXPECT_TRUE(B.get(Null) && B.get(Null)->getAsNull()) << Null;
  EXPECT_EQ(B.getBoolean("archs_known"), true);
  EXPECT_EQ(B.size(), P.size());
}

} // namespace
