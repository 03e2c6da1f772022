//===- Boxed.h - an optional value kept on the heap -----------------------===//
//
// std::optional<T> takes sizeof(T) whether or not it holds a value. A member
// that is large and nearly always absent (a release's prebuilt matrix: 232
// bytes, absent from most releases of a large registry, whose releases are
// decoded by the tens of thousands) is a Boxed<T> instead: one pointer when
// absent. It reads as an optional (bool, *, ->), copies deeply, and the load
// cache encodes it as an optional (core/support/BinaryCodec.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_BOXED_H
#define CUDADEPS_CORE_SUPPORT_BOXED_H

#include <memory>
#include <optional>
#include <utility>

namespace cudadeps {

template <class T> class Boxed {
public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}
  Boxed(T V) : Ptr(std::make_unique<T>(std::move(V))) {}
  Boxed(std::optional<T> V) {
    if (V)
      Ptr = std::make_unique<T>(std::move(*V));
  }
  Boxed(const Boxed &O) : Ptr(O.Ptr ? std::make_unique<T>(*O.Ptr) : nullptr) {}
  Boxed(Boxed &&) noexcept = default;
  Boxed &operator=(const Boxed &O) {
    if (this != &O)
      Ptr = O.Ptr ? std::make_unique<T>(*O.Ptr) : nullptr;
    return *this;
  }
  Boxed &operator=(Boxed &&) noexcept = default;

  explicit operator bool() const { return bool(Ptr); }
  bool has_value() const { return bool(Ptr); }
  T &operator*() { return *Ptr; }
  const T &operator*() const { return *Ptr; }
  T *operator->() { return Ptr.get(); }
  const T *operator->() const { return Ptr.get(); }
  T &emplace() {
    Ptr = std::make_unique<T>();
    return *Ptr;
  }
  void reset() { Ptr.reset(); }

private:
  std::unique_ptr<T> Ptr;
};

} // namespace cudadeps

#endif
