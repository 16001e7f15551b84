#include "graph_view.h"

#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QShortcut>
#include <QStyleOptionGraphicsItem>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "document_state.h"

namespace shardscope::widgets {

namespace {

enum ItemKind { NodeKind = 1, EdgeKind = 2, ClusterKind = 3 };
constexpr int kKindKey = 0;
constexpr int kIndexKey = 1;

class NodeItem : public QGraphicsItem {
 public:
  NodeItem(const GraphNodeInfo& info, const QRectF& rect) : info_(info), size_(rect.size()) {
    setPos(rect.topLeft());
    doc_ = makeNodeDocument(info.html);
    setFlag(ItemIsSelectable);
    setCursor(Qt::PointingHandCursor);
    setToolTip(info.searchText);
    setZValue(info.kind == GraphNodeInfo::ValueNode ? 3 : 2);
  }
  QRectF boundingRect() const override { return QRectF(QPointF(-4, -4), size_ + QSizeF(8, 8)); }
  void setHighlighted(bool on) {
    if (on != highlighted_) {
      highlighted_ = on;
      update();
    }
  }
  void setMatched(bool on) {
    if (on != matched_) {
      matched_ = on;
      update();
    }
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    const QRectF r(QPointF(0, 0), size_);
    QColor fill(0xee, 0xf4, 0xfb);
    qreal radius = 5;
    switch (info_.kind) {
      case GraphNodeInfo::OpNode:
        fill = info_.op && info_.op->dialect() == "sdy" ? QColor(0xff, 0xf3, 0xe0)
                                                        : QColor(0xe9, 0xf1, 0xfb);
        break;
      case GraphNodeInfo::ArgumentNode:
        fill = QColor(0xe8, 0xf5, 0xe9);
        radius = std::min(r.height() / 2, 14.0);
        break;
      case GraphNodeInfo::ValueNode:
        fill = Qt::white;
        radius = 3;
        break;
      case GraphNodeInfo::ReturnNode:
        fill = QColor(0xec, 0xec, 0xec);
        break;
      case GraphNodeInfo::TerminatorNode:
        fill = QColor(0xf4, 0xf4, 0xf4);
        break;
    }
    if (matched_) fill = QColor(0xff, 0xf1, 0x76);
    QPen pen(info_.border, info_.kind == GraphNodeInfo::ValueNode ? 1.6 : 1.2);
    if (info_.dashed) pen.setStyle(Qt::DashLine);
    if (highlighted_ || isSelected()) {
      p->setPen(QPen(QColor(0xd8, 0x1b, 0x60, 90), 7));
      p->setBrush(Qt::NoBrush);
      p->drawRoundedRect(r, radius, radius);
      pen.setWidthF(2.2);
      pen.setColor(QColor(0xd8, 0x1b, 0x60));
    }
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
    p->save();
    const QSizeF ds = doc_->size();
    p->translate((r.width() - ds.width()) / 2, (r.height() - ds.height()) / 2);
    doc_->drawContents(p);
    p->restore();
  }
  const GraphNodeInfo& info() const { return info_; }

