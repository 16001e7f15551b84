#include "graph/overview_map.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include "core/theme_palette.h"

namespace shardscope::widgets {

OverviewMap::OverviewMap(QGraphicsView* main, QWidget* parent)
    : QGraphicsView(main->scene(), parent), main_(main) {
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHints(QPainter::Antialiasing);
  setFrameShape(QFrame::Box);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click or drag to move the view"));
  setFocusPolicy(Qt::NoFocus);
  // Items paint little at this scale; the map is cheap to redraw.
  setOptimizationFlags(QGraphicsView::DontSavePainterState);
  auto repaint = [this] { viewport()->update(); };
  connect(main->horizontalScrollBar(), &QScrollBar::valueChanged, this, repaint);
  connect(main->verticalScrollBar(), &QScrollBar::valueChanged, this, repaint);
  connect(main->horizontalScrollBar(), &QScrollBar::rangeChanged, this, repaint);
  connect(main->verticalScrollBar(), &QScrollBar::rangeChanged, this, repaint);
  if (main->scene())
    connect(main->scene(), &QGraphicsScene::sceneRectChanged, this, &OverviewMap::refit);
}

QRectF OverviewMap::viewportRect() const {
  if (!main_) return {};
  return main_->mapToScene(main_->viewport()->rect()).boundingRect();
}

void OverviewMap::refit() {
  if (!scene()) return;
  setSceneRect(scene()->sceneRect());
  fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  viewport()->update();
}

void OverviewMap::drawBackground(QPainter* p, const QRectF& rect) {
  // The canvas's colours: dark in the dark theme.
  p->fillRect(rect, canvasColors(isDark(scene())).background);
}

void OverviewMap::drawForeground(QPainter* p, const QRectF&) {
  const QRectF r = viewportRect();
  if (r.isEmpty()) return;
  p->save();
  // Shade what is outside the visible area, outline the visible area (at
  // least a few pixels so it stays visible on a tall graph).
  const QRectF all = mapToScene(viewport()->rect()).boundingRect();
  QPainterPath outside;
  outside.addRect(all);
  QPainterPath inside;
  inside.addRect(r);
  p->setPen(Qt::NoPen);
  const bool dark = isDark(scene());
  p->setBrush(dark ? QColor(0, 0, 0, 90) : QColor(0x30, 0x30, 0x50, 40));
  p->drawPath(outside.subtracted(inside));
  const qreal px = 1.0 / std::max<qreal>(transform().m11(), 1e-6);
  QRectF shown = r;
  if (shown.height() < 6 * px) shown.adjust(0, -3 * px, 0, 3 * px);
  if (shown.width() < 6 * px) shown.adjust(-3 * px, 0, 3 * px, 0);
  p->setPen(QPen(QColor(0xd8, 0x1b, 0x60), 2 * px));
  p->setBrush(Qt::NoBrush);
  p->drawRect(shown);
  p->restore();
}

void OverviewMap::moveMainTo(const QPoint& pos) {
  if (main_) main_->centerOn(mapToScene(pos));
}

void OverviewMap::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  dragging_ = true;
  moveMainTo(e->position().toPoint());
  e->accept();
}

void OverviewMap::mouseMoveEvent(QMouseEvent* e) {
  if (dragging_) moveMainTo(e->position().toPoint());
  e->accept();
}

void OverviewMap::mouseReleaseEvent(QMouseEvent* e) {
  dragging_ = false;
  e->accept();
}

void OverviewMap::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  refit();
}

void OverviewMap::wheelEvent(QWheelEvent* e) { e->accept(); }

}  // namespace shardscope::widgets
