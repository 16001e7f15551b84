// Fills a PropagationTrace from the driver's step events: factor tables
// before/after, axis moves (the first operand, then result, that already
// held the new axes is the source), unresolved conflicts and value updates.
#pragma once
#include "propagation/propagation_driver.h"
#include "propagation/propagation_trace.h"

namespace shardscope::propagation {

// An observer appending one TraceStep per event to `trace`.
StepObserver makeTraceRecorder(PropagationDriver& driver, PropagationTrace& trace);

// The moves of one step: for each tensor and factor whose axes grew, each
// new axis with the tensor it came from.
std::vector<TraceAxisMove> axisMoves(const ShardingProjection& before, const ShardingProjection& after);

// The factors on which the tensors of `after` still disagree, with why.
std::vector<TraceConflict> unresolvedConflicts(const ShardingProjection& after, const OpShardingRule& rule,
                                               const std::vector<PropagationDirection>& directions);

}  // namespace shardscope::propagation

namespace shardscope::propagation {

// Keeps a trace replayable when propagation also writes shardings outside
// op-level steps (user-priority propagation drops the `p<N>` priorities of
// every sharding and closes / restores prioritized dimensions between its
// rounds, which no step records). Created after `prepare()`, it snapshots
// every sharding of the module, follows the writes of the steps (attach
// `observer()`), and `finish` appends one final step, op
// "sdy.sharding_normalization", whose updates set every sharding that
// differs from what replaying the earlier steps gives to its final value.
// Nothing is appended when there is no such sharding.
class TraceNormalizer {
 public:
  explicit TraceNormalizer(PropagationDriver& driver);
  StepObserver observer();
  void finish(PropagationTrace& trace);

 private:
  struct Place {
    ir::Value* value = nullptr;  // the value owning the storage, or
    ir::Op* func = nullptr;      // result `index` of this func.func
    int64_t index = -1;
  };
  std::optional<TensorSharding> read(const Place& p) const;
  size_t slotOf(const StepEvent::Write& w) const;

  PropagationDriver& driver_;
  std::vector<Place> places_;                    // in pre-order
  std::vector<std::optional<TensorSharding>> replayed_;  // per place: after the steps so far
  std::unordered_map<const ir::Value*, size_t> valueSlots_;
  std::map<std::pair<const ir::Op*, int64_t>, size_t> funcResultSlots_;
};

}  // namespace shardscope::propagation
