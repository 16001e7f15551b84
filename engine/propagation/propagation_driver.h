// The fixed-point driver: visits ops over the whole module and lets a
// factor propagation strategy update their operands' and results' shardings
// until nothing changes.
//
// Order (as the reference's greedy rewriter with top-down traversal):
// the initial worklist holds every op in pre-order; an op whose neighbours
// changed is pushed on a last-in-first-out stack unless it is already
// pending; the op being processed is never re-queued by its own update.
// When a value's sharding changes, its defining op (or the owner of its
// block) and every user are queued: a data-flow edge for an edge source,
// the parent for a terminator (the callers' result users for `func.return`
// of a called function), the callee's argument users for a call operand;
// then the sharding is copied to the value's sharding group, whose members
// are notified the same way.
//
// Per op: the mesh is the common mesh of its operand and result shardings
// (empty meshes ignored, compared by content); the op is skipped when they
// disagree, when there is none, or when the mesh is maximal. The rule is the
// op's own `sdy.sharding_rule` or the registry's; data-flow edges and
// propagation barriers use an identity rule (barriers with their
// `allowed_direction`). Token-typed edges are skipped.
//
// Around the op pass, the results of the main function (the only function,
// else `@main`) are synced with its `func.return` operands both ways.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/operation.h"
#include "propagation/factor_propagation.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"
#include "propagation/sharding_projection.h"

namespace shardscope::propagation {

// Direction along `factor` of `op`; `rule` is the op's rule (nullptr for
// edges, barriers and function results, which use identity rules).
using GetDirectionFn =
    std::function<PropagationDirection(const ir::Op& op, int64_t factor, const OpShardingRule* rule)>;

// Propagate in every direction.
PropagationDirection propagateAny(const ir::Op&, int64_t, const OpShardingRule*);

// Labels of one fixed-point run, for the trace.
struct RunLabel {
  int64_t userPriority = -1;
  int64_t opPriority = -1;
};

// One op-level propagation that changed something, as observers see it.
struct StepEvent {
  int64_t step = 0;
  ir::Op* op = nullptr;          // the op, or the func.func for result syncs
  bool funcResultSync = false;
  int64_t funcResultIndex = -1;
  std::vector<ir::Value*> operands;  // the values standing for each operand
  std::vector<ir::Value*> results;   // ... and each result (null: a function result)
  const OpShardingRule* rule = nullptr;
  const Mesh* mesh = nullptr;
  const ShardingProjection* before = nullptr;
  const ShardingProjection* after = nullptr;
  std::vector<PropagationDirection> directions;
  const FactorPropagation* strategy = nullptr;
  RunLabel label;
  int64_t iteration = 0;
  int64_t visit = 0;  // worklist pop within the run (0: function result sync)
  // (value, func, index, sharding) written by the step, groups included.
  struct Write {
    ir::Value* value = nullptr;  // null for a function result
    ir::Op* func = nullptr;
    int64_t funcResult = -1;
    TensorSharding sharding;
  };
  std::vector<Write> writes;
};

using StepObserver = std::function<void(const StepEvent&)>;

class PropagationDriver {
 public:
  PropagationDriver(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags);
  ~PropagationDriver();

  // Validates shapes, builds and syncs the sharding groups. False on error.
  // From here to finish() the module's op structure must not change (only
  // attributes may): the pre-order index, the per-op rules and the
  // no-change memo of the runs are kept for the driver's lifetime.
  bool prepare();
  // One full fixed point with `strategy`, directions from `direction`.
  // Returns false when the iteration guard fired.
  bool run(const FactorPropagation& strategy, const GetDirectionFn& direction, RunLabel label = {});
  // Removes registry-created rules (unless kept).
  void finish();

  void addObserver(StepObserver obs) { observers_.push_back(std::move(obs)); }
  ir::Module& module() { return module_; }
  const PropagationOptions& options() const { return options_; }
  int64_t stepCount() const { return nextStep_; }
  // Pre-order index of `op` (valid from prepare() on).
  int64_t opIndex(const ir::Op* op) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ir::Module& module_;
  PropagationOptions options_;
  ir::DiagnosticSink& diags_;
  std::vector<StepObserver> observers_;
  int64_t nextStep_ = 0;
  int64_t runIndex_ = 0;
  friend struct Impl;
};

// A rule mapping dimension d of every tensor to factor d (`numOperands`
// operands, one result), for data-flow edges, barriers and function results.
OpShardingRule identityRule(const ir::Type& type, size_t numOperands = 1);

// Whether sdy treats `op` as elementwise for propagation purposes.
bool isElementwiseOp(const ir::Op& op);

}  // namespace shardscope::propagation
