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

// Strings that need escapes, or repair, print as llvm::json prints them
// (plain ones are written whole, the others through json::Value).
TEST(ResolveJson, EscapedAndRepairedStringsPrintAsLlvmJsonDoes) {
  Resolution R;
  PackageResolution P;
  P.Name = "a\\b\"c\x01\x7f\r\td";
  P.Because = {"bad \xff byte", "caf\u00e9 \u2014 ok", ""};
  ChosenFallback FB;
  FB.Name = "f";
  FB.Env = {{"K\"\n", "v\\"}, {"\xc3", "\x1f"}};
  P.Fallback = FB;
  R.Packages = {P};
  Facts F;
  llvm::json::Value Doc = renderJson(R, F);
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  printJson(OS, Doc, R);
  OS.flush();

  // What llvm::json writes for the same package built as a Value.
  llvm::json::Object Env;
  for (const auto &[K, V] : FB.Env)
    Env[llvm::json::fixUTF8(K)] = llvm::json::fixUTF8(V);
  llvm::json::Array Because;
  for (const std::string &B : P.Because)
    Because.push_back(llvm::json::fixUTF8(B));
  std::string Expected =
      llvm::formatv(
          "{0:2}",
          llvm::json::Value(llvm::json::Object{
              {"name", P.Name},
              {"because", std::move(Because)},
              {"fallback", llvm::json::Object{{"env", std::move(Env)}}}}))
          .str();
  llvm::Expected<llvm::json::Value> Back = llvm::json::parse(Printed);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << Printed;
  const llvm::json::Object &Got =
      *(*Back->getAsObject()->getArray("packages"))[0].getAsObject();
  llvm::json::Object Picked{
      {"name", *Got.get("name")},
      {"because", *Got.get("because")},
      {"fallback",
       llvm::json::Object{{"env", *Got.getObject("fallback")->get("env")}}}};
  EXPECT_EQ(llvm::formatv("{0:2}", llvm::json::Value(std::move(Picked))).str(),
            Expected);
  // The escapes themselves, as written.
  EXPECT_NE(Printed.find(R"("name": "a\\b\"c\u0001)"
                         "\x7f"
                         R"(\r\td")"),
            std::string::npos)
      << Printed;
  EXPECT_NE(Printed.find("\"bad \xef\xbf\xbd byte\""), std::string::npos);
  EXPECT_NE(Printed.find(R"("K\"\n": "v\\")"), std::string::npos);
  EXPECT_NE(Printed.find("\"\xef\xbf\xbd\": \"\\u001f\""), std::string::npos);
}

} // namespace
