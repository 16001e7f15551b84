// Stepping through a recorded propagation run by changing only what each
// step changed: the module stays one object (its ops never move, so a view
// laid out once stays valid), and going to step N applies or takes back the
// sharding updates of the steps in between. Each move costs the updates it
// crosses, not a re-parse and a replay of the whole prefix
// (documentAtStep), which on a 100,000-op module takes seconds.
//
//   auto base = api::documentAtStep(input, run, 0);           // a private copy
//   auto tl = api::ShardingTimeline::create(*base->module, run.trace, &error);
//   tl->seek(tl->stepCount());   // the result: every update applied
//   auto c = tl->seek(3);        // back to the state after steps 0..2
//   // c.values: the values whose sharding changed; c.functions: the
//   // functions whose result shardings changed.
//
// Undo is exact: before an update is applied the attributes of the op that
// stores the sharding are kept, and taking the update back restores them.
// Not thread-safe: the module must not be read elsewhere during seek().
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/propagate.h"
#include "ir/operation.h"
#include "propagation/propagation_trace.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::api {

// What one seek() changed.
struct TimelineChanges {
  std::vector<const ir::Value*> values;     // each once, in no particular order
  std::vector<const ir::Op*> functions;     // func.func ops whose result shardings changed
  bool empty() const { return values.empty() && functions.empty(); }
};

class ShardingTimeline {
 public:
  // `module` is the module as it was when the recorded run started (0 steps
  // applied); it must outlive the timeline. Every update of `trace` is
  // resolved here once. nullptr (and `error`) when an update names a value
  // the module does not have.
  static std::unique_ptr<ShardingTimeline> create(ir::Module& module,
                                                  const propagation::PropagationTrace& trace,
                                                  std::string* error = nullptr);

  size_t stepCount() const { return steps_.size(); }
  // Steps applied: 0 (the input) .. stepCount() (the result).
  size_t stepsApplied() const { return applied_; }
  // Move to the state after `steps` steps (clamped to stepCount()).
  TimelineChanges seek(size_t steps);

  // The ops in the trace's numbering (pre-order, module op excluded).
  const std::vector<ir::Op*>& ops() const { return ops_; }
  ir::Op* opAt(int64_t preOrderIndex) const;

  // The sharding a value is given by the last step that updates it (nullopt
  // when no step does). Lets a view reserve room for what a value will show.
  const TensorSharding* finalSharding(const ir::Value* value) const;
  const TensorSharding* finalResultSharding(const ir::Op* func, unsigned index) const;

 private:
  ShardingTimeline() = default;
  // One update, resolved: the value (or function result) and the op whose
  // attributes hold its sharding.
  struct Update {
    ir::Value* value = nullptr;  // null for a function result
    ir::Op* func = nullptr;      // the function, for a function result
    unsigned resultIndex = 0;
    ir::Op* storage = nullptr;   // whose attributes change
    uint32_t storageIndex = 0;   // into written_, when storage is set
    // The values a change of this update reports: notedValues_[notedBegin,
    // notedEnd) (found once: which values share a stored sharding is fixed).
    uint32_t notedBegin = 0, notedEnd = 0;
    const TensorSharding* sharding = nullptr;  // into the trace (kept alive by the caller's run)
    std::vector<ir::Op::Attr> before;          // the storage op's attributes before the update
    bool recorded = false;
  };
  // An op whose attributes updates write: its updates in the order they
  // apply (step, update); and, once every update was applied (the end was
  // reached in order), its attributes at the end. jump() needs both.
  struct WrittenOp {
    ir::Op* op = nullptr;
    std::vector<std::pair<size_t, const Update*>> writes;
    std::vector<ir::Op::Attr> atEnd;
    size_t visit = 0;  // the jump that last visited it (jumps_)
  };
  void apply(Update& u, TimelineChanges& changes);
  void unapply(Update& u, TimelineChanges& changes);
  void note(const Update& u, TimelineChanges& changes) const;
  // A jump over many steps: each op whose attributes the steps crossed
  // write is set once to what it holds at the target (recorded on the way
  // to the end), instead of every update in turn. Many updates write the
  // same op (every argument of a function is in its arg_attrs list:
  // thousands of rewrites of a list of thousands at 100k ops).
  void jump(size_t steps, TimelineChanges& changes);
  static void restoreAttrs(ir::Op& op, const std::vector<ir::Op::Attr>& attrs);

  std::vector<ir::Op*> ops_;
  std::vector<std::vector<Update>> steps_;
  size_t applied_ = 0;
  std::vector<WrittenOp> written_;
  std::vector<const ir::Value*> notedValues_;
  // What a jump across every step reports (sorted, each once).
  std::vector<const ir::Value*> everyNotedValue_;
  std::vector<const ir::Op*> everyNotedFunction_;
  size_t jumps_ = 0;
  bool endRecorded_ = false;
  std::unordered_map<const ir::Value*, const TensorSharding*> finalValues_;
  std::unordered_map<const ir::Op*, std::vector<const TensorSharding*>> finalResults_;
};

// A finished run ready to be stepped through: a private copy of the module
// as the run started (documentAtStep(input, run, 0)) and its timeline,
// moved to the end (the result).
struct SteppedRun {
  std::shared_ptr<const PropagationRun> run;
  std::shared_ptr<Document> doc;
  std::unique_ptr<ShardingTimeline> timeline;
};
// Any thread. nullptr (and `error`) when the run failed or its trace does
// not fit the module.
std::shared_ptr<SteppedRun> prepareSteppedRun(const Document& input,
                                              std::shared_ptr<const PropagationRun> run,
                                              std::string* error = nullptr);

}  // namespace shardscope::api
