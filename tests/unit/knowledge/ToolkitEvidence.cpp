//===- ToolkitEvidence.cpp - what a real toolkit says about itself --------===//

#include "tests/unit/knowledge/ToolkitEvidence.h"

#include "plugins/nvcc/NvccProbe.h"
#include "tests/unit/version/Printers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <set>

namespace cudadeps {

std::vector<std::string> parsePtxasGpuNames(llvm::StringRef Help) {
  std::vector<std::string> Names;
  size_t At = Help.find("--gpu-name");
  if (At == llvm::StringRef::npos)
    return Names;
  llvm::StringRef Block = Help.substr(At);
  Block = Block.take_front(Block.find("Default value"));
  llvm::Regex Quoted("^'(sm_[0-9]+[af]?)'");
  while (!Block.empty()) {
    size_t Q = Block.find('\'');
    if (Q == llvm::StringRef::npos)
      break;
    Block = Block.substr(Q);
    llvm::SmallVector<llvm::StringRef, 2> M;
    if (Quoted.match(Block, &M) && !llvm::is_contained(Names, M[1]))
      Names.push_back(M[1].str());
    size_t End = Block.find('\'', 1);
    Block = End == llvm::StringRef::npos ? llvm::StringRef()
                                         : Block.substr(End + 1);
  }
  return Names;
}

std::optional<Version> parseToolVersion(llvm::StringRef Out) {
  std::optional<std::string> Text = nvcc::parseVersionOutput(Out);
  if (!Text)
    return std::nullopt;
  llvm::Expected<Version> V = Version::parse(*Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return *V;
}

llvm::Expected<ToolkitEvidence> readEvidenceFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "cannot read %s",
                                   Path.str().c_str());
  ToolkitEvidence E;
  E.Origin = Path.str();
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  std::string *Section = nullptr;
  std::string HostConfig, GpuCode, PtxasHelp;
  bool HasHost = false, HasCode = false, HasHelp = false;
  for (llvm::StringRef Line : Lines) {
    if (Line.startswith("--- ")) {
      llvm::StringRef Kind = Line.drop_front(4);
      Section = nullptr;
      if (Kind.startswith("host_config.h:")) {
        Section = &HostConfig;
        HasHost = true;
      } else if (Kind.startswith("nvcc --list-gpu-code:")) {
        Section = &GpuCode;
        HasCode = true;
      } else if (Kind.startswith("ptxas --help:")) {
        Section = &PtxasHelp;
        HasHelp = true;
      }
      continue;
    }
    if (Section) {
      *Section += Line.str();
      *Section += '\n';
      continue;
    }
    if (Line.consume_front("version: ")) {
      llvm::Expected<Version> V = Version::parse(Line.trim());
      if (!V)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(), "%s: bad version: %s",
            Path.str().c_str(), llvm::toString(V.takeError()).c_str());
      E.Nvcc = *V;
    }
  }
  if (!E.Nvcc)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: no 'version:' line",
                                   Path.str().c_str());
  if (HasHost)
    E.HostConfig = HostConfig;
  if (HasCode)
    E.GpuCode = nvcc::parseGpuCodeList(GpuCode);
  if (HasHelp)
    E.GpuNames = parsePtxasGpuNames(PtxasHelp);
  return E;
}

namespace {

std::set<std::string> withSuffix(const std::vector<std::string> &Names,
                                 char Suffix) {
  std::set<std::string> Out;
  for (const std::string &N : Names) {
    char Last = N.back();
    char Got = (Last == 'a' || Last == 'f') ? Last : 0;
    if (Got == Suffix)
      Out.insert(N);
  }
  return Out;
}

std::set<std::string> asSet(const std::vector<std::string> &V) {
  return std::set<std::string>(V.begin(), V.end());
}

} // namespace

void expectRowMatches(const KnowledgeBase &KB, const ToolkitEvidence &E) {
  SCOPED_TRACE(E.Origin);
  ASSERT_TRUE(E.Nvcc.has_value()) << "no nvcc version";
  const ToolkitRow *Row = KB.toolkit(*E.Nvcc);
  ASSERT_NE(Row, nullptr) << "the knowledge base has no row for nvcc "
                          << E.Nvcc->str();
  SCOPED_TRACE("nvcc " + E.Nvcc->str() + ", row '" + Row->RangeText + "' at " +
               Row->Loc.File + ":" + std::to_string(Row->Loc.Line));

  if (E.HostConfig) {
    nvcc::HostCompilerLimits L = nvcc::parseHostConfig(*E.HostConfig);
    ASSERT_TRUE(L.MaxGcc.has_value()) << "no __GNUC__ check in host_config.h";
    ASSERT_TRUE(L.MaxClang.has_value()) << "no clang check in host_config.h";
    EXPECT_EQ(Row->MaxGcc, L.MaxGcc) << "max_gcc";
    EXPECT_EQ(Row->MaxClang, L.MaxClang) << "max_clang";
  }
  std::vector<std::string> Listed;
  if (E.GpuCode) {
    EXPECT_FALSE(E.GpuCode->empty()) << "no sm_XX in nvcc --list-gpu-code";
    EXPECT_EQ(asSet(Row->Archs), asSet(*E.GpuCode))
        << "archs against nvcc --list-gpu-code";
    Listed.insert(Listed.end(), E.GpuCode->begin(), E.GpuCode->end());
  }
  if (E.GpuNames) {
    EXPECT_FALSE(E.GpuNames->empty()) << "no sm_* in ptxas --help";
    EXPECT_EQ(asSet(Row->Archs), withSuffix(*E.GpuNames, 0))
        << "archs against ptxas --help";
    EXPECT_EQ(asSet(Row->ArchSpecific), withSuffix(*E.GpuNames, 'a'))
        << "arch_specific against ptxas --help";
    EXPECT_EQ(asSet(Row->Family), withSuffix(*E.GpuNames, 'f'))
        << "family against ptxas --help";
    Listed.insert(Listed.end(), E.GpuNames->begin(), E.GpuNames->end());
  }
  for (const std::string &Arch : Listed)
    EXPECT_TRUE(KB.nvccRangeForArch(Arch).contains(*E.Nvcc))
        << Arch << " is outside its range " << KB.nvccRangeForArch(Arch).str();
}

} // namespace cudadeps
