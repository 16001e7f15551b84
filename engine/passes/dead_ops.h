// Which ops are dead: no side effects and no result used. MLIR's
// canonicalizer erases them before trying any pattern; so do
// `-canonicalize` (canonicalize.h) and eraseTriviallyDeadOps.
// Example: `%1 = sdy.reshard %0 <@mesh, [{"a"}]>` whose %1 has no use.
#pragma once
#include "ir/operation.h"

namespace shardscope::passes {

bool isTriviallyDead(const ir::Op& op);

}  // namespace shardscope::passes
