// Helpers shared by the import/export passes: where a value's sharding lives,
// data-flow edge owners, cloning ops, symbols and the call graph.
//
// These mirror how sdy attaches shardings to values:
//   - op results: the op's `sdy.sharding` (one sharding per result), or the
//     own `sharding` of sdy.sharding_constraint / sdy.reshard /
//     sdy.data_flow_edge, or the out shardings of a manual/named computation;
//   - function arguments: `arg_attrs[i]["sdy.sharding"]`;
//   - block arguments of a manual computation: its in sharding without the
//     manual axes (`[{"a", "b"}]` with manual {"a"} reads as `[{"b"}]`).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/operation.h"

namespace shardscope::passes::util {

inline constexpr const char* kShardingAttr = "sdy.sharding";
inline constexpr const char* kShardingRuleAttr = "sdy.sharding_rule";
inline constexpr const char* kShardingOriginsAttr = "sdy.sharding_origins";
inline constexpr const char* kPropagationEdgesAttr = "sdy.propagation_edges";
inline constexpr const char* kBlockArgShardingOriginsAttr = "sdy.block_arg_sharding_origins";
inline constexpr const char* kResultShardingOriginsAttr = "sdy.result_sharding_origins";
inline constexpr const char* kBlockArgPropagationEdgesAttr = "sdy.block_arg_propagation_edges";
inline constexpr const char* kResultPropagationEdgesAttr = "sdy.result_propagation_edges";
inline constexpr const char* kOriginalFuncNameAttr = "sdy.original_func_name";

// ---- Op kinds ---------------------------------------------------------------

bool isFuncOp(const ir::Op& op);
bool isCallOp(const ir::Op& op);
bool isReturnOp(const ir::Op& op);  // func.return
// Terminators of the regions we meet (func.return, stablehlo.return, sdy.return).
bool isTerminator(const ir::Op& op);
// Ops with data-flow edges: while, case, optimization_barrier, manual and
// named computations.
bool isShardableDataFlowOp(const ir::Op& op);
// False when no call op (isCallOp) exists in any module now, so that passes
// over calls skip their walk (see ir::Op::anyLive); true when some may.
bool mayHaveCalls();
// The same for the ops isShardableDataFlowOp accepts.
bool mayHaveShardableDataFlowOps();
// Elementwise in the sense of sdy's op properties (including
// sdy.propagation_barrier, sdy.sharding_constraint and sdy.reshard).
bool isElementwise(const ir::Op& op);
// Free of side effects (as far as the splitter needs to know).
bool isPure(const ir::Op& op);

// Callee name of a `func.call`, or "".
std::string calleeOf(const ir::Op& call);
void setCallee(ir::Op& call, const std::string& name);
// `sym_name` of a symbol op, or "".
std::string symNameOf(const ir::Op& op);

// ---- Types ------------------------------------------------------------------

// A ranked tensor of rank 0.
bool isScalar(const ir::Value* v);
// A ranked tensor with a static shape (what data-flow edges are added for).
bool isStaticShaped(const ir::Type& t);
int64_t rankOf(const ir::Value* v);

// ---- Shardings on values ----------------------------------------------------

// The manual axes of a manual computation.
std::vector<std::string> manualAxesOf(const ir::Op& mc);
std::vector<TensorSharding> inShardingsOf(const ir::Op& op);   // manual/named computation
std::vector<TensorSharding> outShardingsOf(const ir::Op& op);  // manual/named computation
void setInShardings(ir::Op& op, const std::vector<TensorSharding>& s);
void setOutShardings(ir::Op& op, const std::vector<TensorSharding>& s);

// `sharding` without the manual axes: dims drop their leading manual axes,
// replicated/unreduced drop manual axes.
TensorSharding eraseManualAxes(const TensorSharding& sharding,
                               const std::vector<std::string>& manualAxes);
// Keep the manual prefix of `outer` and append the axes of `newSharding`
// (open/closed and priority from `newSharding`).
TensorSharding addFreeAxesToManualSharding(const TensorSharding& outer,
                                           const TensorSharding& newSharding,
                                           const std::vector<std::string>& manualAxes);
// All dims open and empty.
TensorSharding fullyOpen(const MeshRef& mesh, int64_t rank);

// The op or function whose region defines `v` (block argument) or the
// defining op.
ir::Op* owningOp(const ir::Value* v);

// The block arguments / results of a data-flow op that own edges.
std::vector<ir::Value*> blockArgEdgeOwners(const ir::Op& op);
std::vector<ir::Value*> resultEdgeOwners(const ir::Op& op);
// The edge owner of a target of a data-flow op (a while block argument maps
// to the while result; others map to themselves), or nullptr.
ir::Value* edgeOwnerFromTarget(ir::Value* target);
// The `sdy.data_flow_edge` that is the single user of `owner`, or nullptr.
ir::Op* dataFlowEdgeUser(ir::Value* owner);
// `DataFlowEdgeOp::lookup`: the edge of the owner of target `v`, or nullptr.
ir::Op* lookupDataFlowEdge(ir::Value* v);

// The value a sharding of `v` is stored on (its data-flow edge if any), or
// nullptr when `v` cannot carry a sharding (e.g. a reduce body argument).
ir::Value* shardableValue(ir::Value* v);
std::optional<TensorSharding> getSharding(ir::Value* v);
// Whether the sharding of `v` has unreduced axes (none: false), without
// copying it.
bool hasUnreducedAxes(ir::Value* v);
// Shardings of the data-flow edges of `owners`, open on the common mesh
// where an edge has none; empty when no edge has a sharding.
std::vector<TensorSharding> shardingsFromEdges(const std::vector<ir::Value*>& owners);
void setSharding(ir::Value* v, const TensorSharding& sharding);

// Function argument / result shardings.
std::optional<TensorSharding> funcArgSharding(const ir::Op& func, unsigned i);
std::optional<TensorSharding> funcResultSharding(const ir::Op& func, unsigned i);
void setFuncArgSharding(ir::Op& func, unsigned i, const TensorSharding& s);
void setFuncResultSharding(ir::Op& func, unsigned i, const TensorSharding& s);
unsigned numFuncResults(const ir::Op& func);

// ---- Walking and rewriting shardings ----------------------------------------

// Calls `fn` on every TensorSharding in the module, in op pre-order (function
// arguments, then results, then the op's own attributes in order, nested in
// arrays and dictionaries too), replacing it with what `fn` returns. `fn`
// returns nullopt to leave a sharding as it is (most shardings pass through
// most rewrites unchanged, and a copy of each to compare would cost more
// than the rewrite itself). `fn` must depend on the sharding alone: equal
// shardings held as one object are rewritten once, and share the result.
using ShardingRewrite = std::function<std::optional<TensorSharding>(const TensorSharding&)>;
void transformShardings(ir::Module& module, const ShardingRewrite& fn);
// Same on one attribute (recursively); returns whether anything changed.
bool transformShardingsIn(ir::Attribute& attr, const ShardingRewrite& fn);

// ---- Structure --------------------------------------------------------------

using ValueMap = std::unordered_map<const ir::Value*, ir::Value*>;
// Deep copy of `op` (regions included); operands are remapped through `map`,
// and the new results/block arguments are added to it.
std::unique_ptr<ir::Op> cloneOp(const ir::Op& op, ValueMap& map);

// Remove `op` from its block and destroy it (its results must be unused).
void eraseOp(ir::Op* op);
// Is `a` before `b` in the same block?
bool isBeforeInBlock(const ir::Op* a, const ir::Op* b);

// The top-level symbols of a module by name, as MLIR's SymbolTable: while a
// pass holds one, it adds and erases symbols through it (the table indexes
// them once, so a lookup does not scan the module, and a pass making many
// copies of functions stays linear).
class SymbolTable {
 public:
  explicit SymbolTable(ir::Module& module);
  // Insert `op` (a symbol) into the module body after `after` (or at the end
  // when null), renaming it `name_N` when its name is taken, as MLIR's
  // SymbolTable::insert does (one counter per table). Returns the final name.
  std::string insert(std::unique_ptr<ir::Op> op, ir::Op* after = nullptr);
  // The same at the start of the module body.
  std::string insertFirst(std::unique_ptr<ir::Op> op);
  // Remove `op` (a top-level symbol) from the module and destroy it.
  void erase(ir::Op* op);
  ir::Op* lookup(const std::string& name) const;
  ir::Op* lookupFunc(const std::string& name) const;

