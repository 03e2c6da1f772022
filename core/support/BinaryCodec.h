//===- BinaryCodec.h - structs to bytes and back, one field list each -----===//
//
// The load cache (LoadCache.h) keeps parsed manifests and the knowledge base
// as bytes. Each struct names its fields once, in a `fields(Codec &, T &)`
// function found by argument-dependent lookup, and the same list writes and
// reads it:
//
//   template <class C> void fields(C &Cd, Requirement &X) {
//     Cd(X.Key, X.Range, X.Text, X.Extras, X.Loc, X.KeyLoc);
//   }
//
// Integers are LEB128 varints, strings and containers are a count and their
// elements. Decoding any bytes ends and never crashes: a count larger than
// the bytes left, a truncated value or bytes left over mark the decode
// failed, and allocations stay proportional to the input (every element takes
// at least one byte). A failed decode's value is discarded by the caller.
//
// SourceLocation's file is written once per blob: a location in the blob's
// own file (the manifest being cached, nearly all of them) is a flag, so a
// decoded manifest names the path it was loaded as now.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_BINARYCODEC_H
#define CUDADEPS_CORE_SUPPORT_BINARYCODEC_H

#include "core/support/Boxed.h"
#include "core/support/Deferred.h"
#include "core/support/Diagnostic.h"
#include "core/support/SharedBytes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudadeps {

class BinaryEncoder {
public:
  static constexpr bool Decoding = false;
  /// \p File: the file whose locations are written as a flag.
  explicit BinaryEncoder(SourcePath File) : File(File) {}

  template <class... T> void operator()(T &...X);

  void varint(uint64_t V) {
    while (V >= 0x80) {
      Out.push_back(char(V | 0x80));
      V >>= 7;
    }
    Out.push_back(char(V));
  }
  void bytes(llvm::StringRef S) {
    varint(S.size());
    Out.append(S.data(), S.size());
  }
  const SourcePath &file() const { return File; }
  std::string take() { return std::move(Out); }

private:
  SourcePath File;
  std::string Out;
};

class BinaryDecoder {
public:
  static constexpr bool Decoding = true;
  BinaryDecoder(llvm::StringRef In, SourcePath File) : In(In), File(File) {}

  /// A decoder whose input is *Owner, bytes this build encoded into the
  /// load cache file \p CacheFile (its checksum and program identity say
  /// so): a Deferred value keeps its bytes, unread, for its first read.
  static BinaryDecoder deferring(std::shared_ptr<const std::string> Owner,
                                 SourcePath File, SourcePath CacheFile) {
    llvm::StringRef In = *Owner;
    return deferring(std::move(Owner), In, File, CacheFile);
  }
  /// The same for the bytes \p In that \p Owner keeps alive.
  static BinaryDecoder deferring(std::shared_ptr<const void> Owner,
                                 llvm::StringRef In, SourcePath File,
                                 SourcePath CacheFile) {
    BinaryDecoder D(In, File);
    D.Owner = std::move(Owner);
    D.CacheFile = CacheFile;
    return D;
  }

  template <class... T> void operator()(T &...X);

  uint64_t varint() {
    // One byte (below 128): nearly every length and count.
    if (Pos < In.size() && !(uint8_t(In[Pos]) & 0x80))
      return uint8_t(In[Pos++]);
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      if (Pos >= In.size())
        return fail();
      uint8_t B = uint8_t(In[Pos++]);
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return fail();
  }
  llvm::StringRef bytes() {
    uint64_t N = varint();
    if (N > remaining())
      return fail(), llvm::StringRef();
    llvm::StringRef S(In.data() + Pos, size_t(N)); // N fits: checked
    Pos += size_t(N);
    return S;
  }
  /// A count of elements, each at least one byte: never more than are left.
  size_t count() {
    uint64_t N = varint();
    return N > remaining() ? fail() : size_t(N);
  }
  size_t remaining() const { return Failed ? 0 : In.size() - Pos; }
  uint64_t fail() {
    Failed = true;
    Pos = In.size();
    return 0;
  }
  /// True when everything decoded and no byte is left over.
  bool ok() const { return !Failed && Pos == In.size(); }
  const SourcePath &file() const { return File; }
  const std::shared_ptr<const void> &owner() const { return Owner; }
  const SourcePath &cacheFile() const { return CacheFile; }

private:
  llvm::StringRef In;
  size_t Pos = 0;
  bool Failed = false;
  SourcePath File;
  std::shared_ptr<const void> Owner;
  SourcePath CacheFile;
};

