// Shardings expressed per factor of an op sharding rule: the "factor table"
// that propagation works on (one row per tensor, one column per factor).
#pragma once
#include <cstdint>
#include <map>
#include <string>

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

// One tensor's row of the factor table: the factors it maps, plus the
// tensor's replicated and unreduced axes (which no mapped factor may take).
struct TensorFactorShardings {
  std::map<int64_t, FactorSharding> factors;
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
