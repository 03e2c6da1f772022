//===- main.cpp - the cudadeps executable ----------------------------------===//
#include "cli/Cli.h"
#include "core/support/HugePageHeap.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

using namespace llvm;

int main(int Argc, char **Argv) {
  // Before anything of size is allocated (core/support/HugePageHeap.h).
  cudadeps::backHeapWithHugePages(size_t(128) << 20);
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  // <prefix>/bin/cudadeps -> <prefix>
  std::string Exe = sys::fs::getMainExecutable(Argv[0], (void *)&main);
  std::string Prefix = sys::path::parent_path(sys::path::parent_path(Exe)).str();
  bool Color = sys::Process::StandardOutIsDisplayed() &&
               !sys::Process::GetEnv("NO_COLOR");
  cudadeps::cli::Context Ctx{outs(), errs(), Prefix, Color};
  Ctx.FreeOnReturn = false;
  int Code = cudadeps::cli::run(Args, Ctx);
  outs().flush();
  return Code;
}
