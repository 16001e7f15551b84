#include "spmem_occupancy_plot.h"

#include <qcustomplot.h>

#include "sparsecore/analysis.h"

namespace shardscope::plots {

SpmemOccupancyPlot::SpmemOccupancyPlot(QWidget* parent) : SparseCorePlot(parent) {
  plot()->xAxis->setLabel(QStringLiteral("KiB per tile"));
}

void SpmemOccupancyPlot::setReport(const sc::AnalysisReport& report) {
  reset();
  QCustomPlot* p = plot();
  const int n = int(report.tables.size());
  QVector<double> keys(n), fixed(n), gather(n);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double capacity = 0, top = 0;
  for (int i = 0; i < n; ++i) {
    const sc::SpmemEstimate& e = report.tables[i].memory.spmem;
    keys[i] = i;
    fixed[i] = double(e.fixedBytesPerTile) / 1024.0;
    gather[i] = double(e.gatherBytesPerTile) / 1024.0;
    capacity = double(e.capacityPerTile) / 1024.0;
    top = std::max(top, fixed[i] + gather[i]);
    QString name = QString::fromStdString(report.tables[i].stats.name);
    if (name.size() > 28) name = name.left(25) + QStringLiteral("...");
    ticker->addTick(i, name);
  }
  // Horizontal bars: the key axis is the y axis.
  auto* fixedBars = new QCPBars(p->yAxis, p->xAxis);
  fixedBars->setData(keys, fixed, true);
  fixedBars->setName(QStringLiteral("fixed allocations (limits)"));
  fixedBars->setBrush(QColor(0x4e, 0x79, 0xa7));
  fixedBars->setPen(Qt::NoPen);
  auto* gatherBars = new QCPBars(p->yAxis, p->xAxis);
  gatherBars->setData(keys, gather, true);
  gatherBars->setName(QStringLiteral("gather operand (batch x width)"));
  gatherBars->setBrush(QColor(0xf2, 0x8e, 0x2b));
  gatherBars->setPen(Qt::NoPen);
  gatherBars->moveAbove(fixedBars);

  auto* line = new QCPItemStraightLine(p);
  line->point1->setCoords(capacity, 0);
  line->point2->setCoords(capacity, 1);
  line->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.5, Qt::DashLine));
  auto* label = new QCPItemText(p);
  label->position->setTypeX(QCPItemPosition::ptPlotCoords);
  label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(capacity, 0.0);
  label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
  label->setText(QStringLiteral("TileSpmem %1 KiB").arg(capacity));
  label->setColor(QColor(0xc0, 0x39, 0x2b));

  p->yAxis->setTicker(ticker);
  p->yAxis->setRange(-0.6, n - 0.4);
  p->xAxis->setRange(0, std::max(top, capacity) * 1.1);
  p->legend->setVisible(true);
  p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  setTitle(
      QStringLiteral("SPMEM occupancy per tile (%1)").arg(QString::fromStdString(report.chip)));
  finish(n > 0);
}

}  // namespace shardscope::plots
