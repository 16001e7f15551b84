// Logical device meshes: named axes with sizes, optional explicit device ids.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardscope {

// One named axis of a mesh, e.g. "x"=4.
struct MeshAxis {
  std::string name;
  int64_t size = 1;
  bool operator==(const MeshAxis&) const = default;
};

// A logical mesh `<["a"=2, "b"=4], device_ids=[...]>`.
// - empty mesh: no axes, no device ids (a fully replicated placeholder);
// - maximal mesh: no axes and exactly one device id (the op runs on one device).
struct Mesh {
  std::vector<MeshAxis> axes;
  std::vector<int64_t> deviceIds;  // empty means iota (0..N-1)

  bool operator==(const Mesh&) const = default;
  bool empty() const { return axes.empty() && deviceIds.empty(); }
  bool isMaximal() const { return axes.empty() && deviceIds.size() == 1; }
  // Product of all axis sizes (1 for an empty/maximal mesh); INT64_MAX when
  // it does not fit (the verifier rejects such a mesh).
  int64_t totalSize() const;
  // Index of the axis named `name`, or -1.
  int axisIndex(const std::string& name) const;
  // Size of the full axis named `name`, or -1 when absent.
  int64_t axisSize(const std::string& name) const;
  bool hasAxis(const std::string& name) const { return axisIndex(name) >= 0; }
  // True when device ids are present and are not 0..N-1 in order.
  bool hasCustomDeviceIds() const;
  // Device id at linear position `i` (row-major over the axes).
  int64_t deviceIdAt(int64_t i) const;
  // `<["a"=2, "b"=4], device_ids=[...]>`, as sdy prints it.
  std::string str() const;
};

}  // namespace shardscope
