// `sdy.propagation_edges`: which propagation step moved which mesh axis from
// which operand or result of an op to which others (the debug record of
// `debug-propagation-edge-sharding`). Written
//
//   #sdy.propagation_edges<[{step-2 = [{"y" = operand-1 -> [operand-0, result-0]}]},
//                           {step-7 = [{"x":(1)2 = result-0 -> [operand-0]}]}]>
//
// Step indices are unique and not negative, and no axis entry has its
// source among its targets or a target twice (checked while reading, as
// MLIR checks the attribute when it builds it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sharding/axis_ref.h"

namespace shardscope::ir {

// `operand-1` / `result-0`: one end of a propagation edge.
struct EdgeValueRef {
  enum class Kind { Operand, Result };
  Kind kind = Kind::Operand;
  int64_t index = 0;
  bool operator==(const EdgeValueRef&) const = default;
  void print(std::string& out) const;
};

// `{"y" = operand-1 -> [operand-0, result-0]}`: axis "y" went from operand 1
// to operand 0 and result 0.
struct AxisPropagationEdges {
  AxisRef axis;
  EdgeValueRef source;
  std::vector<EdgeValueRef> targets;
  bool operator==(const AxisPropagationEdges&) const = default;
};

// `{step-2 = [...]}`: the axes one step moved.
struct PropagationStepEdges {
  int64_t stepIndex = 0;
  std::vector<AxisPropagationEdges> axisEntries;
  bool operator==(const PropagationStepEdges&) const = default;
};

struct PropagationEdgesAttr {
  std::vector<PropagationStepEdges> steps;
  bool operator==(const PropagationEdgesAttr&) const = default;
  // The whole attribute, `#sdy.propagation_edges<[...]>`, appended to `out`.
  void print(std::string& out) const;
  // What is wrong with the steps, in sdy's words, or "" (see above):
  //   [{step-1 = ...}, {step-1 = ...}] -> "propagation edges have duplicate step index: 1"
  std::string problem() const;
};

}  // namespace shardscope::ir
