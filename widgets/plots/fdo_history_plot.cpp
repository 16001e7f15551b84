#include "fdo_history_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot_palette.h"
#include "sparsecore/fdo_stats.h"

namespace shardscope::plots {

namespace {

// `rightSide`: the label sits at the right end of the line, else at the left,
// so the two series' labels (often close in value) do not cover each other.
void limitLine(QCustomPlot* plot, double y, const QColor& color, const QString& label, bool rightSide) {
  auto* line = new QCPItemStraightLine(plot);
  line->point1->setCoords(0, y);
  line->point2->setCoords(1, y);
  line->setPen(QPen(color, 1.3, Qt::DashLine));
  auto* text = new QCPItemText(plot);
  text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  text->position->setTypeY(QCPItemPosition::ptPlotCoords);
  text->position->setCoords(rightSide ? 0.995 : 0.005, y);
  text->setPositionAlignment((rightSide ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
  text->setText(label);
  text->setColor(color.darker(130));
  text->setBrush(QColor(255, 255, 255, 230));
  text->setPadding(QMargins(3, 1, 3, 1));
  text->setFont(QFont(plot->font().family(), 8));
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
  plot()->xAxis->setLabel(QStringLiteral("recorded batch"));
  plot()->yAxis->setLabel(QStringLiteral("ids (maximum over partitions)"));
  clear();
}

FdoHistoryPlot::~FdoHistoryPlot() = default;

void FdoHistoryPlot::clear() { clearPlot(QStringLiteral("FDO statistics: open a statistics file")); }

void FdoHistoryPlot::setTable(const sc::TableStats& table, const sc::LimitSuggestion& s) {
  reset();
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
    if (!choices.empty())
      limitLine(p, double(choices.front().limit), color, choiceLabel(name, choices.front(), batches), right);
    if (choices.size() > 1)
      limitLine(p, double(choices.back().limit), color.lighter(120), choiceLabel(name, choices.back(), batches), right);
  }
  if (series == 0) {
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

}  // namespace shardscope::plots
