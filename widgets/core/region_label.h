// Short names for the regions of a region op, shared by the op tree and the
// graph's region clusters: `stablehlo.while` has "cond" (region 0) and "do"
// (region 1), `stablehlo.case` "branch 0", "branch 1", ..., a reduce its
// "reducer", any other one-region op its "body".
#pragma once
#include <QString>

#include "ir/operation.h"

namespace shardscope::widgets {

// Short label for region `index` of `op`.
QString regionLabel(const ir::Op& op, unsigned index);

}  // namespace shardscope::widgets
