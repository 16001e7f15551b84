#include "partition_load_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot_palette.h"
#include "plot_text.h"
#include "sparsecore/analysis.h"
#include "sparsecore/preprocessing.h"

namespace shardscope::plots {

namespace {

constexpr int kMaxLegendTables = 9;  // more members are drawn as one "other" series

// A limit as a dashed line across `rect`, named in the legend (its own row
// above the plots) rather than by a label on the line, which would sit on
// the bars of the last partitions when they pass the limit.
void limitLine(QCustomPlot* plot, QCPAxisRect* rect, double y, const QColor& color,
               const QString& label) {
  const QPen pen(color, 1.5, Qt::DashLine);
  auto* line = new QCPItemStraightLine(plot);
  line->setClipAxisRect(rect);
  for (QCPItemPosition* pos : {line->point1, line->point2}) pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  line->point1->setCoords(0, y);
  line->point2->setCoords(1, y);
  line->setPen(pen);
  // The legend entry: a graph without points, drawn as the line's pen.
  QCPGraph* entry = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  entry->setName(label);
  entry->setPen(pen);
  entry->setLineStyle(QCPGraph::lsLine);
  if (!plot->legend->hasItemWithPlottable(entry)) entry->addToLegend();
}

QCPBars* makeBars(QCPAxisRect* rect, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  bars->setName(name);
  bars->setBrush(color);
  bars->setPen(Qt::NoPen);
  bars->setWidth(0.8);
  return bars;
}

void partitionTicks(QCPAxis* axis, int n) {
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(n <= 32 ? 1.0 : double(n / 16));
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
  axis->setTicker(ticker);
  axis->setRange(-0.6, n - 0.4);
}

}  // namespace

PartitionLoadPlot::PartitionLoadPlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  p->plotLayout()->insertRow(1);
  caption_ = new QCPTextElement(p, QString(), QFont(font().family(), 9));
  caption_->setTextColor(QColor(0x33, 0x33, 0x33));
  p->plotLayout()->addElement(1, 0, caption_);
  // Legend in its own row under the caption, so it never hides a bar.
  moveLegendToRow(2, 8);
  p->xAxis->setLabel(QStringLiteral("destination SparseCore (partition = col_id mod N)"));
  p->yAxis->setLabel(QStringLiteral("ids"));
  // Partitions are keys, 0 the first of them: the grid's zero line (solid)
  // ran through partition 0 where the others have the dotted grid line.
  p->xAxis->grid()->setZeroLinePen(Qt::NoPen);
}

PartitionLoadPlot::~PartitionLoadPlot() = default;

void PartitionLoadPlot::clear(const QString& title) {
  reset();
  if (lower_) {
    plot()->plotLayout()->remove(lower_);
    plot()->plotLayout()->simplify();
    lower_ = nullptr;
  }
  // Nothing of the last stack may stay: its partition ticks (hundreds of
  // them, run together once the axis shrinks), ranges and margin group.
  QCPAxisRect* upper = plot()->axisRect(0);
  upper->setMarginGroup(QCP::msLeft | QCP::msRight, nullptr);
  for (QCPAxis* a : {upper->axis(QCPAxis::atBottom), upper->axis(QCPAxis::atLeft)}) {
    a->setTicker(QSharedPointer<QCPAxisTicker>::create());
    a->setRange(0, 1);
  }
  upper->setVisible(false);
  figures_ = {};
  figuresText_.clear();
  setWrappedText(caption_, QString());
  setTitle(title);
  finish(false);
}

int PartitionLoadPlot::hottestStack(const sc::AnalysisReport& report) {
  int best = 0;
  double bestRatio = -1;
  for (size_t i = 0; i < report.tables.size(); ++i) {
    const sc::StackStats& s = report.tables[i].stats;
    const double ratio =
        std::max(double(s.observedMaxIds()) / double(std::max<int64_t>(1, s.maxIdsLimit)),
                 double(s.observedMaxUniqueIds()) / double(std::max<int64_t>(1, s.maxUniqueIdsLimit)));
    if (ratio > bestRatio) {
      bestRatio = ratio;
      best = int(i);
    }
  }
  return best;
}

