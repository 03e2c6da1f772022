//===- RadixQueue.h - a monotone priority queue by 64-bit keys ------------===//
//
// A min-priority queue for searches whose keys never go below the key of
// the last item taken (Dijkstra's, and Knuth's generalization of it that
// pruning runs: Solver::findDead()): a radix heap (Ahuja, Mehlhorn, Orlin and
// Tarjan, "Faster algorithms for the shortest path problem", J. ACM 37(2),
// 1990). An item goes to the bucket of the highest bit in which its key differs
// from the last key top() gave; top(), where bucket 0 (the keys equal to
// that one) is empty, moves the lowest other bucket's items down
// by their differences from its smallest key. Each item moves a few times at
// most, where a binary heap sifts it through log2(n) levels on the way in and
// on the way out, comparing whole items at each.
//
// Items with the same key are taken in the order of Less, so that the queue
// takes them exactly as a binary heap ordered by (key, Less) does: bucket 0
// is kept sorted, its smallest last. Where a key equal to the last one top()
// gave is pushed (a search whose sums stop growing at a cap), the item is
// placed in bucket 0 by that order.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_RADIXQUEUE_H
#define CUDADEPS_CORE_SOLVER_RADIXQUEUE_H

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudadeps::solver {

/// KeyOf(T) gives an item's key; Less(T, T) orders the items of one key.
template <class T, class KeyOf, class Less> class RadixQueue {
public:
  explicit RadixQueue(KeyOf Key = KeyOf(), Less Before = Less())
      : Key(Key), Before(Before) {}

  bool empty() const { return Count == 0; }
  size_t size() const { return Count; }

  /// Adds Item, whose key is at least the key of the item top() last gave
  /// (top() moves on to the next key where the last one's items are gone:
  /// peekSameKey() does not).
  void push(const T &Item) {
    uint64_t K = Key(Item);
    assert(K >= Last && "a key below the last one top() gave");
    ++Count;
    if (K != Last) {
      Buckets[bucketOf(K)].push_back(Item);
      return;
    }
    // Bucket 0 is sorted with its smallest last: placed by Less.
    std::vector<T> &Zero = Buckets[0];
    Zero.insert(
        std::upper_bound(Zero.begin(), Zero.end(), Item,
                         [&](const T &A, const T &B) { return Before(B, A); }),
        Item);
  }

  /// The next item: the smallest key, and of those the first by Less.
  const T &top() {
    assert(!empty() && "top() of an empty queue");
    refill();
    return Buckets[0].back();
  }

  /// The item top() would give where it has the key of the last one it
  /// gave; null where that key's items are gone (top() would move on).
  const T *peekSameKey() const {
    return Buckets[0].empty() ? nullptr : &Buckets[0].back();
  }

  void pop() {
    assert(!empty() && "pop() of an empty queue");
    refill();
    Buckets[0].pop_back();
    --Count;
  }

private:
  /// 0 for Last itself, else 1 + the highest bit in which K differs from it.
  unsigned bucketOf(uint64_t K) const {
    return K == Last ? 0 : 64 - unsigned(std::countl_zero(K ^ Last));
  }

  /// Where bucket 0 is empty (moveDown()): takes the smallest key of the
  /// lowest bucket that has items as the last one, and moves that bucket's
  /// items down (each differs from it below the bucket's bit), then sorts
  /// bucket 0.
  void refill() {
    if (Buckets[0].empty())
      moveDown();
  }
  [[gnu::noinline]] void moveDown() {
    unsigned B = 1;
    while (Buckets[B].empty())
      ++B;
    std::vector<T> &From = Buckets[B];
    uint64_t Min = Key(From.front());
    for (const T &Item : From)
      Min = std::min(Min, Key(Item));
    Last = Min;
    for (const T &Item : From)
      Buckets[bucketOf(Key(Item))].push_back(Item);
    From.clear();
    std::vector<T> &Zero = Buckets[0];
    if (Zero.size() > 1)
      std::sort(Zero.begin(), Zero.end(),
                [&](const T &A, const T &B) { return Before(B, A); });
  }

  KeyOf Key;
  Less Before;
  std::array<std::vector<T>, 65> Buckets;
  uint64_t Last = 0;
  size_t Count = 0;
};

} // namespace cudadeps::solver

#endif // CUDADEPS_CORE_SOLVER_RADIXQUEUE_H
