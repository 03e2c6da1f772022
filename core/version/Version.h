//===- Version.h - PEP 440 and toolchain dotted versions ------------------===//
//
// One Version type covers PEP 440 versions (release segments, pre/post/dev,
// local labels: "2.11.0+cu128", "1.5.0.post8", "3.0.0rc1") and the dotted forms
// toolchains print ("12.8.93", "13.0", gcc "12.2.0", driver "570.86.15").
// Ordering follows PEP 440: trailing zeros do not matter (12.8 == 12.8.0),
// dev < pre (a < b < rc) < release < post, and a version with a local label
// sorts after the same version without one.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_VERSION_VERSION_H
#define CUDADEPS_CORE_VERSION_VERSION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps {

/// A release's numbers (1.2.3: 1, 2, 3): up to four inline, which nearly
/// every version has, more on the heap: what Version::release() returns and
/// what parsing and decoding build a version from (copying an inline one
/// copies five words, with no call and no allocation).
class ReleaseNumbers {
public:
  static constexpr size_t InlineSize = 4;

  ReleaseNumbers() = default;
  ReleaseNumbers(const uint64_t *From, const uint64_t *To) {
    assign(llvm::ArrayRef<uint64_t>(From, To));
  }
  ReleaseNumbers(std::initializer_list<uint64_t> Numbers) {
    assign(llvm::ArrayRef<uint64_t>(Numbers));
  }
  ReleaseNumbers(const ReleaseNumbers &O) : Count(O.Count) {
    if (O.Long)
      copyLong(O);
    else
      copyInline(O);
  }
  ReleaseNumbers(ReleaseNumbers &&O) noexcept
      : Long(std::move(O.Long)), Count(O.Count), Capacity(O.Capacity) {
    copyInline(O);
    O.Count = 0;
  }
  ReleaseNumbers &operator=(const ReleaseNumbers &O) {
    if (this == &O)
      return *this;
    Count = O.Count;
    if (O.Long) {
      copyLong(O);
    } else {
      Long.reset();
      copyInline(O);
    }
    return *this;
  }
  ReleaseNumbers &operator=(ReleaseNumbers &&O) noexcept {
    Long = std::move(O.Long);
    Count = O.Count;
    Capacity = O.Capacity;
    copyInline(O);
    O.Count = 0;
    return *this;
  }
  ReleaseNumbers &operator=(std::initializer_list<uint64_t> Numbers) {
    assign(llvm::ArrayRef<uint64_t>(Numbers));
    return *this;
  }

  size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  uint64_t *begin() { return Long ? Long.get() : Inline; }
  uint64_t *end() { return begin() + Count; }
  const uint64_t *begin() const { return Long ? Long.get() : Inline; }
  const uint64_t *end() const { return begin() + Count; }
  uint64_t &operator[](size_t I) { return begin()[I]; }
  uint64_t operator[](size_t I) const { return begin()[I]; }
  uint64_t front() const { return begin()[0]; }
  uint64_t back() const { return begin()[Count - 1]; }
  /// Not of a temporary: Version::release() returns a copy, and a view
  /// of it would outlive it.
  operator llvm::ArrayRef<uint64_t>() const & { return {begin(), Count}; }
  operator llvm::ArrayRef<uint64_t>() const && = delete;
  std::vector<uint64_t> vec() const { return {begin(), end()}; }

