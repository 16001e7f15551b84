#include "fdo_history_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot_palette.h"
#include "sparsecore/fdo_stats.h"

namespace shardscope::plots {

namespace {

// A dashed limit line at `y` and its label; placeLabels() puts the label
// where it covers nothing once the layout is known.
QCPItemText* limitLine(QCustomPlot* plot, double y, const QColor& color, const QString& label) {
  auto* line = new QCPItemStraightLine(plot);
  line->point1->setCoords(0, y);
  line->point2->setCoords(1, y);
  line->setPen(QPen(color, 1.3, Qt::DashLine));
  auto* text = new QCPItemText(plot);
  text->position->setType(QCPItemPosition::ptAbsolute);
  text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  text->setTextAlignment(Qt::AlignLeft);
  text->setText(label);
  text->setColor(color.darker(130));
  text->setBrush(QColor(255, 255, 255, 230));
  text->setPadding(QMargins(3, 1, 3, 1));
  text->setFont(QFont(plot->font().family(), 8));
  // Under the series: where a narrow plot leaves no free place, the lines
  // stay visible over the label's box rather than cut by it.
  text->setLayer(QStringLiteral("grid"));
  return text;
}

// True when the segment a-b passes through `r`.
bool crosses(const QRectF& r, QPointF a, QPointF b) {
  if (r.contains(a) || r.contains(b)) return true;
  const QLineF seg(a, b);
  const QLineF edges[] = {{r.topLeft(), r.topRight()},
                          {r.topRight(), r.bottomRight()},
                          {r.bottomRight(), r.bottomLeft()},
                          {r.bottomLeft(), r.topLeft()}};
  for (const QLineF& e : edges)
    if (seg.intersects(e, nullptr) == QLineF::BoundedIntersection) return true;
  return false;
}

// The label's words on two lines, broken after the colon ("max ids max =
// 40:" / "nothing over it"), for plots narrower than the one-line label.
QString twoLines(const QString& text) {
  const qsizetype colon = text.indexOf(QLatin1String(": "));
  return colon < 0 ? text : text.left(colon + 1) + u'\n' + text.mid(colon + 2);
}

QString choiceLabel(const char* what, const sc::LimitChoice& c, size_t batches) {
  QString cost = c.droppedIdsAtLeast == 0
                     ? QStringLiteral("nothing over it")
                     : QStringLiteral(">= %1 ids over it in %2 of %3 batches")
                           .arg(c.droppedIdsAtLeast)
                           .arg(c.batchesOverLimit)
                           .arg(batches);
  return QStringLiteral("%1 %2 = %3: %4").arg(QLatin1String(what), QString::fromStdString(c.label)).arg(c.limit).arg(cost);
}

}  // namespace

FdoHistoryPlot::FdoHistoryPlot(QWidget* parent) : SparseCorePlot(parent) {
  moveLegendToRow(2, 4);
  // After the layout and before drawing: the pixels of the axes are known.
  connect(plot(), &QCustomPlot::afterLayout, this, &FdoHistoryPlot::placeLabels);
  plot()->xAxis->setLabel(QStringLiteral("recorded batch"));
  // Batches are keys from 0: no solid zero line through batch 0 (the other
  // batches have the dotted grid line).
  plot()->xAxis->grid()->setZeroLinePen(Qt::NoPen);
  plot()->yAxis->setLabel(QStringLiteral("ids (maximum over partitions)"));
  clear();
}

FdoHistoryPlot::~FdoHistoryPlot() = default;

void FdoHistoryPlot::clear() {
  labels_.clear();
  clearPlot(QStringLiteral("FDO statistics: open a statistics file"));
}

void FdoHistoryPlot::setTable(const sc::TableStats& table, const sc::LimitSuggestion& s) {
  reset();
  labels_.clear();
  QCustomPlot* p = plot();
  const size_t batches = s.batches;
  setTitle(QStringLiteral("%1: %2 %3 x %4 %5")
               .arg(QString::fromStdString(table.table))
               .arg(batches)
               .arg(batches == 1 ? QStringLiteral("batch") : QStringLiteral("batches"))
               .arg(s.partitions)
               .arg(s.partitions == 1 ? QStringLiteral("partition") : QStringLiteral("partitions")));
  double top = 1;
  int series = 0;
  const std::pair<sc::StatKind, const char*> kinds[] = {{sc::StatKind::MaxIds, "max ids"},
                                                        {sc::StatKind::MaxUniqueIds, "max unique ids"}};
  for (auto [kind, name] : kinds) {
    const auto& m = table.of(kind);
    if (!m || m->values.empty()) continue;
    std::vector<int64_t> perBatch = m->rowMaxima();
    QVector<double> x, y;
    for (size_t b = 0; b < perBatch.size(); ++b) {
      x << double(b);
      y << double(perBatch[b]);
      top = std::max(top, double(perBatch[b]));
    }
    auto* g = p->addGraph();
    g->setName(QLatin1String(name));
    const QColor color = seriesColor(series++);
    g->setPen(QPen(color, 2));
    g->setLineStyle(perBatch.size() == 1 ? QCPGraph::lsNone : QCPGraph::lsLine);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, perBatch.size() > 200 ? 2 : 6));
    g->setData(x, y, true);
    const std::vector<sc::LimitChoice>& choices =
        kind == sc::StatKind::MaxIds ? s.maxIdsChoices : s.maxUniqueIdsChoices;
    // The reference's choice (max) and the cheapest listed one.
    const bool right = kind == sc::StatKind::MaxIds;
    auto add = [&](const sc::LimitChoice& c, const QColor& lineColor) {
      const QString text = choiceLabel(name, c, batches);
      labels_.push_back({limitLine(p, double(c.limit), lineColor, text), double(c.limit), right, text});
    };
    if (!choices.empty()) add(choices.front(), color);
    if (choices.size() > 1) add(choices.back(), color.lighter(120));
  }
  if (series == 0) {
    labels_.clear();
    clearPlot(QStringLiteral("%1: no max ids recorded").arg(QString::fromStdString(table.table)));
    return;
  }
  p->legend->setVisible(true);
  p->xAxis->setRange(-0.5, std::max<double>(0.5, double(batches) - 0.5));
  p->yAxis->setRange(0, top * 1.18);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(batches <= 20 ? 1.0 : std::max(1.0, double(batches / 10)));
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  p->xAxis->setTicker(ticker);
  finish(true);
}

