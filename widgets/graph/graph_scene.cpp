#include "graph/graph_scene.h"

#include <QAbstractTextDocumentLayout>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

#include "api/op_source.h"
#include "core/theme_palette.h"
#include "graph/graph_grouping.h"
#include "graph/group_header_text.h"

namespace shardscope::widgets {

namespace {

enum ItemKind { NodeKind = 1, EdgeKind = 2, ClusterKind = 3 };
constexpr int kKindKey = 0;
constexpr int kIndexKey = 1;

class NodeItem : public QGraphicsItem {
 public:
  NodeItem(const GraphNodeInfo& info, const QRectF& rect) : info_(info), size_(rect.size()) {
    setPos(rect.topLeft());
    setFlag(ItemIsSelectable);
    setCursor(Qt::PointingHandCursor);
    if (info.kind == GraphNodeInfo::GroupNode) {
      setToolTip(info.title + u'\n' + info.lines.join(u'\n') +
                 (info.expanded ? QObject::tr("\nDouble-click or Enter to collapse")
                                : QObject::tr("\nDouble-click or Enter to expand")));
      setZValue(info.expanded ? -20 : 2);
    } else {
      setToolTip(info.searchText);
      setZValue(info.kind == GraphNodeInfo::ValueNode ? 3 : 2);
    }
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
    const qreal lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(p->worldTransform());
    if (info_.kind == GraphNodeInfo::GroupNode) {
      paintGroup(p, r, lod);
      return;
    }
    const CanvasColors& cc = canvasColors(isDark(scene()));  // light or dark theme
    QColor fill = cc.opFill;
    qreal radius = 5;
    switch (info_.kind) {
      case GraphNodeInfo::OpNode:
        fill = info_.op && info_.op->dialect() == "sdy" ? cc.sdyOpFill : cc.opFill;
        break;
      case GraphNodeInfo::ArgumentNode:
        fill = cc.argumentFill;
        radius = std::min(r.height() / 2, 14.0);
        break;
      case GraphNodeInfo::ValueNode:
        fill = cc.valueFill;
        radius = 3;
        break;
      case GraphNodeInfo::ReturnNode:
        fill = cc.returnFill;
        break;
      case GraphNodeInfo::TerminatorNode:
        fill = cc.terminatorFill;
        break;
      case GraphNodeInfo::GroupNode:
        break;
    }
    if (matched_) fill = cc.matchFill;
    QPen pen(readableOn(info_.border, cc.dark), info_.kind == GraphNodeInfo::ValueNode ? 1.6 : 1.2);
    if (info_.dashed) pen.setStyle(Qt::DashLine);
    if (highlighted_ || isSelected()) {
      p->setPen(QPen(cc.highlightHalo, 7));
      p->setBrush(Qt::NoBrush);
      p->drawRoundedRect(r, radius, radius);
      pen.setWidthF(2.2);
      pen.setColor(cc.highlight);
    }
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
    if (lod < 0.3) return;  // too small to read: skip the text
    if (!doc_ || docDark_ != cc.dark) {  // inline colours made readable on dark fills
      doc_ = makeNodeDocument(readableHtml(info_.html, cc.dark));
      docDark_ = cc.dark;
    }
    p->save();
    const QSizeF ds = doc_->size();
    p->translate((r.width() - ds.width()) / 2, (r.height() - ds.height()) / 2);
    // The canvas colours' text, not the application palette's.
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette.setColor(QPalette::Text, cc.text);
    doc_->documentLayout()->draw(p, ctx);
    p->restore();
  }
  const GraphNodeInfo& info() const { return info_; }
  // New text and border (a propagation step): same place, same size.
  void setInfo(const GraphNodeInfo& info) {
    info_ = info;
    doc_.reset();
    setToolTip(info_.searchText);
    update();
  }

