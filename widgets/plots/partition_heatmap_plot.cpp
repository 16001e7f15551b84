#include "partition_heatmap_plot.h"

#include <qcustomplot.h>

#include "sparsecore/fdo_stats.h"

namespace shardscope::plots {

PartitionHeatmapPlot::PartitionHeatmapPlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  p->xAxis->setLabel(QStringLiteral("recorded batch"));
  scale_ = new QCPColorScale(p);
  p->plotLayout()->addElement(1, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  scale_->axis()->setLabel(QStringLiteral("ids"));
  // The colour scale's height follows the axis rect.
  auto* group = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  clear();
}

PartitionHeatmapPlot::~PartitionHeatmapPlot() = default;

void PartitionHeatmapPlot::clear() {
  if (map_) {
    plot()->removePlottable(map_);
    map_ = nullptr;
  }
  showScale(false);
  clearPlot(QStringLiteral("Partitions by batch: open a statistics file"));
}

void PartitionHeatmapPlot::showScale(bool show) {
  QCPLayoutGrid* grid = plot()->plotLayout();
  const bool placed = grid->hasElement(1, 1) && grid->element(1, 1) == scale_;
  if (show && !placed) {
    grid->addElement(1, 1, scale_);
  } else if (!show && placed) {
    grid->take(scale_);
    grid->simplify();  // the emptied column goes: the map takes the width
  }
  scale_->setVisible(show);
}

void PartitionHeatmapPlot::setMatrix(const QString& title, const sc::StatMatrix& m, const QString& rowName,
                                     const QString& xLabel, const QStringList& xNames) {
  reset();  // removes the old map with the other plottables
  map_ = nullptr;
  QCustomPlot* p = plot();
  setTitle(title);
  if (m.values.empty() || m.cols == 0) {
    showScale(false);
    finish(false);
    return;
  }
  const int batches = static_cast<int>(m.rows());
  const int rows = static_cast<int>(m.cols);
  map_ = new QCPColorMap(p->xAxis, p->yAxis);
  map_->data()->setSize(batches, rows);
  map_->data()->setRange(QCPRange(0, std::max(0, batches - 1)), QCPRange(0, std::max(0, rows - 1)));
  for (int b = 0; b < batches; ++b)
    for (int r = 0; r < rows; ++r) map_->data()->setCell(b, r, double(m.at(size_t(b), size_t(r))));
  map_->setColorScale(scale_);
  QCPColorGradient gradient(QCPColorGradient::gpThermal);
  map_->setGradient(gradient);
  map_->setInterpolate(false);
  // From zero, so a partition at twice the others reads twice as bright
  // (a range from the minimum would make any small difference look hot).
  map_->setDataRange(QCPRange(0, std::max<double>(1, double(m.max()))));
  showScale(true);
  p->yAxis->setLabel(rowName);
  p->xAxis->setLabel(xLabel);
  if (!xNames.isEmpty()) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int step = std::max(1, batches / 40);  // at most ~40 names
    for (int b = 0; b < batches && b < xNames.size(); b += step) ticker->addTick(b, xNames[b]);
    p->xAxis->setTicker(ticker);
    p->xAxis->setTickLabelRotation(batches > 8 ? 60 : 0);
  } else {
    p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    p->xAxis->setTickLabelRotation(0);
  }
  p->xAxis->setRange(-0.5, batches - 0.5);
  p->yAxis->setRange(-0.5, rows - 0.5);
  finish(true);
}

}  // namespace shardscope::plots
