// `-canonicalize`: MLIR's greedy canonicalizer over the sdy ops' patterns.
//
// Every op is visited (nested ops first, then in program order); a dead op
// without side effects is erased, else the patterns registered for its name
// are tried in order until one rewrites it. Ops a rewrite creates or
// touches, and the producers of erased ops, are visited again, until nothing
// changes. The patterns live one concept per file:
//   canonicalize_collectives.cpp        no-op collectives, all-slice of
//                                       all-gather, reduce-scatter fusion, ...
//   canonicalize_reshards.cpp           reshard of reshard, common reshards
//   canonicalize_manual_computation.cpp unused inputs, trivial computations
// Example: `%1 = sdy.all_gather [{}, {}] %0 out_sharding=<...>` is replaced
// by %0 (gathering nothing is no communication).
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::passes::canonical {

class Driver;

// What a pattern may do to the IR, so that the driver sees every change.
class Rewriter {
 public:
  explicit Rewriter(Driver& driver) : driver_(driver) {}
  // Redirect the uses of each result of `op` to `replacements` and erase it.
  void replaceOp(ir::Op* op, const std::vector<ir::Value*>& replacements);
  void replaceOp(ir::Op* op, ir::Value* replacement) { replaceOp(op, std::vector{replacement}); }
  // Erase `op` (its results must be unused).
  void eraseOp(ir::Op* op);
  // Insert a new op before `before`; it is visited later.
  ir::Op* insertBefore(ir::Op* before, std::unique_ptr<ir::Op> op);
  ir::Op* insertAfter(ir::Op* after, std::unique_ptr<ir::Op> op);
  // Visit `op` again (after changing it in place).
  void revisit(ir::Op* op);
  // Make operand `index` of `op` `value`; the op and the old operand's
  // producer (which may now be dead) are visited again.
  void setOperand(ir::Op* op, unsigned index, ir::Value* value);
  // The mesh a sharding names (inline or by symbol), or nullptr.
  const Mesh* meshOf(const TensorSharding& sharding) const;

 private:
  Driver& driver_;
};

// A rewrite of ops named `opName`; true when it changed something. `label`
// is sdy's pattern label ("sdy-collective", "sdy-reshard"), by which
// `-canonicalize="enable-patterns=..."` picks patterns; "" for none.
struct Pattern {
  std::string_view opName;
  bool (*apply)(ir::Op& op, Rewriter& rewriter);
  std::string_view label = {};
};
inline constexpr std::string_view kCollectiveLabel = "sdy-collective";
inline constexpr std::string_view kReshardLabel = "sdy-reshard";

void addCollectivePatterns(std::vector<Pattern>& out);
void addReshardPatterns(std::vector<Pattern>& out);
void addManualComputationPatterns(std::vector<Pattern>& out);

// What the driver does besides the patterns. MLIR's greedy driver also
// gathers and merges constants (constant_uniquing.h) unless told not to.
struct GreedyConfig {
  bool cseConstants = false;
};

// Runs `patterns` over the module as MLIR's applyPatternsGreedily does (see
// above), at most ten sweeps.
bool applyPatternsGreedily(ir::Module& module, const std::vector<Pattern>& patterns,
                           const GreedyConfig& config = {});

// Runs the canonicalizer on the whole module. With `enabledLabels`, only the
// patterns of those labels run (dead ops are still erased), as MLIR's
// `enable-patterns` option does.
bool canonicalize(ir::Module& module, ir::DiagnosticSink& diags,
                  const std::vector<std::string>& enabledLabels = {});

}  // namespace shardscope::passes::canonical
