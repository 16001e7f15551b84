// Where the sharding of a value lives, as propagation sees it, and the
// data-flow edges that connect values across region ops.
//
// - op results: the op's `sdy.sharding` (one per result), or the op's own
//   `sharding` for sdy.sharding_constraint / sdy.reshard / sdy.data_flow_edge,
//   `out_sharding` for sdy collectives, `out_shardings` of a manual/named
//   computation without an edge;
// - func.func arguments: `arg_attrs[i]["sdy.sharding"]`;
// - results of while/case/optimization_barrier and block arguments of
//   while/manual/named computations: the `sdy.data_flow_edge` that uses the
//   edge owner, when there is one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::propagation {

inline constexpr const char* kShardingAttr = "sdy.sharding";
// The same, interned: Op::attr finds it by one pointer comparison per
// attribute (hot paths look it up for every value they visit).
extern const ir::AttrName kShardingAttrName;
inline constexpr const char* kShardingRuleAttr = "sdy.sharding_rule";

bool isTerminatorOp(const ir::Op& op);
// while, case, optimization_barrier, manual_computation, named_computation.
bool isDataFlowOp(const ir::Op& op);

// The op whose region holds block argument `v`, or `v`'s defining op.
ir::Op* owningOp(const ir::Value* v);

// The edge owner of a target value of a data-flow op (a while block
// argument maps to the while result; other targets are their own owners),
// or nullptr when `v` is not a target of a data-flow op.
ir::Value* edgeOwnerFromTarget(ir::Value* v);
// The `sdy.data_flow_edge` that is the only user of `owner`, or nullptr.
ir::Op* dataFlowEdgeUser(ir::Value* owner);
// The data-flow edge of the owner of target `v` (nullptr if none).
ir::Op* lookupEdgeOfTarget(ir::Value* v);
// The data-flow edge fed by the use (`user`, operand `index`) (nullptr if none).
ir::Op* lookupEdgeOfSource(ir::Op* user, unsigned index);
// The values flowing into the edge owned by `owner` (edge sources).
std::vector<ir::Value*> edgeSources(ir::Value* owner);
// Targets of a while edge other than its owner: the cond and body arguments.
std::vector<ir::Value*> nonOwnerTargets(ir::Value* owner);

// The manual axes of a manual computation.
std::vector<std::string> manualAxesOf(const ir::Op& mc);
TensorSharding eraseManualAxes(const TensorSharding& s, const std::vector<std::string>& manual);
TensorSharding addFreeAxes(const TensorSharding& outer, const TensorSharding& inner,
                           const std::vector<std::string>& manual);

// The value whose storage holds `v`'s sharding, or nullptr when `v` cannot
// carry one (e.g. a reduce body argument).
ir::Value* shardableValue(ir::Value* v);
std::optional<TensorSharding> getSharding(ir::Value* v);
void setSharding(ir::Value* v, const TensorSharding& s);
// getSharding without a copy: a pointer into an attribute that `keep` holds
// alive (the value's storage may be replaced meanwhile), or nullptr.
const TensorSharding* getShardingRef(ir::Value* v, std::optional<ir::Attribute>& keep);

// `sdy.sharding` of a func.func result.
std::optional<TensorSharding> funcResultSharding(const ir::Op& func, unsigned i);
void setFuncResultSharding(ir::Op& func, unsigned i, const TensorSharding& s);
std::optional<TensorSharding> funcArgSharding(const ir::Op& func, unsigned i);
void setFuncArgSharding(ir::Op& func, unsigned i, const TensorSharding& s);
// Between begin and end (nestable), function argument/result shardings
// written through this file are kept in a side table (read back by every
// getter here) and written to `arg_attrs`/`res_attrs` once, at the outermost
// end: one rebuild per function instead of one per write.
void beginDeferredFuncShardings();
void endDeferredFuncShardings();
// Number of results declared by a func.func (from its terminator or type).
unsigned funcNumResults(const ir::Op& func);
// The terminator of a func.func body, or nullptr.
ir::Op* funcReturn(const ir::Op& func);
std::string symbolName(const ir::Op& op);

// Every dimension empty; open unless `closed`.
TensorSharding fullyReplicated(const MeshRef& mesh, int64_t rank, bool closed);
// No axes in any dimension, replicated or unreduced.
bool hasNoAxes(const TensorSharding& s);
// Rank of a value's type (0 for non-tensors).
int64_t rankOf(const ir::Type& t);

}  // namespace shardscope::propagation
