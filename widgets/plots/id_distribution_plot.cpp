#include "id_distribution_plot.h"

#include <qcustomplot.h>

#include <QResizeEvent>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "plot_palette.h"
#include "plot_text.h"
#include "sparsecore/job.h"

namespace shardscope::plots {

IdDistribution computeIdDistribution(const sc::Job& job, int maxPoints) {
  IdDistribution d;
  maxPoints = std::max(maxPoints, 8);
  for (const sc::TableSpec& table : job.tables) {
    std::vector<uint32_t> ids;
    for (const sc::FeatureSpec& f : job.features)
      if (f.table == table.name) ids.insert(ids.end(), f.ids.ids.begin(), f.ids.ids.end());
    if (ids.empty()) continue;
    std::sort(ids.begin(), ids.end());
    std::vector<int64_t> counts;
    for (size_t i = 0; i < ids.size();) {
      size_t j = i;
      while (j < ids.size() && ids[j] == ids[i]) ++j;
      counts.push_back(int64_t(j - i));
      i = j;
    }
    std::sort(counts.begin(), counts.end(), std::greater<>());
    IdDistribution::Series s;
    s.table = table.name;
    s.lookups = int64_t(ids.size());
    s.distinct = int64_t(counts.size());
    s.topCount = counts.front();
    // Log-spaced ranks 1..distinct (every rank while there are few).
    const double last = double(counts.size());
    int64_t previous = 0;
    for (int k = 0; k < maxPoints; ++k) {
      const double r = std::pow(last, double(k) / double(maxPoints - 1));
      const int64_t rank = std::clamp<int64_t>(int64_t(std::llround(r)), 1, int64_t(counts.size()));
      if (rank == previous) continue;
      previous = rank;
      s.rank.push_back(double(rank));
      s.count.push_back(double(counts[size_t(rank - 1)]));
    }
    // Slope of log(count) over log(rank), least squares on the sampled points.
    if (s.rank.size() >= 2) {
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      const double n = double(s.rank.size());
      for (size_t i = 0; i < s.rank.size(); ++i) {
        const double x = std::log(s.rank[i]), y = std::log(s.count[i]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
      }
      const double den = n * sxx - sx * sx;
      s.slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
    }
    d.series.push_back(std::move(s));
  }
  return d;
}

IdDistributionPlot::IdDistributionPlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  for (QCPAxis* axis : {p->xAxis, p->yAxis}) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("eb"));
    axis->setNumberPrecision(0);
    axis->grid()->setSubGridVisible(true);
    axis->grid()->setSubGridPen(QPen(QColor(0xe6, 0xe6, 0xe6), 0, Qt::DotLine));
  }
  // Legend to the right of the axes: one line per table never hides a curve.
  p->axisRect()->insetLayout()->take(p->legend);
  p->plotLayout()->addElement(1, 1, p->legend);
  p->plotLayout()->setColumnStretchFactor(1, 0.001);
  p->legend->setBorderPen(Qt::NoPen);
  p->legend->setFont(QFont(font().family(), 8));
  p->legend->setLayer(QStringLiteral("legend"));
  p->xAxis->setLabel(QStringLiteral("id rank (1 = most looked-up)"));
  p->yAxis->setLabel(QStringLiteral("lookups of the id"));
}

void IdDistributionPlot::setDistribution(const IdDistribution& distribution, int maxSeries) {
  reset();
  QCustomPlot* p = plot();
  std::vector<size_t> order(distribution.series.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return distribution.series[a].lookups > distribution.series[b].lookups;
  });
  if (int(order.size()) > maxSeries) order.resize(size_t(maxSeries));
  double maxRank = 1, maxCount = 1;
  seriesCount_ = 0;
  for (size_t i : order) {
    const IdDistribution::Series& s = distribution.series[i];
    auto* graph = p->addGraph();
    QVector<double> x(s.rank.begin(), s.rank.end()), y(s.count.begin(), s.count.end());
    graph->setData(x, y, true);
    const QColor color = seriesColor(seriesCount_);
    graph->setPen(QPen(color, 1.8));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setName(QStringLiteral("%1\n%2 lookups, %3 distinct, slope %4")
                       .arg(QString::fromStdString(s.table))
                       .arg(s.lookups)
                       .arg(s.distinct)
                       .arg(s.slope, 0, 'f', 2));
    if (!s.rank.empty()) maxRank = std::max(maxRank, s.rank.back());
    maxCount = std::max(maxCount, double(s.topCount));
    ++seriesCount_;
  }
  const int hidden = int(distribution.series.size()) - seriesCount_;
  p->xAxis->setRange(0.8, maxRank * 1.5);
  p->yAxis->setRange(0.8, maxCount * 2.0);
  p->legend->setVisible(seriesCount_ > 0);
  setTitle(hidden > 0 ? QStringLiteral("Id distribution (rank / frequency, log-log; %1 busiest of %2)")
                            .arg(seriesCount_)
                            .arg(countOf(qint64(distribution.series.size()), "table"))
                      : QStringLiteral("Id distribution (rank / frequency, log-log)"));
  finish(seriesCount_ > 0);
}

void IdDistributionPlot::resizeEvent(QResizeEvent* e) {
  layOutFor(e->size().width(), textScale());
  SparseCorePlot::resizeEvent(e);  // fits the legend row's columns to the width
}

void IdDistributionPlot::layOutFor(int width, double scale) const {
  const bool below = width < kLegendBesideMinWidth * scale;
  if (below == legendBelow_) return;
  legendBelow_ = below;
  QCustomPlot* p = plot();
  QCPLayoutGrid* grid = p->plotLayout();
  grid->take(p->legend);
  grid->simplify();  // the emptied row or column goes
  if (below) {
    const int row = grid->rowCount();
    grid->insertRow(row);
    grid->addElement(row, 0, p->legend);
    grid->setRowStretchFactor(row, 0.001);
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    p->legend->setWrap(2);
    p->legend->setProperty(kLegendWrapProperty, 2);
  } else {
    p->legend->setProperty(kLegendWrapProperty, 0);  // not a row: wrapTexts leaves it
    p->legend->setWrap(0);
    p->legend->setFillOrder(QCPLegend::foRowsFirst, true);
    grid->addElement(1, 1, p->legend);
    grid->setColumnStretchFactor(1, 0.001);
  }
}

}  // namespace shardscope::plots
