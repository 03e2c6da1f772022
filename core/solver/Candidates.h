//===- Candidates.h - the open packages, ordered for the next decision ----===//
//
// The solver decides next on the open package (positive, not decided) with
// the fewest allowed versions, ties going to the one that became positive
// first; in a query, on such a package among those that must leave the first
// solution, when there is one. Before deciding it asks, in that same order,
// for the facts of every open package whose facts it never asked. Looking at
// every open package at each decision costs (open packages x decisions); this
// keeps the open packages in sets ordered by that key instead, and brings
// them up to date from the packages whose assignments changed since the last
// decision (PartialSolution::changed()): only those can have a new count, a
// new place in the order, or have opened or closed.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_CANDIDATES_H
#define CUDADEPS_CORE_SOLVER_CANDIDATES_H

#include "core/solver/PartialSolution.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace cudadeps::solver {

class Candidates {
public:
  /// (allowed versions, place in the order, package): the first is chosen.
  using Key = std::tuple<size_t, uint64_t, PackageId>;

  /// The first open package (in the order) whose facts were never asked,
  /// taken out of that list; none when every one's were.
  std::optional<PackageId> takeUnasked() {
    if (Unasked.empty())
      return std::nullopt;
    PackageId P = Unasked.begin()->second;
    Unasked.erase(Unasked.begin());
    UnaskedStamp[P] = 0;
    return P;
  }
  /// After rank(): the package to decide on next; none when none is open.
  std::optional<PackageId> best() const { return first(Ranked); }
  /// After rank(), in a query: the same among those that must leave the
  /// first solution.
  std::optional<PackageId> bestChanging() const { return first(Changing); }

  /// Forgets every package (the partial solution restarted): only those in
  /// the sets have a mark to take back.
  void clear() {
    for (const auto &[Stamp, P] : Unasked)
      UnaskedStamp[P] = 0;
    for (const Key &K : Ranked)
      RankedKey[std::get<2>(K)].reset();
    for (PackageId P : Pending)
      IsPending[P] = 0;
    Unasked.clear();
    Ranked.clear();
    Changing.clear();
    Pending.clear();
    assert(std::all_of(UnaskedStamp.begin(), UnaskedStamp.end(),
                       [](uint64_t S) { return S == 0; }) &&
           std::all_of(RankedKey.begin(), RankedKey.end(),
                       [](const std::optional<Key> &K) { return !K; }) &&
           std::all_of(IsPending.begin(), IsPending.end(),
                       [](uint8_t P) { return P == 0; }) &&
           "a mark outside the sets");
  }

  /// Takes the packages S changed out of the sets, puts the open ones back
  /// into Unasked (where their facts were never asked) and leaves them to
  /// rank(); clears S's list of changes.
  template <class V, class VS>
  void update(PartialSolution<V, VS> &S, const std::vector<bool> &FactsAsked) {
    grow(FactsAsked.size());
    for (PackageId P : S.changed()) {
      if (UnaskedStamp[P]) {
        Unasked.erase({UnaskedStamp[P], P});
        UnaskedStamp[P] = 0;
      }
      if (RankedKey[P]) {
        Ranked.erase(*RankedKey[P]);
        Changing.erase(*RankedKey[P]);
        RankedKey[P].reset();
      }
      if (!S.open(P))
        continue;
      if (!FactsAsked[P]) {
        UnaskedStamp[P] = S.orderStamp(P);
        Unasked.emplace(UnaskedStamp[P], P);
      }
      if (!IsPending[P]) {
        IsPending[P] = 1;
        Pending.push_back(P);
      }
    }
    S.clearChanged();
  }

  /// Ranks the open packages update() left: Count(P) is P's number of
  /// allowed versions, MustChange(P) whether a query must move it.
  template <class V, class VS, class CountF, class MustChangeF>
  void rank(const PartialSolution<V, VS> &S, CountF Count,
            MustChangeF MustChange) {
    for (PackageId P : Pending) {
      IsPending[P] = 0;
      if (!S.open(P))
        continue;
      assert(!RankedKey[P] && "a pending package is not ranked");
      Key K{Count(P), S.orderStamp(P), P};
      Ranked.insert(K);
      RankedKey[P] = K;
      if (MustChange(P))
        Changing.insert(K);
    }
    Pending.clear();
  }

private:
  static std::optional<PackageId> first(const std::set<Key> &Set) {
    if (Set.empty())
      return std::nullopt;
    return std::get<2>(*Set.begin());
  }

  void grow(size_t N) {
    if (UnaskedStamp.size() < N) {
      UnaskedStamp.resize(N, 0);
      RankedKey.resize(N);
      IsPending.resize(N, 0);
    }
  }

  /// Open packages whose facts were never asked, by place in the order.
  std::set<std::pair<uint64_t, PackageId>> Unasked;
  /// Every open package whose count is known.
  std::set<Key> Ranked;
  /// In a query: the ones among Ranked that must leave the first solution.
  std::set<Key> Changing;
  /// Per package: its key in Unasked (0: not there) and in Ranked.
  std::vector<uint64_t> UnaskedStamp;
  std::vector<std::optional<Key>> RankedKey;
  /// Open packages changed since they were last ranked.
  std::vector<PackageId> Pending;
  std::vector<uint8_t> IsPending;
};

} // namespace cudadeps::solver

#endif