// --- the primitives, containers and support structs ----------------------

template <class C, class T>
  requires(std::is_integral_v<T> || std::is_enum_v<T>)
void codec(C &Cd, T &X) {
  using I = typename std::conditional_t<std::is_enum_v<T>,
                                        std::underlying_type<T>,
                                        std::type_identity<T>>::type;
  using U = std::make_unsigned_t<I>;
  if constexpr (C::Decoding) {
    uint64_t V = Cd.varint();
    if (V > uint64_t(std::numeric_limits<U>::max()))
      V = Cd.fail();
    X = T(U(V));
  } else {
    Cd.varint(uint64_t(U(X)));
  }
}

template <class C> void codec(C &Cd, bool &X) {
  if constexpr (C::Decoding) {
    uint64_t V = Cd.varint();
    X = V == 1;
    if (V > 1)
      Cd.fail();
  } else {
    Cd.varint(X ? 1 : 0);
  }
}

template <class C> void codec(C &Cd, double &X) {
  if constexpr (C::Decoding)
    X = std::bit_cast<double>(Cd.varint());
  else
    Cd.varint(std::bit_cast<uint64_t>(X));
}

template <class C> void codec(C &Cd, std::string &X) {
  if constexpr (C::Decoding)
    X = Cd.bytes().str();
  else
    Cd.bytes(X);
}

template <class C> void codec(C &Cd, SharedBytes &X) {
  if constexpr (C::Decoding) {
    llvm::StringRef B = Cd.bytes();
    X = Cd.owner() ? SharedBytes(Cd.owner(), B) : SharedBytes(B.str());
  } else {
    Cd.bytes(X.Bytes);
  }
}

template <class C> void codec(C &Cd, SourcePath &X) {
  if constexpr (C::Decoding)
    X = SourcePath(Cd.bytes());
  else
    Cd.bytes(X);
}

/// Whether it holds a value, then the value: a std::optional, and a Boxed
/// as the optional it stands for.
template <class C, class Opt> void codecOptional(C &Cd, Opt &X) {
  bool Has = X.has_value();
  codec(Cd, Has);
  if constexpr (C::Decoding) {
    X.reset();
    if (Has)
      codec(Cd, X.emplace());
  } else if (Has) {
    codec(Cd, *X);
  }
}

template <class C, class T> void codec(C &Cd, std::optional<T> &X) {
  codecOptional(Cd, X);
}

template <class C, class T> void codec(C &Cd, Boxed<T> &X) {
  codecOptional(Cd, X);
}

/// A sequence: its size, then each element. Decoding fills it in place: a
/// manifest's releases are large, and moving one costs about as much as
/// decoding its fields.
template <class C, class Seq> void codecSequence(C &Cd, Seq &X) {
  if constexpr (C::Decoding) {
    size_t N = Cd.count();
    X.clear();
    X.reserve(N);
    for (size_t I = 0; I < N && Cd.remaining(); ++I)
      codec(Cd, X.emplace_back());
  } else {
    Cd.varint(X.size());
    for (auto &E : X)
      codec(Cd, E);
  }
}

template <class C, class T> void codec(C &Cd, std::vector<T> &X) {
  codecSequence(Cd, X);
}

/// Encoded as a std::vector of the same elements.
template <class C, class T, unsigned N>
void codec(C &Cd, llvm::SmallVector<T, N> &X) {
  codecSequence(Cd, X);
}

