// Axis arithmetic used by propagation: containment, prefixes, overlaps and
// the "longest prefix that does not overlap" operation on (sub-)axes.
//
// These follow the sdy semantics exactly (a full axis contains every
// sub-axis of it; `"x":(1)2` is a prefix of `"x":(1)4` and of `"x"`), and
// only need the mesh where a full axis' size matters.
#pragma once
#include <cstdint>
#include <optional>

#include "sharding/axis_ref.h"
#include "sharding/mesh.h"

namespace shardscope::propagation {

// Size of `axis` in `mesh` (sub-axis size, or the full axis size).
int64_t axisSize(const AxisRef& axis, const Mesh& mesh);
// Product of sizes of `axes`.
int64_t totalSize(const AxisRefList& axes, const Mesh& mesh);

// Does `a` cover all of `b`? `"x"` contains `"x":(2)2`; `"x":(1)4` contains `"x":(2)2`.
bool contains(const AxisRef& a, const AxisRef& b);
// Same axis, same pre-size, and `b` contains `a`: `"x":(1)2` is a prefix of `"x"`.
bool prefixOf(const AxisRef& a, const AxisRef& b);
bool strictPrefixOf(const AxisRef& a, const AxisRef& b);
// Do `a` and `b` share devices along their axis (a full axis overlaps every part)?
bool overlaps(const AxisRef& a, const AxisRef& b);
// Can both sub-axes appear in one sharding (their ranges nest or are disjoint
// in a way that divides)? `"x":(1)2` and `"x":(1)3` cannot.
bool canCoexist(const AxisRef& a, const AxisRef& b);

// The longest prefix of `a` that does not overlap `b`, or nullopt:
// `"x"` without `"x":(2)2` is `"x":(1)2`; `"x":(2)2` without `"x"` is nothing.
std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a, const AxisRef& b);
// The same, against every axis of `others` in turn.
std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a, const AxisRefList& others);

// Is `a` the minor-most part of `b` (contained in it and ending where it
// ends)? On x=8, `"x":(4)2` is a suffix of `"x"` and of `"x":(2)4`.
bool suffixOf(const AxisRef& a, const AxisRef& b, const Mesh& mesh);

// Does any axis of `a` overlap any axis of `b`?
bool anyOverlap(const AxisRefList& a, const AxisRefList& b);

// The greatest common prefix of two axes (one must be a prefix of the other).
std::optional<AxisRef> greatestCommonPrefix(const AxisRef& a, const AxisRef& b);

// How the first list relates to the second.
enum class PrefixStatus { NotAPrefix, Equal, StrictPrefix };
// `[]` is a strict prefix of any non-empty list; `["a", "b":(1)2]` is a
// strict prefix of `["a", "b"]`; only the last axis may be a sub-axis prefix.
PrefixStatus listPrefixStatus(const AxisRefList& first, const AxisRefList& second);
inline bool isStrictPrefix(const AxisRefList& first, const AxisRefList& second) {
  return listPrefixStatus(first, second) == PrefixStatus::StrictPrefix;
}

// Append `axis` to `list`, merging it with the last axis when they are
// consecutive sub-axes (`"x":(1)2` + `"x":(2)2` -> `"x"` on x=4).
void appendOrMerge(AxisRefList& list, const AxisRef& axis, const Mesh& mesh);

// A sub-axis reference `"name":(pre)size`, canonicalised to the full axis
// when it covers it.
AxisRef makeSubAxis(const std::string& name, int64_t preSize, int64_t size, const Mesh& mesh);

}  // namespace shardscope::propagation
