#include "hbm_usage_plot.h"

#include <qcustomplot.h>

#include <cmath>

#include "plot_palette.h"
#include "sparsecore/analysis.h"

namespace shardscope::plots {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

HbmUsagePlot::HbmUsagePlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  // Rows: title, caption, legend, panels; one column, so that the title,
  // caption and legend span the whole width. The two panels (per table |
  // chip total) share the last row in a grid of their own: in the outer
  // grid the totals panel's column left the legend 4/5 of the width, and
  // below ~560 px one entry did not fit it.
  p->plotLayout()->insertRow(1);
  caption_ = new QCPTextElement(p, QString(), QFont(font().family(), 9));
  caption_->setTextColor(QColor(0x33, 0x33, 0x33));
  p->plotLayout()->addElement(1, 0, caption_);
  moveLegendToRow(2, 3);
  const int panelRow = p->plotLayout()->rowCount() - 1;
  QCPAxisRect* perTable = p->axisRect();
  p->plotLayout()->take(perTable);  // its cell is left empty for the panels' grid
  auto* panels = new QCPLayoutGrid;
  p->plotLayout()->addElement(panelRow, 0, panels);
  panels->setColumnSpacing(0);
  panels->addElement(0, 0, perTable);
  total_ = new QCPAxisRect(p);
  panels->addElement(0, 1, total_);
  panels->setColumnStretchFactor(0, 4);
  total_->setMinimumSize(150, 50);
  panels->setColumnStretchFactor(1, 1);
  for (QCPAxis* a : total_->axes()) a->setLayer(QStringLiteral("axes"));
  total_->axis(QCPAxis::atBottom)->grid()->setLayer(QStringLiteral("grid"));
  total_->axis(QCPAxis::atLeft)->grid()->setLayer(QStringLiteral("grid"));
  total_->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("GiB per chip"));
  // Left panel: a linear scale in MiB. (A log scale drew 0.001 MiB of padding
  // as tall as a whole table; the share of padding is written on each bar.)
  p->yAxis->setLabel(QStringLiteral("MiB per chip"));
}

HbmUsagePlot::~HbmUsagePlot() = default;

