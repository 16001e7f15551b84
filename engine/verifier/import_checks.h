// Checks the import passes make before they transform a module, with
// sdy_opt's messages. Kept here so every pass reports them the same way.
#pragma once
#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope {

// `-sdy-sharding-group-import`: all `sdy.sharding_group` ops of one group id
// must sit under the same `sdy.manual_computation` (or all under none) and
// their inputs must have the same shape. Reports the first offending op, e.g.
// `ShardingGroupOps values cannot cross ManualComputationOp boundaries for
// groupId: 7`, and returns false.
bool verifyShardingGroupsForImport(const ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-manual-axes-cleanup`: a manual computation without in/out shardings
// but with manual axes and a non-empty body is rejected
// (`op has manual_axes when there are no in/out shardings and the body is not
// empty. ...`). Returns false after reporting the first one.
bool verifyManualAxesCleanupInput(const ir::Module& module, ir::DiagnosticSink& diags);

}  // namespace shardscope
