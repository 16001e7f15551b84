// Where the graph view's overlays sit over its canvas: the one place that
// says so, for what covers the graph now (GraphView::coveredByOverlays, the
// view's tests) and for where Fit may put the graph (it asks the same
// question for a viewport it is about to show, in scene units).
//
// Three overlays, in viewport pixels:
// - the legend column at the top right (the mesh legend, the communication
//   legend under it), drawn 12 px from the edges;
// - the what-if "changed" label under the legend column, 8 px below it
//   (alone: at the top right), right-aligned, 12 px from the edge;
// - the overview map at the bottom right (or, where that would cover a
//   node, the bottom left), 10 px from the edges (kept 4 px clear of the
//   graph around it).
//
//   OverlayPlaces p = overlayPlaces({800, 600}, {224, 124}, {260, 30}, {200, 80});
//   p.legendColumn  // QRectF(588, 0, 224, 112): the column without its outer margin
//   p.changedLabel  // QRectF(528, 120, 260, 30)
//   p.overviewMap   // QRectF(586, 506, 208, 88)
//   p.inScene(QPointF(100, 50), 0.5)  // the same three, over the scene from (100, 50) at scale 0.5
//   overlayPlaces({800, 600}, {}, {}, {200, 80}, MapCorner::BottomLeft).overviewMap
//                     // QRectF(6, 506, 208, 88)
#pragma once
#include <QPointF>
#include <QRectF>
#include <QRegion>
#include <QSizeF>
#include <vector>

namespace shardscope::widgets {

struct OverlayPlaces {
  QRectF legendColumn, changedLabel, overviewMap;  // empty: not shown

  std::vector<QRectF> rects() const;
  // The top-right stack: the legend column and the changed label under it.
  QRectF column() const { return legendColumn | changedLabel; }
  QRegion region() const;
  // The same places over the scene, for a viewport whose top-left shows
  // scene point `topLeft` at scale `s`.
  OverlayPlaces inScene(QPointF topLeft, qreal s) const;
  // True when one of them intersects one of `rects` (same coordinates).
  bool covers(const std::vector<QRectF>& rects) const;
};

enum class MapCorner { BottomRight, BottomLeft };

// The places for a viewport of `viewport` pixels; a size that is empty
// means the overlay is not shown. `legendColumn` is the column with its
// margins (GraphView's legend size), `map` the overview map's own size.
OverlayPlaces overlayPlaces(QSizeF viewport, QSizeF legendColumn, QSizeF changedLabel, QSizeF map,
                            MapCorner mapCorner = MapCorner::BottomRight);

}  // namespace shardscope::widgets
