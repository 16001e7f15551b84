// Ops that run on one device: some result is sharded on a maximal mesh
// (`sdy.mesh @dev1 = <[], device_ids=[1]>`, sharding `<@dev1, []>`).
//
// Their tensor operands are brought to that device (through the fully
// replicated sharding on the module's global mesh, the first mesh with
// axes, unless they are there already), their results are sent back
// (to replicated on the global mesh, then to the sharding each result had
// when it was not a single-device one), and every tensor result is marked
// `<@dev1, []>` (a token result: replicated on the global mesh).
//
// Example, global mesh @mesh = <["x"=2]>:
//   %0 = stablehlo.negate %arg0 {sdy.sharding = <@dev1, []>}  // %arg0 [{"x"}]
// becomes
//   %r0 = sdy.reshard %arg0 <@mesh, [{}]>
//   %r1 = sdy.reshard %r0 <@dev1, []>
//   %0 = stablehlo.negate %r1 {sdy.sharding = <@dev1, []>}
//   %1 = sdy.reshard %0 <@mesh, [{}]>
//
// Results on two different single devices are an error:
// `'op' op has conflicting single-device result shardings`.
#pragma once
#include "ir/diagnostics.h"
#include "passes/explicit_reshards/op_mesh.h"
#include "passes/explicit_reshards/reshard_insertion.h"

namespace shardscope::passes::explicit_reshards {

// Does some result sharding live on a maximal mesh?
bool isSingleDeviceOp(const MeshTable& meshes, const OptionalShardings& results);

// Returns false after reporting to `diags` when the results disagree on the device.
bool reshardSingleDeviceOp(ir::Op* op, const OptionalShardings& results, ir::DiagnosticSink& diags,
                           const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
