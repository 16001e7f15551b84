#include "graph/overlay_places.h"

#include <algorithm>

namespace shardscope::widgets {

std::vector<QRectF> OverlayPlaces::rects() const {
  std::vector<QRectF> out;
  for (const QRectF& r : {legendColumn, changedLabel, overviewMap})
    if (!r.isEmpty()) out.push_back(r);
  return out;
}

QRegion OverlayPlaces::region() const {
  QRegion region;
  for (const QRectF& r : rects()) region += r.toAlignedRect();
  return region;
}

OverlayPlaces OverlayPlaces::inScene(QPointF topLeft, qreal s) const {
  auto map = [&](const QRectF& r) {
    return r.isEmpty() ? QRectF() : QRectF(topLeft + r.topLeft() / s, r.size() / s);
  };
  return {map(legendColumn), map(changedLabel), map(overviewMap)};
}

bool OverlayPlaces::covers(const std::vector<QRectF>& rects) const {
  const std::vector<QRectF> mine = this->rects();
  return std::any_of(rects.begin(), rects.end(), [&](const QRectF& k) {
    return std::any_of(mine.begin(), mine.end(), [&](const QRectF& o) { return o.intersects(k); });
  });
}

OverlayPlaces overlayPlaces(QSizeF viewport, QSizeF legendColumn, QSizeF changedLabel, QSizeF map,
                            MapCorner mapCorner) {
  const qreal vw = viewport.width(), vh = viewport.height();
  OverlayPlaces p;
  // The column is painted 12 px inside the top right; its size counts that
  // margin on both sides, so what it covers is shifted out by it.
  if (!legendColumn.isEmpty())
    p.legendColumn = QRectF(vw - legendColumn.width() + 12, 0, legendColumn.width(),
                            legendColumn.height() - 12);
  // The changed label joins the column (at the bottom left it lay over
  // the graph's lower rows whenever the graph scrolled, where no margin can
  // be kept for it): one band beside or above the graph clears all three.
  if (!changedLabel.isEmpty())
    p.changedLabel = QRectF(
        QPointF(vw - changedLabel.width() - 12, legendColumn.isEmpty() ? 12 : legendColumn.height() - 4),
        changedLabel);
  // The map sits 10 px inside its corner and wants 4 px of clear graph
  // around it.
  if (!map.isEmpty())
    p.overviewMap = QRectF(mapCorner == MapCorner::BottomLeft ? 6 : vw - map.width() - 14,
                           vh - map.height() - 14, map.width() + 8, map.height() + 8);
  return p;
}

}  // namespace shardscope::widgets
