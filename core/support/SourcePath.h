//===- SourcePath.h - the file a SourceLocation names, stored once --------===//
//
// A loaded manifest holds thousands of SourceLocations, nearly all naming
// the same file. A SourcePath is a pointer to that name, kept once per
// process in an intern table (a name is never freed; the table holds one
// string per distinct file name used in a location), so a location is
// copied, compared and destroyed without touching the heap. It reads as the
// std::string or StringRef it stands for.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_SOURCEPATH_H
#define CUDADEPS_CORE_SUPPORT_SOURCEPATH_H

#include "llvm/ADT/StringRef.h"

#include <ostream>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace cudadeps {

class SourcePath {
public:
  /// The empty name (an unknown file).
  SourcePath() = default;
  SourcePath(llvm::StringRef Name);
  SourcePath(const std::string &Name) : SourcePath(llvm::StringRef(Name)) {}
  SourcePath(const char *Name) : SourcePath(llvm::StringRef(Name)) {}

  const std::string &str() const { return *Name; }
  const char *c_str() const { return Name->c_str(); }
  bool empty() const { return Name->empty(); }
  size_t size() const { return Name->size(); }
  operator const std::string &() const { return *Name; }
  operator llvm::StringRef() const { return *Name; }

  /// One string per name: equal names are the same pointer.
  friend bool operator==(const SourcePath &A, const SourcePath &B) {
    return A.Name == B.Name;
  }
  friend bool operator==(const SourcePath &A, llvm::StringRef B) {
    return llvm::StringRef(*A.Name) == B;
  }
  friend bool operator==(const SourcePath &A, const std::string &B) {
    return *A.Name == B;
  }
  friend bool operator==(const SourcePath &A, const char *B) {
    return llvm::StringRef(*A.Name) == B;
  }
  friend std::string operator+(const SourcePath &A, const char *B) {
    return *A.Name + B;
  }
  friend std::string operator+(const SourcePath &A, const std::string &B) {
    return *A.Name + B;
  }
  friend std::string operator+(const std::string &A, const SourcePath &B) {
    return A + *B.Name;
  }
  friend std::string operator+(const char *A, const SourcePath &B) {
    return A + *B.Name;
  }
  friend llvm::raw_ostream &operator<<(llvm::raw_ostream &OS,
                                       const SourcePath &P);
  friend std::ostream &operator<<(std::ostream &OS, const SourcePath &P) {
    return OS << *P.Name;
  }

private:
  static const std::string Empty;
  const std::string *Name = &Empty;
};

} // namespace cudadeps

#endif
