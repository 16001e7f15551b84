// References to a mesh axis or to a sub-axis of it: "x" or "x":(m)k.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mesh.h"
#include "sharding/checked_size.h"

namespace shardscope {

// A sub-axis "x":(pre)size: the slice of axis x of size `size` whose
// pre-size (product of the more-major slices) is `pre`. With x=8,
// "x":(1)2 is the major-most 2 and "x":(4)2 the minor-most 2.
struct SubAxisInfo {
  int64_t preSize = 1;
  int64_t size = 1;
  bool operator==(const SubAxisInfo&) const = default;
  int64_t nextPreSize() const { return saturatingMul(preSize, size); }
};

struct AxisRef {
  std::string name;
  std::optional<SubAxisInfo> subAxis;

  bool operator==(const AxisRef&) const = default;
  bool isSubAxis() const { return subAxis.has_value(); }
  // Size of this reference in `mesh` (the sub-axis size or the full axis size).
  int64_t size(const Mesh& mesh) const;
  // Pre-size (1 for a full axis).
  int64_t preSize() const { return subAxis ? subAxis->preSize : 1; }
  // `"x"` or `"x":(2)4`.
  std::string str() const;
  void print(std::string& out) const;  // the same, appended to `out`

  // Does this reference cover `other` (same axis, `other` inside this range)?
  bool contains(const AxisRef& other, const Mesh& mesh) const;
  // Do the two references share any devices along their axis?
  bool overlaps(const AxisRef& other, const Mesh& mesh) const;
  // Is this a prefix of `other`: same axis, same pre-size, size divides? ("x":(1)2 prefix of "x":(1)4 and of "x")
  bool prefixOf(const AxisRef& other, const Mesh& mesh) const;
  bool strictPrefixOf(const AxisRef& other, const Mesh& mesh) const;
  // Can `this` followed by `other` be merged into one reference ("x":(1)2 + "x":(2)2 -> "x":(1)4 or "x")?
  bool canMerge(const AxisRef& other) const;
  AxisRef merge(const AxisRef& other, const Mesh& mesh) const;
  // A reference canonicalized against the mesh: a sub-axis covering the whole axis becomes the full axis.
  AxisRef canonical(const Mesh& mesh) const;
  // Strict weak ordering in mesh order: axis index, then pre-size, then size.
  bool lessInMesh(const AxisRef& other, const Mesh& mesh) const;
};

using AxisRefList = std::vector<AxisRef>;

// Product of sizes of `axes` in `mesh`.
int64_t axesSize(const AxisRefList& axes, const Mesh& mesh);
// Merge adjacent mergeable sub-axes in place ("x":(1)2, "x":(2)2 -> "x").
AxisRefList mergeAdjacent(const AxisRefList& axes, const Mesh& mesh);
// Sort in mesh order and merge adjacent sub-axes (canonical form of replicated/unreduced lists).
AxisRefList canonicalAxisSet(AxisRefList axes, const Mesh& mesh);
// `{"a", "b":(1)2}` (braces, comma-separated).
std::string strAxisList(const AxisRefList& axes);
void printAxisList(const AxisRefList& axes, std::string& out);

}  // namespace shardscope
