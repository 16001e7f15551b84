#include "core/region_label.h"

namespace shardscope::widgets {

QString regionLabel(const ir::Op& op, unsigned index) {
  if (op.is("stablehlo.while")) return index == 0 ? QStringLiteral("cond") : QStringLiteral("do");
  if (op.is("stablehlo.if"))
    return index == 0 ? QStringLiteral("true branch") : QStringLiteral("false branch");
  if (op.is("stablehlo.case")) return QStringLiteral("branch %1").arg(index);
  if (op.is("stablehlo.reduce") || op.is("stablehlo.reduce_window") || op.is("stablehlo.scatter") ||
      op.is("stablehlo.select_and_scatter") || op.is("stablehlo.all_reduce") ||
      op.is("stablehlo.reduce_scatter"))
    return QStringLiteral("reducer");
  if (op.is("stablehlo.sort")) return QStringLiteral("comparator");
  if (op.numRegions() == 1) return QStringLiteral("body");
  return QStringLiteral("region %1").arg(index);
}

}  // namespace shardscope::widgets