 private:
  void paintGroup(QPainter* p, const QRectF& r, qreal lod) {
    const CanvasColors& cc = canvasColors(isDark(scene()));
    const bool hot = highlighted_ || isSelected();
    if (hot) {
      p->setPen(QPen(cc.highlightHalo, 7));
      p->setBrush(Qt::NoBrush);
      p->drawRoundedRect(r, 6, 6);
    }
    QPen pen(hot ? cc.highlight : readableOn(info_.border, cc.dark), hot ? 2.2 : 1.3);
    if (info_.expanded) {
      pen.setStyle(Qt::DashLine);
      p->setPen(pen);
      p->setBrush(cc.groupExpandedFill);
      p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
      const QRectF header(r.left(), r.top(), r.width(), kGroupHeader - 4);
      p->setPen(Qt::NoPen);
      p->setBrush(cc.groupHeaderFill);
      p->drawRoundedRect(header.adjusted(1, 1, -1, 0), 5, 5);
      if (lod < 0.2) return;
      QFont f(QStringLiteral("DejaVu Sans"));
      f.setPixelSize(12);
      f.setBold(true);
      p->setFont(f);
      p->setPen(cc.groupTitle);
      const QRectF line = header.adjusted(8, 0, -8, 0);
      p->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                  expandedGroupHeader(info_.title, QFontMetricsF(f), line.width()));
      return;
    }
    p->setPen(pen);
    p->setBrush(matched_ ? cc.matchFill : cc.groupFill);
    p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    // A second edge behind: "a stack of ops".
    if (lod < 0.25) return;
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(12);
    f.setBold(true);
    p->setFont(f);
    p->setPen(cc.groupTitle);
    qreal y = r.top() + 5;
    const qreal w = r.width() - 16;
    p->drawText(QRectF(r.left() + 8, y, w, 16), Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(QStringLiteral("▸ ") + info_.title, Qt::ElideRight,
                                            int(w)));
    y += 18;
    f.setBold(false);
    f.setPixelSize(11);
    p->setFont(f);
    p->setPen(cc.groupText);
    for (const QString& l : info_.lines) {
      p->drawText(QRectF(r.left() + 8, y, w, 15), Qt::AlignLeft | Qt::AlignVCenter,
                  p->fontMetrics().elidedText(l, Qt::ElideRight, int(w)));
      y += 16;
    }
    qreal x = r.left() + 8;
    for (const QString& a : info_.axes) {
      const int tw = p->fontMetrics().horizontalAdvance(a);
      const QRectF chip(x, y + 1, tw + 12, 14);
      if (chip.right() > r.right() - 6) break;
      const QColor c = axisColor(&legendMesh_, a);
      p->setPen(Qt::NoPen);
      p->setBrush(c);
      p->drawRoundedRect(chip, 3, 3);
      p->setPen(Qt::white);
      p->drawText(chip, Qt::AlignCenter, a);
      x = chip.right() + 5;
    }
  }

 public:
  Mesh legendMesh_;

