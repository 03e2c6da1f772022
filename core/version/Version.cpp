//===- Version.cpp - PEP 440 and toolchain dotted versions ----------------===//
//
// Parsing follows the PEP 440 normalisation rules (case, separators, 'v'
// prefix, spelling variants of the pre/post/dev markers); ordering follows
// the key used by the reference implementation (packaging's _cmpkey):
//
//   (epoch, release padded with zeros, pre, post, dev, local)
//
// where a dev release with no pre/post sorts before every pre-release of its
// release, a missing post sorts lowest, a missing dev sorts highest and a
// missing local sorts lowest.
//
//===----------------------------------------------------------------------===//

#include "core/version/Version.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace cudadeps;

namespace {

/// Longer inputs are refused before they are looked at.
constexpr size_t MaxVersionLength = 256;

constexpr uint64_t MaxNumber = std::numeric_limits<uint64_t>::max();

/// A component of the comparison key: -infinity, a value, or +infinity.
struct KeyPart {
  int Kind = 0; // -1, 0, +1
  uint64_t A = 0;
  uint64_t B = 0;
};

} // namespace

static int compareKeyPart(const KeyPart &L, const KeyPart &R) {
  if (L.Kind != R.Kind)
    return L.Kind < R.Kind ? -1 : 1;
  if (L.Kind != 0)
    return 0;
  if (L.A != R.A)
    return L.A < R.A ? -1 : 1;
  if (L.B != R.B)
    return L.B < R.B ? -1 : 1;
  return 0;
}

static bool isNumeric(llvm::StringRef S) {
  return !S.empty() && llvm::all_of(S, llvm::isDigit);
}

/// Compares two local labels ("cu128", "ubuntu.1") per PEP 440: segment by
/// segment, numeric segments as integers (they are stored without leading
/// zeros, so length then text), numeric above alphanumeric, alphanumeric
/// lexically, and a label that is a prefix of the other sorts first.
static int compareLocal(llvm::StringRef L, llvm::StringRef R) {
  if (L.empty() || R.empty())
    return L.empty() == R.empty() ? 0 : (L.empty() ? -1 : 1);
  llvm::SmallVector<llvm::StringRef, 4> LS, RS;
  L.split(LS, '.');
  R.split(RS, '.');
  for (size_t I = 0, E = std::min(LS.size(), RS.size()); I != E; ++I) {
    bool LN = isNumeric(LS[I]), RN = isNumeric(RS[I]);
    if (LN != RN)
      return LN ? 1 : -1;
    if (LN && LS[I].size() != RS[I].size())
      return LS[I].size() < RS[I].size() ? -1 : 1;
    if (int C = LS[I].compare(RS[I]))
      return C;
  }
  if (LS.size() != RS.size())
    return LS.size() < RS.size() ? -1 : 1;
  return 0;
}

std::string cudadeps::quoteForMessage(llvm::StringRef Text, size_t MaxShown) {
  std::string Out = "'";
  for (size_t I = 0; I < Text.size() && I < MaxShown; ++I) {
    unsigned char C = Text[I];
    if (C >= 0x20 && C < 0x7f && C != '\\') {
      Out += static_cast<char>(C);
      continue;
    }
    Out += "\\x";
    Out += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
    Out += llvm::hexdigit(C & 15, /*LowerCase=*/true);
  }
  if (Text.size() > MaxShown)
    Out += "...";
  Out += "'";
  return Out;
}

static std::string quote(llvm::StringRef Text) {
  return quoteForMessage(Text, 40);
}

namespace {

/// A cursor over the (lowercased) version text.
class VersionParser {
public:
  VersionParser(llvm::StringRef Original, std::string Lower)
      : Original(Original), Text(std::move(Lower)) {}

