// The verifier of the sdy collectives (collective_ops.h), with sdy_opt's
// messages. Two stages, as in MLIR: what every collective shares (checked
// with the op itself), then what each kind's axes do to the operand's
// sharding (checked with the other symbol users, once everything else is
// valid).
//
// Example: with `%arg0` sharded `[{"y"}, {"x"}]`,
//   sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>
// gives `'sdy.all_gather' op can't apply gathering axis "y" to operand
// sharding on dimension 1`: only a suffix of a dimension's axes can be
// gathered.
#pragma once
#include <optional>

#include "ir/operation.h"
#include "verifier/verifier.h"
#include "verifier/verifier_support.h"

namespace shardscope {

// The operand of a collective as the checks see it.
struct CollectiveOperand {
  std::optional<TensorSharding> sharding;  // nullopt: the operand has none
  ir::SourceLoc loc;                       // where it is defined (for notes)
};

// Stage 1: an operand sharding unless the kind allows none, a valid
// `out_sharding` for the result type, one mesh on both sides (but for
// collective_permute), equal ranks.
VerifyResult verifyCollectiveCommon(const ir::Op& op, const CollectiveOperand& operand,
                                    const verifier_support::MeshTable& meshes,
                                    const BoundManualAxes& bound);

// Stage 2: the kind's axes are valid and applying them to the operand's
// sharding gives `out_sharding`.
VerifyResult verifyCollectiveKind(const ir::Op& op, const CollectiveOperand& operand,
                                  const verifier_support::MeshTable& meshes);

}  // namespace shardscope