 private:
  // Gives `op` a name not yet taken; returns it.
  std::string uniqueName(ir::Op& op);
  ir::Module& module_;
  std::unordered_map<std::string, ir::Op*> byName_;
  unsigned counter_ = 0;
};

// Functions in post-order of the call graph (callees before callers), as
// sdy's iterateFuncs does by default. The depth-first search starts from each
// function in module order, or, with `rootsLastFirst`, from the last function
// first: then the reverse of the result keeps functions that do not call each
// other in module order (`@a`, `@b` stays `@a`, `@b`, where module order gives
// `@b`, `@a`), which `-sdy-pre-order-funcs` needs to be idempotent.
std::vector<ir::Op*> funcsInPostOrder(ir::Module& module, bool rootsLastFirst = false);

// Appends to `out` the ops for which `keep(op)` holds among `root` and all
// ops nested in it, in post-order (nested ops before the op holding them),
// so that erasing them front to back never erases a holder first.
template <typename Keep>
void collectPostOrder(ir::Op& root, const Keep& keep, std::vector<ir::Op*>& out) {
  for (const auto& region : root.regions())
    for (const auto& block : region->blocks())
      for (const auto& inner : block->ops()) collectPostOrder(*inner, keep, out);
  if (keep(root)) out.push_back(&root);
}
// Calls `fn` on every func.call, functions in post-order of the call graph
// (computed once, up front), calls of each function in program order as the
// function is reached (so rewrites of earlier functions are seen).
void walkCalls(ir::Module& module, const std::function<void(ir::Op& call)>& fn);

// `sdy.original_func_name` of a function, else its name.
std::string originalFuncName(const ir::Op& func);
// A copy of `func` marked with its original name, whose calls go to fresh
// copies of their callees (inserted into `symbols`).
std::unique_ptr<ir::Op> cloneFuncRecursively(const ir::Op& func, SymbolTable& symbols);
// Argument / result types from `function_type`.
std::vector<ir::Type> funcArgTypes(const ir::Op& func);
std::vector<ir::Type> funcResultTypes(const ir::Op& func);
// sdy's getFuncArgShardings / getFuncResultShardings: nullopt unless some
// argument (result) has a sharding on a non-maximal mesh; otherwise one per
// argument (result), fully open on that mesh where missing.
std::optional<std::vector<TensorSharding>> funcArgShardings(const ir::Module& module, const ir::Op& func);
std::optional<std::vector<TensorSharding>> funcResultShardings(const ir::Module& module, const ir::Op& func);
void removeFuncResultSharding(ir::Op& func, unsigned i);
void removeFuncArgSharding(ir::Op& func, unsigned i);
// The op's `sdy.sharding` list, if any.
std::optional<std::vector<TensorSharding>> shardingPerValue(const ir::Op& op);
// TensorShardingAttr::isEquivalent: same dimension axes (and unreduced axes),
// open/closed ignored; a missing sharding is fully replicated.
bool isEquivalent(const std::optional<TensorSharding>& a, const std::optional<TensorSharding>& b);
// A sharding on the same mesh and rank with every dimension closed and
// empty (sdy's `getFullyClosedLike`): fully replicated, for good.
TensorSharding fullyClosedLike(const TensorSharding& s);
// The only function, else `@main` (nullptr if neither).
ir::Op* mainFunction(ir::Module& module);
// Move the ops and block arguments of `from`'s first block into a new block
// of `to` (uses of the old arguments go to the new ones).
void moveBody(ir::Region& from, ir::Region& to);
// Adds `sdy.data_flow_edge`s after `owners` (see add-data-flow-edges).
void addDataFlowEdgesFor(const std::vector<ir::Value*>& owners);

}  // namespace shardscope::passes::util
