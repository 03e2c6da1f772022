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

Version::Parts Version::plainParts(llvm::ArrayRef<uint64_t> R) {
  Parts P;
  P.Release = ReleaseNumbers(R.begin(), R.end());
  if (P.Release.empty())
    P.Release.push_back(0);
  return P;
}

Version::Version(llvm::ArrayRef<uint64_t> R) : Version(plainParts(R)) {}

uint64_t Version::keyOf(uint64_t Epoch, llvm::ArrayRef<uint64_t> Release) {
  size_t N = Release.size();
  for (size_t I = 3; I < N; ++I)
    if (Release[I] != 0)
      return 0;
  uint64_t S0 = N > 0 ? Release[0] : 0, S1 = N > 1 ? Release[1] : 0,
           S2 = N > 2 ? Release[2] : 0;
  if (Epoch >= EpochLimit || (S0 | S1 | S2) >= NumberLimit)
    return 0;
  return 1 | Epoch << 57 | S0 << 41 | S1 << 25 | S2 << 9;
}

Version::Version(Parts P) : Key(keyOf(P)), Tail(0) {
  auto Fits = [](bool Has, uint64_t N) { return !Has || N < NumberLimit; };
  if (Key && P.Release.size() <= CountMask && !P.Local &&
      Fits(P.HasPre, P.PreNumber) && Fits(P.HasPost, P.PostNumber) &&
      Fits(P.HasDev, P.DevNumber)) {
    Tail = P.Release.size() | (P.HasPre ? FHasPre : 0) |
           (P.HasPost ? FHasPost : 0) | (P.HasDev ? FHasDev : 0) |
           (P.MinOfRelease ? FMinOfRelease : 0) | (P.MaxLocal ? FMaxLocal : 0) |
           (P.MaxPost ? FMaxPost : 0);
    if (P.HasPre)
      Tail |= uint64_t(P.PreLetter) << PreLetterShift | P.PreNumber << PreShift;
    if (P.HasPost)
      Tail |= P.PostNumber << PostShift;
    if (P.HasDev)
      Tail |= P.DevNumber << DevShift;
    return;
  }
  // The numbers a flag does not name are 0, as parse() leaves them.
  if (!P.HasPre) {
    P.PreNumber = 0;
    P.PreLetter = PreKind::Alpha;
  }
  if (!P.HasPost)
    P.PostNumber = 0;
  if (!P.HasDev)
    P.DevNumber = 0;
  Ext = llvm::makeIntrusiveRefCnt<const Shared>(std::move(P));
}

ReleaseNumbers Version::release() const {
  if (Ext)
    return Ext->P.Release;
  ReleaseNumbers R;
  R.resize(Tail & CountMask);
  for (size_t I = 0; I < R.size() && I < 3; ++I)
    R[I] = segment(I);
  return R;
}

Version::Parts Version::parts() const {
  if (Ext)
    return Ext->P;
  Parts P;
  P.Release = release();
  P.Epoch = epoch();
  After A = after();
  P.PreNumber = A.PreNumber;
  P.PostNumber = A.PostNumber;
  P.DevNumber = A.DevNumber;
  P.PreLetter = A.PreLetter;
  P.HasPre = A.HasPre;
  P.HasPost = A.HasPost;
  P.HasDev = A.HasDev;
  P.MinOfRelease = A.MinOfRelease;
  P.MaxLocal = A.MaxLocal;
  P.MaxPost = A.MaxPost;
  return P;
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

  Parts V;
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
  Version Out(std::move(V));

  if (!P.atEnd()) {
    llvm::StringRef Rest = llvm::StringRef(P.Text).substr(P.Pos);
    llvm::StringRef Done = Trimmed.substr(0, P.Pos);
    return P.error("expected a pre-release (a1, b2, rc1), '.postN', "
                   "'.devN' or a local label ('+cu128') after " +
                   quote(Done) + ", found " + quote(Rest));
  }
  // The canonical text ("c" is written "rc0", "-1" ".post1") is held to the
  // same limit, so whatever is written reads back.
  if (size_t N = Out.str().size(); N > MaxVersionLength)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid version " + quote(Input) + ": its canonical form has " +
            llvm::Twine(N) + " characters, at most " +
            llvm::Twine(MaxVersionLength) + " are allowed");
  return Out;
}

Version Version::withoutLocal() const {
  if (!Ext && !(Tail & FMaxLocal))
    return *this;
  Parts P = parts();
  P.Local.reset();
  P.MaxLocal = false;
  return Version(std::move(P));
}

Version Version::truncated(size_t N) const {
  N = std::max<size_t>(N, 1);
  llvm::SmallVector<uint64_t, 4> R(N, 0);
  for (size_t I = 0; I < N; ++I)
    R[I] = segment(I);
  Parts P = plainParts(R);
  P.Epoch = epoch();
  return Version(std::move(P));
}

