// Why a collective happens, in words: the op it serves, the factor of that
// op whose shardings disagree, the two shardings and where each came from.
//
// Example (mesh "y"=2):
//   func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = <@m, [{}, {"y"}]>},   // line 3
//                   %arg1: tensor<16x4xf32> {sdy.sharding = <@m, [{}, {}]>})
//   %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@m, [{}, {}]>
//   %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0]           // line 7
// gives
//   all-gather on "y" before %1 = stablehlo.dot_general (line 7): factor k is
//   sharded on "y" in %arg0 but not in %arg1 (%arg0: argument sharding, line 3;
//   %arg1: argument sharding, line 3)
//
// The factor comes from the consumer's sharding rule: the dimension of the
// collected value that the axis leaves (or joins) maps to a factor, and the
// other operands and results of the consumer that map that factor say how
// they shard it. Without a rule (or when no other tensor explains it) the
// cause compares the value's sharding with the one the consumer reads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "comm/value_names.h"
#include "explain/blocked_axes.h"
#include "ir/operation.h"
#include "passes/explicit_reshards/reshard_cause.h"
#include "passes/reshard_to_collectives.h"

namespace shardscope::comm {

// A sharding and where it was decided.
struct ShardingSide {
  std::string value;                    // "%arg0"
  std::optional<TensorSharding> sharding;
  // "argument sharding, line 3", "sharding on the op, line 5",
  // "sharding constraint, line 6", "no sharding (replicated)".
  std::string origin;
  uint32_t line = 0;
};

// Why a tensor's dimension does not hold an axis the collective moves: the
// side of the disagreement that lacks it (or the sharding the consumer
// reads), e.g. %arg1 dimension 0 and "x": "used: "x" already shards
// dimension 1 of %arg1 {"x"}; ...".
struct BlockedAxisNote {
  std::string value;  // "%arg1", "@main result 0"
  int64_t dim = 0;
  explain::AxisBlock block;
  // `why not "x" on %arg1 dimension 0: used: ...`.
  std::string text() const;
};

struct CollectiveCause {
  std::string consumer;  // "%5 = stablehlo.dot_general", "func.return", "" when unused
  uint32_t consumerLine = 0;
  std::string factor;    // "k" when a factor of the consumer's rule is to blame
  ShardingSide source;   // the value the communication starts from
  ShardingSide other;    // the tensor that shards the factor differently (factor causes)
  std::optional<TensorSharding> needed;  // the sharding the consumer reads
  std::string text;      // the sentence
  // For each axis, why the tensor lacking it did not get it (with a module).
  std::vector<BlockedAxisNote> blocked;
};

// Where `v`'s sharding comes from in the module as it is now.
ShardingSide describeSharding(const ir::Value* v, ValueNames& names);

// The cause of a collective of `kind` on `axes` that moves `collected`
// (the value at the start of its chain of reshards and collectives) towards
// `result` (the value at the end of the chain, read by the consumer).
// `recorded`, when given, is what -sdy-insert-explicit-reshards said when it
// inserted the reshard or all-reduce the collective comes from: its reason
// and factor are used instead of guessing them. With `module` (the one the
// values live in), `blocked` says why the side without the axis lacks it.
CollectiveCause explainCollective(passes::CollectiveKind kind, const AxisRefList& axes,
                                  const ir::Value* collected, const ir::Value* result, ValueNames& names,
                                  const passes::ReshardCause* recorded = nullptr,
                                  const ir::Module* module = nullptr);

}  // namespace shardscope::comm
