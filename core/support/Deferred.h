//===- Deferred.h - a value the load cache decodes on first use -----------===//
//
// A large registry's manifests come from the load cache, and a solve reads
// the requirements of a few releases of each package it weighs: decoding
// every release's requirements up front was a sixth of a 2,000-package
// resolve and most of its memory. A Deferred<T> holds a T, or the bytes it
// was encoded as until something reads it. Reading is const and safe from
// several threads; copying a Deferred copies the decoded value.
//
// BinaryCodec.h encodes a Deferred<T> as the bytes of its T, so a decoder
// can keep them without reading them. Only bytes this build wrote are kept
// so (the load cache's checksum and program identity say which): checking
// them when kept costs nearly what decoding them does. Bytes that do not
// decode when read are a damaged cache file written by something else; the
// command then stops with exit code 2 and says which manifest and what to
// do (as a compiler stops on a damaged precompiled header).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_DEFERRED_H
#define CUDADEPS_CORE_SUPPORT_DEFERRED_H

#include "core/support/SourcePath.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace cudadeps {

namespace detail {
/// One lock for every first read: they are rare and short.
std::mutex &deferredDecodeLock();
/// Says that the kept bytes of a value read from \p File do not decode,
/// removes \p CacheFile, which held them, and exits with code 2.
[[noreturn]] void deferredDecodeFailed(const SourcePath &File,
                                       const SourcePath &CacheFile);
} // namespace detail

template <class T> class Deferred {
public:
  /// Bytes that encode a T, kept alive by Owner; Decode turns them into
  /// the value and says whether they decoded whole.
  struct Encoded {
    std::shared_ptr<const void> Owner;
    llvm::StringRef Bytes;
    SourcePath File;      // the file the value was read from
    SourcePath CacheFile; // the load cache file that kept the bytes
    bool (*Decode)(const Encoded &, T &);
  };

  Deferred() = default;
  Deferred(T V) : Value(std::move(V)) {}
  Deferred(const Deferred &O) : Value(O.get()) {}
  Deferred(Deferred &&O) noexcept
      : Pending(O.Pending.exchange(nullptr)), Value(std::move(O.Value)) {}
  Deferred &operator=(const Deferred &O) {
    if (this != &O) {
      T Copy = O.get();
      reset(nullptr);
      Value = std::move(Copy);
    }
    return *this;
  }
  Deferred &operator=(Deferred &&O) noexcept {
    if (this != &O) {
      reset(O.Pending.exchange(nullptr));
      Value = std::move(O.Value);
    }
    return *this;
  }
  Deferred &operator=(T V) {
    reset(nullptr);
    Value = std::move(V);
    return *this;
  }
  ~Deferred() { delete Pending.load(std::memory_order_relaxed); }

  /// The value, decoded now if it is still encoded.
  const T &get() const {
    if (Pending.load(std::memory_order_acquire)) [[unlikely]]
      settle();
    return Value;
  }
  T &get() {
    if (Pending.load(std::memory_order_acquire)) [[unlikely]]
      settle();
    return Value;
  }
  operator const T &() const { return get(); }
  operator T &() { return get(); }
  const T *operator->() const { return &get(); }
  T *operator->() { return &get(); }

  /// Whether the value is still the bytes it was encoded as (for tests).
  bool isEncoded() const {
    return Pending.load(std::memory_order_acquire) != nullptr;
  }
  /// A copy of the bytes it is still encoded as (its Owner keeps them
  /// alive), or nullopt once it is decoded: a reader that needs a part of
  /// the value can read that part alone, leaving the value encoded.
  std::optional<Encoded> encoded() const {
    if (!Pending.load(std::memory_order_acquire))
      return std::nullopt;
    std::lock_guard<std::mutex> Lock(detail::deferredDecodeLock());
    if (const Encoded *E = Pending.load(std::memory_order_relaxed))
      return *E;
    return std::nullopt; // another thread decoded it meanwhile
  }
  /// Keeps \p E's bytes as the value, to be decoded when first read.
  void defer(Encoded E) {
    reset(new Encoded(std::move(E)));
    Value = T();
  }

  // The container operations the manifest code uses, on the value.
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  auto begin() { return get().begin(); }
  auto end() { return get().end(); }
  bool empty() const { return get().empty(); }
  size_t size() const { return get().size(); }
  template <class K> auto find(const K &Key) const { return get().find(Key); }
  template <class K> auto find(const K &Key) { return get().find(Key); }
  template <class K> size_t count(const K &Key) const {
    return get().count(Key);
  }
  template <class K> decltype(auto) operator[](K &&Key) {
    return get()[std::forward<K>(Key)];
  }
  template <class K> decltype(auto) at(const K &Key) const {
    return get().at(Key);
  }

private:
  void settle() const {
    std::lock_guard<std::mutex> Lock(detail::deferredDecodeLock());
    Encoded *E = Pending.load(std::memory_order_relaxed);
    if (!E)
      return; // another thread decoded it meanwhile
    T Decoded;
    if (!E->Decode(*E, Decoded))
      detail::deferredDecodeFailed(E->File, E->CacheFile);
    Value = std::move(Decoded);
    Pending.store(nullptr, std::memory_order_release);
    delete E;
  }
  void reset(Encoded *E) {
    delete Pending.exchange(E);
  }

  mutable std::atomic<Encoded *> Pending{nullptr};
  mutable T Value;
};

} // namespace cudadeps

#endif
