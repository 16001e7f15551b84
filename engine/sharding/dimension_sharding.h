// How one tensor dimension is sharded: axes major to minor, open/closed, priority.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "axis_ref.h"

namespace shardscope {

// `{"a", "b"}` closed, `{"a", ?}` open, `{}` closed & replicated, `{?}`
// open & unsharded, `{"a"}p1` with priority 1.
struct DimensionSharding {
  AxisRefList axes;
  bool closed = true;
  std::optional<int64_t> priority;

  bool operator==(const DimensionSharding&) const = default;
  bool isOpen() const { return !closed; }
  int64_t shardCount(const Mesh& mesh) const { return axesSize(axes, mesh); }
  std::string str() const;
  void print(std::string& out) const;  // the same, appended to `out`
};

}  // namespace shardscope
