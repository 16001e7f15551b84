#include "comm/graph_comm_layer.h"

#include <QAction>
#include <QCursor>
#include <QEvent>
#include <QGraphicsObject>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QPainter>
#include <QPainterPath>
#include <QSet>
#include <QSettings>
#include <QTimer>
#include <functional>
#include <QWidget>
#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/document_state.h"
#include "graph/graph_view.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

const char* const kLayerKey = "graph/communicationLayer";

// The share of the most expensive collective's time each entry costs (by
// bytes when no time is known, e.g. all on a chip without a table entry).
std::vector<double> costShares(const api::CommunicationReport& report) {
  double maxSeconds = 0, maxBytes = 0;
  for (const api::CollectiveEntry& e : report.collectives) {
    maxSeconds = std::max(maxSeconds, e.seconds);
    maxBytes = std::max(maxBytes, e.bytesPerDevice);
  }
  std::vector<double> shares;
  for (const api::CollectiveEntry& e : report.collectives)
    shares.push_back(maxSeconds > 0 ? e.seconds / maxSeconds
                     : maxBytes > 0 ? e.bytesPerDevice / maxBytes
                                    : 0.0);
  return shares;
}

// The glyph's pill beside `anchor` (the middle of an edge: to its right, so
// the edge stays visible; else centred on it).
QRectF pillRect(const CommGlyph& g, QPointF anchor, bool onEdge) {
  const QSizeF size = commGlyphSize({g.kind, g.text});
  if (onEdge) return QRectF(QPointF(anchor.x() + 5, anchor.y() - size.height() / 2), size);
  return QRectF(QPointF(anchor.x() - size.width() / 2, anchor.y() - size.height() / 2), size);
}

// The tooltip of a glyph: each entry's kind, axes, size, time and cause.
QString glyphToolTip(const CommGlyph& g, const api::CommunicationReport& report) {
  QStringList parts;
  for (int i : g.entries) {
    if (i < 0 || static_cast<size_t>(i) >= report.collectives.size()) continue;
    const api::CollectiveEntry& e = report.collectives[static_cast<size_t>(i)];
    parts << QStringLiteral("<b>%1</b> on %2 · %3 per device · %4<br>%5")
                 .arg(qs(e.kind).toHtmlEscaped(), qs(e.axes).toHtmlEscaped(),
                      qs(api::bytesText(e.bytesPerDevice)), qs(api::secondsText(e.seconds)),
                      qs(e.cause).toHtmlEscaped());
    if (parts.size() == 8 && g.entries.size() > 8) {
      parts << QObject::tr("… and %1 more").arg(g.entries.size() - 8);
      break;
    }
  }
  return QStringLiteral("<p style=\"white-space:pre-wrap\">") +
         parts.join(QStringLiteral("</p><p style=\"white-space:pre-wrap\">")) +
         QStringLiteral("</p>");
}

// The strokes under the edges that carry a collective, wider and redder the
// more it costs.
class CostStrokes : public QGraphicsObject {
 public:
  void add(const QPainterPath& path, double share) {
    if (path.isEmpty()) return;
    strokes_.push_back({path, share});
    const double w = commCostWidth(share);
    prepareGeometryChange();
    const QRectF r = path.boundingRect().adjusted(-w, -w, w, w);
    bounds_ = bounds_.isNull() ? r : bounds_.united(r);
  }
  bool empty() const { return strokes_.empty(); }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    const bool dark = isDark(scene());
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setBrush(Qt::NoBrush);
    for (const auto& [path, share] : strokes_) {
      QColor c = commCostColor(share, dark);
      c.setAlphaF(dark ? 0.5f : 0.42f);
      QPen pen(c, commCostWidth(share));
      pen.setCapStyle(Qt::RoundCap);
      pen.setJoinStyle(Qt::RoundJoin);
      p->setPen(pen);
      p->drawPath(path);
    }
    p->restore();
  }

 private:
  std::vector<std::pair<QPainterPath, double>> strokes_;
  QRectF bounds_;
};