// std::vector<bool> has no references to its elements.
template <class C> void codec(C &Cd, std::vector<bool> &X) {
  if constexpr (C::Decoding) {
    size_t N = Cd.count();
    X.assign(N, false);
    for (size_t I = 0; I < N; ++I) {
      bool B = false;
      codec(Cd, B);
      X[I] = B;
    }
  } else {
    Cd.varint(X.size());
    for (bool B : X)
      codec(Cd, B);
  }
}

template <class C, class A, class B> void codec(C &Cd, std::pair<A, B> &X) {
  codec(Cd, X.first);
  codec(Cd, X.second);
}

template <class C, class K, class V, class L>
void codec(C &Cd, std::map<K, V, L> &X) {
  if constexpr (C::Decoding) {
    size_t N = Cd.count();
    X.clear();
    // Keys were written in the map's order: each entry goes at the end,
    // its value decoded in place.
    for (size_t I = 0; I < N && Cd.remaining(); ++I) {
      K Key{};
      codec(Cd, Key);
      auto It = X.emplace_hint(X.end(), std::move(Key), V{});
      codec(Cd, It->second);
    }
  } else {
    Cd.varint(X.size());
    for (auto &[Key, Value] : X) {
      K Copy = Key; // keys are const in the map
      codec(Cd, Copy);
      codec(Cd, Value);
    }
  }
}

/// Decodes the bytes a Deferred<T> keeps (its Encoded::Decode).
template <class T>
bool decodeEncoded(const typename Deferred<T>::Encoded &E, T &Out) {
  BinaryDecoder Inner(E.Bytes, E.File);
  codec(Inner, Out);
  return Inner.ok();
}

/// The bytes of the value. A deferring decoder keeps them for the first
/// read; any other decodes them now.
template <class C, class T> void codec(C &Cd, Deferred<T> &X) {
  if constexpr (C::Decoding) {
    llvm::StringRef Bytes = Cd.bytes();
    // One byte (an empty map, most often) costs less to decode than to keep.
    if (Cd.owner() && Bytes.size() > 1) {
      X.defer(
          {Cd.owner(), Bytes, Cd.file(), Cd.cacheFile(), &decodeEncoded<T>});
      return;
    }
    BinaryDecoder Inner(Bytes, Cd.file());
    T Value;
    codec(Inner, Value);
    if (!Inner.ok())
      Cd.fail();
    X = std::move(Value);
  } else {
    BinaryEncoder Inner(Cd.file());
    codec(Inner, X.get());
    Cd.bytes(Inner.take());
  }
}

/// A value written as its own bytes (a length, then its encoding), so that
/// a reader can take those bytes whole, as a view, without decoding them
/// (readRequirementRanges() looks a range up by its bytes).
template <class T> struct Nested {
  T &Value;
};
template <class C, class T> void codec(C &Cd, Nested<T> &X) {
  if constexpr (C::Decoding) {
    BinaryDecoder Inner(Cd.bytes(), Cd.file());
    codec(Inner, X.Value);
    if (!Inner.ok())
      Cd.fail();
  } else {
    BinaryEncoder Inner(Cd.file());
    codec(Inner, X.Value);
    Cd.bytes(Inner.take());
  }
}

/// A location in the blob's own file is one byte; another file is named.
template <class C> void codec(C &Cd, SourceLocation &X) {
  bool Own = !C::Decoding && X.File == Cd.file();
  codec(Cd, Own);
  if (!Own)
    codec(Cd, X.File);
  else if constexpr (C::Decoding)
    X.File = Cd.file();
  codec(Cd, X.Line);
  codec(Cd, X.Column);
}

template <class C> void codec(C &Cd, Diagnostic &X) {
  Cd(X.Level, X.Loc, X.Message, X.SourceLine, X.Hint);
}

/// Everything else: the struct's field list.
template <class C, class T>
  requires requires(C &Cd, T &X) { fields(Cd, X); }
void codec(C &Cd, T &X) {
  fields(Cd, X);
}

template <class... T> void BinaryEncoder::operator()(T &...X) {
  (codec(*this, X), ...);
}
template <class... T> void BinaryDecoder::operator()(T &...X) {
  (codec(*this, X), ...);
}

} // namespace cudadeps

#endif