 private:
  GraphNodeInfo info_;
  QSizeF size_;
  std::unique_ptr<QTextDocument> doc_;
  bool highlighted_ = false;
  bool matched_ = false;
};

class EdgeItem : public QGraphicsPathItem {
 public:
  EdgeItem(const GraphEdgeInfo& info, const GraphLayout::Edge& e) : info_(info) {
    QPainterPath path;
    if (!e.bezier.empty()) {
      path.moveTo(e.bezier[0]);
      for (size_t i = 1; i + 2 < e.bezier.size(); i += 3)
        path.cubicTo(e.bezier[i], e.bezier[i + 1], e.bezier[i + 2]);
      if (e.hasArrow) {
        hasArrow_ = true;
        arrowBase_ = e.bezier.back();
        arrowTip_ = e.arrowTip;
      }
    }
    setPath(path);
    setZValue(1);
    applyPen();
  }
  void setHighlighted(bool on) {
    if (on == highlighted_) return;
    highlighted_ = on;
    applyPen();
  }
  QRectF boundingRect() const override {
    return QGraphicsPathItem::boundingRect().united(arrowRect()).adjusted(-4, -4, 4, 4);
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override {
    if (info_.axisColors.size() > 1) {
      // Nested stripes, one per axis: the major axis outermost.
      const size_t n = info_.axisColors.size();
      const qreal base = pen().widthF() + 1.4;
      p->setBrush(Qt::NoBrush);
      for (size_t i = 0; i < n; ++i) {
        QPen stripe = pen();
        stripe.setColor(highlighted_ ? info_.axisColors[i].darker(130) : info_.axisColors[i]);
        stripe.setWidthF(base * qreal(n - i) / qreal(n) * 1.5);
        if (i > 0)
          stripe.setStyle(
              Qt::SolidLine);  // inner stripes solid: only the outer one shows open dims
        p->setPen(stripe);
        p->drawPath(path());
      }
    } else {
      QGraphicsPathItem::paint(p, o, w);
    }
    if (!hasArrow_) return;
    const QLineF line(arrowTip_, arrowBase_);
    const qreal len = std::max<qreal>(line.length(), 6);
    const QPointF dir = (arrowBase_ - arrowTip_) / len;
    const QPointF normal(-dir.y(), dir.x());
    const qreal width = highlighted_ ? 5 : 3.6;
    QPolygonF arrow;
    arrow << arrowTip_ << arrowTip_ + dir * len + normal * width
          << arrowTip_ + dir * len - normal * width;
    p->setPen(Qt::NoPen);
    p->setBrush(pen().color());
    p->drawPolygon(arrow);
  }

 private:
  QRectF arrowRect() const {
    return hasArrow_ ? QRectF(arrowTip_, arrowBase_).normalized().adjusted(-6, -6, 6, 6) : QRectF();
  }
  void applyPen() {
    QColor c = info_.color;
    qreal w = info_.width;
    if (highlighted_) {
      w += 1.8;
      c = c.darker(130);
    }
    QPen pen(c, w);
    pen.setCapStyle(Qt::RoundCap);
    if (info_.dashed) pen.setDashPattern({4, 2.5});
    if (info_.dotted) pen.setDashPattern({1, 2.5});
    setPen(pen);
    update();
  }
  GraphEdgeInfo info_;
  bool hasArrow_ = false;
  bool highlighted_ = false;
  QPointF arrowBase_, arrowTip_;
};

class ClusterItem : public QGraphicsItem {
 public:
  ClusterItem(const GraphLayout::Cluster& c, const QString& label, int depth)
      : c_(c), label_(label), depth_(depth) {
    setZValue(-10 + depth);
  }
  QRectF boundingRect() const override { return c_.rect.adjusted(-2, -2, 2, 2); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    const int shade = std::max(0xe6, 0xf6 - 8 * depth_);
    p->setPen(QPen(QColor(0xa8, 0xa8, 0xb8), 1, Qt::SolidLine));
    p->setBrush(QColor(shade, shade, std::min(255, shade + 6)));
    p->drawRoundedRect(c_.rect, 8, 8);
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(11);
    f.setItalic(true);
    p->setFont(f);
    p->setPen(QColor(0x44, 0x44, 0x66));
    QRectF lr = c_.labelRect.isValid() ? c_.labelRect
                                       : QRectF(c_.rect.topLeft() + QPointF(8, 2), QSizeF(200, 16));
    lr.setLeft(c_.rect.left() + 8);
    lr.setWidth(c_.rect.width() - 16);
    p->drawText(lr, Qt::AlignLeft | Qt::AlignVCenter, label_);
  }

 private:
  GraphLayout::Cluster c_;
  QString label_;
  int depth_;
};

class Canvas : public QGraphicsView {
 public:
  explicit Canvas(GraphScene* scene, QWidget* parent)
      : QGraphicsView(scene, parent), scene_(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(Qt::white);
  }
  bool fullLegend = false;
  bool userZoomed = false;  // the user zoomed: do not refit on resize
  // Size of the legend overlay with its margins in viewport pixels (empty without one).
  QSizeF legendSize() const {
    if (!scene_->hasGraph() || scene_->model().legend.mesh.axes.empty()) return {0, 0};
    Legend legend = scene_->model().legend;
    legend.showNotation = fullLegend;
    return legend.size() + QSizeF(24, 24);
  }
  void zoomBy(qreal f) {
    const qreal current = transform().m11();
    const qreal target = std::clamp(current * f, 0.05, 8.0);
    userZoomed = true;
    scale(target / current, target / current);
  }

