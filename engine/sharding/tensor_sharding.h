// The sharding of one tensor value: `#sdy.sharding<@mesh, [{"a"}, {}], replicated={"b"}>`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dimension_sharding.h"
#include "mesh.h"

namespace shardscope {

// Either a reference `@name` to an `sdy.mesh` symbol, or an inline mesh
// `mesh<["a"=2]>`.
struct MeshRef {
  std::string name;                // symbol name without '@' (empty if inline)
  std::optional<Mesh> inlineMesh;  // set for inline meshes
  bool operator==(const MeshRef&) const = default;
  bool isInline() const { return inlineMesh.has_value(); }
  std::string str() const;  // "@mesh" or "mesh<[...]>"
  void print(std::string& out) const;  // the same, appended to `out`
};

struct TensorSharding {
  MeshRef mesh;
  std::vector<DimensionSharding> dims;
  AxisRefList replicated;
  AxisRefList unreduced;
  // Reduction kind of the unreduced axes: "sum" (the default, not printed),
  // or e.g. "max" as in `unreduced=max{"a"}`.
  std::string unreducedReduction = "sum";

  bool operator==(const TensorSharding&) const = default;
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  // True when no dimension is sharded and no axis is replicated/unreduced.
  bool isFullyReplicated() const;
  // Every axis used by a dimension, in order.
  AxisRefList dimAxes() const;
  // `<@mesh, [{"a"}, {}], replicated={"b"}>` (the body without `#sdy.sharding`).
  std::string strBody() const;
  void printBody(std::string& out) const;  // the same, appended to `out`
  // `#sdy.sharding<@mesh, ...>`.
  std::string str() const;
  void print(std::string& out) const;  // the same, appended to `out`
  // Open/closed sharding of `rank` dims on `meshName` with nothing sharded.
  static TensorSharding replicatedOf(const MeshRef& mesh, int64_t rank, bool closed);
};

// `#sdy.sharding_per_value<[<@mesh, ...>, ...]>`: one sharding per op result.
struct TensorShardingPerValue {
  std::vector<TensorSharding> shardings;
  bool operator==(const TensorShardingPerValue&) const = default;
  std::string str() const;
  void print(std::string& out) const;  // the same, appended to `out`
};

// Per-device shape of a dimension of global size `dimSize` split `shards` ways:
// ceil(dimSize / shards); `padding` receives shards*local - dimSize.
int64_t localDimSize(int64_t dimSize, int64_t shards, int64_t* padding = nullptr);
// Per-device shape of a tensor with this sharding (dims sharded by their axes;
// replicated/unreduced axes do not change the shape).
std::vector<int64_t> localShape(const std::vector<int64_t>& globalShape,
                                const TensorSharding& sharding, const Mesh& mesh);

}  // namespace shardscope
