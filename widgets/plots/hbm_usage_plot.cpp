#include "hbm_usage_plot.h"

#include <qcustomplot.h>

#include "sparsecore/analysis.h"

namespace shardscope::plots {

HbmUsagePlot::HbmUsagePlot(QWidget* parent) : SparseCorePlot(parent) {
  plot()->yAxis->setLabel(QStringLiteral("MiB per chip"));
}

void HbmUsagePlot::setReport(const sc::AnalysisReport& report) {
  reset();
  QCustomPlot* p = plot();
  constexpr double kMiB = 1024.0 * 1024.0;
  const double devices = std::max(1, report.devices);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  QVector<double> keys, useful, padding;
  int k = 0;
  for (const sc::TableReport& t : report.tables)
    for (const sc::TableMemory& m : t.memberMemory) {
      keys << k;
      useful << double(m.usefulBytes) / devices / kMiB;
      padding << double(m.wasteBytes) / devices / kMiB;
      ticker->addTick(k, QString::fromStdString(m.name));
      ++k;
    }
  auto* usefulBars = new QCPBars(p->xAxis, p->yAxis);
  usefulBars->setData(keys, useful, true);
  usefulBars->setName(QStringLiteral("table rows"));
  usefulBars->setBrush(QColor(0x59, 0xa1, 0x4f));
  usefulBars->setPen(Qt::NoPen);
  auto* paddingBars = new QCPBars(p->xAxis, p->yAxis);
  paddingBars->setData(keys, padding, true);
  paddingBars->setName(QStringLiteral("padding (width to 8 floats, vocab to 8 x N)"));
  paddingBars->setBrush(QColor(0xe1, 0x57, 0x59));
  paddingBars->setPen(Qt::NoPen);
  paddingBars->moveAbove(usefulBars);

  // Chip total: tables + stack + heap.
  const double total = k + 1;  // one empty slot before the total
  ticker->addTick(total, QStringLiteral("chip total"));
  const std::pair<double, QColor> parts[] = {
      {double(report.memory.hbmTablesPerChip) / kMiB, QColor(0x4e, 0x79, 0xa7)},
      {double(report.memory.hbmStackPerChip) / kMiB, QColor(0xb0, 0x7a, 0xa1)},
      {double(report.memory.hbmHeapPerChip) / kMiB, QColor(0xed, 0xc9, 0x48)}};
  const char* names[] = {"tables (all, padded)", "SparseCore HBM stack", "prefetch heap"};
  QCPBars* below = nullptr;
  for (int i = 0; i < 3; ++i) {
    auto* bars = new QCPBars(p->xAxis, p->yAxis);
    bars->addData(total, parts[i].first);
    bars->setName(QString::fromLatin1(names[i]));
    bars->setBrush(parts[i].second);
    bars->setPen(Qt::NoPen);
    if (below) bars->moveAbove(below);
    below = bars;
  }
  double top = 0;
  for (int i = 0; i < keys.size(); ++i) top = std::max(top, useful[i] + padding[i]);
  top = std::max(top, double(report.memory.hbmTotalPerChip()) / kMiB);
  const double capacity = double(report.memory.hbmCapacityPerChip) / kMiB;
  auto* label = new QCPItemText(p);
  label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  label->position->setType(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(0.01, 0.01);
  label->setText(
      QStringLiteral("per chip: %1 MiB of %2 MiB HBM (%3%)")
          .arg(double(report.memory.hbmTotalPerChip()) / kMiB, 0, 'f', 1)
          .arg(capacity, 0, 'f', 0)
          .arg(100.0 * double(report.memory.hbmTotalPerChip()) / std::max(1.0, capacity * kMiB), 0,
               'f', 2));
  p->xAxis->setTicker(ticker);
  p->xAxis->setTickLabelRotation(keys.size() > 6 ? 60 : 0);
  p->xAxis->setRange(-0.6, total + 0.6);
  p->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
  p->legend->setVisible(true);
  p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
  setTitle(QStringLiteral("HBM use per chip"));
  finish(k > 0);
}

}  // namespace shardscope::plots