  void clear() { resize(0); }
  void push_back(uint64_t N) {
    resize(Count + 1);
    begin()[Count - 1] = N;
  }
  /// New numbers are 0.
  void resize(size_t N) {
    if (N <= InlineSize && !Long) {
      std::fill(Inline + std::min<size_t>(N, Count), Inline + InlineSize, 0);
      Count = uint32_t(N);
      return;
    }
    if (N > Capacity || !Long) {
      size_t NewCapacity = std::max<size_t>(N, 2 * size_t(Count));
      auto Grown = std::make_unique<uint64_t[]>(NewCapacity);
      std::copy(begin(), begin() + std::min<size_t>(N, Count), Grown.get());
      Long = std::move(Grown);
      Capacity = uint32_t(NewCapacity);
    } else if (N > Count) {
      std::fill(Long.get() + Count, Long.get() + N, 0);
    }
    Count = uint32_t(N);
  }

private:
  void assign(llvm::ArrayRef<uint64_t> Numbers) {
    Long.reset();
    Count = 0;
    resize(Numbers.size());
    std::copy(Numbers.begin(), Numbers.end(), begin());
  }
  /// The inline words, one by one: a std::copy of them was merged with
  /// copyLong()'s into one memmove call of a variable size, a call per
  /// copy of nearly every version.
  void copyInline(const ReleaseNumbers &O) {
    static_assert(InlineSize == 4, "copyInline() copies four words");
    Inline[0] = O.Inline[0];
    Inline[1] = O.Inline[1];
    Inline[2] = O.Inline[2];
    Inline[3] = O.Inline[3];
  }
  void copyLong(const ReleaseNumbers &O) {
    Long = std::make_unique<uint64_t[]>(O.Count);
    Capacity = O.Count;
    std::copy(O.Long.get(), O.Long.get() + O.Count, Long.get());
  }

  /// The numbers while there are at most InlineSize (the rest 0), and
  /// while Long is null.
  uint64_t Inline[InlineSize] = {0, 0, 0, 0};
  /// The numbers once more than InlineSize were held; Capacity of them.
  std::unique_ptr<uint64_t[]> Long;
  uint32_t Count = 0;
  uint32_t Capacity = 0;
};

/// The load cache's form (core/support/BinaryCodec.h): the count, then
/// each number, as a std::vector<uint64_t> is written.
template <class C> void codec(C &Cd, ReleaseNumbers &X) {
  if constexpr (C::Decoding) {
    X.resize(Cd.count()); // at most one number per byte left
    for (uint64_t &N : X)
      N = Cd.varint();
  } else {
    Cd.varint(X.size());
    for (uint64_t N : X)
      Cd.varint(N);
  }
}

class Version {
public:
  enum class PreKind : uint8_t { Alpha, Beta, RC };

  /// 0 (an empty release reads as 0).
  Version() = default;
  Version(const Version &) = default;
  Version &operator=(const Version &) = default;
  // noexcept, so that vectors of versions, and of what holds them, move
  // rather than copy when they grow.
  Version(Version &&) noexcept = default;
  Version &operator=(Version &&) noexcept = default;
  /// A plain release version, e.g. Version({12, 8}).
  explicit Version(llvm::ArrayRef<uint64_t> Release);
  explicit Version(std::initializer_list<uint64_t> Release)
      : Version(llvm::ArrayRef<uint64_t>(Release)) {}
  explicit Version(const ReleaseNumbers &Release)
      : Version(llvm::ArrayRef<uint64_t>(Release)) {}

  /// Parses PEP 440 (normalising case, separators, 'v' prefix, 'alpha' ->
  /// 'a', 'c'/'pre'/'preview' -> 'rc', ...). Rejects anything else with a
  /// message that says what was expected. Numbers too large for 64 bits are
  /// an error, never a crash.
  static llvm::Expected<Version> parse(llvm::StringRef Text);

