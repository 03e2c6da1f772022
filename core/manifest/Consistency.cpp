//===- Consistency.cpp - a manifest's data checked against the knowledge base
//===//
#include "core/manifest/Consistency.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace cudadeps {

namespace {

std::string joinVersions(ArrayRef<Version> Vs) {
  std::vector<std::string> S;
  for (const Version &V : Vs)
    S.push_back(V.str());
  return join(S, ", ");
}

std::string joinMajors(ArrayRef<uint64_t> Ms) {
  std::vector<std::string> S;
  for (uint64_t M : Ms)
    S.push_back(std::to_string(M));
  return join(S, ", ");
}

/// Where an entry of a [release.prebuilt] list was written: the first
/// `"Value"` (or a bare Value) after `Key =` within the table. The table's
/// own location when the text does not show it.
SourceLocation entryLoc(const Manifest &M, const PrebuiltMatrix &Matrix,
                        StringRef Key, StringRef Value) {
  SmallVector<StringRef, 0> Lines;
  StringRef(M.Text).split(Lines, '\n');
  unsigned Start = Matrix.Loc.Line;
  if (Start == 0 || Start > Lines.size())
    return Matrix.Loc;
  bool InKey = false;
  std::string Quoted = ("\"" + Value + "\"").str();
  for (unsigned I = Start; I <= Lines.size(); ++I) {
    StringRef Line = Lines[I - 1];
    StringRef Trimmed = Line.ltrim();
    if (I > Start && Trimmed.startswith("["))
      break;
    if (Trimmed.startswith(Key) &&
        Trimmed.drop_front(Key.size()).ltrim().startswith("=")) {
      InKey = true;
      Line = Line.drop_front(Line.size() - Trimmed.size() + Key.size());
    } else if (InKey && Trimmed.contains('=')) {
      InKey = false;
    }
    if (!InKey)
      continue;
    size_t Col = Lines[I - 1].size() - Line.size();
    StringRef Code = Line.split('#').first;
    size_t P = Code.find(Quoted);
    if (P == StringRef::npos) {
      // A bare integer entry (cuda = [12, 13]).
      for (size_t From = 0;
           (P = Code.find(Value, From)) != StringRef::npos; From = P + 1) {
        bool Before =
            P == 0 || (!isDigit(Code[P - 1]) && Code[P - 1] != '.');
        size_t End = P + Value.size();
        bool After = End >= Code.size() || (!isDigit(Code[End]) &&
                                             Code[End] != '.');
        if (Before && After)
          break;
      }
    }
    if (P != StringRef::npos)
      return {M.File, I, static_cast<unsigned>(Col + P + 1)};
  }
  return Matrix.Loc;
}

class Checker {
public:
  Checker(const Manifest &M, const KnowledgeBase &KB)
      : M(M), KB(KB), Diags(M.File, M.Text.str()) {}

  void run();

private:
  const Manifest &M;
  const KnowledgeBase &KB;

public:
  DiagnosticEngine Diags;

private:

