// Sub-axis arithmetic the reshard planner needs beyond propagation's
// (propagation/axis_algebra.h): the overlap of two references, what is left
// of one after another, and splitting references so that two shardings
// speak of the same pieces of each axis.
//
// Example (mesh "x"=8): in [{"x"}] and out [{"x":(1)2}, {"x":(2)4}] are
// aligned to in [{"x":(1)2, "x":(2)4}], after which every piece of "x" is
// one key that either side has whole or not at all.
#pragma once
#include <cstdint>
#include <list>
#include <optional>
#include <vector>

#include "sharding/axis_ref.h"
#include "sharding/mesh.h"

namespace shardscope::passes::reshard {

// A dimension's axes while the plan is built: pieces are taken from the
// front, the back and the middle.
using AxisSeq = std::list<AxisRef>;

// `"name":(pre)size` as written (no folding into the full axis).
AxisRef subAxis(const std::string& name, int64_t preSize, int64_t size);
// The pre-size just past `axis`: pre*size for a sub-axis, the axis size for a full one.
int64_t endPreSize(const AxisRef& axis, const Mesh& mesh);
// The order sdy sorts axis references in (by name, then a full axis before
// the sub-axes that do not start at 1, then by pre-size and size).
bool sdyLess(const AxisRef& a, const AxisRef& b);

// The common part of `a` and `b` ("x":(1)4 and "x":(2)4 share "x":(2)2).
std::optional<AxisRef> overlapOf(const AxisRef& a, const AxisRef& b);
// What of `a` lies past the end of `b` ("x" past "x":(1)2 on x=4 is "x":(2)2).
std::optional<AxisRef> suffixWithoutOverlap(const AxisRef& a, const AxisRef& b, const Mesh& mesh);

// Split every axis of `axes` that partly overlaps an axis of `sortedOthers`
// (sorted with sdyLess) into the overlapping piece and what is left before
// and after it.
void alignSubAxes(AxisSeq& axes, const std::vector<AxisRef>& sortedOthers, const Mesh& mesh);
void alignSubAxes(std::vector<AxisSeq>& axesPerDim, const std::vector<AxisRef>& sortedOthers,
                  const Mesh& mesh);
// Align both sides against each other.
void alignSubAxes(std::vector<AxisSeq>& in, std::vector<AxisSeq>& out, const Mesh& mesh);

// Append `axis`, merged into the last axis when they are consecutive
// pieces of one axis.
template <typename Container>
void appendMerged(Container& list, const AxisRef& axis, const Mesh& mesh) {
  if (!list.empty() && list.back().canMerge(axis))
    list.back() = list.back().merge(axis, mesh);
  else
    list.push_back(axis);
}

}  // namespace shardscope::passes::reshard
