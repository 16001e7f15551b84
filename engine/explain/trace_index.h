// Links a propagation trace back to the module it ran on: which value each
// tensor row of each step stands for, the values' names and their
// shardings before propagation, and the rule of each step.
//
// A trace step labels its tensors `operand-N` / `result-N` of the op at
// pre-order index `opIndex`; its updates name values by TraceValueRef. The
// index rebuilds the driver's view of each op (registered ops: operands and
// results; `sdy.data_flow_edge`: the edge sources and the edge; a
// `func.return` sync: the returned value and the function result) so that
// rows, moves and updates can be followed from value to value.
//
// `input` must be the module as it was when propagation started (same text;
// shardings are read from it as the seeds). The index keeps a reference to
// it and to the trace; both must outlive it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "propagation/propagation_trace.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::explain {

using propagation::PropagationTrace;
using propagation::TraceStep;
using propagation::TraceValueRef;

// A strict ordering of value references, for maps.
struct TraceValueRefLess {
  bool operator()(const TraceValueRef& a, const TraceValueRef& b) const;
};

class TraceIndex {
 public:
  TraceIndex(ir::Module& input, const PropagationTrace& trace);

  ir::Module& module() const { return module_; }
  const PropagationTrace& trace() const { return trace_; }
  const std::vector<ir::Op*>& ops() const { return ops_; }

  // The op of step `step` (the func.func for result syncs), or nullptr.
  ir::Op* stepOp(size_t step) const;
  // The rule of step `step` parsed from its text (nullopt when it has none).
  const std::optional<OpShardingRule>& stepRule(size_t step) const { return rules_.at(step); }
  // The value each tensor row of step `step` stands for (operands first,
  // then results; nullopt when it cannot be told).
  const std::vector<std::optional<TraceValueRef>>& rowValues(size_t step) const { return rows_.at(step); }
  // The row (tensor index) of step `step` standing for `ref`, or nullopt.
  std::optional<size_t> rowOf(size_t step, const TraceValueRef& ref) const;

  // Reference of a value of the input module (nullopt for values of other modules).
  std::optional<TraceValueRef> refOf(const ir::Value* v) const;
  // Function result `index` of `func`.
  std::optional<TraceValueRef> funcResultRef(const ir::Op* func, unsigned index) const;
  // The value behind `ref` (nullptr for function results and unknown refs).
  ir::Value* value(const TraceValueRef& ref) const;
  // `%arg0`, `%3`, `@main result 0`, or `op 5 result 0` when unknown.
  std::string valueName(const TraceValueRef& ref) const;
  // The window's name of `value`: its source name (`%0#1` for a result of
  // an op with several); a data-flow edge added by the import passes by
  // the value it follows.
  static std::string displayName(const ir::Value& value);
  // The value's sharding in the input module (before any step).
  std::optional<TensorSharding> initialSharding(const TraceValueRef& ref) const;
  // The value's sharding after the first `steps` steps (replaying updates).
  std::optional<TensorSharding> shardingAfter(const TraceValueRef& ref, size_t steps) const;
  // Rank of the value's type (-1 when unknown).
  int64_t rankOf(const TraceValueRef& ref) const;
  // Steps (ascending) whose updates wrote `ref`.
  std::vector<size_t> updatesOf(const TraceValueRef& ref) const;

  // Every value that has a sharding at some point (input or trace), in
  // pre-order: function arguments, op results, function results.
  std::vector<TraceValueRef> shardedValues() const;

 private:
  // The name the trace recorder gave `ref`'s row (to match rows by name).
  std::string recordedName(const TraceValueRef& ref) const;
  void indexValues();
  void indexSteps();

  ir::Module& module_;
  const PropagationTrace& trace_;
  std::vector<ir::Op*> ops_;
  std::map<const ir::Op*, int64_t> opIndex_;
  std::map<const ir::Value*, TraceValueRef> refs_;
  std::vector<std::optional<OpShardingRule>> rules_;
  std::vector<std::vector<std::optional<TraceValueRef>>> rows_;
  std::map<TraceValueRef, std::vector<size_t>, TraceValueRefLess> updates_;
};

}  // namespace shardscope::explain
