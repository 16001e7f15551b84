#include "graph/graph_axis_animation.h"

#include <QEasingCurve>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QVariantAnimation>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/axis_style.h"
#include "graph/graph_scene.h"
#include "propagation/value_shardings.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

// "operand-3" -> {false, 3}; "result-0" -> {true, 0}; anything else -> index -1.
std::pair<bool, int> parseTensor(const std::string& t) {
  auto num = [&](size_t from) {
    if (from >= t.size()) return -1;
    int n = 0;
    for (size_t i = from; i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9' || n > 100000) return -1;
      n = n * 10 + (t[i] - '0');
    }
    return n;
  };
  if (t.rfind("operand-", 0) == 0) return {false, num(8)};
  if (t.rfind("result-", 0) == 0) return {true, num(7)};
  return {false, -1};
}

// The function result a `func.return` sync step is about (its "result N" row).
std::optional<unsigned> syncIndex(const propagation::TraceStep& s) {
  for (const auto* table : {&s.after, &s.before})
    for (const auto& row : table->rows)
      if (row.tensor == "result-0" && row.value.rfind("result ", 0) == 0) {
        bool ok = false;
        const unsigned i = QString::fromStdString(row.value.substr(7)).toUInt(&ok);
        if (ok) return i;
      }
  for (const auto& u : s.updates)
    if (u.value.kind == "func_result") return static_cast<unsigned>(u.value.index);
  return std::nullopt;
}

QFont chipFont() {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(12);
  f.setBold(true);
  return f;
}

// Size of a chip showing `label`.
QSizeF chipSize(const QString& label) {
  const QFontMetricsF fm(chipFont());
  return {std::max(fm.horizontalAdvance(label) + 14, 24.0), fm.height() + 5};
}

// A chip: rounded, axis colour (as the legend shows it on a light or dark
// canvas), bold text, a rim in the canvas' contrast colour and a soft halo
// so it reads on either background and on any edge colour.
void paintChip(QPainter* p, const QRectF& r, const QString& label, const QColor& base, bool dark) {
  const QColor color = readableOn(base, dark);
  const qreal radius = r.height() / 2;
  p->setPen(Qt::NoPen);
  p->setBrush(dark ? QColor(0, 0, 0, 140) : QColor(0, 0, 0, 70));
  p->drawRoundedRect(r.adjusted(-2, -1, 2, 3), radius + 2, radius + 2);
  p->setPen(QPen(dark ? QColor(0x14, 0x14, 0x18) : QColor(Qt::white), 1.6));
  p->setBrush(color);
  p->drawRoundedRect(r, radius, radius);
  p->setFont(chipFont());
  // Dark text on light fills (lightened axis colours on a dark canvas,
  // yellow, light green), white otherwise.
  const bool light = color.lightnessF() > 0.6;
  p->setPen(light ? QColor(0x10, 0x10, 0x14) : QColor(Qt::white));
  p->drawText(r, Qt::AlignCenter, label);
}

qreal dist(const QPointF& a, const QPointF& b) { return QLineF(a, b).length(); }

// `path` oriented so that it ends at the end nearer to `target`.
QPainterPath endingNear(const QPainterPath& path, const QPointF& target) {
  if (path.isEmpty()) return path;
  const QPointF a = path.pointAtPercent(0), b = path.pointAtPercent(1);
  return dist(a, target) < dist(b, target) ? path.toReversed() : path;
}

QPointF pointAtLengthFraction(const QPainterPath& path, qreal length, qreal t) {
  if (path.isEmpty()) return {};
  if (length <= 0) return path.pointAtPercent(0);
  return path.pointAtPercent(path.percentAtLength(std::clamp(t, 0.0, 1.0) * length));
}

QPointF tangentAt(const QPainterPath& path, qreal length, qreal t) {
  const qreal d = std::max<qreal>(1.0, length * 0.04);
  const QPointF a = pointAtLengthFraction(path, length, std::max<qreal>(0, t - d / std::max<qreal>(length, 1)));
  const QPointF b = pointAtLengthFraction(path, length, std::min<qreal>(1, t + d / std::max<qreal>(length, 1)));
  QPointF v = b - a;
  const qreal n = std::hypot(v.x(), v.y());
  return n > 1e-6 ? v / n : QPointF(0, 1);
}

