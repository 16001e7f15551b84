#include "partition_load_plot.h"

#include <qcustomplot.h>

#include "sparsecore/preprocessing.h"

namespace shardscope::plots {

namespace {
QColor tableColor(int i) {
  static const QColor palette[] = {
      QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
      QColor(0xb0, 0x7a, 0xa1), QColor(0xed, 0xc9, 0x48), QColor(0x76, 0xb7, 0xb2),
      QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};
  return palette[i % 9];
}

void limitLine(QCustomPlot* plot, double y, const QColor& color, const QString& label) {
  auto* line = new QCPItemStraightLine(plot);
  line->point1->setCoords(0, y);
  line->point2->setCoords(1, y);
  line->setPen(QPen(color, 1.5, Qt::DashLine));
  auto* text = new QCPItemText(plot);
  text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  text->position->setTypeY(QCPItemPosition::ptPlotCoords);
  text->position->setCoords(0.99, y);
  text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  text->setText(label);
  text->setColor(color);
}
}  // namespace

PartitionLoadPlot::PartitionLoadPlot(QWidget* parent) : SparseCorePlot(parent) {
  plot()->xAxis->setLabel(QStringLiteral("partition (destination SparseCore)"));
  plot()->yAxis->setLabel(QStringLiteral("ids"));
}

void PartitionLoadPlot::clear() {
  reset();
  finish(false);
}

void PartitionLoadPlot::setStats(const sc::StackStats& stats, Measure measure) {
  reset();
  QCustomPlot* p = plot();
  const int n = stats.partitions;
  QVector<double> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = i;
  double top = 0;

  if (measure == Measure::TotalPerTable) {
    QCPBars* below = nullptr;
    QVector<double> sum(n, 0);
    for (size_t m = 0; m < stats.memberIdsPerPartition.size(); ++m) {
      auto* bars = new QCPBars(p->xAxis, p->yAxis);
      QVector<double> values(n);
      for (int i = 0; i < n; ++i) {
        values[i] = double(stats.memberIdsPerPartition[m][i]);
        sum[i] += values[i];
      }
      bars->setData(keys, values, true);
      bars->setName(m < stats.tables.size() ? QString::fromStdString(stats.tables[m])
                                            : QString::number(m));
      bars->setBrush(tableColor(int(m)));
      bars->setPen(Qt::NoPen);
      bars->setWidth(0.8);
      if (below) bars->moveAbove(below);
      below = bars;
    }
    for (double v : sum) top = std::max(top, v);
    p->yAxis->setLabel(QStringLiteral("ids (sum over source SparseCores)"));
  } else {
    auto* bars = new QCPBars(p->xAxis, p->yAxis);
    QVector<double> values(n), unique(n);
    for (int i = 0; i < n; ++i) {
      values[i] = double(stats.maxIdsPerPartition[i]);
      unique[i] = double(stats.maxUniqueIdsPerPartition[i]);
      top = std::max(top, values[i]);
    }
    bars->setData(keys, values, true);
    bars->setName(QStringLiteral("max_ids_per_partition"));
    bars->setBrush(tableColor(0));
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.8);
    auto* marks = p->addGraph();
    marks->setData(keys, unique, true);
    marks->setName(QStringLiteral("max_unique_ids_per_partition"));
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0xe1, 0x57, 0x59),
                                           QColor(0xe1, 0x57, 0x59), 7));
    p->yAxis->setLabel(QStringLiteral("ids (max over source SparseCores)"));
    limitLine(p, double(stats.maxIdsLimit), QColor(0xc0, 0x39, 0x2b),
              QStringLiteral("max_ids_per_partition %1").arg(stats.maxIdsLimit));
    if (stats.maxUniqueIdsLimit != stats.maxIdsLimit)
      limitLine(p, double(stats.maxUniqueIdsLimit), QColor(0x8e, 0x44, 0xad),
                QStringLiteral("max_unique_ids_per_partition %1").arg(stats.maxUniqueIdsLimit));
    top = std::max(top, double(std::max(stats.maxIdsLimit, stats.maxUniqueIdsLimit)));
  }
  setTitle(QStringLiteral("Partition load: %1").arg(QString::fromStdString(stats.name)));
  p->legend->setVisible(true);
  p->xAxis->setRange(-0.6, n - 0.4);
  p->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
  finish(n > 0);
}

}  // namespace shardscope::plots
