//===- TomlHazardTest.cpp - TOML++ 3.3.0's traps, at every TOML entry -----===//
//
// Each input below reaches an assertion or undefined behaviour inside
// TOML++ 3.3.0 when it is parsed unguarded. Every reader of TOML (manifests,
// facts files, the knowledge base) must refuse each with its line and column,
// in a child that has a time and memory cap so that a regression is a failed
// test, not a crashed suite.
//
//===----------------------------------------------------------------------===//
#include "core/facts/FactsFile.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"
#include "core/plan/LockFile.h"
#include "core/support/TomlSupport.h"
#include "tests/hostile/Bounded.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

struct Hazard {
  const char *Name;
  std::string Text;
  const char *Where; // "line:col" the error must name
  const char *Says;  // part of the message
};

std::vector<Hazard> hazards() {
  return {
      {"e-acute-after-value", "a = 1 \xc3\xa9\n", "1:7", "non-ASCII"},
      {"e-acute-at-line-start", "a = 1\n\xc3\xa9\n", "2:1", "non-ASCII"},
      {"latin-in-header", "[a \xc3\x80]\n", "1:4", "non-ASCII"},
      {"after-header", "[a]\xc3\xa9\n", "1:4", "non-ASCII"},
      {"after-multiline-string", "a = \"\"\"x\"\"\"\" \xc3\x80\n", "1:14",
       "non-ASCII"},
      {"empty-array-table-header", "x = 1\n[[\n", "2:3", "table name"},
      {"header-then-comment", "[ # x\n", "1:3", "table name"},
      {"header-starting-with-dot", "[.a]\n", "1:2", "table name"},
      {"brace-in-array", "a = [1, }\n", "1:9", "'}' in an array"},
      {"brace-after-newline", "a = [\n}\n", "2:1", "'}' in an array"},
      {"dotted-key-200k", "a" + [] {
         std::string S;
         for (int I = 0; I < 200000; ++I)
           S += ".a";
         return S;
       }() + " = 1\n",
       "1:66", "nested too deeply"},
      {"dotted-header-200k", "[a" + std::string() + [] {
         std::string S;
         for (int I = 0; I < 200000; ++I)
           S += ".a";
         return S;
       }() + "]\n",
       "1:67", "nested too deeply"},
      {"dotted-inline-200k", "x = {" + [] {
         std::string S;
         for (int I = 0; I < 200000; ++I)
           S += "a.";
         return S;
       }() + "a = 1}\n",
       "1:71", "nested too deeply"},
      {"control-character", "a = 1\n\x07", "2:1", "control character"},
      // Found by fuzz/facts_toml, fuzz/manifest and fuzz/lock.
      {"date-time-letter-after-t", "a = 1979-05-27Tit:00Z\n", "1:5",
       "needs a time"},
      {"date-time-colon-after-t", "a = [1, 1979-05-27t:00:00]\n", "1:9",
       "needs a time"},
      {"date-space-one-digit", "a = 7916-22-27 1\nb = 2\n", "1:5",
       "needs a time"},
      {"non-ascii-after-line-ending-backslash",
       "a = \"\"\"x\\\n\xc3\x9a\"\"\"\n", "2:1", "line-ending backslash"},
      {"non-ascii-escaped", "a = \"\"\"x\\\xc3\xa9\"\"\"\n", "1:10",
       "after a backslash"},
      {"quote-after-equals-in-bare-value", "a = 2==\'\'\'x\'\'\'\n", "1:8",
       "quote inside"},
      {"date-with-letters-space-one-digit", "a = 7inf-22-27 1\n", "1:5",
       "needs a time"},
      {"quote-inside-bare-value", "a = +'c0\xd0\x96' \n", "1:6",
       "quote inside"},
      {"date-space-one-digit-in-array", "a = [\n1979-05-27 1]\n", "2:1",
       "needs a time"},
  };
}

/// The rendered error of one entry point, "" when it accepted the text.
using EntryPoint = std::function<std::string(const std::string &)>;

std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

std::vector<std::pair<const char *, EntryPoint>> entryPoints() {
  return {
      {"manifest",
       [](const std::string &T) {
         llvm::Expected<Manifest> M = parseManifest(T, "h.toml");
         return M ? std::string() : errorText(M.takeError());
       }},
      {"facts file",
       [](const std::string &T) {
         llvm::Expected<Facts> F = parseFactsToml(T, "h.toml");
         return F ? std::string() : errorText(F.takeError());
       }},
      {"knowledge base",
       [](const std::string &T) {
         KnowledgeBase KB;
         return errorText(KB.addFile(T, "h.toml"));
       }},
      {"lock file",
       [](const std::string &T) {
         llvm::Expected<Lock> L = parseLock(T, "h.toml");
         return L ? std::string() : errorText(L.takeError());
       }},
      {"parseToml",
       [](const std::string &T) {
         llvm::Expected<toml::table> Table = parseToml(T, "h.toml");
         return Table ? std::string() : errorText(Table.takeError());
       }},
  };
}

TEST(TomlHazards, EveryEntryPointRefusesEachWithItsPosition) {
  for (const auto &[Entry, Parse] : entryPoints()) {
    for (const Hazard &H : hazards()) {
      SCOPED_TRACE(std::string(Entry) + ": " + H.Name);
      // The check runs in a capped child: a crash or a hang there is this
      // test failing, with the reason.
      BoundedOutcome O = runBounded(
          [&, Parse = Parse] {
            std::string Err = Parse(H.Text);
            std::string Want = std::string("h.toml:") + H.Where + ":";
            if (Err.find(Want) == std::string::npos)
              return 10;
            if (Err.find(H.Says) == std::string::npos)
              return 11;
            return 0;
          },
          10, 1024);
      EXPECT_TRUE(O.Exited && O.Code == 0)
          << O.describe() << "; the error was: "
          << Parse(O.Signal ? std::string("a = 1") : H.Text).substr(0, 300);
    }
  }
}

TEST(TomlHazards, ValidTextStillParses) {
  // The guard is no stricter than TOML: non-ASCII in strings and comments,
  // a BOM, "" and '' tricks at the end of multi-line strings, dotted keys
  // within the limit, nested arrays of inline tables.
  const char *Valid[] = {
      "\xEF\xBB\xBF" "a = 1\n",
      "a = \"\xc3\xa9\" # \xc3\xa9\n\"\xc3\xa9\" = 2\n",
      "a = \"\"\"x\"\"\"\"\nb = '''y'''''\n",
      "[a.b.c]\nd.e.f = 1\n",
      "a = [{b.c = 1}, {b.c = 2}, [1, [2, {x = \"]}\"}]]]\n",
      "[[t]]\n[ t2 ]\n[\"q\".r]\n",
      "s = \"\\\"[\"\nm = \"\"\"\n[\n}\n\"\"\"\n",
      "a = \"\"\"x\\\n   y\xc3\xa9\\\n\"\"\"\nb = 'c\"d'\nc = [\"x\",'y']\n"
      "[\"k\".'l']\nd={\"e\"=1,'f'=2}\n",
      "a = 1979-05-27T07:32:00Z\nb = 1979-05-27 07:32:00\nc = 1979-05-27\n"
      "d = [1979-05-27, 07:32:00, 1979-05-27t07:32:00]\n1979-05-27T = 1\n",
  };
  for (const char *T : Valid) {
    llvm::Expected<toml::table> Table = parseToml(T, "v.toml");
    EXPECT_TRUE(bool(Table)) << T << "\n" << errorText(Table.takeError());
  }
}

} // namespace