  /// The release's numbers, as written ("12.8.0": 12, 8, 0); a copy.
  ReleaseNumbers release() const;
  uint64_t major() const { return segment(0); }
  uint64_t minor() const { return segment(1); }
  uint64_t patch() const { return segment(2); }
  /// Segment I of the release, 0 when absent.
  uint64_t segment(size_t I) const {
    if (Ext)
      return I < Ext->P.Release.size() ? Ext->P.Release[I] : 0;
    return I < 3 && I < (Tail & CountMask) ? (Key >> (41 - 16 * I)) & 0xffff
                                           : 0;
  }
  uint64_t epoch() const { return Ext ? Ext->P.Epoch : Key >> 57; }
  std::optional<std::pair<PreKind, uint64_t>> pre() const {
    After A = after();
    if (!A.HasPre)
      return std::nullopt;
    return std::make_pair(A.PreLetter, A.PreNumber);
  }
  std::optional<uint64_t> post() const {
    After A = after();
    return A.HasPost ? std::optional<uint64_t>(A.PostNumber) : std::nullopt;
  }
  std::optional<uint64_t> dev() const {
    After A = after();
    return A.HasDev ? std::optional<uint64_t>(A.DevNumber) : std::nullopt;
  }
  /// The local label without '+', e.g. "cu128"; empty when none.
  const std::string &local() const & {
    return Ext && Ext->P.Local ? *Ext->P.Local : noLocal();
  }
  std::string local() && { return std::as_const(*this).local(); }

  bool isPrerelease() const {
    if (!Ext)
      return Tail & (FHasPre | FHasDev);
    return Ext->P.HasPre || Ext->P.HasDev;
  }

  /// The same version without its local label ("2.11.0+cu128" -> "2.11.0").
  Version withoutLocal() const;
  /// Only the first N release segments ("12.8.93", 2 -> "12.8").
  Version truncated(size_t N) const;
  /// The smallest version that starts with this release prefix plus one
  /// in segment I: nextPrefix(0) of 12.8 is 13.dev0 (used for ==12.*, ^, ~=).
  Version bumped(size_t I) const;

  /// The same version in another epoch (the resolver encodes a package's
  /// build strategy as an epoch; see core/plan/Resolver.cpp).
  Version withEpoch(uint64_t E) const {
    Version V = *this;
    V.setEpoch(E);
    return V;
  }
  /// Moves this version into epoch E (withEpoch without a copy).
  void setEpoch(uint64_t E) {
    if (!Ext && E < EpochLimit) {
      Key = (Key & ~(uint64_t(EpochLimit - 1) << 57)) | E << 57;
      return;
    }
    Parts P = parts();
    P.Epoch = E;
    *this = Version(std::move(P));
  }

  /// Canonical PEP 440 text ("1.5.0.post8", "2.11.0+cu128", "1!2.0").
  std::string str() const;
  /// Equal versions hash alike (for tables of versions and sets). Where
  /// the epoch and release fit the packed key, it is that (equal versions
  /// have equal keys): one multiply, inline.
  uint64_t hash() const {
    return Key & 1 ? Key * 0x9e3779b97f4a7c15ull : unpackedHash();
  }

  [[gnu::always_inline]] std::strong_ordering
  operator<=>(const Version &O) const {
    // Two versions whose epoch and release each fit the packed key are
    // ordered by it where they differ there (most comparisons a solve
    // makes), and are equal or ordered by what follows the release where
    // they do not; the rest compare part by part.
    if (Key & O.Key & 1) {
      if (Key != O.Key)
        return Key <=> O.Key;
      // The same pre/post/dev parts and flags, and no local label.
      if (!Ext && !O.Ext && ((Tail ^ O.Tail) & ~CountMask) == 0)
        return std::strong_ordering::equal;
    }
    return compareRest(O);
  }
  bool operator==(const Version &O) const {
    return (*this <=> O) == std::strong_ordering::equal;
  }

  // --- internal sentinels used by VersionSet bounds --------------------
  /// The smallest version of this release (this release with .dev0 and no
  /// pre/post): every pre-release of the release sorts at or after it.
  Version lowestOfRelease() const;
  /// This version's first dev release, without local: "2.11" -> "2.11.dev0",
  /// "2.11.post1" -> "2.11.post1.dev0" (where '<V' stops for a final or
  /// post release V). A version that already has a dev number keeps it.
  Version firstDevRelease() const;
  /// A version sorting after every local and post variant of this version
  /// (used for '>V' which excludes V's post and local releases, and '==V'
  /// which admits any local label).
  Version afterAllLocals() const;
  /// A version sorting after every version with this epoch, release and
  /// pre-release part (so after every post, dev-of-post and local variant):
  /// used for '>V'. For a final release this is a sentinel (no real version
  /// is the least one above all of 2.11's post-releases); for '1.0a1' it is
  /// the real version '1.0a2.dev0'.
  Version afterAllPosts() const;

