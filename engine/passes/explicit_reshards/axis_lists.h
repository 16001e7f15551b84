// Operations on lists of (sub-)axes that choosing a common factor sharding
// needs beyond propagation's axis algebra: the order candidates are ranked
// in, prefixes of whole lists, cutting a list where it meets other axes, and
// set difference.
//
// Example, mesh "x"=4, "y"=2: cutting ["y", "x"] where it meets ["x":(2)2]
// gives ["y", "x":(1)2]; the set difference {"x", "y"} - {"x":(1)2} is
// {"x":(2)2, "y"}.
#pragma once
#include <vector>

#include "sharding/axis_ref.h"
#include "sharding/mesh.h"

namespace shardscope::passes::explicit_reshards {

// The axes each factor of an op's rule is computed in, by factor index.
using AxesPerFactor = std::vector<AxisRefList>;

// A total order on axis references that does not depend on the mesh: by
// name, then a full axis before the sub-axes of it that do not start at its
// beginning, then by (pre-size, size). It only breaks ties between
// candidates that are otherwise equal, but it must be this order so that
// the same candidate wins as in sdy_opt.
bool axisLess(const AxisRef& a, const AxisRef& b);
// Shorter lists first, then `axisLess` on the first axis that differs.
bool axisListLess(const AxisRefList& a, const AxisRefList& b);

// Is `a` a strict prefix of `b`, its last axis possibly a prefix sub-axis
// of the axis of `b` at that place? `[]` is a strict prefix of any
// non-empty list; ["x":(1)2] of ["x"] and of ["x", "y"].
bool isStrictListPrefix(const AxisRefList& a, const AxisRefList& b);

// Cut `axes` to its longest prefix that overlaps none of `others` (the
// first overlapping axis is kept in part when a prefix of it is free).
// Returns whether anything was cut.
bool cutAtOverlap(AxisRefList& axes, const AxisRefList& others);

// The parts of the axes of `a` that are in none of `b`, in the order of `a`.
AxisRefList axisSetDiff(const AxisRefList& a, const AxisRefList& b, const Mesh& mesh);

// Sort in mesh order and merge consecutive sub-axes.
void sortAndMerge(AxisRefList& axes, const Mesh& mesh);

// The greatest common prefix of two lists (`["x", "y"]` and `["x", "z"]`
// give `["x"]`; `["x":(1)2]` and `["x"]` give `["x":(1)2]`).
AxisRefList commonListPrefix(const AxisRefList& a, const AxisRefList& b);

}  // namespace shardscope::passes::explicit_reshards