// One glyph: painted from comm_glyphs.h, clickable, with a tooltip.
class GlyphItem : public QGraphicsObject {
 public:
  GlyphItem(const CommGlyph& glyph, std::shared_ptr<std::function<void(int)>> onClick)
      : glyph_(glyph), onClick_(std::move(onClick)) {
    setZValue(60);  // above nodes (2-3) and the what-if badges (50)
    setAcceptedMouseButtons(Qt::LeftButton);
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
    setData(0, kCommGlyphItemKind);
  }
  void setSelectedGlyph(bool on) {
    if (selected_ == on) return;
    selected_ = on;
    update();
  }
  QRectF boundingRect() const override { return glyph_.rect.adjusted(-4, -4, 4, 4); }
  QPainterPath shape() const override {
    QPainterPath p;
    p.addRoundedRect(glyph_.rect, glyph_.rect.height() / 2, glyph_.rect.height() / 2);
    return p;
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    paintCommGlyph(*p, glyph_.rect,
                   {glyph_.kind, glyph_.text, glyph_.share, isDark(scene()), selected_});
  }

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* e) override {
    e->accept();  // the view must not start dragging the canvas
  }
  void mouseReleaseEvent(QGraphicsSceneMouseEvent* e) override {
    if (e->button() == Qt::LeftButton && shape().contains(e->pos()) && onClick_ && *onClick_ &&
        !glyph_.entries.empty())
      (*onClick_)(glyph_.entries.front());
  }

 private:
  CommGlyph glyph_;
  std::shared_ptr<std::function<void(int)>> onClick_;
  bool selected_ = false;
};

}  // namespace