  /// True for the sentinels made by afterAllLocals()/afterAllPosts() when no
  /// real version can stand for them. A sentinel is never a member of a set;
  /// its str() ("2.11.post*", "2.11+*") is for debugging only.
  bool isSentinel() const {
    if (!Ext)
      return Tail & (FMinOfRelease | FMaxLocal | FMaxPost);
    return Ext->P.MinOfRelease || Ext->P.MaxLocal || Ext->P.MaxPost;
  }
  bool isAfterAllPosts() const {
    return Ext ? Ext->P.MaxPost : bool(Tail & FMaxPost);
  }
  bool isAfterAllLocals() const {
    return Ext ? Ext->P.MaxLocal : bool(Tail & FMaxLocal);
  }
  /// The version a sentinel was made from (itself for a real version).
  Version sentinelBase() const;
  /// The smallest version of all: 0!0.dev0.
  bool isMinimum() const;

private:
  /// Every part of a version, as parsing and the operations that make one
  /// version of another read and write them.
  struct Parts {
    ReleaseNumbers Release;
    uint64_t Epoch = 0;
    uint64_t PreNumber = 0;  // with HasPre
    uint64_t PostNumber = 0; // with HasPost
    uint64_t DevNumber = 0;  // with HasDev
    /// The local label ("cu128"), never empty; null when there is none.
    std::shared_ptr<const std::string> Local;
    PreKind PreLetter = PreKind::Alpha; // with HasPre
    bool HasPre = false;
    bool HasPost = false;
    bool HasDev = false;
    // Sentinel flags, never produced by parse().
    bool MinOfRelease = false; // sorts before every version of this release
    bool MaxLocal = false;     // sorts after every local variant
    bool MaxPost = false;      // sorts after every post and local variant

    void setDev(uint64_t N) {
      HasDev = true;
      DevNumber = N;
    }
    void setPost(uint64_t N) {
      HasPost = true;
      PostNumber = N;
    }
  };
  /// The parts of a version that does not fit Key and Tail, shared by its
  /// copies.
  struct Shared : llvm::ThreadSafeRefCountedBase<Shared> {
    explicit Shared(Parts P) : P(std::move(P)) {}
    Parts P;
  };
  /// What follows the release, read from Tail or Ext without a copy.
  struct After {
    uint64_t PreNumber = 0, PostNumber = 0, DevNumber = 0;
    const std::string *Local = nullptr;
    PreKind PreLetter = PreKind::Alpha;
    bool HasPre = false, HasPost = false, HasDev = false;
    bool MinOfRelease = false, MaxLocal = false, MaxPost = false;
  };

  // Copying a version, which version sets, terms, decisions and decoding do
  // constantly, copies three words and allocates nothing. Nearly every
  // version is Key and Tail alone: an epoch below 128, at most seven
  // release numbers of which the first three are below 65536 and the rest
  // 0, pre/post/dev numbers below 65536 and no local label. Any other has
  // its parts in Ext, shared by its copies (Key still packs its epoch and
  // release where they fit, for ordering; Tail is then 0).
  static constexpr uint64_t EpochLimit = 128, NumberLimit = 65536;
  // Tail: the release's length (3 bits), the flags, then the pre, post and
  // dev numbers, 16 bits each.
  static constexpr uint64_t CountMask = 7, FHasPre = 1 << 3, PreLetterShift = 4,
                            FHasPost = 1 << 6, FHasDev = 1 << 7,
                            FMinOfRelease = 1 << 8, FMaxLocal = 1 << 9,
                            FMaxPost = 1 << 10, PreShift = 16, PostShift = 32,
                            DevShift = 48;