 private:
  GraphNodeInfo info_;
  QSizeF size_;
  std::unique_ptr<QTextDocument> doc_;
  bool docDark_ = false;  // doc_ made for a dark canvas
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
  // New colours (a propagation step); the path stays.
  void setInfo(const GraphEdgeInfo& info) {
    info_ = info;
    applyPen();
  }
  const GraphEdgeInfo& info() const { return info_; }
  QRectF boundingRect() const override {
    return QGraphicsPathItem::boundingRect().united(arrowRect()).adjusted(-4, -4, 4, 4);
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override {
    // Dark canvas: axis colours lightened (same hues), highlights lighter still.
    const bool dark = isDark(scene());
    auto themed = [&](const QColor& c) {
      const QColor t = readableOn(c, dark);
      return highlighted_ ? (dark ? t.lighter(125) : t.darker(130)) : t;
    };
    const QColor edgeColor = dark ? themed(info_.color) : pen().color();
    if (info_.axisColors.size() > 1) {
      // Nested stripes, one per axis: the major axis outermost.
      const size_t n = info_.axisColors.size();
      const qreal base = pen().widthF() + 1.4;
      p->setBrush(Qt::NoBrush);
      for (size_t i = 0; i < n; ++i) {
        QPen stripe = pen();
        stripe.setColor(themed(info_.axisColors[i]));
        stripe.setWidthF(base * qreal(n - i) / qreal(n) * 1.5);
        if (i > 0)
          stripe.setStyle(
              Qt::SolidLine);  // inner stripes solid: only the outer one shows open dims
        p->setPen(stripe);
        p->drawPath(path());
      }
    } else if (dark) {
      QPen themedPen = pen();
      themedPen.setColor(edgeColor);
      p->setPen(themedPen);
      p->setBrush(Qt::NoBrush);
      p->drawPath(path());
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
    p->setBrush(edgeColor);
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
    const CanvasColors& cc = canvasColors(isDark(scene()));
    p->setPen(QPen(cc.clusterBorder, 1, Qt::SolidLine));
    p->setBrush(cc.clusterFill(depth_));
    p->drawRoundedRect(c_.rect, 8, 8);
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(11);
    f.setItalic(true);
    p->setFont(f);
    p->setPen(cc.clusterText);
    p->drawText(labelRect(), Qt::AlignLeft | Qt::AlignVCenter, label_);
  }
  // The strip the title is drawn in (its whole width, left-aligned).
  QRectF labelRect() const {
    QRectF lr = c_.labelRect.isValid() ? c_.labelRect
                                       : QRectF(c_.rect.topLeft() + QPointF(8, 2), QSizeF(200, 16));
    lr.setLeft(c_.rect.left() + 8);
    lr.setWidth(c_.rect.width() - 16);
    return lr;
  }
  // Where the title's text is: as wide as it, within the strip.
  QRectF titleRect() const {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(11);
    f.setItalic(true);
    const QRectF lr = labelRect();
    return QRectF(lr.topLeft(), QSizeF(std::min<qreal>(lr.width(), QFontMetricsF(f).horizontalAdvance(label_) + 4), lr.height()));
  }

 private:
  GraphLayout::Cluster c_;
  QString label_;
  int depth_;
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
  opNodes_.clear();
  groupNodes_.clear();
  valueNodes_.clear();
  valueEdges_.clear();
  returnNodes_.clear();
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
    item->setData(kIndexKey, static_cast<int>(i));
    item->setToolTip(tr("Double-click to collapse this region"));
    addItem(item);
  }
  for (size_t i = 0; i < nNodes; ++i) {
    const GraphNodeInfo& info = model_.nodes[i];
    auto* item = new NodeItem(info, layout.nodes[i].rect);
    if (info.kind == GraphNodeInfo::GroupNode) {
      item->legendMesh_ = model_.legend.mesh;
      if (info.group >= 0) {
        if (groupNodes_.size() <= static_cast<size_t>(info.group))
          groupNodes_.resize(static_cast<size_t>(info.group) + 1, -1);
        groupNodes_[static_cast<size_t>(info.group)] = static_cast<int>(i);
      }
    } else if (info.op && info.kind != GraphNodeInfo::ValueNode) {
      opNodes_.emplace(info.op, static_cast<int>(i));
      if (info.kind == GraphNodeInfo::ReturnNode && info.op->is("func.return"))
        if (const ir::Op* f = info.op->parentOfName("func.func"))
          returnNodes_.emplace(f, static_cast<int>(i));
    }
    if (info.kind == GraphNodeInfo::ValueNode && info.value)
      valueNodes_[info.value].push_back(static_cast<int>(i));
    item->setData(kKindKey, NodeKind);
    item->setData(kIndexKey, static_cast<int>(i));
    addItem(item);
    nodeItems_.push_back(item);
  }
  for (size_t i = 0; i < layout.edges.size() && i < model_.edges.size(); ++i) {
    auto* item = new EdgeItem(model_.edges[i], layout.edges[i]);
    if (model_.edges[i].value && !model_.edges[i].dotted)
      valueEdges_[model_.edges[i].value].push_back(static_cast<int>(i));
    item->setData(kKindKey, EdgeKind);
    item->setData(kIndexKey, static_cast<int>(i));
    addItem(item);
    edgeItems_.push_back(item);
  }
  graphRect_ = layout.bounds.adjusted(-8, -8, 8, 8);
  setSceneRect(graphRect_.adjusted(-40, -40, 40, 40));
}

void GraphScene::refreshShardings(const api::TimelineChanges& changes) {
  const Mesh& colors = model_.legend.mesh;
  for (const ir::Value* v : changes.values) {
    auto nodes = valueNodes_.find(v);
    auto edges = valueEdges_.find(v);
    if (nodes == valueNodes_.end() && edges == valueEdges_.end()) continue;
    GraphNodeInfo chip;
    GraphEdgeInfo style;
    styleValue(*v, colors, &chip, &style);
    if (nodes != valueNodes_.end())
      for (int n : nodes->second) {
        model_.nodes[static_cast<size_t>(n)] = chip;
        static_cast<NodeItem*>(nodeItems_[static_cast<size_t>(n)])->setInfo(chip);
      }
    if (edges != valueEdges_.end())
      for (int e : edges->second) {
        GraphEdgeInfo& info = model_.edges[static_cast<size_t>(e)];
        style.count = info.count;
        info = style;
        static_cast<EdgeItem*>(edgeItems_[static_cast<size_t>(e)])->setInfo(info);
      }
  }
  for (const ir::Op* f : changes.functions) {
    auto it = returnNodes_.find(f);
    if (it == returnNodes_.end()) continue;
    GraphNodeInfo& info = model_.nodes[static_cast<size_t>(it->second)];
    info.html = returnNodeHtml(*info.op, colors);
    info.searchText = toQString(info.op->name());
    for (unsigned i = 0; i < info.op->numOperands(); ++i)
      if (auto s = api::functionResultSharding(*f, i)) info.searchText += u' ' + shardingText(*s);
    static_cast<NodeItem*>(nodeItems_[static_cast<size_t>(it->second)])->setInfo(info);
  }
}

void GraphScene::refreshAllShardings() {
  api::TimelineChanges all;
  for (const auto& [v, nodes] : valueNodes_) all.values.push_back(v);
  for (const auto& [v, edges] : valueEdges_)
    if (!valueNodes_.count(v)) all.values.push_back(v);
  for (const auto& [f, node] : returnNodes_) all.functions.push_back(f);
  refreshShardings(all);
}

QPainterPath GraphScene::edgePath(int edge) const {
  if (edge < 0 || static_cast<size_t>(edge) >= edgeItems_.size()) return {};
  return static_cast<QGraphicsPathItem*>(edgeItems_[static_cast<size_t>(edge)])->path();
}

std::vector<QRectF> GraphScene::clusterTitleRects() const {
  std::vector<QRectF> out;
  for (QGraphicsItem* item : items())
    if (item->data(kKindKey).toInt() == ClusterKind && item->isVisible())
      out.push_back(static_cast<const ClusterItem*>(item)->titleRect());
  return out;
}

QRectF GraphScene::nodeRect(int node) const {
  if (node < 0 || static_cast<size_t>(node) >= nodeItems_.size()) return {};
  return nodeItems_[static_cast<size_t>(node)]->sceneBoundingRect();
}

int GraphScene::nodeOf(const ir::Op* op) const {
  if (!op) return -1;
  auto it = opNodes_.find(op);
  if (it != opNodes_.end()) return it->second;
  if (model_.grouping) return shownNodeOfGroup(model_.grouping->groupOfOp(op));
  return -1;
}

int GraphScene::shownNodeOfGroup(int group) const {
  // Groups nest (graph_grouping.h): the level shown may hold the group
  // itself or one of the groups around it.
  for (int g = group; g >= 0 && model_.grouping;
       g = model_.grouping->groups[static_cast<size_t>(g)].parent)
    if (const int node = nodeOfGroup(g); node >= 0) return node;
  return nodeOfGroup(group);
}

int GraphScene::nodeOfGroup(int group) const {
  if (group < 0 || static_cast<size_t>(group) >= groupNodes_.size()) return -1;
  return groupNodes_[static_cast<size_t>(group)];
}

void GraphScene::highlightNode(int node) {
  if (node < 0 || static_cast<size_t>(node) >= nodeItems_.size()) return;
  static_cast<NodeItem*>(nodeItems_[static_cast<size_t>(node)])->setHighlighted(true);
}

// Op nodes one edge away from `node` (upstream or downstream), looking
// through the value chips that sit between ops.
std::vector<int> GraphScene::neighbours(int node, bool upstream) const {
  std::vector<int> out;
  const auto& nodes = model_.nodes;
  const auto& edges = model_.input.edges;
  auto add = [&](int n) {
    if (n != node && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  auto near = [&](const auto& e) { return upstream ? e.from : e.to; };
  auto far = [&](const auto& e) { return upstream ? e.to : e.from; };
  for (const auto& e : edges) {
    if (far(e) != node) continue;
    if (nodes[static_cast<size_t>(near(e))].kind == GraphNodeInfo::ValueNode) {
      for (const auto& e2 : edges)
        if (far(e2) == near(e)) add(near(e2));
    } else {
      add(near(e));
    }
  }
  return out;
}

std::vector<int> GraphScene::producers(int node) const { return neighbours(node, true); }

std::vector<int> GraphScene::consumers(int node) const { return neighbours(node, false); }

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) {
  QGraphicsScene::mouseDoubleClickEvent(e);
  for (QGraphicsItem* item : items(e->scenePos())) {
    const int kind = item->data(kKindKey).toInt();
    if (kind == NodeKind) {
      emit nodeDoubleClicked(item->data(kIndexKey).toInt());
      return;
    }
    if (kind == ClusterKind) {
      emit clusterDoubleClicked(item->data(kIndexKey).toInt());
      return;
    }
  }
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
  // An op inside a collapsed group: emphasise the group.
  if (op && model_.grouping && !opNodes_.count(op)) highlightNode(nodeOf(op));
  for (size_t i = 0; i < edgeItems_.size(); ++i)
    static_cast<EdgeItem*>(edgeItems_[i])->setHighlighted(value && model_.edges[i].value == value);
  settingHighlight_ = false;
}

std::vector<int> GraphScene::search(const QString& text) {
  std::vector<int> out;
  // `model.py:41`: the ops that Python line made (api/op_source.h).
  const std::optional<api::SourceLineQuery> line = api::parseSourceLineQuery(text.toStdString());
  for (size_t i = 0; i < nodeItems_.size(); ++i) {
    const GraphNodeInfo& node = model_.nodes[i];
    const bool match =
        line ? node.op && node.kind == GraphNodeInfo::OpNode && api::opFromSourceLine(*node.op, *line)
             : !text.isEmpty() && node.searchText.contains(text, Qt::CaseInsensitive);
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
  const int index = item->data(kIndexKey).toInt();
  const GraphNodeInfo& n = model_.nodes[static_cast<size_t>(index)];
  emit nodeClicked(index);
  if (n.kind == GraphNodeInfo::GroupNode) return;  // nothing to select in the document
  if (n.kind == GraphNodeInfo::ArgumentNode && !n.value) return;  // "from outside" of a level
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
  Legend legend = model_.legend;
  legend.dark = isDark(this);  // export scenes are given the light palette unless asked
  pic.paint = [self, src, legend, withLegend, ls](QPainter& p) {
    // Hide selection decorations for export.
    self->render(&p, QRectF(QPointF(0, 0), src.size()), src);
    if (withLegend) legend.paint(p, QPointF(src.width() + 24, 0));
    (void)ls;
  };
  return pic;
}

}  // namespace shardscope::widgets
