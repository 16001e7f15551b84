#include "graph/graph_change_marks.h"

#include <QEvent>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsObject>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <map>
#include <unordered_set>

#include "core/document_state.h"
#include "graph/graph_view.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

QFont badgeFont() {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(10);
  f.setBold(true);
  return f;
}

// One layer of marks: halos (under the graph's items) or badges (on top).
class MarksItem : public QGraphicsObject {
 public:
  enum Layer { Halos, Badges };
  explicit MarksItem(Layer layer) : layer_(layer) {
    setZValue(layer == Halos ? 0.5 : 50);  // edges are at 1, nodes at 2-3
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
  }
  void addEdge(const QPainterPath& path) {
    if (path.isEmpty()) return;
    edges_.push_back(path);
    grow(path.boundingRect().adjusted(-8, -8, 8, 8));
  }
  void addNode(const QRectF& rect, const QString& badge) {
    nodes_.push_back({rect, badge});
    if (layer_ == Halos) {
      grow(rect.adjusted(-8, -8, 8, 8));
    } else {
      grow(badgeRect(rect, badge).adjusted(-2, -2, 2, 2));
    }
  }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    const CanvasColors& cc = canvasColors(isDark(scene()));
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    if (layer_ == Halos) {
      QPen pen(cc.changedHalo, 9);
      pen.setCapStyle(Qt::RoundCap);
      pen.setJoinStyle(Qt::RoundJoin);
      p->setPen(pen);
      p->setBrush(Qt::NoBrush);
      for (const QPainterPath& e : edges_) p->drawPath(e);
      pen.setWidthF(7);
      p->setPen(pen);
      for (const auto& n : nodes_) p->drawRoundedRect(n.rect.adjusted(-3, -3, 3, 3), 7, 7);
      // A crisp outline on top of the glow.
      p->setPen(QPen(cc.changed, 1.6));
      for (const auto& n : nodes_) p->drawRoundedRect(n.rect.adjusted(-4.5, -4.5, 4.5, 4.5), 8, 8);
    } else {
      p->setFont(badgeFont());
      for (const auto& n : nodes_) {
        const QRectF b = badgeRect(n.rect, n.badge);
        p->setPen(QPen(cc.background, 1.2));
        p->setBrush(cc.changed);
        p->drawRoundedRect(b, b.height() / 2, b.height() / 2);
        p->setPen(QColor(0x20, 0x16, 0x00));  // dark on amber: readable in both themes
        p->drawText(b, Qt::AlignCenter, n.badge);
      }
    }
    p->restore();
  }
  // The badge: a pill over the node's top-right corner.
  static QRectF badgeRect(const QRectF& node, const QString& text) {
    const QFontMetricsF fm(badgeFont());
    const qreal w = fm.horizontalAdvance(text) + 10, h = fm.height() + 2;
    return QRectF(node.right() - w + 6, node.top() - h + 5, w, h);
  }

 private:
  void grow(const QRectF& r) {
    prepareGeometryChange();
    bounds_ = bounds_.isNull() ? r : bounds_.united(r);
  }
  struct Node {
    QRectF rect;
    QString badge;
  };
  Layer layer_;
  std::vector<QPainterPath> edges_;
  std::vector<Node> nodes_;
  QRectF bounds_;
};

// The top-level op (a direct child of `func`'s body) holding `op`.
const ir::Op* topLevelOp(const ir::Op* op, const ir::Op* func) {
  while (op) {
    const ir::Block* b = op->parentBlock();
    const ir::Op* parent = b ? b->parentOp() : nullptr;
    if (parent == func) return op;
    op = parent;
  }
  return nullptr;
}

}  // namespace

GraphChangeMarks::GraphChangeMarks(DocumentState* state, GraphView* view)
    : QObject(view),
      state_(state),
      view_(view),
      viewport_(view->view()->viewport()),
      legend_(new QLabel(viewport_)) {
  setObjectName(QStringLiteral("graphChangeMarks"));
  legend_->setObjectName(QStringLiteral("changedLegend"));
  legend_->setTextFormat(Qt::RichText);
  legend_->setAttribute(Qt::WA_TransparentForMouseEvents);
  legend_->hide();
  view_->setChangedLabel(legend_);
  viewport_->installEventFilter(this);
  connect(state_, &DocumentState::changedValuesChanged, this, &GraphChangeMarks::refresh);
  connect(view_, &GraphView::layoutFinished, this, &GraphChangeMarks::refresh);
}

GraphChangeMarks::~GraphChangeMarks() {
  if (viewport_) viewport_->removeEventFilter(this);
  clearItems();
}

void GraphChangeMarks::clearItems() {
  // The scene deletes its items when it is rebuilt: these may be gone already.
  delete halos_.data();
  delete badges_.data();
}

