// Shardings expressed per factor of an op sharding rule: the "factor table"
// that propagation works on (one row per tensor, one column per factor).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sharding/axis_ref.h"

namespace shardscope::propagation {

// How one factor of one tensor is sharded.
// - `axes`: the axes sharding the factor, major to minor;
// - `closed`: the dimension it comes from is closed (no new axes may be added);
// - `minorMost`: it is the last factor of its dimension, so it may take axes
//   that do not divide it (the dimension is then padded);
// - `overflowAxes`: axes of the dimension that could not be split over this
//   factor and later ones (kept as they are, they end the dimension).
// E.g. rule `([ij])->(...) {i=2, j=4}` and `[{"x", "y"}]` on x=4, y=2 give
// i = {axes: ["x":(1)2]}, j = {axes: ["x":(2)2, "y"], minorMost}.
struct FactorSharding {
  AxisRefList axes;
  bool closed = false;
  bool minorMost = false;
  AxisRefList overflowAxes;
  bool operator==(const FactorSharding&) const = default;
};

// A row's factor shardings by factor index, in increasing factor order.
// A tensor maps a handful of factors, and rows are built and dropped once
// per op step, so they are kept in one sorted vector rather than in a tree
// with a heap node per factor. Like a std::map, but a reference into it is
// only good until the next insertion.
class FactorShardingMap {
 public:
  using value_type = std::pair<int64_t, FactorSharding>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  FactorShardingMap() = default;
  // From a map (tests and hand-built tables spell rows that way).
  FactorShardingMap(const std::map<int64_t, FactorSharding>& m) : entries_(m.begin(), m.end()) {}  // NOLINT

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  void reserve(size_t n) { entries_.reserve(n); }
  size_t size() const { return entries_.size(); }

  iterator find(int64_t factor) {
    iterator it = lowerBound(factor);
    return it != entries_.end() && it->first == factor ? it : entries_.end();
  }
  const_iterator find(int64_t factor) const { return const_cast<FactorShardingMap*>(this)->find(factor); }
  size_t count(int64_t factor) const { return find(factor) != end() ? 1 : 0; }
  FactorSharding& at(int64_t factor);
  const FactorSharding& at(int64_t factor) const { return const_cast<FactorShardingMap*>(this)->at(factor); }
  // The factor's sharding, inserted (default) when missing.
  FactorSharding& operator[](int64_t factor) {
    iterator it = lowerBound(factor);
    if (it == entries_.end() || it->first != factor) it = entries_.emplace(it, factor, FactorSharding{});
    return it->second;
  }
  bool operator==(const FactorShardingMap&) const = default;

 private:
  iterator lowerBound(int64_t factor) {
    // Rows are short: a linear scan beats a binary search.
    iterator it = entries_.begin();
    while (it != entries_.end() && it->first < factor) ++it;
    return it;
  }
  std::vector<value_type> entries_;
};

// One tensor's row of the factor table: the factors it maps, plus the
// tensor's replicated and unreduced axes (which no mapped factor may take).
struct TensorFactorShardings {
  FactorShardingMap factors;
  AxisRefList replicated;
  AxisRefList unreduced;
  std::string unreducedReduction = "sum";
  bool operator==(const TensorFactorShardings&) const = default;

  bool mapsFactor(int64_t factor) const { return factors.count(factor) != 0; }
  const FactorSharding* find(int64_t factor) const {
    auto it = factors.find(factor);
    return it == factors.end() ? nullptr : &it->second;
  }
  // Replace factor `factor`'s axes by `newAxes` when the old axes are a
  // strict prefix of them; returns whether anything changed.
  bool expandAxes(int64_t factor, const AxisRefList& newAxes);
};

}  // namespace shardscope::propagation
