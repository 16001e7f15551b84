// Why `-sdy-insert-explicit-reshards` inserted a communication op.
//
// Every `sdy.reshard`, `sdy.all_reduce`, `sdy.replicated_to_unreduced` and
// `sdy.sharded_to_unreduced` the pass inserts gets one ReshardCause: the op
// it was inserted for, which operand or result of that op, the factor whose
// shardings disagreed (when a factor is to blame) and the sharding before and
// after. Example: with mesh "x"=4, "y"=2,
//
//   %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = <@mesh, [{"x"}, {}]>}
//        // %arg0 8x32 [{"x"}, {"y"}], %arg1 32x16 [{"y"}, {"x"}]
//
// makes the pass reshard %arg0 to [{}, {"y"}] ("x" stays on factor j of
// the larger %arg1) and records
//   {kind = Reshard, op = the dot, site = Operand, index = 0, factor = 0 ("i"),
//    factorAxesBefore = ["x"], factorAxesAfter = [],
//    from = [{"x"}, {"y"}], to = [{}, {"y"}],
//    reason = "operand 0 of stablehlo.dot has factor i sharded on {"x"}, but
//              the op is computed with i on {}"}
// and likewise for the reshard of the result back to [{"x"}, {}] and the
// all-reduce over "y" (factor k).
//
// The `comm-cost` report turns these into its "cause" field. The pointers
// are valid until the module is changed again (a later -canonicalize may
// erase an inserted op).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::passes {

struct ReshardCause {
  // What was inserted.
  enum class Kind { Reshard, AllReduce, ReplicatedToUnreduced, ShardedToUnreduced };
  // Which edge of `op` the inserted op sits on.
  enum class Site {
    Operand,  // before `op`, on operand `index`
    Result,   // after `op`, on result `index`
  };

  Kind kind = Kind::Reshard;
  // The inserted op (its single result is the new value).
  const ir::Op* inserted = nullptr;
  // The op the reshard or collective was inserted for: the consumer of an
  // operand reshard, the producer of a result reshard or all-reduce, the
  // `func.return` of a function result, the `func.call` of a call operand,
  // the data-flow op (while, case, manual computation, ...) of an edge;
  // nullptr for collectives that replace an `sdy.reshard` of the input
  // (unreduced_collectives.h), which is erased.
  const ir::Op* op = nullptr;
  Site site = Site::Operand;
  unsigned index = 0;
  // The factor of `op`'s sharding rule whose shardings disagreed, when one
  // does (-1 otherwise: e.g. a function result, or an unreduced axis that a
  // consumer does not keep).
  int64_t factor = -1;
  std::string factorName;  // "i", "j", ... as printed in the rule
  // The factor's axes on this operand/result before, and the axes the op
  // computes it in (for an all-reduce: the reduction factor's axes).
  AxisRefList factorAxesBefore;
  AxisRefList factorAxesAfter;
  // The value's sharding before (nullopt: it had none) and after.
  std::optional<TensorSharding> from;
  std::optional<TensorSharding> to;
  // For all-reduces and unreduced collectives: the axes reduced, or made
  // unreduced.
  AxisRefList axes;
  // One sentence in words.
  std::string reason;

  // A cause with the fields every inserted op has (factor fields empty).
  static ReshardCause make(Kind kind, const ir::Op* inserted, const ir::Op* op, Site site, unsigned index,
                           std::optional<TensorSharding> from, std::optional<TensorSharding> to,
                           std::string reason) {
    ReshardCause c;
    c.kind = kind;
    c.inserted = inserted;
    c.op = op;
    c.site = site;
    c.index = index;
    c.from = std::move(from);
    c.to = std::move(to);
    c.reason = std::move(reason);
    return c;
  }
};

using ReshardCauses = std::vector<ReshardCause>;

// Short names for logs and reports: "reshard", "all-reduce", ...
const char* reshardCauseKindName(ReshardCause::Kind kind);

}  // namespace shardscope::passes