 protected:
  void wheelEvent(QWheelEvent* e) override {
    if (e->modifiers() & Qt::ControlModifier) {
      zoomBy(std::pow(1.0015, e->angleDelta().y()));
      e->accept();
      return;
    }
    QGraphicsView::wheelEvent(e);
  }
  void drawForeground(QPainter* p, const QRectF&) override {
    if (!scene_->hasGraph() || scene_->model().legend.mesh.axes.empty()) return;
    Legend legend = scene_->model().legend;
    legend.showNotation = fullLegend;
    p->save();
    p->resetTransform();
    const QSizeF s = legend.size();
    legend.paint(*p, QPointF(viewport()->width() - s.width() - 12, 12));
    p->restore();
  }

 private:
  GraphScene* scene_;
};

}  // namespace

// --- GraphScene -------------------------------------------------------------

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
  connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

void GraphScene::clearGraph() {
  clear();
  nodeItems_.clear();
  edgeItems_.clear();
  model_ = GraphModel();
  keepAlive_.reset();
  graphRect_ = QRectF();
}

void GraphScene::setGraph(GraphModel model, const GraphLayout& layout,
                          std::shared_ptr<const void> keepAlive) {
  clearGraph();
  model_ = std::move(model);
  keepAlive_ = std::move(keepAlive);
  const size_t nNodes = std::min(model_.nodes.size(), layout.nodes.size());
  // Cluster depth for shading.
  std::vector<int> depth(model_.input.clusters.size(), 0);
  for (size_t i = 0; i < model_.input.clusters.size(); ++i) {
    int p = model_.input.clusters[i].parent;
    depth[i] = p >= 0 ? depth[static_cast<size_t>(p)] + 1 : 0;
  }
  for (size_t i = 0; i < layout.clusters.size() && i < model_.input.clusters.size(); ++i) {
    auto* item = new ClusterItem(layout.clusters[i], model_.input.clusters[i].label, depth[i]);
    item->setData(kKindKey, ClusterKind);
    addItem(item);
  }
  for (size_t i = 0; i < nNodes; ++i) {
    auto* item = new NodeItem(model_.nodes[i], layout.nodes[i].rect);
    item->setData(kKindKey, NodeKind);
    item->setData(kIndexKey, static_cast<int>(i));
    addItem(item);
    nodeItems_.push_back(item);
  }
  for (size_t i = 0; i < layout.edges.size() && i < model_.edges.size(); ++i) {
    auto* item = new EdgeItem(model_.edges[i], layout.edges[i]);
    item->setData(kKindKey, EdgeKind);
    item->setData(kIndexKey, static_cast<int>(i));
    addItem(item);
    edgeItems_.push_back(item);
  }
  graphRect_ = layout.bounds.adjusted(-8, -8, 8, 8);
  setSceneRect(graphRect_.adjusted(-40, -40, 40, 40));
}

QRectF GraphScene::nodeRect(int node) const {
  if (node < 0 || static_cast<size_t>(node) >= nodeItems_.size()) return {};
  return nodeItems_[static_cast<size_t>(node)]->sceneBoundingRect();
}

int GraphScene::nodeOf(const ir::Op* op) const {
  for (size_t i = 0; i < model_.nodes.size(); ++i)
    if (model_.nodes[i].op == op && model_.nodes[i].kind != GraphNodeInfo::ValueNode)
      return static_cast<int>(i);
  return -1;
}

void GraphScene::setHighlight(const ir::Op* op, const ir::Value* value) {
  settingHighlight_ = true;
  clearSelection();
  for (size_t i = 0; i < nodeItems_.size(); ++i) {
    const GraphNodeInfo& n = model_.nodes[i];
    const bool on =
        (op && n.op == op) || (value && n.value == value && n.kind == GraphNodeInfo::ValueNode);
    static_cast<NodeItem*>(nodeItems_[i])->setHighlighted(on);
  }
  for (size_t i = 0; i < edgeItems_.size(); ++i)
    static_cast<EdgeItem*>(edgeItems_[i])->setHighlighted(value && model_.edges[i].value == value);
  settingHighlight_ = false;
}

std::vector<int> GraphScene::search(const QString& text) {
  std::vector<int> out;
  for (size_t i = 0; i < nodeItems_.size(); ++i) {
    const bool match =
        !text.isEmpty() && model_.nodes[i].searchText.contains(text, Qt::CaseInsensitive);
    static_cast<NodeItem*>(nodeItems_[i])->setMatched(match);
    if (match) out.push_back(static_cast<int>(i));
  }
  std::sort(out.begin(), out.end(), [&](int a, int b) {
    const QPointF pa = nodeRect(a).topLeft(), pb = nodeRect(b).topLeft();
    return pa.y() != pb.y() ? pa.y() < pb.y() : pa.x() < pb.x();
  });
  return out;
}

void GraphScene::onSelectionChanged() {
  if (settingHighlight_) return;
  const auto items = selectedItems();
  if (items.isEmpty()) return;
  QGraphicsItem* item = items.front();
  if (item->data(kKindKey).toInt() != NodeKind) return;
  const GraphNodeInfo& n = model_.nodes[static_cast<size_t>(item->data(kIndexKey).toInt())];
  if (n.kind == GraphNodeInfo::ValueNode || n.kind == GraphNodeInfo::ArgumentNode)
    emit valueActivated(n.value);
  else
    emit opActivated(n.op);
}

Picture GraphScene::picture() const {
  Picture pic;
  if (model_.empty()) return pic;
  const QRectF src = graphRect_;
  const bool withLegend = !model_.legend.mesh.axes.empty();
  const QSizeF ls = withLegend ? model_.legend.size() : QSizeF();
  pic.size =
      QSizeF(src.width() + (withLegend ? ls.width() + 24 : 0), std::max(src.height(), ls.height()));
  auto* self = const_cast<GraphScene*>(this);
  const Legend legend = model_.legend;
  pic.paint = [self, src, legend, withLegend, ls](QPainter& p) {
    // Hide selection decorations for export.
    self->render(&p, QRectF(QPointF(0, 0), src.size()), src);
    if (withLegend) legend.paint(p, QPointF(src.width() + 24, 0));
    (void)ls;
  };
  return pic;
}

// --- GraphView --------------------------------------------------------------

GraphView::GraphView(DocumentState* state, QWidget* parent)
    : QWidget(parent), state_(state), scene_(new GraphScene(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* bar = new QWidget(this);
  auto* barLayout = new QHBoxLayout(bar);
  barLayout->setContentsMargins(6, 3, 6, 3);
  title_ = new QLabel(bar);
  barLayout->addWidget(title_, 1);
  auto addButton = [&](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(bar);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, slot);
    barLayout->addWidget(b);
  };
  addButton(QStringLiteral("−"), tr("Zoom out (Ctrl+-)"), &GraphView::zoomOut);
  addButton(QStringLiteral("+"), tr("Zoom in (Ctrl++)"), &GraphView::zoomIn);
  addButton(tr("Fit"), tr("Fit the graph (Ctrl+0)"), &GraphView::zoomFit);
  addButton(tr("Find"), tr("Search ops, values and shardings (Ctrl+F)"), &GraphView::showSearch);
  {
    auto* b = new QToolButton(bar);
    b->setText(tr("Legend"));
    b->setToolTip(tr("Show the notation key in the legend"));
    b->setAutoRaise(true);
    b->setCheckable(true);
    connect(b, &QToolButton::toggled, this, [this](bool on) {
      static_cast<Canvas*>(view_)->fullLegend = on;
      view_->viewport()->update();
    });
    barLayout->addWidget(b);
  }
  layout->addWidget(bar);

  searchBar_ = new QWidget(this);
  auto* sl = new QHBoxLayout(searchBar_);
  sl->setContentsMargins(6, 2, 6, 2);
  searchEdit_ = new QLineEdit(searchBar_);
  searchEdit_->setPlaceholderText(tr("Find op, value (%3) or axis (\"x\")…"));
  searchEdit_->setClearButtonEnabled(true);
  searchInfo_ = new QLabel(searchBar_);
  sl->addWidget(searchEdit_, 1);
  sl->addWidget(searchInfo_);
  searchBar_->hide();
  layout->addWidget(searchBar_);
  connect(searchEdit_, &QLineEdit::textChanged, this, [this] { runSearch(false); });
  connect(searchEdit_, &QLineEdit::returnPressed, this, [this] { runSearch(true); });
  auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), searchEdit_, nullptr, nullptr,
                            Qt::WidgetShortcut);
  connect(esc, &QShortcut::activated, this, [this] {
    searchEdit_->clear();
    searchBar_->hide();
    view_->setFocus();
  });