void PartitionLoadPlot::setStack(const sc::AnalysisReport& report, int stackIndex) {
  if (stackIndex < 0 || stackIndex >= int(report.tables.size())) {
    clear();
    return;
  }
  LoadContext context;
  context.allowIdDropping = report.allowIdDropping;
  context.minibatching = report.enableMinibatching;
  context.minibatches = report.minibatches;
  setStats(report.tables[size_t(stackIndex)].stats, Measure::Overview, context);
}

void PartitionLoadPlot::setStats(const sc::StackStats& stats, Measure measure,
                                 const LoadContext& context) {
  reset();
  QCustomPlot* p = plot();
  const int n = stats.partitions;
  const bool top = measure != Measure::MaxPerSource;
  const bool bottom = measure != Measure::TotalPerTable;

  // Layout: title, caption, upper rect (axisRect(0)), optional lower rect.
  QCPAxisRect* upper = p->axisRect(0);
  upper->setVisible(true);
  if (measure == Measure::Overview && !lower_) {
    lower_ = new QCPAxisRect(p);
    p->plotLayout()->addElement(p->plotLayout()->rowCount(), 0, lower_);
    auto* group = new QCPMarginGroup(p);
    upper->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    lower_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    for (QCPAxis* a : lower_->axes()) a->setLayer(QStringLiteral("axes"));
    for (QCPGrid* g : {lower_->axis(QCPAxis::atBottom)->grid(), lower_->axis(QCPAxis::atLeft)->grid()})
      g->setLayer(QStringLiteral("grid"));
    lower_->axis(QCPAxis::atBottom)->grid()->setZeroLinePen(Qt::NoPen);  // as the upper panel's
  } else if (measure != Measure::Overview && lower_) {
    p->plotLayout()->remove(lower_);
    p->plotLayout()->simplify();
    lower_ = nullptr;
  }
  QCPAxisRect* maxRect = measure == Measure::Overview ? lower_ : upper;

  QVector<double> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = i;

  // Figures.
  LoadFigures f;
  f.maxIdsLimit = stats.maxIdsLimit;
  f.maxUniqueIdsLimit = stats.maxUniqueIdsLimit;
  f.observedMaxIds = stats.observedMaxIds();
  f.observedMaxUniqueIds = stats.observedMaxUniqueIds();
  f.droppedIds = stats.droppedIds;
  f.idsAfterMerge = stats.idsAfterMerge;
  f.minibatches = context.minibatches;
  QVector<double> sum(n, 0);
  for (const auto& member : stats.memberIdsPerPartition)
    for (int i = 0; i < n && i < int(member.size()); ++i) sum[i] += double(member[size_t(i)]);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    total += sum[i];
    if (f.hottestPartition < 0 || sum[i] > sum[f.hottestPartition]) f.hottestPartition = i;
    if (i < int(stats.maxIdsPerPartition.size()) &&
        (stats.maxIdsPerPartition[size_t(i)] > stats.maxIdsLimit ||
         stats.maxUniqueIdsPerPartition[size_t(i)] > stats.maxUniqueIdsLimit))
      ++f.overLimitPartitions;
  }
  f.skew = (n > 0 && total > 0) ? sum[f.hottestPartition] / (total / n) : 0;
  if (total <= 0) f.hottestPartition = -1;
  figures_ = f;

  QString outcome;
  if (f.overLimitPartitions == 0)
    outcome = QStringLiteral("all partitions within the limits");
  else if (context.allowIdDropping && f.droppedIds > 0)
    outcome = QStringLiteral("%1 ids dropped (%2% of %3), %4 partition(s) over the limit")
                  .arg(f.droppedIds)
                  .arg(100.0 * double(f.droppedIds) / double(std::max<int64_t>(1, f.idsAfterMerge)), 0, 'f', 1)
                  .arg(f.idsAfterMerge)
                  .arg(f.overLimitPartitions);
  else if (context.minibatching)
    outcome = QStringLiteral("%1 partition(s) over the limit: %2 mini-batches, nothing dropped")
                  .arg(f.overLimitPartitions)
                  .arg(f.minibatches);
  else
    outcome = QStringLiteral("%1 partition(s) over the limit: the run fails (no id dropping)")
                  .arg(f.overLimitPartitions);
  figuresText_ = QStringLiteral("skew %1 (hottest partition %2 / mean) \u00b7 observed max %3 ids, %4 unique \u00b7 %5")
                     .arg(f.skew, 0, 'f', 2)
                     .arg(f.hottestPartition)
                     .arg(f.observedMaxIds)
                     .arg(f.observedMaxUniqueIds)
                     .arg(outcome);
  setWrappedText(caption_, figuresText_);
  caption_->setTextColor(f.overLimitPartitions > 0 && !context.allowIdDropping && !context.minibatching
                             ? QColor(0xc0, 0x39, 0x2b)
                             : QColor(0x33, 0x33, 0x33));

  if (top) {
    QCPAxis* x = upper->axis(QCPAxis::atBottom);
    QCPAxis* y = upper->axis(QCPAxis::atLeft);
    QCPBars* below = nullptr;
    const size_t members = stats.memberIdsPerPartition.size();
    const size_t named = members > size_t(kMaxLegendTables) + 1 ? size_t(kMaxLegendTables) : members;
    for (size_t m = 0; m < named || (m == named && members > named); ++m) {
      QVector<double> values(n, 0);
      for (size_t k = m; k < (m < named ? m + 1 : members); ++k)
        for (int i = 0; i < n && i < int(stats.memberIdsPerPartition[k].size()); ++i)
          values[i] += double(stats.memberIdsPerPartition[k][size_t(i)]);
      const QString name =
          m < named ? (m < stats.tables.size() ? QString::fromStdString(stats.tables[m]) : QString::number(m))
                    : QStringLiteral("other: %1").arg(countOf(qint64(members - named), "table"));
      auto* bars = makeBars(upper, name, m < named ? seriesColor(int(m)) : QColor(0xba, 0xb0, 0xac));
      bars->setData(keys, values, true);
      if (below) bars->moveAbove(below);
      below = bars;
    }
    double maxSum = 0;
    for (double v : sum) maxSum = std::max(maxSum, v);
    if (total > 0 && n > 0) {
      auto* mean = new QCPItemStraightLine(p);
      mean->setClipAxisRect(upper);
      mean->point1->setCoords(0, total / n);
      mean->point2->setCoords(1, total / n);
      mean->setPen(QPen(QColor(0x55, 0x55, 0x55), 1, Qt::DotLine));
      auto* label = new QCPItemText(p);
      label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
      label->position->setTypeY(QCPItemPosition::ptPlotCoords);
      label->position->setCoords(0.995, total / n);
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
      label->setText(QStringLiteral("mean %1 \u00b7 skew %2").arg(total / n, 0, 'f', 0).arg(f.skew, 0, 'f', 2));
      label->setColor(QColor(0x33, 0x33, 0x33));
      label->setBrush(QColor(255, 255, 255, 200));
    }
    y->setLabel(QStringLiteral("ids, sum over %1 sources").arg(n));
    x->setLabel(measure == Measure::Overview ? QString()
                                             : QStringLiteral("destination SparseCore (partition = col_id mod N)"));
    partitionTicks(x, n);
    y->setRange(0, maxSum > 0 ? maxSum * 1.12 : 1);
    p->legend->setVisible(true);
  }

  if (bottom) {
    QCPAxis* x = maxRect->axis(QCPAxis::atBottom);
    QCPAxis* y = maxRect->axis(QCPAxis::atLeft);
    QVector<double> within(n), above(n), unique(n);
    double topValue = 0;
    for (int i = 0; i < n; ++i) {
      const double v = i < int(stats.maxIdsPerPartition.size()) ? double(stats.maxIdsPerPartition[size_t(i)]) : 0;
      within[i] = std::min(v, double(stats.maxIdsLimit));
      above[i] = std::max(0.0, v - double(stats.maxIdsLimit));
      unique[i] = i < int(stats.maxUniqueIdsPerPartition.size()) ? double(stats.maxUniqueIdsPerPartition[size_t(i)]) : 0;
      topValue = std::max({topValue, v, unique[i]});
    }
    auto* okBars = makeBars(maxRect, QStringLiteral("max ids over sources"), QColor(0x8c, 0x96, 0xa5));
    okBars->setData(keys, within, true);
    QString aboveName = context.allowIdDropping ? QStringLiteral("dropped (above limit)")
                        : context.minibatching  ? QStringLiteral("above limit (mini-batched)")
                                                : QStringLiteral("above limit (run fails)");
    const bool anyAbove = std::any_of(above.begin(), above.end(), [](double v) { return v > 0; });
    auto* overBars = makeBars(maxRect, aboveName,
                              context.minibatching && !context.allowIdDropping ? QColor(0xf2, 0x8e, 0x2b)
                                                                               : QColor(0xd6, 0x27, 0x28));
    overBars->setData(keys, above, true);
    overBars->moveAbove(okBars);
    // Unique maxima: yellow within the unique limit, coloured above it.
    QVector<double> uniqueKeysOk, uniqueOk, uniqueKeysOver, uniqueOver;
    for (int i = 0; i < n; ++i) {
      const bool over = unique[i] > double(stats.maxUniqueIdsLimit);
      (over ? uniqueKeysOver : uniqueKeysOk) << keys[i];
      (over ? uniqueOver : uniqueOk) << unique[i];
    }
    auto* marks = p->addGraph(x, y);
    marks->setData(uniqueKeysOk, uniqueOk, true);
    marks->setName(QStringLiteral("max unique ids"));
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0x2c, 0x2c, 0x2c),
                                           QColor(0xed, 0xc9, 0x48), 8));
    if (uniqueOk.isEmpty()) marks->removeFromLegend();
    if (!uniqueOver.isEmpty()) {
      auto* overMarks = p->addGraph(x, y);
      overMarks->setData(uniqueKeysOver, uniqueOver, true);
      overMarks->setName(context.allowIdDropping ? QStringLiteral("max unique ids above limit (dropped)")
                         : context.minibatching  ? QStringLiteral("max unique ids above limit (mini-batched)")
                                                 : QStringLiteral("max unique ids above limit (run fails)"));
      overMarks->setLineStyle(QCPGraph::lsNone);
      overMarks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0x2c, 0x2c, 0x2c),
                                                 overBars->brush().color(), 10));
    }
    if (measure == Measure::Overview) {
      // The lower panel keeps its own legend entries out of the shared legend
      // only when they add nothing; here they do, so they stay.
    }
    if (!anyAbove) overBars->removeFromLegend();
    // Dropped / over-limit markers: a label above each red segment.
    if (anyAbove && n <= 64) {
      for (int i = 0; i < n; ++i) {
        if (above[i] <= 0) continue;
        auto* t = new QCPItemText(p);
        t->setClipAxisRect(maxRect);
        t->position->setAxes(x, y);
        t->position->setCoords(i, within[i] + above[i]);
        t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        t->setText(QStringLiteral("+%1").arg(above[i], 0, 'f', 0));
        t->setColor(overBars->brush().color().darker(130));
        t->setFont(QFont(font().family(), 7, QFont::Bold));
      }
    }
    limitLine(p, maxRect, double(stats.maxIdsLimit), QColor(0xc0, 0x39, 0x2b),
              QStringLiteral("max_ids_per_partition %1").arg(stats.maxIdsLimit));
    if (stats.maxUniqueIdsLimit != stats.maxIdsLimit)
      limitLine(p, maxRect, double(stats.maxUniqueIdsLimit), QColor(0x8e, 0x44, 0xad),
                QStringLiteral("max_unique_ids_per_partition %1").arg(stats.maxUniqueIdsLimit));
    topValue = std::max(topValue, double(std::max(stats.maxIdsLimit, stats.maxUniqueIdsLimit)));
    y->setLabel(QStringLiteral("ids, max over sources"));
    x->setLabel(QStringLiteral("destination SparseCore (partition = col_id mod N)"));
    partitionTicks(x, n);
    y->setRange(0, topValue > 0 ? topValue * 1.15 : 1);
    // (The legend's columns are the base's: as many as fit, in the order
    // the entries were made. Setting 8 here while entries were being added
    // put the later ones into the first row's free cells, so the order
    // changed with the history: a second fill, e.g. after a theme switch.)
    if (!top) p->legend->setVisible(true);
  }
  if (measure == Measure::Overview) {
    // Upper panel: stretch a bit more than the lower one.
    p->plotLayout()->setRowStretchFactor(p->plotLayout()->rowCount() - 2, 1.0);
    p->plotLayout()->setRowStretchFactor(p->plotLayout()->rowCount() - 1, 1.0);
  }
  QString name = QString::fromStdString(stats.name);
  if (name.size() > 64) name = name.left(61) + QStringLiteral("...");
  setTitle(QStringLiteral("Partition load: %1 (%2, %3)")
               .arg(name, countOf(qint64(stats.tables.size()), "table"), countOf(n, "SparseCore")));
  finish(n > 0);
}

}  // namespace shardscope::plots