std::vector<CommGlyph> placeCommGlyphs(const GraphScene& scene, const ir::Module& module,
                                       const api::CommunicationReport& report) {
  const GraphModel& m = scene.model();
  std::vector<CommGlyph> glyphs;
  if (m.empty() || !report.ok || report.collectives.empty()) return glyphs;
  const std::vector<api::CollectiveSite> sites = api::locateCollectives(module, report);
  const std::vector<double> shares = costShares(report);
  // The edges carrying each value (region entries excluded).
  std::unordered_map<const ir::Value*, std::vector<int>> edgesOf;
  for (size_t i = 0; i < m.edges.size() && i < m.input.edges.size(); ++i)
    if (m.edges[i].value && !m.edges[i].dotted)
      edgesOf[m.edges[i].value].push_back(static_cast<int>(i));
  auto isCollapsedGroup = [&m](int node) {
    if (node < 0 || static_cast<size_t>(node) >= m.nodes.size()) return false;
    const GraphNodeInfo& n = m.nodes[static_cast<size_t>(node)];
    return n.kind == GraphNodeInfo::GroupNode && !n.expanded;
  };
  std::map<int, size_t> summaries;  // collapsed group node -> its glyph
  for (size_t i = 0; i < report.collectives.size() && i < sites.size(); ++i) {
    const api::CollectiveEntry& e = report.collectives[i];
    const api::CollectiveSite& site = sites[i];
    const int entry = static_cast<int>(i);
    const int opNode = scene.nodeOf(site.op ? site.op : site.to);
    // The op the edge leads to: a written collective's own node, else the
    // reader of the collective's result.
    const int toNode = scene.nodeOf(site.collective ? site.collective : site.to);
    // Inside a collapsed group: summed up on the group.
    const int groupNode = isCollapsedGroup(opNode) ? opNode : isCollapsedGroup(toNode) ? toNode : -1;
    if (groupNode >= 0) {
      auto [it, fresh] = summaries.emplace(groupNode, glyphs.size());
      if (fresh) {
        CommGlyph g;
        g.node = groupNode;
        glyphs.push_back(g);
      }
      CommGlyph& g = glyphs[it->second];
      g.entries.push_back(entry);
      if (g.kind.isEmpty() || shares[i] > g.share) g.kind = qs(e.kind);
      g.share = std::max(g.share, shares[i]);
      continue;
    }
    CommGlyph g;
    g.entries = {entry};
    g.kind = qs(e.kind);
    g.text = qs(api::bytesText(e.bytesPerDevice));
    g.share = shares[i];
    // The edge from the moved value to its reader; else, when the reader is
    // not drawn, the edge into the value's chip; else the op's node.
    auto edges = edgesOf.find(site.from);
    if (edges != edgesOf.end()) {
      for (int edge : edges->second)
        if (toNode >= 0 && m.input.edges[static_cast<size_t>(edge)].to == toNode) g.edge = edge;
      if (g.edge < 0 && toNode < 0) g.edge = edges->second.front();
    }
    if (g.edge < 0) g.node = opNode >= 0 ? opNode : toNode;
    if (g.edge < 0 && g.node < 0) continue;  // not in this picture (another function)
    glyphs.push_back(g);
  }
  // Summaries' text, now that their entries are known.
  for (CommGlyph& g : glyphs) {
    if (g.entries.size() < 2 && g.edge >= 0) continue;
    if (!g.text.isEmpty()) continue;
    double bytes = 0;
    for (int i : g.entries) bytes += report.collectives[static_cast<size_t>(i)].bytesPerDevice;
    g.text = QStringLiteral("×%1 · %2").arg(g.entries.size()).arg(qs(api::bytesText(bytes)));
  }
  // Positions: beside the edge, as near its middle as leaves the nodes
  // uncovered, on its right (else its left); on a node, beside its box at
  // its bottom-right corner (not over it). A glyph that would still overlap one placed before moves down.
  std::vector<QRectF> nodes;
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const QRectF r = scene.nodeRect(static_cast<int>(i));
    if (!r.isNull() && !(m.nodes[i].kind == GraphNodeInfo::GroupNode && m.nodes[i].expanded))
      nodes.push_back(r.adjusted(4, 4, -4, -4));  // the painted box, without the item's margin
  }
  std::vector<QRectF> placed;
  // A glyph keeps 3 px from a node's box (a selected or changed node's
  // outline is drawn outside it) and 1 px from another glyph.
  auto overlaps = [](const std::vector<QRectF>& rects, const QRectF& r, qreal gap = 1) {
    return std::any_of(rects.begin(), rects.end(),
                       [&](const QRectF& p) { return p.adjusted(-gap, -gap, gap, gap).intersects(r); });
  };
  for (CommGlyph& g : glyphs) {
    QRectF r;
    if (g.edge >= 0) {
      const QPainterPath path = scene.edgePath(g.edge);
      const QSizeF size = pillRect(g, QPointF(), true).size();
      r = pillRect(g, path.pointAtPercent(0.5), true);
      bool found = false;
      // Beside the edge, nearest its middle; on a short edge between two
      // boxes (an argument's chip and its reader) further out to the side,
      // where the pill clears both boxes rather than sitting on a border.
      for (const qreal out : {5.0, 24.0, 48.0, 72.0})
        for (double t : {0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74}) {
          const QPointF at = path.pointAtPercent(t);
          for (const QRectF& c : {QRectF(at + QPointF(out, -size.height() / 2), size),
                                  QRectF(at + QPointF(-out - size.width(), -size.height() / 2), size)})
            if (!found && !overlaps(nodes, c, 3) && !overlaps(placed, c)) {
              r = c;
              found = true;
            }
        }
      // No room along the edge (the boxes too close): beside the box the
      // edge leads into, at its top, right of it else left of it.
      const int to = m.input.edges[static_cast<size_t>(g.edge)].to;
      if (!found && to >= 0) {
        const QRectF n = scene.nodeRect(to).adjusted(4, 4, -4, -4);
        for (const QRectF& c : {QRectF(QPointF(n.right() + 6, n.top()), size),
                                QRectF(QPointF(n.left() - 6 - size.width(), n.top()), size)})
          if (!found && !overlaps(nodes, c, 3) && !overlaps(placed, c)) {
            r = c;
            found = true;
          }
      }
    } else {
      // Beside its node's box, never over it (over the corner it hid a
      // group box's rounded corner and the end of its text): under its
      // bottom-right corner, else right of it, else above its top right,
      // else under its left; the first that covers no node.
      const QRectF n = scene.nodeRect(g.node).adjusted(4, 4, -4, -4);
      const QSizeF size = pillRect(g, QPointF(), false).size();
      const QRectF candidates[] = {
          QRectF(QPointF(n.right() - size.width(), n.bottom() + 3), size),
          QRectF(QPointF(n.right() + 3, n.bottom() - size.height()), size),
          QRectF(QPointF(n.right() - size.width(), n.top() - 3 - size.height()), size),
          QRectF(QPointF(n.left(), n.bottom() + 3), size)};
      r = candidates[0];
      for (const QRectF& c : candidates)
        if (!overlaps(nodes, c, 3) && !overlaps(placed, c)) {
          r = c;
          break;
        }
    }
    for (int tries = 0; tries < 30 && overlaps(placed, r); ++tries) r.translate(0, r.height() + 2);
    g.rect = r;
    placed.push_back(r);
  }
  return glyphs;
}