  void report(Severity S, const SourceLocation &L, const Twine &Msg,
              StringRef Hint = {}) {
    Diags.report(S, L.Line ? L.Line : 1, L.Line ? L.Column : 1, Msg, Hint);
  }
  void checkArchs(const Package &P, const Release &R);
  void checkMatrix(const Release &R, const PrebuiltMatrix &Matrix);
};

void Checker::checkArchs(const Package &P, const Release &R) {
  if (R.Archs.empty() || KB.toolkits().empty())
    return;
  RequirementMap Req = P.requirementsFor(R);
  auto It = Req.find("nvcc");
  VersionSet Declared = It == Req.end() ? VersionSet::any() : It->second.Range;
  std::string DeclaredText = It == Req.end() ? "*" : It->second.Text;
  VersionSet Usable = Declared.intersect(KB.knownRange());
  for (const Arch &A : R.Archs) {
    VersionSet Can = KB.nvccRangeForArch(A.Name);
    if (!Can.isDisjoint(Usable))
      continue;
    std::string Hint =
        Can.isEmpty()
            ? "no toolkit in the knowledge base compiles " + A.Name
            : "the knowledge base has " + A.Name + " in nvcc '" + Can.str() +
                  "'";
    report(Severity::Error, A.Loc,
           "release " + R.VersionText + " lists arch '" + A.Name +
               "' but no nvcc it accepts ('" + DeclaredText +
               "') can compile it",
           Hint);
  }
}

void Checker::checkMatrix(const Release &R, const PrebuiltMatrix &Matrix) {
  if (Matrix.Torch.empty() || Matrix.Cuda.empty())
    return;
  std::vector<uint64_t> Majors;
  for (const Version &C : Matrix.Cuda)
    if (!is_contained(Majors, cudaMajorOf(C)))
      Majors.push_back(cudaMajorOf(C));
  bool AllKnown = true;
  for (const Version &T : Matrix.Torch) {
    const TorchRow *Row = KB.torchRow(T);
    if (!Row) {
      AllKnown = false;
      report(Severity::Warning, entryLoc(M, Matrix, "torch", T.str()),
             "torch " + T.str() +
                 " is not in the knowledge base's torch table; its CUDA "
                 "pairs are not checked");
      continue;
    }
    if (any_of(Majors, [&](uint64_t C) { return Row->hasCudaMajor(C); }))
      continue;
    report(Severity::Error, entryLoc(M, Matrix, "torch", T.str()),
           "release " + R.VersionText + ": torch " + T.str() +
               " with CUDA " + joinMajors(Majors) +
               " cannot exist; torch " + Row->Torch.str() +
               " was only published for CUDA " + joinVersions(Row->Cuda),
           "every binary of this matrix with torch " + T.str() +
               " would be a 404; drop it or add its CUDA major");
  }
  if (!AllKnown)
    return;
  for (const Version &C : Matrix.Cuda) {
    uint64_t Major = cudaMajorOf(C);
    bool Pairs = any_of(Matrix.Torch, [&](const Version &T) {
      return KB.torchRow(T)->hasCudaMajor(Major);
    });
    if (Pairs)
      continue;
    report(Severity::Error, entryLoc(M, Matrix, "cuda", C.str()),
           "release " + R.VersionText + ": CUDA " + C.str() + " with torch " +
               joinVersions(Matrix.Torch) +
               " cannot exist; none of these torch versions was published "
               "for CUDA " + Twine(Major),
           "every binary of this matrix with CUDA " + C.str() +
               " would be a 404");
  }
}

void Checker::run() {
  if (!M.Pkg)
    return;
  for (const Release &R : M.Pkg->Releases) {
    // No arch list is not "every arch": resolve has to assume the targets.
    if (R.Archs.empty() && M.Pkg->Kind != BuildKind::Python)
      report(Severity::Warning, R.Loc,
             "release " + R.VersionText +
                 " lists no archs: resolve assumes it compiles the targets",
             "add archs = [\"sm_XX\", ...] with the archs its build compiles");
    // Every release says where its archs, requirements and matrix were read.
    if (!R.Source)
      report(Severity::Warning, R.Loc,
             "release " + R.VersionText + " cites no source",
             "add source = \"...\" naming the files (and tag or build) its "
             "values were read from");
    checkArchs(*M.Pkg, R);
    if (R.Prebuilt && !KB.torchRows().empty())
      checkMatrix(R, *R.Prebuilt);
  }
}

} // namespace

uint64_t cudaMajorOf(const Version &Cuda) { return Cuda.major(); }

Error checkConsistency(const Manifest &M, const KnowledgeBase &KB,
                       std::vector<Diagnostic> *Warnings) {
  Checker C(M, KB);
  C.run();
  std::vector<Diagnostic> All = C.Diags.diagnostics();
  std::stable_sort(All.begin(), All.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::tie(A.Loc.Line, A.Loc.Column) <
                            std::tie(B.Loc.Line, B.Loc.Column);
                   });
  std::vector<Diagnostic> Errors;
  for (Diagnostic &D : All) {
    if (D.Level == Severity::Error)
      Errors.push_back(std::move(D));
    else if (Warnings)
      Warnings->push_back(std::move(D));
  }
  if (Errors.empty())
    return Error::success();
  return make_error<DiagnosticError>(std::move(Errors));
}

} // namespace cudadeps