  view_ = new Canvas(scene_, this);
  layout->addWidget(view_, 1);

  // Progress overlay over the canvas.
  overlay_ = new QWidget(view_);
  overlay_->setAutoFillBackground(true);
  auto* ol = new QVBoxLayout(overlay_);
  overlayText_ = new QLabel(overlay_);
  overlayText_->setAlignment(Qt::AlignCenter);
  progress_ = new QProgressBar(overlay_);
  progress_->setRange(0, 100);
  cancelButton_ = new QPushButton(tr("Cancel"), overlay_);
  ol->addWidget(overlayText_);
  ol->addWidget(progress_);
  ol->addWidget(cancelButton_, 0, Qt::AlignHCenter);
  overlay_->resize(300, 110);
  overlay_->hide();
  connect(cancelButton_, &QPushButton::clicked, this, &GraphView::cancelLayout);

  auto shortcut = [&](const QKeySequence& k, auto slot) {
    auto* s = new QShortcut(k, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(s, &QShortcut::activated, this, slot);
  };
  shortcut(QKeySequence::Find, &GraphView::showSearch);
  shortcut(QKeySequence::ZoomIn, &GraphView::zoomIn);
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), &GraphView::zoomIn);
  shortcut(QKeySequence::ZoomOut, &GraphView::zoomOut);
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_0), &GraphView::zoomFit);

  connect(&watcher_, &QFutureWatcher<GraphLayout>::progressValueChanged, progress_,
          &QProgressBar::setValue);
  connect(&watcher_, &QFutureWatcher<GraphLayout>::finished, this, [this] {
    const quint64 req = watcher_.property("request").toULongLong();
    if (watcher_.isCanceled() || watcher_.future().resultCount() == 0) {
      if (req == request_)
        setOverlay(tr("Layout cancelled. Select a function to lay it out again."), false);
      emit layoutFinished(false);
      return;
    }
    applyLayout(req, watcher_.result());
  });

  connect(scene_, &GraphScene::opActivated, state_, &DocumentState::selectOp);
  connect(scene_, &GraphScene::valueActivated, state_, &DocumentState::selectValue);
  connect(state_, &DocumentState::functionChanged, this, &GraphView::relayout);
  // The scene keeps the document it shows alive, so on a document change it
  // stays up until the new layout replaces it (no flicker when stepping).
  connect(state_, &DocumentState::selectionChanged, this, &GraphView::updateHighlight);
}