  llvm::Error error(const llvm::Twine &What) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid version " + quote(Original) + ": " +
                                       What);
  }

  bool atEnd() const { return Pos >= Text.size(); }
  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }
  static bool isSep(char C) { return C == '.' || C == '-' || C == '_'; }
  bool digitAt(size_t Ahead) const { return llvm::isDigit(peek(Ahead)); }

  /// Reads a decimal number at the cursor (which must be on a digit).
  llvm::Expected<uint64_t> number() {
    size_t Start = Pos;
    uint64_t Value = 0;
    bool Overflow = false;
    while (digitAt(0)) {
      unsigned D = Text[Pos] - '0';
      if (Value > (MaxNumber - D) / 10)
        Overflow = true;
      else
        Value = Value * 10 + D;
      ++Pos;
    }
    if (Overflow)
      return error("number " + quote(llvm::StringRef(Text).slice(Start, Pos)) +
                   " does not fit in 64 bits");
    return Value;
  }

  /// Consumes Word if the text at the cursor starts with it.
  bool consume(llvm::StringRef Word) {
    if (!llvm::StringRef(Text).substr(Pos).startswith(Word))
      return false;
    Pos += Word.size();
    return true;
  }

  /// An optional number after a marker ("rc1", "rc.1", "rc-1", "rc"): an
  /// absent number is 0. A separator is consumed only when a number follows.
  llvm::Expected<uint64_t> markerNumber() {
    if (isSep(peek()) && digitAt(1))
      ++Pos;
    if (!digitAt(0))
      return 0;
    return number();
  }

  llvm::StringRef Original;
  std::string Text;
  size_t Pos = 0;
};

} // namespace

Version::Version(llvm::ArrayRef<uint64_t> R) : Release(R.begin(), R.end()) {
  if (Release.empty())
    Release.push_back(0);
  rekey();
}

void Version::rekey() {
  Key = 0;
  size_t N = Release.size();
  for (size_t I = 3; I < N; ++I)
    if (Release[I] != 0)
      return;
  uint64_t S0 = N > 0 ? Release[0] : 0, S1 = N > 1 ? Release[1] : 0,
           S2 = N > 2 ? Release[2] : 0;
  if (Epoch >= (uint64_t(1) << 7) || (S0 | S1 | S2) >= (uint64_t(1) << 16))
    return;
  Key = 1 | Epoch << 57 | S0 << 41 | S1 << 25 | S2 << 9;
}