// --- CommLayerDrawing -----------------------------------------------------------

CommLayerDrawing::CommLayerDrawing(GraphScene* scene, std::vector<CommGlyph> glyphs,
                                   std::shared_ptr<const api::CommunicationReport> report)
    : scene_(scene),
      glyphs_(std::move(glyphs)),
      report_(std::move(report)),
      onClick_(std::make_shared<std::function<void(int)>>()) {
  if (!scene || glyphs_.empty()) return;
  auto* strokes = new CostStrokes;
  strokes->setZValue(0.6);  // under the edges (1), over the what-if halos (0.5)
  strokes->setAcceptedMouseButtons(Qt::NoButton);
  for (const CommGlyph& g : glyphs_)
    if (g.edge >= 0) strokes->add(scene->edgePath(g.edge), g.share);
  if (strokes->empty()) {
    delete strokes;
  } else {
    scene->addItem(strokes);
    strokes_ = strokes;
  }
  for (const CommGlyph& g : glyphs_) {
    auto* item = new GlyphItem(g, onClick_);
    if (report_) item->setToolTip(glyphToolTip(g, *report_));
    scene->addItem(item);
    items_.push_back(item);
  }
}

CommLayerDrawing::~CommLayerDrawing() {
  // The scene deletes its items when it is rebuilt: these may be gone already.
  delete strokes_.data();
  for (const QPointer<QGraphicsObject>& item : items_) delete item.data();
}

int CommLayerDrawing::glyphOfEntry(int entry) const {
  for (size_t i = 0; i < glyphs_.size(); ++i)
    if (std::find(glyphs_[i].entries.begin(), glyphs_[i].entries.end(), entry) !=
        glyphs_[i].entries.end())
      return static_cast<int>(i);
  return -1;
}

void CommLayerDrawing::setSelectedGlyph(int glyph) {
  selected_ = glyph;
  for (size_t i = 0; i < items_.size(); ++i)
    if (auto* item = static_cast<GlyphItem*>(items_[i].data()))
      item->setSelectedGlyph(static_cast<int>(i) == glyph);
}

void CommLayerDrawing::setClickHandler(std::function<void(int)> handler) {
  *onClick_ = std::move(handler);
}

CommLegend CommLayerDrawing::legend(bool dark) const {
  CommLegend legend;
  legend.dark = dark;
  if (!report_) return legend;
  double maxSeconds = 0;
  for (const api::CollectiveEntry& e : report_->collectives) maxSeconds = std::max(maxSeconds, e.seconds);
  legend.maxTime = qs(api::secondsText(maxSeconds));
  const api::CommunicationTotals& t = report_->total;
  legend.title = QObject::tr("Communication on %1").arg(qs(report_->chip));
  // Two short lines: the legend shares a narrow column with the mesh's.
  legend.totals = QObject::tr("%1 %2 · %3\n%4 per device")
                      .arg(t.count)
                      .arg(t.count == 1 ? QObject::tr("collective") : QObject::tr("collectives"),
                           qs(api::secondsText(t.seconds)), qs(api::bytesText(t.bytesPerDevice)));
  // The kinds of every collective drawn (a group's summary holds several).
  QSet<QString> tags;
  for (const CommGlyph& g : glyphs_)
    for (int i : g.entries)
      tags.insert(commKindTag(qs(report_->collectives[static_cast<size_t>(i)].kind)));
  for (const QString& kind : commKinds())
    if (tags.contains(commKindTag(kind))) legend.kinds << kind;
  return legend;
}