  /// The epoch and release packed so that comparing keys compares them:
  /// 1 | epoch << 57 | segment 0 << 41 | segment 1 << 25 | segment 2 << 9,
  /// where the epoch is below 128, the first three segments below 65536 and
  /// any further ones 0; else 0 (no key). An empty release reads as 0.
  uint64_t Key = 1;
  uint64_t Tail = 0;
  llvm::IntrusiveRefCntPtr<const Shared> Ext;

  /// The version of P: packed into Key and Tail where it fits.
  explicit Version(Parts P);
  Parts parts() const;
  After after() const {
    After A;
    if (Ext) {
      A.PreNumber = Ext->P.PreNumber;
      A.PostNumber = Ext->P.PostNumber;
      A.DevNumber = Ext->P.DevNumber;
      A.Local = Ext->P.Local.get();
      A.PreLetter = Ext->P.PreLetter;
      A.HasPre = Ext->P.HasPre;
      A.HasPost = Ext->P.HasPost;
      A.HasDev = Ext->P.HasDev;
      A.MinOfRelease = Ext->P.MinOfRelease;
      A.MaxLocal = Ext->P.MaxLocal;
      A.MaxPost = Ext->P.MaxPost;
      return A;
    }
    A.PreNumber = (Tail >> PreShift) & 0xffff;
    A.PostNumber = (Tail >> PostShift) & 0xffff;
    A.DevNumber = Tail >> DevShift;
    A.PreLetter = PreKind((Tail >> PreLetterShift) & 3);
    A.HasPre = Tail & FHasPre;
    A.HasPost = Tail & FHasPost;
    A.HasDev = Tail & FHasDev;
    A.MinOfRelease = Tail & FMinOfRelease;
    A.MaxLocal = Tail & FMaxLocal;
    A.MaxPost = Tail & FMaxPost;
    return A;
  }
  /// The parts of the plain release R (0 for an empty one).
  static Parts plainParts(llvm::ArrayRef<uint64_t> R);
  static uint64_t keyOf(const Parts &P) {
    return keyOf(P.Epoch, llvm::ArrayRef<uint64_t>(P.Release));
  }
  /// The packed key of this epoch and release, or 0 where they do not fit.
  static uint64_t keyOf(uint64_t Epoch, llvm::ArrayRef<uint64_t> Release);
  /// The order of a packed version's Tail among those of its release that
  /// are the release itself, one of its sentinels or a dev release of it,
  /// as compareAfterRelease() ranks them; -1 for any other.
  static int64_t quickRank(uint64_t Tail);
  /// hash() of a version whose release does not fit the packed key.
  uint64_t unpackedHash() const;
  /// operator<=>() where the keys do not settle it.
  std::strong_ordering compareRest(const Version &O) const;
  std::strong_ordering compareParts(const Version &O) const;
  /// The order of two versions with the same epoch and release.
  static std::strong_ordering compareAfterRelease(const After &L,
                                                  const After &R);

  /// No pre, post, dev or local part and no sentinel flag.
  bool isPlain() const {
    if (!Ext)
      return (Tail & ~CountMask) == 0;
    return !Ext->P.HasPre && !Ext->P.HasPost && !Ext->P.HasDev &&
           !Ext->P.Local && !Ext->P.MinOfRelease && !Ext->P.MaxLocal &&
           !Ext->P.MaxPost;
  }
  static const std::string &noLocal() {
    static const std::string None;
    return None;
  }