llvm::Expected<Version> Version::parse(llvm::StringRef Input) {
  llvm::StringRef Trimmed = Input.trim(" \t\r\n\f\v");
  if (Trimmed.size() > MaxVersionLength)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid version " + quote(Input) + ": expected at most " +
            llvm::Twine(MaxVersionLength) + " characters, got " +
            llvm::Twine(Trimmed.size()));
  VersionParser P(Input, Trimmed.lower());
  if (Trimmed.empty())
    return P.error("expected a version such as '1.2.3' or '2.11.0+cu128'");

  Version V;
  V.Release.clear();
  if (P.peek() == 'v' && P.digitAt(1))
    ++P.Pos;
  if (!P.digitAt(0))
    return P.error("expected a release number such as '1.2' at the start");
  auto First = P.number();
  if (!First)
    return First.takeError();
  if (P.peek() == '!') {
    V.Epoch = *First;
    ++P.Pos;
    if (!P.digitAt(0))
      return P.error("expected a release number after the epoch '" +
                     llvm::Twine(V.Epoch) + "!'");
    First = P.number();
    if (!First)
      return First.takeError();
  }
  V.Release.push_back(*First);
  while (P.peek() == '.' && P.digitAt(1)) {
    ++P.Pos;
    auto N = P.number();
    if (!N)
      return N.takeError();
    V.Release.push_back(*N);
  }

  // Pre-release: [-_.]? (a|b|c|rc|alpha|beta|pre|preview) [-_.]? N?
  {
    size_t Save = P.Pos;
    if (VersionParser::isSep(P.peek()))
      ++P.Pos;
    static constexpr std::pair<const char *, PreKind> Markers[] = {
        {"preview", PreKind::RC}, {"alpha", PreKind::Alpha},
        {"beta", PreKind::Beta},  {"pre", PreKind::RC},
        {"rc", PreKind::RC},      {"a", PreKind::Alpha},
        {"b", PreKind::Beta},     {"c", PreKind::RC}};
    bool Found = false;
    for (const auto &[Word, Kind] : Markers) {
      if (!P.consume(Word))
        continue;
      auto N = P.markerNumber();
      if (!N)
        return N.takeError();
      V.HasPre = true;
      V.PreLetter = Kind;
      V.PreNumber = *N;
      Found = true;
      break;
    }
    if (!Found)
      P.Pos = Save;
  }

  // Post-release: -N | [-_.]? (post|rev|r) [-_.]? N?
  if (P.peek() == '-' && P.digitAt(1)) {
    ++P.Pos;
    auto N = P.number();
    if (!N)
      return N.takeError();
    V.setPost(*N);
  } else {
    size_t Save = P.Pos;
    if (VersionParser::isSep(P.peek()))
      ++P.Pos;
    if (P.consume("post") || P.consume("rev") || P.consume("r")) {
      auto N = P.markerNumber();
      if (!N)
        return N.takeError();
      V.setPost(*N);
    } else {
      P.Pos = Save;
    }
  }

  // Dev release: [-_.]? dev [-_.]? N?
  {
    size_t Save = P.Pos;
    if (VersionParser::isSep(P.peek()))
      ++P.Pos;
    if (P.consume("dev")) {
      auto N = P.markerNumber();
      if (!N)
        return N.takeError();
      V.setDev(*N);
    } else {
      P.Pos = Save;
    }
  }

  // Local label: + segment ([-_.] segment)*
  if (P.peek() == '+') {
    ++P.Pos;
    llvm::SmallVector<std::string, 4> Segments;
    while (true) {
      size_t Start = P.Pos;
      while (llvm::isAlnum(P.peek()))
        ++P.Pos;
      if (P.Pos == Start)
        return P.error(
            "expected a local label of letters and digits such as '+cu128'" +
            llvm::Twine(
                P.atEnd() ? " at the end"
                          : " before " +
                                quote(llvm::StringRef(P.Text).substr(P.Pos))));
      llvm::StringRef Seg = llvm::StringRef(P.Text).slice(Start, P.Pos);
      if (isNumeric(Seg)) {
        Seg = Seg.ltrim('0');
        if (Seg.empty())
          Seg = "0";
      }
      Segments.push_back(Seg.str());
      if (!VersionParser::isSep(P.peek()))
        break;
      ++P.Pos;
    }
    V.Local = std::make_shared<const std::string>(llvm::join(Segments, "."));
  }

  if (!P.atEnd()) {
    llvm::StringRef Rest = llvm::StringRef(P.Text).substr(P.Pos);
    llvm::StringRef Done = Trimmed.substr(0, P.Pos);
    return P.error("expected a pre-release (a1, b2, rc1), '.postN', "
                   "'.devN' or a local label ('+cu128') after " +
                   quote(Done) + ", found " + quote(Rest));
  }
  // The canonical text ("c" is written "rc0", "-1" ".post1") is held to the
  // same limit, so whatever is written reads back.
  if (size_t N = V.str().size(); N > MaxVersionLength)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid version " + quote(Input) + ": its canonical form has " +
            llvm::Twine(N) + " characters, at most " +
            llvm::Twine(MaxVersionLength) + " are allowed");
  V.rekey();
  return V;
}

Version Version::withoutLocal() const {
  Version V = *this;
  V.Local.reset();
  V.MaxLocal = false;
  return V;
}

Version Version::truncated(size_t N) const {
  N = std::max<size_t>(N, 1);
  llvm::SmallVector<uint64_t, 4> R(N, 0);
  for (size_t I = 0; I < N && I < Release.size(); ++I)
    R[I] = Release[I];
  Version V(R);
  V.Epoch = Epoch;
  V.rekey();
  return V;
}

