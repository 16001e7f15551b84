// The "explain" features: where each axis of each sharding came from
// (`debug-sharding-origins` -> `sdy.sharding_origins`) and which step moved
// which axis between which operands/results of each op
// (`debug-propagation-edge-sharding` -> `sdy.propagation_edges`).
//
// Origins are seeded from sharding constraints (`constraint_N`), manual
// computation edges (`mc_N_input: I`, `mc_N_output: I`), function arguments
// (`input: I`) and results (`output: I`); a new axis inherits its source's
// origin, and a value holding its own origin shows `"self"`. Edges: for
// each factor whose axes grew on a tensor, the source is the first operand
// (then result) that already held the new axes; each new axis gives an
// edge {source, target, step}, the earliest step per (axis, source, target).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "propagation/propagation_driver.h"

namespace shardscope::propagation {

class ShardingDebugInfo {
 public:
  ShardingDebugInfo(ir::Module& module, bool origins, bool edges);
  bool enabled() const { return origins_ || edges_; }
  // Seed origins and number steps after those already on the module.
  void prepare();
  void onStep(const StepEvent& e);
  // Write the attributes onto the module.
  void save();

  // One end of an edge: operand or result `index` of the op.
  struct Node {
    bool result = false;
    int64_t index = 0;
    auto operator<=>(const Node&) const = default;
  };
  struct Edge {
    Node source, target;
    int64_t step = 0;
  };
  struct Origin {
    std::string kind;  // "input" | "output" | "constraint" | "mc_input" | "mc_output"
    int64_t index = 0;
    int64_t sourceId = 0;
    std::string str() const;
  };

 private:
  using AxisKey = std::string;  // AxisRef::str()
  struct AxisOrigins {
    std::vector<std::pair<AxisRef, Origin>> entries;  // insertion order
    const Origin* find(const AxisRef& a) const;
    void add(const AxisRef& a, const Origin& o);
  };
  void seed(const std::optional<TensorSharding>& s, const Origin& o, ir::Value* v);
  Origin lookup(ir::Value* v, const AxisRef& a);

  ir::Module& module_;
  bool origins_, edges_;
  int64_t step_ = 0;
  std::vector<ir::Value*> originOrder_;
  std::map<ir::Value*, AxisOrigins> valueOrigins_;
  std::vector<ir::Op*> edgeOpOrder_;
  std::map<ir::Op*, std::vector<std::pair<AxisRef, Edge>>> opEdges_;
  std::map<ir::Op*, std::map<int64_t, std::vector<std::pair<AxisRef, Edge>>>> funcResultEdges_;
};

}  // namespace shardscope::propagation