QRectF FdoHistoryPlot::axisRectInPixels() const { return QRectF(plot()->axisRect()->rect()); }

std::vector<QPolygonF> FdoHistoryPlot::seriesInPixels() const {
  std::vector<QPolygonF> out;
  for (int i = 0; i < plot()->graphCount(); ++i) {
    QCPGraph* g = plot()->graph(i);
    QPolygonF line;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
      line << g->coordsToPixels(it->key, it->value);
    out.push_back(line);
  }
  return out;
}

std::vector<FdoHistoryPlot::LimitLabel> FdoHistoryPlot::limitLabels() const {
  std::vector<LimitLabel> out;
  for (const Label& l : labels_)
    out.push_back({l.item->text(),
                   QRectF(l.item->topLeft->pixelPosition(), l.item->bottomRight->pixelPosition()),
                   plot()->yAxis->coordToPixel(l.value)});
  return out;
}

void FdoHistoryPlot::placeLabels() {
  if (labels_.empty()) return;
  const QRectF area = axisRectInPixels().adjusted(2, 2, -2, -2);
  // What a label must not cover: the series (a point's marker is up to 6 px
  // wide) and every limit line (its own only touches its edge: gap below).
  const std::vector<QPolygonF> series = seriesInPixels();
  std::vector<double> lines;
  for (const Label& l : labels_) lines.push_back(plot()->yAxis->coordToPixel(l.value));
  constexpr qreal gap = 3;
  std::vector<QRectF> placed;
  for (size_t i = 0; i < labels_.size(); ++i) {
    Label& l = labels_[i];
    const QMargins pad = l.item->padding();
    const QFontMetricsF fm(l.item->font());
    auto boxSize = [&](const QString& text) {
      const QRectF r = fm.boundingRect(QRectF(0, 0, 1e6, 1e6), Qt::AlignLeft, text);
      return QSizeF(r.width() + pad.left() + pad.right(), r.height() + pad.top() + pad.bottom());
    };
    // How much a box covers; 0 is a free place.
    auto cost = [&](const QRectF& box) {
      double c = 0;
      if (!area.contains(box)) c += 1000;
      const QRectF marks = box.adjusted(-4, -4, 4, 4);
      for (const QPolygonF& s : series) {
        for (qsizetype k = 0; k < s.size(); ++k) {
          if (marks.contains(s[k])) c += 10;
          if (k > 0 && crosses(box, s[k - 1], s[k])) c += 10;
        }
      }
      for (size_t j = 0; j < lines.size(); ++j)
        if (lines[j] > box.top() && lines[j] < box.bottom()) c += j == i ? 100 : 20;
      for (const QRectF& other : placed)
        if (other.intersects(box)) {
          const QRectF both = other.intersected(box);
          c += 50 + both.width() * both.height() / 10;
        }
      return c;
    };
    // The words on one line when they fit the plot, then on two; for each,
    // in order of preference: the preferred end above the line, the other
    // end, then below; then slid along the line in eighths. The first free
    // place wins, else the one that covers least.
    const double y = lines[i];
    QStringList variants;
    if (boxSize(l.text).width() <= area.width()) variants << l.text;
    variants << twoLines(l.text);
    QRectF best;
    QString text;
    double bestCost = -1;
    for (const QString& variant : variants) {
      const QSizeF size = boxSize(variant);
      const double above = y - gap - size.height(), below = y + gap;
      const double leftX = area.left(), rightX = area.right() - size.width();
      std::vector<QPointF> candidates;
      for (double top : {above, below}) {
        candidates.emplace_back(l.rightSide ? rightX : leftX, top);
        candidates.emplace_back(l.rightSide ? leftX : rightX, top);
      }
      for (double top : {above, below})
        for (int k = 1; k < 8; ++k) {
          const double t = l.rightSide ? 1 - k / 8.0 : k / 8.0;
          candidates.emplace_back(leftX + t * std::max(0.0, rightX - leftX), top);
        }
      for (const QPointF& at : candidates) {
        const QRectF box(at, size);
        const double c = cost(box);
        if (bestCost < 0 || c < bestCost) {
          best = box;
          text = variant;
          bestCost = c;
        }
        if (c == 0) break;
      }
      if (bestCost == 0) break;
    }
    l.item->setText(text);
    l.item->position->setCoords(best.topLeft());
    placed.push_back(best);
  }
}

}  // namespace shardscope::plots
