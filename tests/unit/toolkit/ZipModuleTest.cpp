//===- ZipModuleTest.cpp - libzip lives in a module only wheels open ------===//
#include "core/toolkit/ZipModule.h"

#include "core/inspect/SharedObject.h"
#include "core/support/LoadableModule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::HasSubstr;

namespace {

TEST(ZipModule, FoundBesideTheExecutableAsInAnInstall) {
  // build/bin/unit_toolkit -> build/lib/cudadeps/libcudadeps-zip.so
  EXPECT_THAT(defaultZipModulePath(),
              ::testing::EndsWith("/lib/cudadeps/libcudadeps-zip.so"));
  EXPECT_TRUE(llvm::sys::fs::exists(defaultZipModulePath()));
  auto B = loadZipBackend();
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  auto Again = loadZipBackend();
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*B, *Again); // opened once
}

TEST(ZipModule, TheCudadepsExecutableDoesNotNeedLibzipOrLibcrypto) {
  // Only reading or writing a wheel opens it: the other commands start
  // without mapping libzip, libcrypto and libbz2.
  auto SO = readSharedObject(CUDADEPS_BINARY, ReadLinkage);
  ASSERT_TRUE(bool(SO)) << llvm::toString(SO.takeError());
  for (const std::string &N : SO->Needed)
    for (const char *Lib : {"libzip", "libcrypto", "libbz2"})
      EXPECT_FALSE(llvm::StringRef(N).startswith(Lib)) << N;
  auto Module = readSharedObject(defaultZipModulePath(), ReadLinkage);
  ASSERT_TRUE(bool(Module)) << llvm::toString(Module.takeError());
  EXPECT_TRUE(llvm::any_of(Module->Needed, [](const std::string &N) {
    return llvm::StringRef(N).startswith("libzip");
  }));
}

TEST(ZipModule, EachWayOfFailingHasItsOwnMessage) {
  std::string Missing = "/nonexistent/lib/cudadeps/libcudadeps-zip.so";
  auto NotThere = loadZipBackend(Missing);
  ASSERT_FALSE(bool(NotThere));
  std::string Msg = llvm::toString(NotThere.takeError());
  EXPECT_THAT(Msg, HasSubstr("cannot read wheels: the zip module " + Missing +
                             " cannot be loaded"));
  EXPECT_THAT(Msg, HasSubstr("build the 'cudadeps-zip' target"));

  auto Other = loadZipBackend("libz.so.1"); // loads, but has no entry point
  ASSERT_FALSE(bool(Other));
  EXPECT_THAT(llvm::toString(Other.takeError()),
              HasSubstr("libz.so.1 is not a cudadeps zip module (it has no "
                        "'cudadeps_zip_backend' entry point)"));

  // The right module, asked for a version it does not speak.
  ModuleKind Newer = {"zip",
                      "cannot read wheels",
                      "libcudadeps-zip.so",
                      "cudadeps-zip",
                      libzip::BackendEntryPoint,
                      libzip::BackendAbiVersion + 1};
  auto Mismatch = loadModuleBackend<libzip::Backend>(Newer);
  ASSERT_FALSE(bool(Mismatch));
  EXPECT_THAT(llvm::toString(Mismatch.takeError()),
              HasSubstr("belongs to another build of cudadeps (it does not "
                        "speak zip module version " +
                        std::to_string(libzip::BackendAbiVersion + 1) + ")"));
}

} // namespace
