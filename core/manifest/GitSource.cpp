//===- GitSource.cpp - manifest values that reach git or the cache --------===//

#include "core/manifest/GitSource.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace cudadeps {

namespace {

bool isControl(char C) {
  unsigned char U = static_cast<unsigned char>(C);
  return U < 0x20 || U == 0x7f;
}

std::optional<GitProblem> problem(size_t Offset, const Twine &Message,
                                  StringRef Hint = {}) {
  return GitProblem{Offset, Message.str(), Hint.str()};
}

/// A host or user git would hand to ssh as an option.
std::optional<GitProblem> checkHostPart(StringRef Url, StringRef Part,
                                        StringRef What) {
  size_t Offset = Part.data() - Url.data();
  if (Part.empty())
    return problem(Offset, "the git URL has no " + What);
  if (Part.front() == '-')
    return problem(Offset, "the git URL's " + What + " '" +
                               Part.take_front(40) +
                               "' starts with '-' and would be read as an "
                               "option");
  if (Part.contains('%'))
    return problem(Offset + Part.find('%'),
                   "the git URL's " + What + " contains a '%' escape");
  return std::nullopt;
}

std::optional<GitProblem> checkUserHost(StringRef Url, StringRef Authority) {
  auto [User, Host] = Authority.rsplit('@');
  if (Host.empty() && !Authority.contains('@'))
    Host = Authority, User = {};
  if (Authority.contains('@'))
    if (auto P = checkHostPart(Url, User, "user"))
      return P;
  // [::1]:22 and host:22; only the host name matters here.
  StringRef Name = Host.startswith("[") ? Host : Host.split(':').first;
  return checkHostPart(Url, Name, "host");
}

bool isSchemeChar(char C) {
  return isAlnum(C) || C == '+' || C == '-' || C == '.';
}

} // namespace

ArrayRef<std::string> defaultGitSchemes() {
  static const std::string Schemes[] = {"https", "ssh", "file"};
  return Schemes;
}

std::vector<std::string> parseGitSchemes(StringRef List) {
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (StringRef P : Parts)
    if (StringRef T = P.trim(); !T.empty())
      Out.push_back(T.lower());
  if (Out.empty())
    Out.assign(defaultGitSchemes().begin(), defaultGitSchemes().end());
  return Out;
}

std::vector<std::string> allowedGitSchemes() {
  auto List = sys::Process::GetEnv(GitSchemesVariable);
  return parseGitSchemes(List ? StringRef(*List) : StringRef());
}

std::string gitUrlScheme(StringRef Url) {
  if (Url.startswith("/"))
    return "file";
  size_t Sep = Url.find("://");
  if (Sep != StringRef::npos && Sep > 0 && isAlpha(Url.front()) &&
      all_of(Url.take_front(Sep), isSchemeChar))
    return Url.take_front(Sep).lower();
  // scp-like: [user@]host:path, with the ':' before any '/'.
  size_t Colon = Url.find(':');
  if (Colon != StringRef::npos && Colon > 0 &&
      !Url.take_front(Colon).contains('/') && !Url.substr(Colon).startswith("::"))
    return "ssh";
  return {};
}

std::optional<GitProblem> checkGitUrl(StringRef Url,
                                      ArrayRef<std::string> Schemes) {
  const char *Forms = "write https://host/path, ssh://host/path, "
                      "user@host:path or file:///absolute/path";
  if (Url.empty())
    return problem(0, "the git URL is empty", Forms);
  if (Url.front() == '-')
    return problem(0, "the git URL '" + Url.take_front(40) +
                          "' starts with '-' and would be read as an option");
  // <transport>::<address> runs a remote helper (ext:: runs a command).
  if (size_t Helper = Url.find("::");
      Helper != StringRef::npos && !Url.take_front(Helper).contains('/'))
    return problem(0, "the git URL names a remote helper ('" +
                          Url.take_front(Helper).take_front(20) +
                          "::'); cudadeps does not let a manifest run one",
                   Forms);
  for (size_t I = 0; I < Url.size(); ++I)
    if (isControl(Url[I]) || Url[I] == ' ')
      return problem(I, "the git URL contains a blank or control character");
  std::string Scheme = gitUrlScheme(Url);
  if (Scheme.empty())
    return problem(0, "the git URL '" + Url.take_front(80) +
                          "' is neither a URL nor an absolute path",
                   Forms);
  if (!is_contained(Schemes, Scheme)) {
    std::string Allowed = join(Schemes, ", ");
    return problem(0, "git URL scheme '" + Scheme + "' is not allowed (allowed: " +
                          Allowed + ")",
                   std::string("set ") + GitSchemesVariable +
                       " to a comma-separated list of schemes to allow others");
  }
  if (Url.startswith("/"))
    return std::nullopt;
  size_t Sep = Url.find("://");
  if (Sep == StringRef::npos) {
    // scp-like user@host:path
    auto [Authority, Path] = Url.split(':');
    if (auto P = checkUserHost(Url, Authority))
      return P;
    if (Path.empty() || Path.front() == '-')
      return problem(Path.data() - Url.data(),
                     "the git URL's path is empty or starts with '-'");
    return std::nullopt;
  }
  StringRef Rest = Url.drop_front(Sep + 3);
  StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
  StringRef Path = Rest.drop_front(Authority.size());
  if (Scheme == "file") {
    if (!Authority.empty() && Authority != "localhost")
      return problem(Authority.data() - Url.data(),
                     "a file:// URL names no host; write file:///absolute/path");
    if (Path.size() <= 1)
      return problem(Url.size(), "the file:// URL has no path");
    return std::nullopt;
  }
  if (auto P = checkUserHost(Url, Authority))
    return P;
  if (Path.size() <= 1)
    return problem(Url.size(), "the git URL has no repository path");
  return std::nullopt;
}