Version Version::bumped(size_t I) const {
  Parts V = truncated(I + 1).parts();
  // Carry past segments that cannot grow: every version with prefix 1.MAX
  // sorts below 2.dev0, as no segment can exceed MAX.
  size_t Pos = I + 1;
  while (Pos > 0 && V.Release[Pos - 1] == MaxNumber)
    --Pos;
  if (Pos == 0) {
    if (epoch() == MaxNumber) {
      // Nothing real sorts above: use the sentinel after this release.
      Parts S = truncated(I + 1).parts();
      S.MaxPost = true;
      return Version(std::move(S));
    }
    V.Epoch = epoch() + 1;
    V.Release = {0};
  } else {
    V.Release.resize(Pos);
    ++V.Release[Pos - 1];
  }
  V.setDev(0);
  return Version(std::move(V));
}

Version Version::lowestOfRelease() const {
  ReleaseNumbers R = release();
  Parts V = plainParts(R);
  V.Epoch = epoch();
  V.setDev(0);
  return Version(std::move(V));
}

Version Version::firstDevRelease() const {
  Parts V = sentinelBase().withoutLocal().parts();
  if (!V.HasDev)
    V.setDev(0);
  return Version(std::move(V));
}

Version Version::afterAllLocals() const {
  Parts Base = sentinelBase().withoutLocal().parts();
  if (Base.MaxPost)
    return Version(std::move(Base));
  // The least version above Base and all its locals, when one exists:
  // X.devN -> X.dev(N+1); X.postN -> X.post(N+1).dev0; X -> X.post0.dev0.
  Parts Next = Base;
  if (Base.HasDev) {
    if (Base.DevNumber != MaxNumber) {
      Next.setDev(Base.DevNumber + 1);
      return Version(std::move(Next));
    }
  } else if (!Base.HasPost) {
    Next.setPost(0);
    Next.setDev(0);
    return Version(std::move(Next));
  } else if (Base.PostNumber != MaxNumber) {
    Next.setPost(Base.PostNumber + 1);
    Next.setDev(0);
    return Version(std::move(Next));
  }
  Base.MaxLocal = true;
  return Version(std::move(Base));
}

Version Version::afterAllPosts() const {
  Parts Base = sentinelBase().withoutLocal().parts();
  Base.HasPost = Base.HasDev = false;
  Base.PostNumber = Base.DevNumber = 0;
  if (Base.HasPre && Base.PreNumber != MaxNumber) {
    // After every 1.0a1.postN comes 1.0a2.dev0.
    Base.PreNumber += 1;
    Base.setDev(0);
    return Version(std::move(Base));
  }
  Base.MaxPost = true;
  return Version(std::move(Base));
}

Version Version::sentinelBase() const {
  if (!isSentinel())
    return *this;
  Parts V = parts();
  V.MinOfRelease = V.MaxLocal = V.MaxPost = false;
  return Version(std::move(V));
}

bool Version::isMinimum() const {
  if (!Ext) // 0 (its epoch and release) .dev0, nothing else
    return Key == 1 && (Tail & ~CountMask) == FHasDev;
  After A = after();
  ReleaseNumbers R = release();
  return epoch() == 0 &&
         std::all_of(R.begin(), R.end(), [](uint64_t S) { return S == 0; }) &&
         !A.HasPre && !A.HasPost && A.HasDev && A.DevNumber == 0 && !A.Local &&
         !isSentinel();
}