// A static marker: an arrow head on an edge and the chips of the axes
// moving along it.
class AxisMoveMarkerItem : public QGraphicsItem {
 public:
  AxisMoveMarkerItem(const QPointF& at, const QPointF& dir) : dir_(dir) {
    setPos(at);
    setZValue(30);
  }
  void addChip(const QString& label, const QColor& color) {
    for (const auto& c : chips_)
      if (c.first == label) return;
    prepareGeometryChange();
    chips_.emplace_back(label, color);
  }
  QRectF boundingRect() const override { return chipsRect().united(QRectF(-12, -12, 24, 24)).adjusted(-4, -4, 4, 4); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    p->setRenderHint(QPainter::Antialiasing);
    const bool dark = isDark(scene());
    const QPointF n(-dir_.y(), dir_.x());
    const QPointF tip = dir_ * 7;
    QPolygonF arrow;
    arrow << tip << -dir_ * 6 + n * 6 << -dir_ * 6 - n * 6;
    p->setPen(QPen(QColor(0, 0, 0, dark ? 150 : 90), 3.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(Qt::NoBrush);
    p->drawPolygon(arrow);
    p->setPen(QPen(dark ? QColor(0x14, 0x14, 0x18) : QColor(Qt::white), 1.6, Qt::SolidLine,
                   Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(readableOn(chips_.empty() ? QColor(Qt::darkGray) : chips_.front().second, dark));
    p->drawPolygon(arrow);
    QRectF r = chipsRect();
    qreal x = r.left();
    for (const auto& [label, color] : chips_) {
      const QSizeF s = chipSize(label);
      paintChip(p, QRectF(QPointF(x, r.top()), s), label, color, dark);
      x += s.width() + 4;
    }
  }

 private:
  QRectF chipsRect() const {
    qreal w = 0, h = 0;
    for (const auto& c : chips_) {
      const QSizeF s = chipSize(c.first);
      w += s.width() + 4;
      h = std::max(h, s.height());
    }
    if (w > 0) w -= 4;
    // Beside a mostly vertical edge, below a mostly horizontal one.
    if (std::abs(dir_.y()) >= std::abs(dir_.x())) return QRectF(12, -h / 2, w, h);
    return QRectF(-w / 2, 11, w, h);
  }
  QPointF dir_;
  std::vector<std::pair<QString, QColor>> chips_;
};

}  // namespace

QString axisMoveLabel(const AxisRef& axis) {
  if (!axis.isSubAxis()) return toQString(axis.name);
  return toQString(axis.str());
}

std::vector<GraphAxisMove> resolveAxisMoves(const ir::Module& module,
                                            const propagation::TraceStep& step) {
  if (step.moves.empty() || step.opIndex < 0) return {};
  return resolveAxisMoves(propagation::preOrderOps(const_cast<ir::Module&>(module)), step);
}

std::vector<GraphAxisMove> resolveAxisMoves(const std::vector<ir::Op*>& ops,
                                            const propagation::TraceStep& step) {
  std::vector<GraphAxisMove> out;
  if (step.moves.empty() || step.opIndex < 0) return out;
  if (static_cast<size_t>(step.opIndex) >= ops.size()) return out;
  ir::Op* op = ops[static_cast<size_t>(step.opIndex)];
  // The values standing for the step's operand and result rows, and the
  // node the chips pass through.
  std::vector<const ir::Value*> operands, results;
  const ir::Op* through = op;
  if (step.op == "func.return" || op->is("func.func")) {
    // Function result sync: operand-0 is the returned value, result-0 the
    // function result (no value; drawn in the return node).
    ir::Op* ret = propagation::funcReturn(*op);
    const auto i = syncIndex(step);
    if (!ret) return out;
    through = ret;
    operands.push_back(i && *i < ret->numOperands() ? ret->operand(*i) : nullptr);
    results.push_back(nullptr);
  } else if (op->is("sdy.data_flow_edge") && op->numOperands() == 1 && op->numResults() == 1) {
    for (ir::Value* src : propagation::edgeSources(op->operand(0))) operands.push_back(src);
    results.push_back(op->result(0));
  } else {
    for (ir::Value* v : op->operands()) operands.push_back(v);
    for (ir::Value* v : op->results()) results.push_back(v);
  }
  auto valueOf = [&](const std::pair<bool, int>& t) -> const ir::Value* {
    const auto& list = t.first ? results : operands;
    return t.second >= 0 && static_cast<size_t>(t.second) < list.size()
               ? list[static_cast<size_t>(t.second)]
               : nullptr;
  };
  for (const auto& m : step.moves) {
    GraphAxisMove g;
    g.label = axisMoveLabel(m.axis);
    g.axisName = toQString(m.axis.name);
    g.factor = m.factor;
    g.op = through;
    g.fromTensor = toQString(m.from);
    g.toTensor = toQString(m.to);
    const auto from = parseTensor(m.from), to = parseTensor(m.to);
    g.fromIsResult = from.first;
    g.toIsResult = to.second >= 0 ? to.first : true;
    g.from = valueOf(from);
    g.to = valueOf(to);
    out.push_back(std::move(g));
  }
  return out;
}

AxisMoveRoute axisMoveRoute(const GraphScene& scene, const GraphAxisMove& m) {
  AxisMoveRoute r;
  int node = scene.nodeOf(m.op);
  // An op inside a collapsed region: through the region op's node.
  bool collapsed = false;
  for (const ir::Op* up = m.op ? m.op->parentOp() : nullptr; node < 0 && up && !up->is("func.func");
       up = up->parentOp()) {
    node = scene.nodeOf(up);
    collapsed = true;
  }
  if (node < 0) return r;
  const GraphModel& model = scene.model();
  r.node = node;
  r.viaGroup = collapsed || model.nodes[static_cast<size_t>(node)].kind == GraphNodeInfo::GroupNode;
  const QRectF rect = scene.nodeRect(node).adjusted(4, 4, -4, -4);  // without the halo margin
  const QPointF c = rect.center();
  // The edge carrying `v` into (operand) or out of (result) the node.
  auto findEdge = [&](const ir::Value* v, bool isResult) -> int {
    if (!v) return -1;
    for (size_t i = 0; i < model.edges.size() && i < model.input.edges.size(); ++i) {
      if (model.edges[i].value != v) continue;
      const GraphInput::Edge& e = model.input.edges[i];
      if (isResult ? e.from == node : e.to == node) return static_cast<int>(i);
    }
    return -1;
  };
  // A short stub above (operands) or below (results) the node.
  auto stub = [&](bool isResult) {
    const QPointF at(c.x(), isResult ? rect.bottom() : rect.top());
    QPainterPath p(at + QPointF(0, isResult ? 34 : -34));
    p.lineTo(at);
    return p;  // ends at the node
  };
  r.inEdge = findEdge(m.from, m.fromIsResult);
  r.outEdge = findEdge(m.to, m.toIsResult);
  r.in = r.inEdge >= 0 ? endingNear(scene.edgePath(r.inEdge), c) : stub(m.fromIsResult);
  r.out = (r.outEdge >= 0 ? endingNear(scene.edgePath(r.outEdge), c) : stub(m.toIsResult)).toReversed();
  if (r.in.isEmpty()) r.in = stub(m.fromIsResult);
  if (r.out.isEmpty()) r.out = stub(m.toIsResult).toReversed();
  r.center = c;
  r.path = r.in;
  r.path.lineTo(c);
  r.path.connectPath(r.out);
  return r;
}

// --- AxisTokenItem -----------------------------------------------------------

AxisTokenItem::AxisTokenItem(const GraphAxisMove& move, const QColor& color, AxisMoveRoute route)
    : move_(move), color_(color), route_(std::move(route)) {
  const QSizeF s = chipSize(move_.label);
  rect_ = QRectF(QPointF(-s.width() / 2, -s.height() / 2), s);
  length_ = route_.path.length();
  QPainterPath in = route_.in;
  in.lineTo(route_.center);
  inLength_ = std::min(length_, in.length());
  // Constant size on screen: readable when the graph is zoomed out.
  setFlag(ItemIgnoresTransformations);
  setZValue(40);
  setAcceptedMouseButtons(Qt::NoButton);
  setToolTip(QObject::tr("%1 moves from %2 to %3").arg(move_.label, move_.fromTensor, move_.toTensor));
  setProgress(0);
}

QRectF AxisTokenItem::boundingRect() const { return rect_.adjusted(-4, -3, 4, 5); }

void AxisTokenItem::setViewport(QWidget* viewport) { viewport_ = viewport; }

void AxisTokenItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget* widget) {
  // Only in the graph's own view (not in the overview map, where a chip of
  // constant size would cover half of the graph).
  if (viewport_ && widget && widget != viewport_) return;
  p->setRenderHint(QPainter::Antialiasing);
  paintChip(p, rect_, move_.label, color_, isDark(scene()));
}

void AxisTokenItem::setLateralOffset(qreal px) {
  prepareGeometryChange();
  rect_.moveCenter(QPointF(px, 0));
}

void AxisTokenItem::setProgress(qreal t) {
  if (t == progress_) return;
  progress_ = t;
  const qreal along = t <= 0.5 ? 2 * t * inLength_ : inLength_ + (2 * t - 1) * (length_ - inLength_);
  setPos(pointAtLengthFraction(route_.path, length_, length_ > 0 ? along / length_ : 0));
}

// --- AxisMoveAnimator --------------------------------------------------------

AxisMoveAnimator::AxisMoveAnimator(GraphScene* scene, QObject* parent)
    : QObject(parent), scene_(scene), anim_(new QVariantAnimation(this)) {
  anim_->setStartValue(0.0);
  anim_->setEndValue(1.0);
  connect(anim_, &QVariantAnimation::valueChanged, this,
          [this](const QVariant& v) { advance(v.toReal()); });
  connect(anim_, &QVariantAnimation::finished, this, [this] {
    removeTokens();
    emit finished();
  });
}

AxisMoveAnimator::~AxisMoveAnimator() {
  anim_->stop();
  removeTokens();
}

int AxisMoveAnimator::start(const std::vector<GraphAxisMove>& moves, int durationMs) {
  cancel();
  if (durationMs <= 0 || !scene_ || !scene_->hasGraph()) return 0;
  const Mesh& mesh = scene_->model().legend.mesh;
  for (const GraphAxisMove& m : moves) {
    AxisMoveRoute route = axisMoveRoute(*scene_, m);
    if (!route.valid()) continue;
    auto* token = new AxisTokenItem(m, axisColor(&mesh, m.axisName), std::move(route));
    token->setOpacity(0);
    token->setViewport(viewport_);
    scene_->addItem(token);
    tokens_.emplace_back(token);
  }
  if (tokens_.empty()) return 0;
  // Chips leaving along the same edge travel side by side (a row centred on
  // the edge) rather than on top of each other.
  std::map<std::tuple<int, int, bool>, std::vector<AxisTokenItem*>> rows;
  for (const auto& t : tokens_)
    rows[{t->route().inEdge, t->route().inEdge >= 0 ? -1 : t->route().node, t->move().fromIsResult}]
        .push_back(t.data());
  for (auto& [key, row] : rows) {
    qreal w = 0;
    for (AxisTokenItem* t : row) w = std::max(w, t->boundingRect().width() - 8);
    const qreal n = static_cast<qreal>(row.size());
    for (size_t i = 0; i < row.size(); ++i) row[i]->setLateralOffset((qreal(i) - (n - 1) / 2) * (w + 4));
  }
  duration_ = durationMs;
  anim_->setDuration(durationMs);
  advance(0);
  anim_->start();
  emit started(static_cast<int>(tokens_.size()));
  return static_cast<int>(tokens_.size());
}

void AxisMoveAnimator::cancel() {
  anim_->stop();
  removeTokens();
}

bool AxisMoveAnimator::isRunning() const { return anim_->state() == QAbstractAnimation::Running; }

std::vector<AxisTokenItem*> AxisMoveAnimator::tokens() const {
  std::vector<AxisTokenItem*> out;
  for (const auto& t : tokens_)
    if (t) out.push_back(t.data());
  return out;
}

void AxisMoveAnimator::removeTokens() {
  for (auto& t : tokens_)
    if (t) delete t.data();  // removes it from the scene
  tokens_.clear();
}

void AxisMoveAnimator::advance(qreal t) {
  // Chips travel together (side by side on a shared edge), eased in and
  // out, fading in and out at the ends of the route.
  const size_t n = tokens_.size();
  static const QEasingCurve ease(QEasingCurve::InOutSine);
  bool any = false;
  for (size_t k = 0; k < n; ++k) {
    AxisTokenItem* token = tokens_[k].data();
    if (!token) continue;  // the scene was cleared
    any = true;
    const qreal local = std::clamp(t, 0.0, 1.0);
    token->setProgress(ease.valueForProgress(local));
    constexpr qreal kFade = 0.1;
    qreal opacity = 1;
    if (local < kFade) opacity = local / kFade;
    else if (local > 1 - kFade) opacity = (1 - local) / kFade;
    token->setOpacity(std::clamp(opacity, 0.0, 1.0));
  }
  if (!any && n > 0 && isRunning()) {
    anim_->stop();
    tokens_.clear();
  }
}

// --- Static markers ----------------------------------------------------------

int addAxisMoveMarkers(GraphScene& scene, const std::vector<GraphAxisMove>& moves) {
  if (!scene.hasGraph()) return 0;
  const Mesh& mesh = scene.model().legend.mesh;
  // One marker per (edge or stub, into/out of the node).
  std::map<std::tuple<int, int, bool, bool>, AxisMoveMarkerItem*> markers;
  int added = 0;
  for (const GraphAxisMove& m : moves) {
    const AxisMoveRoute r = axisMoveRoute(scene, m);
    if (!r.valid()) continue;
    const QColor color = axisColor(&mesh, m.axisName);
    for (const bool into : {true, false}) {
      const int edge = into ? r.inEdge : r.outEdge;
      const bool isResult = into ? m.fromIsResult : m.toIsResult;
      const auto key = std::make_tuple(edge, edge >= 0 ? -1 : r.node, isResult, into);
      AxisMoveMarkerItem*& item = markers[key];
      if (!item) {
        const QPainterPath& half = into ? r.in : r.out;
        const qreal len = half.length();
        // Into the node: 40% of the way along; away from it: 60%, so two
        // markers on one edge (moves both ways) do not overlap.
        const qreal t = 0.5 + (into ? -0.1 : 0.1);
        item = new AxisMoveMarkerItem(pointAtLengthFraction(half, len, t), tangentAt(half, len, t));
        scene.addItem(item);
        ++added;
      }
      item->addChip(m.label, color);
    }
  }
  for (const auto& [key, item] : markers) scene.includeInPicture(item->sceneBoundingRect());
  return added;
}

QString describeAxisMoves(const std::vector<GraphAxisMove>& moves, int maxMoves) {
  auto name = [](const ir::Value* v, const QString& tensor, bool isResult) -> QString {
    if (v) return toQString(api::valueName(*v));
    if (tensor == QLatin1String("?")) return QStringLiteral("?");
    return isResult ? QObject::tr("function result") : tensor;
  };
  QStringList parts;
  for (const GraphAxisMove& m : moves) {
    if (static_cast<int>(parts.size()) >= maxMoves) {
      parts << QStringLiteral("…");
      break;
    }
    parts << QStringLiteral("%1 %2 → %3")
                 .arg(m.label, name(m.from, m.fromTensor, m.fromIsResult),
                      name(m.to, m.toTensor, m.toIsResult));
  }
  return parts.join(QStringLiteral(" · "));
}

Picture axisMovesCaption(const propagation::TraceStep& step,
                         const std::vector<GraphAxisMove>& moves, const Mesh& mesh) {
  QFont head(QStringLiteral("DejaVu Sans"));
  head.setPixelSize(13);
  head.setBold(true);
  QFont body(QStringLiteral("DejaVu Sans"));
  body.setPixelSize(12);
  QFont mono(QStringLiteral("DejaVu Sans Mono"));
  mono.setPixelSize(11);
  struct Row {
    QString chip;  // axis chip (moves only)
    QColor color;
    QString text;
    QFont font;
    QColor pen;
  };
  std::vector<Row> rows;
  QString header = QObject::tr("Step %1 · %2").arg(step.step).arg(toQString(step.op));
  if (step.line) header += QObject::tr(" (line %1)").arg(step.line);
  if (!step.strategy.empty()) header += QStringLiteral(" · ") + toQString(step.strategy);
  rows.push_back({{}, {}, header, head, QColor(0x20, 0x20, 0x20)});
  if (!step.rule.empty())
    rows.push_back({{}, {}, QObject::tr("rule %1").arg(toQString(step.rule)), mono,
                    QColor(0x55, 0x55, 0x55)});
  auto side = [](const ir::Value* v, const QString& tensor, bool isResult) -> QString {
    const QString t = QString(tensor).replace(u'-', u' ');
    if (v) return toQString(api::valueName(*v)) + QStringLiteral(" (") + t + u')';
    if (tensor == QLatin1String("?")) return QObject::tr("an unknown tensor");
    return isResult ? QObject::tr("the function result") : t;
  };
  constexpr size_t kMaxRows = 12;
  for (size_t i = 0; i < moves.size() && i < kMaxRows; ++i) {
    const GraphAxisMove& m = moves[i];
    rows.push_back({m.label, axisColor(&mesh, m.axisName),
                    // One multi-arg call: value names such as "%2" must not
                    // be taken for placeholders of a later .arg().
                    QObject::tr("moved from %1 to %2 · factor %3")
                        .arg(side(m.from, m.fromTensor, m.fromIsResult),
                             side(m.to, m.toTensor, m.toIsResult),
                             toQString(OpShardingRule::factorName(m.factor))),
                    body, QColor(0x20, 0x20, 0x20)});
  }
  if (moves.size() > kMaxRows)
    rows.push_back({{}, {}, QObject::tr("… and %1 more move(s)").arg(moves.size() - kMaxRows),
                    body, QColor(0x55, 0x55, 0x55)});
  if (moves.empty())
    rows.push_back({{}, {}, QObject::tr("No axis moved in this step."), body,
                    QColor(0x55, 0x55, 0x55)});
  for (const auto& c : step.conflicts)
    rows.push_back({{}, {}, QObject::tr("conflict on factor %1: %2")
                                        .arg(toQString(OpShardingRule::factorName(c.factor)), toQString(c.reason)),
                    body, QColor(0xb0, 0x2a, 0x1a)});
  // Measure.
  qreal w = 0, h = 0;
  std::vector<qreal> heights;
  for (const Row& r : rows) {
    const QFontMetricsF fm(r.font);
    qreal rw = fm.horizontalAdvance(r.text), rh = fm.height() + 4;
    if (!r.chip.isEmpty()) {
      const QSizeF cs = chipSize(r.chip);
      rw += cs.width() + 8;
      rh = std::max(rh, cs.height() + 6);
    }
    w = std::max(w, rw);
    heights.push_back(rh);
    h += rh;
  }
  Picture pic;
  pic.size = QSizeF(w + 4, h);
  pic.paint = [rows, heights](QPainter& p) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    qreal y = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      qreal x = 2;
      if (!r.chip.isEmpty()) {
        const QSizeF cs = chipSize(r.chip);
        paintChip(&p, QRectF(QPointF(x, y + (heights[i] - cs.height()) / 2), cs), r.chip, r.color,
                  false);
        x += cs.width() + 8;
      }
      p.setFont(r.font);
      p.setPen(r.pen);
      p.drawText(QRectF(x, y, 10000, heights[i]), Qt::AlignLeft | Qt::AlignVCenter, r.text);
      y += heights[i];
    }
    p.restore();
  };
  return pic;
}

Picture stackPictures(const Picture& top, const Picture& bottom, double gap) {
  Picture out;
  out.size = QSizeF(std::max(top.size.width(), bottom.size.width()),
                    top.size.height() + gap + bottom.size.height());
  out.paint = [top, bottom, gap](QPainter& p) {
    if (top.paint) top.paint(p);
    p.save();
    p.translate(0, top.size.height() + gap);
    if (bottom.paint) bottom.paint(p);
    p.restore();
  };
  return out;
}

int axisAnimationDuration(double stepsPerSecond) {
  if (stepsPerSecond <= 0) return 0;
  const int d = static_cast<int>(std::lround(std::min(1600.0, 800.0 / stepsPerSecond)));
  return d < 120 ? 0 : d;
}

}  // namespace shardscope::widgets