void HbmUsagePlot::setReport(const sc::AnalysisReport& report) {
  reset();
  QCustomPlot* p = plot();
  const double devices = std::max(1, report.devices);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  QVector<double> keys, useful, padding;
  int k = 0;
  for (const sc::TableReport& t : report.tables)
    for (const sc::TableMemory& m : t.memberMemory) {
      keys << k;
      const double u = double(m.usefulBytes) / devices / kMiB;
      const double w = double(m.wasteBytes) / devices / kMiB;
      useful << (u > 0 ? u : qQNaN());
      padding << (w > 0 ? w : qQNaN());
      ticker->addTick(k, QStringLiteral("%1 (w%2)").arg(QString::fromStdString(m.name)).arg(m.width));
      ++k;
    }
  // Rows and their padding stacked: a bar's height is the table's footprint,
  // its red top the part lost to padding.
  auto* usefulBars = new QCPBars(p->xAxis, p->yAxis);
  usefulBars->setData(keys, useful, true);
  usefulBars->setName(QStringLiteral("table rows (+ optimizer slots)"));
  usefulBars->setBrush(QColor(0x59, 0xa1, 0x4f));
  usefulBars->setPen(Qt::NoPen);
  usefulBars->setWidth(0.6);
  auto* paddingBars = new QCPBars(p->xAxis, p->yAxis);
  paddingBars->setData(keys, padding, true);
  paddingBars->setName(QStringLiteral("padding waste (width 8, vocab 8N)"));
  paddingBars->setBrush(errorColor());
  paddingBars->setPen(Qt::NoPen);
  paddingBars->setWidth(0.6);
  paddingBars->moveAbove(usefulBars);
  double tallest = 0;
  for (int i = 0; i < k; ++i) {
    const double u = std::isnan(useful[i]) ? 0 : useful[i], w = std::isnan(padding[i]) ? 0 : padding[i];
    tallest = std::max(tallest, u + w);
  }
  // Tables that lose 1% or more to padding get their share written upwards
  // from the bar top (vertical text: neighbouring bars never collide),
  // starting above the x axis's tick marks, which point up into the plot:
  // on a bar near zero they crossed the first characters ("01% padding"
  // for 0.01%).
  const int clearance = p->xAxis->tickLengthIn() + 4;
  for (int i = 0; i < k; ++i) {
    const double u = std::isnan(useful[i]) ? 0 : useful[i], w = std::isnan(padding[i]) ? 0 : padding[i];
    if (u + w <= 0 || w / (u + w) < 0.01) continue;
    const double pct = 100.0 * w / (u + w);
    auto* share = new QCPItemText(p);
    share->position->setCoords(i, u + w);
    share->setRotation(-90);
    share->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    share->setPadding(QMargins(clearance, 0, 0, 0));
    // One decimal where rounding would mislead ("100%" for 99.7%, "0%" for 0.4%).
    const bool fine = pct < 10 || pct > 99;
    share->setText(QStringLiteral("%1% padding").arg(QString::number(fine ? std::floor(pct * 10) / 10 : pct, 'f', fine ? 1 : 0)));
    share->setColor(pct >= 10 ? errorColor() : QColor(0x55, 0x55, 0x55));
    share->setFont(QFont(font().family(), k > 16 ? 7 : 8));
  }
  p->xAxis->setTicker(ticker);
  p->xAxis->setTickLabelRotation(k > 8 ? 60 : 0);
  p->xAxis->setTickLabelFont(QFont(font().family(), k > 16 ? 7 : 8));
  // Room for half a vertical share label left of the first bar and right
  // of the last (at 0.6 one stood out of the plot in a narrow chart).
  p->xAxis->setRange(-0.9, k - 0.1);
  p->xAxis->grid()->setVisible(false);
  p->yAxis->setRange(0, tallest > 0 ? tallest * 1.25 : 1);

  // Chip total against the capacity.
  QCPAxis* tx = total_->axis(QCPAxis::atBottom);
  QCPAxis* ty = total_->axis(QCPAxis::atLeft);
  auto totalTicker = QSharedPointer<QCPAxisTickerText>::create();
  totalTicker->addTick(0, QStringLiteral("chip total"));
  tx->setTicker(totalTicker);
  tx->setRange(-0.7, 0.7);
  tx->grid()->setVisible(false);
  const std::pair<double, QColor> parts[] = {
      {double(report.memory.hbmTablesPerChip) / kMiB, QColor(0x4e, 0x79, 0xa7)},
      {double(report.memory.hbmStackPerChip) / kMiB, QColor(0xb0, 0x7a, 0xa1)},
      {double(report.memory.hbmHeapPerChip) / kMiB, QColor(0xed, 0xc9, 0x48)}};
  const char* names[] = {"total: tables", "total: SC stack", "total: heap"};
  QCPBars* below = nullptr;
  for (int i = 0; i < 3; ++i) {
    auto* bars = new QCPBars(tx, ty);
    bars->addData(0, parts[i].first / 1024.0);
    bars->setName(QString::fromLatin1(names[i]));
    bars->setBrush(parts[i].second);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.8);
    if (below) bars->moveAbove(below);
    below = bars;
  }
  const double used = double(report.memory.hbmTotalPerChip()) / kMiB;
  const double capacity = double(report.memory.hbmCapacityPerChip) / kMiB;
  auto* line = new QCPItemStraightLine(p);
  line->setClipAxisRect(total_);
  line->point1->setAxes(tx, ty);
  line->point2->setAxes(tx, ty);
  line->point1->setCoords(0, capacity / 1024.0);
  line->point2->setCoords(1, capacity / 1024.0);
  line->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.5, Qt::DashLine));
  auto* label = new QCPItemText(p);
  label->setClipAxisRect(total_);
  label->position->setAxes(tx, ty);
  label->position->setCoords(0, capacity / 1024.0);
  label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
  label->setText(QStringLiteral("HBM %1 GiB").arg(capacity / 1024.0, 0, 'f', 0));
  label->setFont(QFont(font().family(), 7));
  label->setColor(QColor(0xc0, 0x39, 0x2b));
  label->setFont(QFont(font().family(), 8));
  ty->setRange(0, std::max(used, capacity) / 1024.0 * 1.1);
  const double share = 100.0 * used / std::max(1e-9, capacity);
  const QString shareText =
      share < 0.01 && used > 0 ? QStringLiteral("<0.01%") : QStringLiteral("%1%").arg(share, 0, 'f', 2);
  auto* usedLabel = new QCPItemText(p);
  usedLabel->setClipAxisRect(total_);
  usedLabel->position->setAxes(tx, ty);
  usedLabel->position->setCoords(0, used / 1024.0);
  usedLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
  usedLabel->setText(used >= 1024 ? QStringLiteral("%1 GiB\n%2").arg(used / 1024.0, 0, 'f', 1).arg(shareText)
                                  : QStringLiteral("%1 MiB\n%2").arg(used, 0, 'f', 1).arg(shareText));
  usedLabel->setFont(QFont(font().family(), 8));
  usedLabel->setColor(used > capacity ? errorColor() : QColor(0x33, 0x33, 0x33));

  double waste = 0, rows = 0;
  for (int i = 0; i < k; ++i) {
    if (!qIsNaN(padding[i])) waste += padding[i];
    if (!qIsNaN(useful[i])) rows += useful[i];
  }
  setWrappedText(caption_, QStringLiteral("per chip: %1 MiB of %2 GiB HBM (%3)\ntables %4 MiB (padding %5 MiB, "
                                   "%6%) \u00b7 SparseCore stack %7 MiB \u00b7 prefetch heap %8 MiB")
                        .arg(used, 0, 'f', 1)
                        .arg(capacity / 1024.0, 0, 'f', 0)
                        .arg(shareText)
                        .arg(rows + waste, 0, 'f', 1)
                        .arg(waste, 0, 'f', 1)
                        .arg(100.0 * waste / std::max(1e-9, rows + waste), 0, 'f', 1)
                        .arg(parts[1].first, 0, 'f', 2)
                        .arg(parts[2].first, 0, 'f', 2));
  caption_->setTextColor(used > capacity ? errorColor() : QColor(0x33, 0x33, 0x33));
  p->legend->setVisible(true);
  setTitle(QStringLiteral("HBM use per chip (%1, %2 devices)")
               .arg(QString::fromStdString(report.chip))
               .arg(report.devices));
  finish(k > 0);
}

}  // namespace shardscope::plots