std::optional<GitProblem> checkGitRef(StringRef Ref) {
  if (Ref.empty())
    return problem(0, "the tag is empty");
  if (Ref.size() > 255)
    return problem(255, "the tag is longer than 255 bytes");
  if (Ref.front() == '-')
    return problem(0, "the tag '" + Ref.take_front(40) +
                          "' starts with '-' and would be read as an option");
  if (Ref == "@")
    return problem(0, "'@' is not a tag name");
  for (size_t I = 0; I < Ref.size(); ++I) {
    char C = Ref[I];
    if (isControl(C) || C == ' ')
      return problem(I, "the tag contains a blank or control character");
    if (StringRef("~^:?*[\\").contains(C))
      return problem(I, "the tag contains '" + Twine(C) +
                            "', which git does not allow in a tag name");
  }
  if (size_t P = Ref.find(".."); P != StringRef::npos)
    return problem(P, "the tag contains '..'");
  if (size_t P = Ref.find("@{"); P != StringRef::npos)
    return problem(P, "the tag contains '@{'");
  if (size_t P = Ref.find("//"); P != StringRef::npos)
    return problem(P, "the tag contains '//'");
  if (Ref.front() == '/' || Ref.back() == '/' || Ref.back() == '.')
    return problem(Ref.front() == '/' ? 0 : Ref.size() - 1,
                   "a tag cannot start with '/' or end with '/' or '.'");
  SmallVector<StringRef, 4> Parts;
  Ref.split(Parts, '/');
  for (StringRef Part : Parts) {
    size_t Offset = Part.data() - Ref.data();
    if (Part.startswith("."))
      return problem(Offset, "a part of the tag starts with '.'");
    if (Part.endswith(".lock"))
      return problem(Offset, "a part of the tag ends with '.lock'");
  }
  return std::nullopt;
}

std::optional<GitProblem> checkCachePath(StringRef Path) {
  if (Path.empty())
    return problem(0, "the cache path is empty");
  if (Path.front() == '/')
    return problem(0, "'" + Path.take_front(80) +
                          "' is an absolute path and would leave the cache");
  for (size_t I = 0; I < Path.size(); ++I)
    if (isControl(Path[I]) || Path[I] == '\\')
      return problem(I, "the cache path contains a backslash or control "
                        "character");
  SmallVector<StringRef, 8> Parts;
  Path.split(Parts, '/');
  for (StringRef Part : Parts)
    if (Part == ".." || Part == "." || Part.empty())
      return problem(Part.data() - Path.data(),
                     "the cache path '" + Path.take_front(80) +
                         "' has an empty, '.' or '..' part and could leave "
                         "the cache");
  return std::nullopt;
}

static Error located(const Located &V, std::optional<GitProblem> P) {
  if (!P)
    return Error::success();
  return make_error<DiagnosticError>(V.Loc, std::move(P->Message), "",
                                     std::move(P->Hint));
}

Error validateGitUrl(const Located &Url) {
  return located(Url, checkGitUrl(Url.Value, allowedGitSchemes()));
}

Error validateGitRef(const Located &Ref) {
  return located(Ref, checkGitRef(Ref.Value));
}

Error validateCachePath(const Located &Path) {
  return located(Path, checkCachePath(Path.Value));
}

} // namespace cudadeps