Version Version::bumped(size_t I) const {
  Version V = truncated(I + 1);
  // Carry past segments that cannot grow: every version with prefix 1.MAX
  // sorts below 2.dev0, as no segment can exceed MAX.
  size_t Pos = I + 1;
  while (Pos > 0 && V.Release[Pos - 1] == MaxNumber)
    --Pos;
  if (Pos == 0) {
    if (Epoch == MaxNumber) {
      // Nothing real sorts above: use the sentinel after this release.
      Version S = truncated(I + 1);
      S.MaxPost = true;
      return S;
    }
    V.Epoch = Epoch + 1;
    V.Release = {0};
  } else {
    V.Release.resize(Pos);
    ++V.Release[Pos - 1];
  }
  V.rekey();
  V.setDev(0);
  return V;
}

Version Version::lowestOfRelease() const {
  Version V(Release);
  V.Epoch = Epoch;
  V.rekey();
  V.setDev(0);
  return V;
}

Version Version::firstDevRelease() const {
  Version V = sentinelBase().withoutLocal();
  if (!V.HasDev)
    V.setDev(0);
  return V;
}

Version Version::afterAllLocals() const {
  Version Base = sentinelBase().withoutLocal();
  if (Base.MaxPost)
    return Base;
  // The least version above Base and all its locals, when one exists:
  // X.devN -> X.dev(N+1); X.postN -> X.post(N+1).dev0; X -> X.post0.dev0.
  Version Next = Base;
  if (Base.HasDev) {
    if (Base.DevNumber != MaxNumber) {
      Next.setDev(Base.DevNumber + 1);
      return Next;
    }
  } else if (!Base.HasPost) {
    Next.setPost(0);
    Next.setDev(0);
    return Next;
  } else if (Base.PostNumber != MaxNumber) {
    Next.setPost(Base.PostNumber + 1);
    Next.setDev(0);
    return Next;
  }
  Base.MaxLocal = true;
  return Base;
}

Version Version::afterAllPosts() const {
  Version Base = sentinelBase().withoutLocal();
  Base.HasPost = Base.HasDev = false;
  Base.PostNumber = Base.DevNumber = 0;
  if (Base.HasPre && Base.PreNumber != MaxNumber) {
    // After every 1.0a1.postN comes 1.0a2.dev0.
    Base.PreNumber += 1;
    Base.setDev(0);
    return Base;
  }
  Base.MaxPost = true;
  return Base;
}

Version Version::sentinelBase() const {
  Version V = *this;
  V.MinOfRelease = V.MaxLocal = V.MaxPost = false;
  return V;
}

bool Version::isMinimum() const {
  return Epoch == 0 &&
         llvm::all_of(Release, [](uint64_t S) { return S == 0; }) &&
         !HasPre && !HasPost && HasDev && DevNumber == 0 && !Local &&
         !isSentinel();
}

std::string Version::str() const {
  std::string Out;
  if (Epoch)
    Out += std::to_string(Epoch) + "!";
  for (size_t I = 0; I < Release.size(); ++I) {
    if (I)
      Out += '.';
    Out += std::to_string(Release[I]);
  }
  if (HasPre) {
    switch (PreLetter) {
    case PreKind::Alpha:
      Out += 'a';
      break;
    case PreKind::Beta:
      Out += 'b';
      break;
    case PreKind::RC:
      Out += "rc";
      break;
    }
    Out += std::to_string(PreNumber);
  }
  if (HasPost)
    Out += ".post" + std::to_string(PostNumber);
  if (HasDev)
    Out += ".dev" + std::to_string(DevNumber);
  if (Local)
    Out += "+" + *Local;
  if (MaxPost)
    Out += ".post*";
  else if (MaxLocal)
    Out += "+*";
  else if (MinOfRelease)
    Out += ".dev-";
  return Out;
}