std::string Version::str() const {
  std::string Out;
  if (uint64_t Epoch = epoch())
    Out += std::to_string(Epoch) + "!";
  ReleaseNumbers Release = release();
  for (size_t I = 0; I < Release.size(); ++I) {
    if (I)
      Out += '.';
    Out += std::to_string(Release[I]);
  }
  After A = after();
  if (A.HasPre) {
    switch (A.PreLetter) {
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
    Out += std::to_string(A.PreNumber);
  }
  if (A.HasPost)
    Out += ".post" + std::to_string(A.PostNumber);
  if (A.HasDev)
    Out += ".dev" + std::to_string(A.DevNumber);
  if (A.Local)
    Out += "+" + *A.Local;
  if (A.MaxPost)
    Out += ".post*";
  else if (A.MaxLocal)
    Out += "+*";
  else if (A.MinOfRelease)
    Out += ".dev-";
  return Out;
}

int64_t Version::quickRank(uint64_t Tail) {
  if (Tail & (FHasPre | FHasPost))
    return -1;
  int Marks = bool(Tail & FMinOfRelease) + bool(Tail & FMaxLocal) +
              bool(Tail & FMaxPost) + bool(Tail & FHasDev);
  if (Marks > 1)
    return -1;
  if (Tail & FHasDev)
    return int64_t(1) << 16 | int64_t(Tail >> DevShift);
  return int64_t(Tail & FMinOfRelease ? 0
                 : Tail & FMaxPost    ? 4
                 : Tail & FMaxLocal   ? 3
                                      : 2)
         << 16;
}

std::strong_ordering Version::compareRest(const Version &O) const {
  if (!(Key & O.Key & 1))
    return compareParts(O);
  // Equal keys (operator<=>()).
  if (!Ext && !O.Ext) {
    int64_t L = quickRank(Tail), R = quickRank(O.Tail);
    if (L >= 0 && R >= 0)
      return L <=> R;
  } else if (isPlain() && O.isPlain()) {
    return std::strong_ordering::equal;
  }
  return compareAfterRelease(after(), O.after());
}

std::strong_ordering Version::compareParts(const Version &O) const {
  if (epoch() != O.epoch())
    return epoch() <=> O.epoch();
  // Segment by segment; the longer release goes on against zeros.
  ReleaseNumbers Release = release(), OtherRelease = O.release();
  size_t Common = std::min(Release.size(), OtherRelease.size());
  for (size_t I = 0; I != Common; ++I)
    if (Release[I] != OtherRelease[I])
      return Release[I] <=> OtherRelease[I];
  for (size_t I = Common; I < Release.size(); ++I)
    if (Release[I] != 0)
      return std::strong_ordering::greater;
  for (size_t I = Common; I < OtherRelease.size(); ++I)
    if (OtherRelease[I] != 0)
      return std::strong_ordering::less;
  // Two plain releases (the common case) are equal here.
  if (isPlain() && O.isPlain())
    return std::strong_ordering::equal;
  return compareAfterRelease(after(), O.after());
}

std::strong_ordering Version::compareAfterRelease(const After &L,
                                                  const After &R) {
  // A release, one of its sentinels or a dev release of it (the bounds of
  // nearly every version set: "<1.2" ends before 1.2.dev0), on both sides:
  // ordered by which one it is, as the parts below order them.
  auto Rank = [](const After &V) -> std::pair<int, uint64_t> {
    int Marks =
        int(V.MinOfRelease) + int(V.MaxLocal) + int(V.MaxPost) + int(V.HasDev);
    if (V.HasPre || V.HasPost || V.Local || Marks > 1)
      return {-1, 0};
    if (V.HasDev)
      return {1, V.DevNumber};
    return {V.MinOfRelease ? 0 : V.MaxPost ? 4 : V.MaxLocal ? 3 : 2, 0};
  };
  if (auto LR = Rank(L), RR = Rank(R); LR.first >= 0 && RR.first >= 0)
    return LR <=> RR;
  auto Order = [](int C) {
    return C < 0 ? std::strong_ordering::less
                 : (C > 0 ? std::strong_ordering::greater
                          : std::strong_ordering::equal);
  };
  auto PreKey = [](const After &V) {
    if (V.MinOfRelease)
      return KeyPart{-1};
    if (!V.HasPre && !V.HasPost && V.HasDev)
      return KeyPart{-1};
    if (!V.HasPre)
      return KeyPart{1};
    return KeyPart{0, static_cast<uint64_t>(V.PreLetter), V.PreNumber};
  };
  auto PostKey = [](const After &V) {
    if (V.MaxPost)
      return KeyPart{1};
    if (V.MinOfRelease || !V.HasPost)
      return KeyPart{-1};
    return KeyPart{0, V.PostNumber};
  };
  auto DevKey = [](const After &V) {
    if (V.MinOfRelease)
      return KeyPart{-1};
    if (V.MaxPost || !V.HasDev)
      return KeyPart{1};
    return KeyPart{0, V.DevNumber};
  };
  if (int C = compareKeyPart(PreKey(L), PreKey(R)))
    return Order(C);
  if (int C = compareKeyPart(PostKey(L), PostKey(R)))
    return Order(C);
  if (int C = compareKeyPart(DevKey(L), DevKey(R)))
    return Order(C);
  if (L.MaxPost || R.MaxPost || L.MinOfRelease || R.MinOfRelease)
    return std::strong_ordering::equal;
  if (L.MaxLocal || R.MaxLocal)
    return L.MaxLocal == R.MaxLocal
               ? std::strong_ordering::equal
               : (L.MaxLocal ? std::strong_ordering::greater
                             : std::strong_ordering::less);
  return Order(compareLocal(L.Local ? llvm::StringRef(*L.Local) : "",
                            R.Local ? llvm::StringRef(*R.Local) : ""));
}

uint64_t Version::unpackedHash() const {
  // What equal versions share and is quick to read: the epoch and the
  // release without trailing zeros (versions that differ only after the
  // release, rarer, are told apart by comparing).
  uint64_t H = 0xcbf29ce484222325ull;
  auto Mix = [&H](uint64_t X) { H = (H ^ X) * 0x100000001b3ull; };
  Mix(epoch());
  ReleaseNumbers Release = release();
  size_t N = Release.size();
  while (N > 0 && Release[N - 1] == 0)
    --N;
  for (size_t I = 0; I < N; ++I)
    Mix(Release[I]);
  return H;
}