QRectF CommLayerDrawing::bounds() const {
  QRectF r;
  if (strokes_) r = strokes_->sceneBoundingRect();
  for (const CommGlyph& g : glyphs_) r = r.isNull() ? g.rect : r.united(g.rect.adjusted(-4, -4, 4, 4));
  return r;
}

Picture pictureWithCommLayer(const std::shared_ptr<GraphScene>& scene, const ir::Module& module,
                             std::shared_ptr<const api::CommunicationReport> report) {
  if (!scene || !report) return scene ? scene->picture() : Picture();
  auto drawing = std::make_shared<CommLayerDrawing>(
      scene.get(), placeCommGlyphs(*scene, module, *report), report);
  if (drawing->glyphs().empty()) return scene->picture();
  scene->includeInPicture(drawing->bounds());
  const Picture graph = scene->picture();
  const CommLegend legend = drawing->legend(isDark(scene.get()));
  // Under the mesh legend, which GraphScene::picture puts at the top right
  // beside the graph; without one, right of the graph.
  const Legend& mesh = scene->model().legend;
  const bool withMesh = !mesh.mesh.axes.empty();
  const QSizeF meshSize = withMesh ? mesh.size() : QSizeF();
  const QPointF at = withMesh ? QPointF(graph.size.width() - meshSize.width(), meshSize.height() + 12)
                              : QPointF(graph.size.width() + 24, 0);
  Picture out;
  out.size = QSizeF(std::max(graph.size.width(), at.x() + legend.size().width()),
                    std::max(graph.size.height(), at.y() + legend.size().height()));
  out.paint = [graph, legend, at, drawing, scene](QPainter& p) {  // keeps both alive
    graph.paint(p);
    legend.paint(p, at);
  };
  return out;
}

// --- GraphCommLayer -------------------------------------------------------------

namespace {

// The legend in the graph's viewport, bottom right; clicks go through.
class LegendWidget : public QWidget {
 public:
  explicit LegendWidget(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setObjectName(QStringLiteral("communicationLegend"));
    hide();
  }
  // Called (queued) when the window's font changed: presentation mode sets
  // it, then the graph's text scale, which the legend follows.
  std::function<void()> onFontChange;
  // `scale`: the graph's text scale (presentation mode), as the mesh
  // legend above it grows.
  void setLegend(const CommLegend& legend, qreal scale) {
    legend_ = legend;
    scale_ = scale;
    resize((legend.size() * scale).toSize() + QSize(1, 1));
    update();
  }

 protected:
  void changeEvent(QEvent* e) override {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange && onFontChange) QTimer::singleShot(0, this, onFontChange);
  }
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.scale(scale_, scale_);
    legend_.paint(p, QPointF(0, 0));
  }

 private:
  CommLegend legend_;
  qreal scale_ = 1.0;
};

}  // namespace

GraphCommLayer::GraphCommLayer(DocumentState* state, GraphView* view)
    : QObject(view),
      state_(state),
      view_(view),
      viewport_(view->view()->viewport()),
      legend_(new LegendWidget(viewport_)),
      toggle_(new QAction(tr("&Communication Layer"), this)) {
  setObjectName(QStringLiteral("graphCommLayer"));
  toggle_->setObjectName(QStringLiteral("communicationLayerAction"));
  toggle_->setCheckable(true);
  toggle_->setChecked(QSettings().value(QLatin1String(kLayerKey), true).toBool());
  toggle_->setToolTip(tr("Draw the collectives the shardings need on the graph, with their bytes "
                         "per device; the costly ones stand out"));
  connect(toggle_, &QAction::toggled, this, [this](bool on) {
    QSettings().setValue(QLatin1String(kLayerKey), on);
    refresh();
  });
  viewport_->installEventFilter(this);
  view_->setExtraLegend(legend_);
  // Presentation mode: the legend grows with the graph's text (refresh
  // reads GraphView::textScale); also when its tab is not in front (F11
  // pressed on the Mesh tab left it at the old size).
  static_cast<LegendWidget*>(legend_)->onFontChange = [this] {
    if (!legend_->isHidden()) refresh();
  };
  connect(view_, &GraphView::layoutFinished, this, &GraphCommLayer::refresh);
}

