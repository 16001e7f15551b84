// A mini-map of a QGraphicsView's scene: the whole scene scaled into a small
// view with the main view's visible area drawn as a rectangle; clicking or
// dragging in it moves the main view there. It only views (no selection).
#pragma once
#include <QGraphicsView>
#include <QPointer>

namespace shardscope::widgets {

class OverviewMap : public QGraphicsView {
  Q_OBJECT
 public:
  explicit OverviewMap(QGraphicsView* main, QWidget* parent = nullptr);
  // The main view's visible scene area, as drawn.
  QRectF viewportRect() const;
  // Re-fit after the scene changed size.
  void refit();

 protected:
  void drawBackground(QPainter* p, const QRectF& rect) override;
  void drawForeground(QPainter* p, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;

 private:
  void moveMainTo(const QPoint& pos);
  QPointer<QGraphicsView> main_;
  bool dragging_ = false;
};

}  // namespace shardscope::widgets