  /// The load cache's form (core/support/BinaryCodec.h): one flags value
  /// naming the parts present, the release, then only those parts. Nearly
  /// every version is a plain release, two or three values in all; the
  /// manifests of a large registry hold hundreds of thousands of them.
  // The flags value's bits. Constants, not an enumeration: each ?: below
  // mixes one with 0.
  static constexpr unsigned CEpoch = 1, CPre = 2, CPost = 4, CDev = 8,
                            CLocal = 16, CMinOfRelease = 32, CMaxLocal = 64,
                            CMaxPost = 128;
  template <class C> friend void fields(C &Cd, Version &V) {
    unsigned Flags = 0;
    if constexpr (C::Decoding) {
      uint64_t F = Cd.varint();
      if (F > 0xff)
        F = Cd.fail();
      Flags = unsigned(F);
      const size_t N = Cd.count();
      if ((Flags & ~(CPost | CDev)) == 0 && N <= CountMask) {
        // Most versions are a release of at most three numbers below
        // 65536, perhaps with a post or dev number below 65536, and nothing
        // else: packed into Key and Tail here as Version(Parts) packs them,
        // without building the parts (nor constructing them). Any other
        // release this short is built from what was read.
        uint64_t Release[CountMask];
        for (size_t K = 0; K < N; ++K)
          Release[K] = Cd.varint();
        llvm::ArrayRef<uint64_t> Numbers(Release, N);
        uint64_t Key = keyOf(0, Numbers);
        uint64_t Post = Flags & CPost ? Cd.varint() : 0;
        uint64_t Dev = Flags & CDev ? Cd.varint() : 0;
        if (Key && Post < NumberLimit && Dev < NumberLimit) {
          V.Key = Key;
          V.Tail = N | (Flags & CPost ? FHasPost : 0) |
                   (Flags & CDev ? FHasDev : 0) | Post << PostShift |
                   Dev << DevShift;
          V.Ext.reset();
          return;
        }
        Parts P;
        P.Release = ReleaseNumbers(Numbers.begin(), Numbers.end());
        P.HasPost = Flags & CPost;
        P.PostNumber = Post;
        P.HasDev = Flags & CDev;
        P.DevNumber = Dev;
        V = Version(std::move(P));
        return;
      }
      Parts P;
      P.Release.resize(N);
      for (uint64_t &Number : P.Release)
        Number = Cd.varint();
      P.HasPre = Flags & CPre;
      P.HasPost = Flags & CPost;
      P.HasDev = Flags & CDev;
      P.MinOfRelease = Flags & CMinOfRelease;
      P.MaxLocal = Flags & CMaxLocal;
      P.MaxPost = Flags & CMaxPost;
      restFields(Cd, Flags, P);
      V = Version(std::move(P));
    } else {
      Parts P = V.parts();
      Flags = (P.Epoch ? CEpoch : 0) | (P.HasPre ? CPre : 0) |
              (P.HasPost ? CPost : 0) | (P.HasDev ? CDev : 0) |
              (P.Local ? CLocal : 0) | (P.MinOfRelease ? CMinOfRelease : 0) |
              (P.MaxLocal ? CMaxLocal : 0) | (P.MaxPost ? CMaxPost : 0);
      Cd(Flags, P.Release);
      restFields(Cd, Flags, P);
    }
  }
  /// fields(Version)'s parts after the release, those Flags names.
  template <class C> static void restFields(C &Cd, unsigned Flags, Parts &P) {
    if (Flags & CEpoch)
      Cd(P.Epoch);
    if (Flags & CPre)
      Cd(P.PreLetter, P.PreNumber);
    if (Flags & CPost)
      Cd(P.PostNumber);
    if (Flags & CDev)
      Cd(P.DevNumber);
    if (Flags & CLocal) {
      std::string Label = P.Local ? *P.Local : std::string();
      Cd(Label);
      if constexpr (C::Decoding)
        if (!Label.empty())
          P.Local = std::make_shared<const std::string>(std::move(Label));
    }
  }
};

/// Quotes user text for an error message: non-printable bytes and
/// backslashes as \xNN, text longer than \p MaxShown bytes cut with "...".
std::string quoteForMessage(llvm::StringRef Text, size_t MaxShown);

} // namespace cudadeps

#endif