GraphView::~GraphView() {
  watcher_.disconnect(this);
  if (watcher_.isRunning()) {
    watcher_.cancel();
    watcher_.waitForFinished();
  }
}

bool GraphView::isLayoutRunning() const { return watcher_.isRunning(); }

void GraphView::setOverlay(const QString& text, bool busy) {
  if (text.isEmpty()) {
    overlay_->hide();
    return;
  }
  overlayText_->setText(text);
  progress_->setVisible(busy);
  cancelButton_->setVisible(busy);
  overlay_->adjustSize();
  overlay_->resize(std::max(320, overlay_->width()), overlay_->height());
  overlay_->move((view_->width() - overlay_->width()) / 2,
                 (view_->height() - overlay_->height()) / 3);
  overlay_->show();
  overlay_->raise();
}

void GraphView::relayout() {
  const quint64 req = ++request_;
  const ir::Module* module = state_->module();
  const ir::Op* func = state_->function();
  if (!module || !func) {
    scene_->clearGraph();
    title_->setText(module ? tr("No function") : tr("No module (see Diagnostics)"));
    if (state_->document() && !module)
      setOverlay(tr("%1 could not be parsed.\nThe errors are listed under Diagnostics and "
                    "underlined in the source.")
                     .arg(state_->fileName()),
                 false);
    else
      setOverlay(module ? tr("This module has no func.func to draw.") : QString(), false);
    emit layoutFinished(false);
    return;
  }
  pending_ = buildGraph(*module, *func);
  pendingDoc_ = state_->document();
  title_->setText(tr("<b>%1</b> — %2 ops, %3 nodes")
                      .arg(pending_.title.toHtmlEscaped())
                      .arg(std::count_if(
                          pending_.nodes.begin(), pending_.nodes.end(),
                          [](const GraphNodeInfo& n) { return n.kind == GraphNodeInfo::OpNode; }))
                      .arg(pending_.nodes.size()));
  if (sync_) {
    applyLayout(req, layoutGraph(pending_.input));
    return;
  }
  if (watcher_.isRunning()) watcher_.cancel();  // its result will be dropped (stale request)
  const GraphInput input = pending_.input;
  QFuture<GraphLayout> future = QtConcurrent::run([input](QPromise<GraphLayout>& promise) {
    promise.setProgressRange(0, 100);
    GraphLayout l = layoutGraph(
        input, [&](int p) { promise.setProgressValue(p); }, [&] { return promise.isCanceled(); });
    if (!l.canceled && !promise.isCanceled()) promise.addResult(std::move(l));
  });
  watcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  progress_->setValue(0);
  setOverlay(tr("Laying out %1 with Graphviz…").arg(pending_.title), true);
  watcher_.setFuture(future);
}

