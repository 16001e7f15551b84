#include "graph/group_header_text.h"

#include <QObject>

namespace shardscope::widgets {

QString expandedGroupHeader(const QString& title, const QFontMetricsF& metrics, qreal width) {
  const QString head = QStringLiteral("▾ ") + title;
  const QString withHint = head + QObject::tr("   (double-click here to collapse)");
  if (metrics.horizontalAdvance(withHint) <= width) return withHint;
  return metrics.elidedText(head, Qt::ElideRight, width);
}

}  // namespace shardscope::widgets