std::strong_ordering Version::compareParts(const Version &O) const {
  if (Epoch != O.Epoch)
    return Epoch <=> O.Epoch;
  // Segment by segment; the longer release goes on against zeros.
  size_t Common = std::min(Release.size(), O.Release.size());
  for (size_t I = 0; I != Common; ++I)
    if (Release[I] != O.Release[I])
      return Release[I] <=> O.Release[I];
  for (size_t I = Common; I < Release.size(); ++I)
    if (Release[I] != 0)
      return std::strong_ordering::greater;
  for (size_t I = Common; I < O.Release.size(); ++I)
    if (O.Release[I] != 0)
      return std::strong_ordering::less;
  // Two plain releases (the common case) are equal here.
  if (isPlain() && O.isPlain())
    return std::strong_ordering::equal;
  return compareAfterRelease(O);
}

std::strong_ordering Version::compareAfterRelease(const Version &O) const {
  // A release, one of its sentinels or a dev release of it (the bounds of
  // nearly every version set: "<1.2" ends before 1.2.dev0), on both sides:
  // ordered by which one it is, as the parts below order them.
  auto Rank = [](const Version &V) -> std::pair<int, uint64_t> {
    int Marks =
        int(V.MinOfRelease) + int(V.MaxLocal) + int(V.MaxPost) + int(V.HasDev);
    if (V.HasPre || V.HasPost || V.Local || Marks > 1)
      return {-1, 0};
    if (V.HasDev)
      return {1, V.DevNumber};
    return {V.MinOfRelease ? 0 : V.MaxPost ? 4 : V.MaxLocal ? 3 : 2, 0};
  };
  if (auto L = Rank(*this), R = Rank(O); L.first >= 0 && R.first >= 0)
    return L <=> R;
  auto Order = [](int C) {
    return C < 0 ? std::strong_ordering::less
                 : (C > 0 ? std::strong_ordering::greater
                          : std::strong_ordering::equal);
  };
  auto PreKey = [](const Version &V) {
    if (V.MinOfRelease)
      return KeyPart{-1};
    if (!V.HasPre && !V.HasPost && V.HasDev)
      return KeyPart{-1};
    if (!V.HasPre)
      return KeyPart{1};
    return KeyPart{0, static_cast<uint64_t>(V.PreLetter), V.PreNumber};
  };
  auto PostKey = [](const Version &V) {
    if (V.MaxPost)
      return KeyPart{1};
    if (V.MinOfRelease || !V.HasPost)
      return KeyPart{-1};
    return KeyPart{0, V.PostNumber};
  };
  auto DevKey = [](const Version &V) {
    if (V.MinOfRelease)
      return KeyPart{-1};
    if (V.MaxPost || !V.HasDev)
      return KeyPart{1};
    return KeyPart{0, V.DevNumber};
  };
  if (int C = compareKeyPart(PreKey(*this), PreKey(O)))
    return Order(C);
  if (int C = compareKeyPart(PostKey(*this), PostKey(O)))
    return Order(C);
  if (int C = compareKeyPart(DevKey(*this), DevKey(O)))
    return Order(C);
  if (MaxPost || O.MaxPost || MinOfRelease || O.MinOfRelease)
    return std::strong_ordering::equal;
  if (MaxLocal || O.MaxLocal)
    return MaxLocal == O.MaxLocal ? std::strong_ordering::equal
                                  : (MaxLocal ? std::strong_ordering::greater
                                              : std::strong_ordering::less);
  return Order(compareLocal(local(), O.local()));
}

uint64_t Version::hash() const {
  // What equal versions share and is quick to read: the epoch and the
  // release without trailing zeros (versions that differ only after the
  // release, rarer, are told apart by comparing). Where they fit the
  // packed key, it is that (equal versions have equal keys): one multiply.
  if (Key & 1)
    return Key * 0x9e3779b97f4a7c15ull;
  uint64_t H = 0xcbf29ce484222325ull;
  auto Mix = [&H](uint64_t X) { H = (H ^ X) * 0x100000001b3ull; };
  Mix(Epoch);
  size_t N = Release.size();
  while (N > 0 && Release[N - 1] == 0)
    --N;
  for (size_t I = 0; I < N; ++I)
    Mix(Release[I]);
  return H;
}