void GraphChangeMarks::refresh() {
  // Fit keeps the graph clear of the label (overlay_places.h): it is told
  // when the label comes, goes or changes size.
  const QSize labelBefore = legend_->isHidden() ? QSize() : legend_->size();
  struct TellFit {
    GraphChangeMarks* marks;
    QSize before;
    ~TellFit() {
      const QSize now = marks->legend_->isHidden() ? QSize() : marks->legend_->size();
      if (now != before) marks->view_->legendChanged();
    }
  } tellFit{this, labelBefore};
  clearItems();
  const bool hadMarks = !nodes_.empty() || !edges_.empty();
  nodes_.clear();
  edges_.clear();
  keys_.clear();
  GraphScene* scene = view_->scene();
  const QSet<QString>& changed = state_->changedValues();
  if (changed.isEmpty() || !scene->hasGraph()) {
    legend_->hide();
    if (hadMarks) emit marksChanged();
    return;
  }
  const GraphModel& m = scene->model();
  auto* halos = new MarksItem(MarksItem::Halos);
  auto* badges = new MarksItem(MarksItem::Badges);
  auto changedKey = [&](const ir::Value* v) -> QString {
    if (!v) return {};
    QString k = DocumentState::valueKey(*v);
    return changed.contains(k) ? k : QString();
  };
  // Values drawn as chips / argument nodes (an op's result without a chip,
  // e.g. one that lost its sharding, marks its op instead).
  std::unordered_set<const ir::Value*> chips;
  for (const GraphNodeInfo& n : m.nodes)
    if ((n.kind == GraphNodeInfo::ValueNode || n.kind == GraphNodeInfo::ArgumentNode) && n.value)
      chips.insert(n.value);
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const GraphNodeInfo& n = m.nodes[i];
    QStringList hit;
    if (n.kind == GraphNodeInfo::ValueNode || n.kind == GraphNodeInfo::ArgumentNode) {
      const QString k = changedKey(n.value);
      if (!k.isEmpty()) hit << k;
    } else if (n.kind == GraphNodeInfo::OpNode && n.op) {
      for (const ir::Value* r : n.op->results())
        if (!chips.count(r))
          if (const QString k = changedKey(r); !k.isEmpty()) hit << k;
    }
    if (hit.isEmpty()) continue;
    const QRectF r = scene->nodeRect(static_cast<int>(i)).adjusted(4, 4, -4, -4);  // no margin
    halos->addNode(r, {});
    badges->addNode(r, tr("changed"));
    nodes_.push_back(static_cast<int>(i));
    for (const QString& k : hit) keys_.insert(k);
  }
  for (size_t i = 0; i < m.edges.size(); ++i) {
    const QString k = changedKey(m.edges[i].value);
    if (k.isEmpty()) continue;
    halos->addEdge(scene->edgePath(static_cast<int>(i)));
    edges_.push_back(static_cast<int>(i));
    keys_.insert(k);
  }
  // Collapsed groups of a large function: how many changed values inside.
  if (m.grouping && state_->function()) {
    const ir::Op* func = state_->function();
    std::map<int, int> perGroup;
    const_cast<ir::Op*>(func)->walk([&](ir::Op& op) {
      if (&op == func) return;
      int count = 0;
      for (const ir::Value* r : op.results()) count += !changedKey(r).isEmpty();
      for (const auto& region : op.regions())
        for (const auto& block : region->blocks())
          for (const ir::Value* a : block->arguments()) count += !changedKey(a).isEmpty();
      if (count == 0) return;
      const int g = m.grouping->groupOfOp(topLevelOp(&op, func));
      if (g >= 0) perGroup[g] += count;
    });
    // Groups nest: the leaves inside one shown group add up on its box.
    std::map<int, int> perNode;
    for (const auto& [g, count] : perGroup)
      if (const int node = scene->shownNodeOfGroup(g); node >= 0) perNode[node] += count;
    for (const auto& [node, count] : perNode) {
      if (m.nodes[static_cast<size_t>(node)].expanded) continue;  // inner nodes marked
      const QRectF r = scene->nodeRect(node).adjusted(4, 4, -4, -4);
      halos->addNode(r, {});
      badges->addNode(r, tr("%n changed", nullptr, count));
      nodes_.push_back(node);
    }
  }
  std::sort(nodes_.begin(), nodes_.end());
  if (nodes_.empty() && edges_.empty()) {
    delete halos;
    delete badges;
    legend_->hide();
    if (hadMarks) emit marksChanged();
    return;
  }
  scene->addItem(halos);
  scene->addItem(badges);
  halos_ = halos;
  badges_ = badges;
  // Two lines: the label sits in the legend column, about as wide as the
  // legends above it.
  legend_->setText(tr("<span style=\"color:%1\">&#9632;</span> <b>changed</b> — sharding changed "
                      "<br>in the last what-if re-run (%n value(s))",
                      nullptr, static_cast<int>(changed.size()))
                       .arg(canvasColors(isDark(scene)).changed.name()));
  styleLegend();
  legend_->adjustSize();
  placeLegend();
  legend_->show();
  legend_->raise();
  emit marksChanged();
}

void GraphChangeMarks::styleLegend() {
  const CanvasColors& cc = canvasColors(isDark(view_->scene()));
  legend_->setStyleSheet(
      QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3;"
                     " border-radius: 4px; padding: 4px 8px; }")
          .arg(cc.legendFill.name(QColor::HexArgb), cc.text.name(), cc.legendBorder.name()));
}

void GraphChangeMarks::placeLegend() {
  // Under the legend column (the view knows its size).
  legend_->move(view_->overlayPlacesNow().changedLabel.topLeft().toPoint());
}

bool GraphChangeMarks::eventFilter(QObject* o, QEvent* e) {
  // The viewport sends events while the GraphView tears it down, after
  // ~GraphView has run: compare the stored pointer rather than ask view_
  // (a call on a half-destroyed GraphView), and act on resizes and theme
  // changes only.
  if (o == viewport_) {
    if (e->type() == QEvent::Resize) placeLegend();
    if (e->type() == QEvent::PaletteChange && legend_->isVisible()) refresh();  // theme
  }
  return QObject::eventFilter(o, e);
}

}  // namespace shardscope::widgets