GraphCommLayer::~GraphCommLayer() {
  if (viewport_) viewport_->removeEventFilter(this);
}

void GraphCommLayer::setReport(std::shared_ptr<const api::CommunicationReport> report,
                               std::shared_ptr<const api::Document> doc) {
  if (report_ != report) selectedEntry_ = -1;  // entries are numbered per report
  report_ = std::move(report);
  reportDoc_ = std::move(doc);
  refresh();
}

bool GraphCommLayer::isLayerEnabled() const { return toggle_->isChecked(); }
void GraphCommLayer::setLayerEnabled(bool on) { toggle_->setChecked(on); }

const std::vector<CommGlyph>& GraphCommLayer::glyphs() const {
  static const std::vector<CommGlyph> none;
  return drawing_ ? drawing_->glyphs() : none;
}

int GraphCommLayer::glyphOfEntry(int entry) const {
  return drawing_ ? drawing_->glyphOfEntry(entry) : -1;
}

void GraphCommLayer::refresh() {
  drawing_.reset();
  GraphScene* scene = view_->scene();
  const bool show = isLayerEnabled() && report_ && report_->ok && reportDoc_ &&
                    reportDoc_->module && scene->hasGraph() &&
                    scene->shownDocument() == static_cast<const void*>(reportDoc_.get());
  if (show) {
    drawing_ = std::make_unique<CommLayerDrawing>(
        scene, placeCommGlyphs(*scene, *reportDoc_->module, *report_), report_);
    drawing_->setClickHandler([this](int entry) {
      showEntry(entry, false);
      emit entryClicked(entry);
    });
    drawing_->setSelectedGlyph(drawing_->glyphOfEntry(selectedEntry_));
  }
  // The legend under the mesh legend (GraphView keeps the graph clear of
  // both); the view refits only when its size or visibility changed.
  const QSize before = legend_->isHidden() ? QSize() : legend_->size();
  if (drawing_ && !drawing_->glyphs().empty()) {
    static_cast<LegendWidget*>(legend_)->setLegend(drawing_->legend(isDark(scene)),
                                                   view_->textScale());
    legend_->show();
  } else {
    legend_->hide();
  }
  if ((legend_->isHidden() ? QSize() : legend_->size()) != before) view_->legendChanged();
  emit glyphsChanged();
}

void GraphCommLayer::showEntry(int entry, bool centre) {
  selectedEntry_ = entry;
  if (!drawing_) return;
  const int glyph = drawing_->glyphOfEntry(entry);
  drawing_->setSelectedGlyph(glyph);
  if (!centre || glyph < 0) return;
  // The glyph and, when both fit in the window, its op.
  QRectF target = drawing_->glyphs()[static_cast<size_t>(glyph)].rect;
  if (const int node = view_->scene()->nodeOf(state_ ? state_->selectedOp() : nullptr); node >= 0) {
    const QRectF both = target.united(view_->scene()->nodeRect(node));
    const QSizeF room = view_->view()->mapToScene(view_->view()->viewport()->rect())
                            .boundingRect()
                            .size() *
                        0.6;
    if (both.width() <= room.width() && both.height() <= room.height()) target = both;
  }
  view_->bringIntoView(target);
}

bool GraphCommLayer::eventFilter(QObject* o, QEvent* e) {
  // As GraphChangeMarks: the viewport may send events while the GraphView is
  // torn down; compare the stored pointer and act on resizes and theme
  // changes only.
  if (o == viewport_ && e->type() == QEvent::PaletteChange && legend_->isVisible()) refresh();
  return QObject::eventFilter(o, e);
}

}  // namespace shardscope::widgets
