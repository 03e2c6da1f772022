//===- FixtureFiles.h - the data files of a fixtures folder -----*- C++ -*-===//
//
// The *.txt files of a folder under tests/fixtures, sorted, for the tests
// that check the knowledge base against verbatim copies of its sources.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_UNIT_KNOWLEDGE_FIXTUREFILES_H
#define CUDADEPS_TESTS_UNIT_KNOWLEDGE_FIXTUREFILES_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudadeps {

/// The *.txt files in tests/fixtures/<Folder>, sorted by path.
inline std::vector<std::string> fixtureTextFiles(llvm::StringRef Folder) {
  llvm::SmallString<256> Dir(CUDADEPS_FIXTURES_DIR);
  llvm::sys::path::append(Dir, Folder);
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".txt")
      Paths.push_back(It->path());
  EXPECT_FALSE(EC) << Dir.str().str() << ": " << EC.message();
  llvm::sort(Paths);
  return Paths;
}

} // namespace cudadeps

#endif