void GraphView::applyLayout(quint64 request, const GraphLayout& layout) {
  if (request != request_) return;  // stale
  setOverlay(QString(), false);
  if (!layout.error.isEmpty()) {
    scene_->clearGraph();
    setOverlay(layout.error, false);
    emit layoutFinished(false);
    return;
  }
  scene_->setGraph(std::move(pending_), layout, std::move(pendingDoc_));
  pending_ = GraphModel();
  pendingDoc_.reset();
  updateHighlight();
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  if (searchBar_->isVisible()) runSearch(false);
  emit layoutFinished(true);
}

void GraphView::cancelLayout() {
  if (watcher_.isRunning()) watcher_.cancel();
  ++request_;
  setOverlay(tr("Layout cancelled. Select a function to lay it out again."), false);
}

void GraphView::updateHighlight() {
  scene_->setHighlight(state_->selectedOp(), state_->selectedValue());
  int node = scene_->nodeOf(state_->selectedOp());
  if (node >= 0 && isVisible()) view_->ensureVisible(scene_->nodeRect(node), 40, 40);
}

void GraphView::zoomIn() { static_cast<Canvas*>(view_)->zoomBy(1.25); }
void GraphView::zoomOut() { static_cast<Canvas*>(view_)->zoomBy(0.8); }

void GraphView::zoomFit() {
  if (!scene_->hasGraph()) return;
  // Fit the graph into the viewport next to (or below) the legend overlay
  // in the top-right corner, whichever leaves the graph larger. The view's
  // scene rect is widened (or heightened) by the legend's share so that
  // centring keeps the graph clear of it.
  auto* canvas = static_cast<Canvas*>(view_);
  const QRectF r = scene_->sceneRect();
  const QSizeF legend = canvas->legendSize();
  const qreal vw = std::max(50, view_->viewport()->width());
  const qreal vh = std::max(50, view_->viewport()->height());
  const qreal sRight = std::min(std::max(20.0, vw - legend.width()) / r.width(), vh / r.height());
  const qreal sBelow = std::min(vw / r.width(), std::max(20.0, vh - legend.height()) / r.height());
  const qreal s = std::min(std::max(sRight, sBelow), 1.5);  // never magnify beyond 1.5x
  const QRectF padded = sRight >= sBelow ? r.adjusted(0, 0, legend.width() / s, 0)
                                         : r.adjusted(0, -legend.height() / s, 0, 0);
  view_->setSceneRect(padded);
  view_->setTransform(QTransform::fromScale(s, s));
  canvas->userZoomed = false;
  view_->centerOn(padded.center());
}

void GraphView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  if (overlay_->isVisible())
    overlay_->move((view_->width() - overlay_->width()) / 2,
                   (view_->height() - overlay_->height()) / 3);
}

void GraphView::showSearch() {
  searchBar_->show();
  searchEdit_->setFocus();
  searchEdit_->selectAll();
}

void GraphView::runSearch(bool next) {
  const QString text = searchEdit_->text().trimmed();
  if (!next) {
    matches_ = scene_->search(text);
    matchPos_ = -1;
  }
  if (text.isEmpty()) {
    searchInfo_->clear();
    return;
  }
  if (matches_.empty()) {
    searchInfo_->setText(tr("no match"));
    return;
  }
  matchPos_ = (matchPos_ + 1) % static_cast<int>(matches_.size());
  const int node = matches_[static_cast<size_t>(matchPos_)];
  view_->centerOn(scene_->nodeRect(node).center());
  searchInfo_->setText(tr("%1 of %2").arg(matchPos_ + 1).arg(matches_.size()));
}

}  // namespace shardscope::widgets
