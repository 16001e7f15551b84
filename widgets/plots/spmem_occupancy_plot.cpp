#include "spmem_occupancy_plot.h"

#include <qcustomplot.h>

#include "plot_palette.h"
#include "plot_text.h"
#include "sparsecore/analysis.h"

namespace shardscope::plots {

namespace {
// Breaks `text` into lines of at most `width` characters at spaces.
QString wrapped(const QString& text, int width) {
  QStringList lines;
  QString line;
  for (const QString& word : text.split(QLatin1Char(' '))) {
    if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
      lines << line;
      line.clear();
    }
    line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
  }
  if (!line.isEmpty()) lines << line;
  return lines.join(QLatin1Char('\n'));
}
}  // namespace

SpmemOccupancyPlot::SpmemOccupancyPlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  p->plotLayout()->insertRow(1);
  caption_ = new QCPTextElement(p, QString(), QFont(font().family(), 9));
  p->plotLayout()->addElement(1, 0, caption_);
  moveLegendToRow(2, 4);
  p->xAxis->setLabel(QStringLiteral("KiB per tile (same on every SparseCore and tile)"));
  // The stacks are keys on the y axis, the last one at 0: the grid's zero
  // line (solid) ran through the middle of its bar where the other rows
  // have the dotted grid line.
  p->yAxis->grid()->setZeroLinePen(Qt::NoPen);
}

SpmemOccupancyPlot::~SpmemOccupancyPlot() = default;

void SpmemOccupancyPlot::setReport(const sc::AnalysisReport& report) {
  reset();
  QCustomPlot* p = plot();
  const int n = int(report.tables.size());
  // Rows top to bottom in report order: key n-1-i for stack i.
  QVector<double> keys(n), staging(n), unique(n), gather(n), over(n);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double capacity = 0, top = 0;
  QStringList errors;
  overflowCount_ = 0;
  for (int i = 0; i < n; ++i) {
    const sc::SpmemEstimate& e = report.tables[size_t(i)].memory.spmem;
    // fixed = ceil((staging + unique) / tiles): recover the tile count.
    const double tiles =
        e.fixedBytesPerTile > 0
            ? std::max(1.0, std::round(double(e.idsStagingBytes + e.uniqueRowsBytes) /
                                       double(e.fixedBytesPerTile)))
            : 1.0;
    capacity = double(e.capacityPerTile) / 1024.0;
    // Per-tile parts (the fixed part split between its two buffers).
    double parts[3] = {double(e.idsStagingBytes) / tiles / 1024.0,
                       double(e.uniqueRowsBytes) / tiles / 1024.0,
                       double(e.gatherBytesPerTile) / 1024.0};
    const double sum = parts[0] + parts[1] + parts[2];
    top = std::max(top, sum);
    // Clip the parts at the capacity; the rest is the red overflow.
    double room = capacity;
    for (double& part : parts) {
      const double kept = std::min(part, std::max(0.0, room));
      room -= part;
      part = kept;
    }
    const int k = n - 1 - i;
    keys[k] = k;
    staging[k] = parts[0];
    unique[k] = parts[1];
    gather[k] = parts[2];
    over[k] = std::max(0.0, sum - capacity);
    if (e.error) {
      ++overflowCount_;
      errors << QString::fromStdString(*e.error);
    }
    QString name = QString::fromStdString(report.tables[size_t(i)].stats.name);
    if (name.size() > 24) name = name.left(21) + QStringLiteral("...");
    ticker->addTick(k, QStringLiteral("%1\n%2%").arg(name).arg(100.0 * e.occupancy, 0, 'f', 0));
  }
  struct Part {
    const QVector<double>* values;
    const char* name;
    QColor color;
  };
  const Part parts[] = {
      {&staging, "ids staging (max_ids x COO entry)", QColor(0x4e, 0x79, 0xa7)},
      {&unique, "unique rows (max_unique_ids x width)", QColor(0x76, 0xb7, 0xb2)},
      {&gather, "gather operand (samples x width)", QColor(0xf2, 0x8e, 0x2b)},
      {&over, "overflow (does not fit)", errorColor()}};
  QCPBars* below = nullptr;
  for (const Part& part : parts) {
    auto* bars = new QCPBars(p->yAxis, p->xAxis);  // horizontal: keys on y
    bars->setData(keys, *part.values, true);
    bars->setName(QString::fromLatin1(part.name));
    bars->setBrush(part.color);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.6);
    if (below) bars->moveAbove(below);
    below = bars;
    if (part.values == &over && overflowCount_ == 0) bars->removeFromLegend();
  }

  auto* line = new QCPItemStraightLine(p);
  line->point1->setCoords(capacity, 0);
  line->point2->setCoords(capacity, 1);
  line->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.5, Qt::DashLine));
  auto* label = new QCPItemText(p);
  label->position->setTypeX(QCPItemPosition::ptPlotCoords);
  label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(capacity, 0.0);
  label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
  label->setText(QStringLiteral("TileSpmem %1 KiB ").arg(capacity));
  label->setColor(QColor(0xc0, 0x39, 0x2b));

  errorText_ = errors.join(QLatin1Char('\n'));
  if (errors.isEmpty()) {
    setWrappedText(caption_, QStringLiteral("%1; all fit in TileSpmem").arg(countOf(n, "stacked table")));
    caption_->setTextColor(QColor(0x33, 0x33, 0x33));
  } else {
    QStringList shown;
    for (const QString& e : errors) shown << wrapped(e, 130);
    if (shown.size() > 2) {
      const int more = int(shown.size()) - 2;
      shown = shown.mid(0, 2);
      shown << QStringLiteral("(%1 more)").arg(more);
    }
    setWrappedText(caption_, shown.join(QLatin1Char('\n')));
    caption_->setTextColor(errorColor());
  }

  p->yAxis->setTicker(ticker);
  p->yAxis->setRange(-0.6, n - 0.4);
  p->xAxis->setRange(0, std::max(top, capacity) * 1.08);
  p->legend->setVisible(true);
  setTitle(QStringLiteral("SPMEM occupancy per tile (%1, TileSpmem %2 KiB)")
               .arg(QString::fromStdString(report.chip))
               .arg(capacity));
  finish(n > 0);
}

}  // namespace shardscope::plots
