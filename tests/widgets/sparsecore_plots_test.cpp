// The SparseCore plots: they draw what the analysis reports and export
// non-blank PNG, SVG and PDF files.
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "fdo_history_plot.h"
#include "hbm_usage_plot.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "sparsecore/analysis.h"
#include "sparsecore/job_io.h"
#include "sparsecore/pipeline.h"
#include "spmem_occupancy_plot.h"

using namespace shardscope;

namespace {

sc::AnalysisReport sampleReport(const char* file) {
  const QString path =
      QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/") + QString::fromLatin1(file);
  return sc::analyze(sc::loadJobFile(path.toStdString()));
}

// A PNG is "drawn" when it has more than a handful of distinct colours.
bool pngHasContent(const QString& path) {
  QImage image(path);
  if (image.isNull()) return false;
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  return colours.size() > 4;
}

QByteArray head(const QString& path, int n) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

std::unique_ptr<plots::SparseCorePlot> makePlot(const QString& kind) {
  if (kind == QLatin1String("partition_load")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStats(sampleReport("stacked_tables.json").tables[0].stats,
                   plots::PartitionLoadPlot::Measure::TotalPerTable);
    return plot;
  }
  if (kind == QLatin1String("overview")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStack(sampleReport("zipf_dropping.json"), 0);
    return plot;
  }
  if (kind == QLatin1String("partition_max")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStats(sampleReport("zipf_dropping.json").tables[0].stats,
                   plots::PartitionLoadPlot::Measure::MaxPerSource);
    return plot;
  }
  if (kind == QLatin1String("spmem")) {
    auto plot = std::make_unique<plots::SpmemOccupancyPlot>();
    plot->setReport(sampleReport("dlrm_like.json"));
    return plot;
  }
  if (kind == QLatin1String("hbm")) {
    auto plot = std::make_unique<plots::HbmUsagePlot>();
    plot->setReport(sampleReport("dlrm_like.json"));
    return plot;
  }
  if (kind == QLatin1String("ids")) {
    auto plot = std::make_unique<plots::IdDistributionPlot>();
    const QString path = QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json");
    plot->setDistribution(plots::computeIdDistribution(sc::loadJobFile(path.toStdString())));
    return plot;
  }
  auto plot = std::make_unique<plots::PipelineGanttPlot>();
  plot->setComparison(sc::comparePipelines({1, 2, 2, 1}, 6), 12, 4);
  return plot;
}

}  // namespace

class SparseCorePlotsTest : public QObject {
  Q_OBJECT
 private slots:
  void exports_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("suffix");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      for (const char* suffix : {"png", "svg", "pdf"})
        QTest::newRow(
            qPrintable(QStringLiteral("%1.%2").arg(QLatin1String(kind), QLatin1String(suffix))))
            << QString::fromLatin1(kind) << QString::fromLatin1(suffix);
  }
  void exports() {
    QFETCH(QString, kind);
    QFETCH(QString, suffix);
    auto plot = makePlot(kind);
    QVERIFY(plot->hasData());
    QVERIFY(plot->elementCount() > 0);
    QTemporaryDir dir;
    const QString path = dir.filePath(kind + QStringLiteral(".") + suffix);
    QString error;
    QVERIFY2(plot->exportTo(path, QSize(800, 450), &error), qPrintable(error));
    if (suffix == QLatin1String("png")) QVERIFY(pngHasContent(path));
    if (suffix == QLatin1String("svg")) QVERIFY(head(path, 400).contains("<svg"));
    if (suffix == QLatin1String("pdf")) QVERIFY(head(path, 5).startsWith("%PDF"));
  }

  // Titles, captions and legend entries are never cut off: at any width their lines fit
  // the rect the layout gives them, inside the plot (the workspace at
  // 1280x800 gives a chart about 560 px; long stack names, the figures
  // line).
  void textsFitTheWidth_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("width");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      for (int width : {320, 460, 560, 800, 1200})
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(kind)).arg(width)))
            << QString::fromLatin1(kind) << width;
  }
  void textsFitTheWidth() {
    QFETCH(QString, kind);
    QFETCH(int, width);
    auto plot = makePlot(kind);
    plot->resize(width, 480);
    plot->show();
    QTest::qWait(50);  // the queued replot of the resize
    const auto texts = plot->shownTexts();
    QVERIFY(!texts.empty());
    QCOMPARE(texts.front().text.simplified(), plot->title().simplified());
    for (const auto& t : texts) {
      const QFontMetricsF fm(t.font);
      QVERIFY2(QRect(0, 0, width, 480).contains(t.rect), qPrintable(t.text));
      for (const QString& line : t.text.split(u'\n'))
        QVERIFY2(fm.horizontalAdvance(line) <= t.rect.width() + 1,
                 qPrintable(QStringLiteral("'%1': %2 px in %3 px")
                                .arg(line)
                                .arg(fm.horizontalAdvance(line))
                                .arg(t.rect.width())));
    }
    // Nor the legend's entries: a row across the chart (the HBM chart's
    // too, above both its panels) has as many columns as their texts fit;
    // the id distribution's goes under the plot when beside it would be cut.
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    if (cp->legend->visible())
      for (int i = 0; i < cp->legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = cp->legend->item(i);
        if (!item) continue;
        const int given = item->outerRect().width();
        const int needed = item->minimumOuterSizeHint().width();
        QVERIFY2(given >= needed && item->outerRect().right() <= width,
                 qPrintable(QStringLiteral("legend entry %1: %2 px of %3 at x %4")
                                .arg(i)
                                .arg(given)
                                .arg(needed)
                                .arg(item->outerRect().x())));
      }
  }

  // On screen the charts follow the theme: on a dark palette the
  // background is dark and every axis, title, caption and legend text is
  // light (they stayed black on white); back on a light palette every
  // colour is the one the chart chose; a picture taken while dark is
  // light, as the graph's pictures are.
  void followsTheTheme_data() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      QTest::newRow(kind) << QString::fromLatin1(kind);
  }
  void followsTheTheme() {
    QFETCH(QString, kind);
    auto plot = makePlot(kind);
    plot->resize(700, 450);
    plot->show();
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    // Every text colour of the chart: axes (labels, ticks), text elements
    // (title, captions), legend entries.
    auto texts = [cp] {
      QList<QColor> out;
      for (QCPAxisRect* rect : cp->axisRects())
        for (QCPAxis* a : rect->axes()) out << a->tickLabelColor() << a->labelColor() << a->basePen().color();
      for (QCPLayoutElement* e : cp->plotLayout()->elements(true))
        if (auto* t = qobject_cast<QCPTextElement*>(e)) out << t->textColor();
      for (int i = 0; i < cp->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = cp->legend->item(i)) out << item->textColor();
      return out;
    };
    const QList<QColor> light = texts();
    QVERIFY(!plot->drawnDark());
    for (const QColor& c : light) QVERIFY2(c.lightness() < 128, qPrintable(c.name()));

    QPalette dark = plot->palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    plot->setPalette(dark);
    QVERIFY(plot->drawnDark());
    // What is drawn: a corner of the chart as it paints.
    auto corner = [cp] { return cp->toPixmap(300, 200).toImage().pixelColor(1, 1); };
    QVERIFY2(corner().lightness() < 64, qPrintable(corner().name()));
    for (const QColor& c : texts()) QVERIFY2(c.lightness() >= 128, qPrintable(c.name()));
    if (cp->legend->visible()) QVERIFY(cp->legend->brush().color().lightness() < 64);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dark.png"));
    QVERIFY(plot->exportTo(path, QSize(600, 400)));
    const QImage picture(path);
    QCOMPARE(QColor(picture.pixel(2, 2)).lightness(), 255);  // the picture's paper is white
    QVERIFY(plot->drawnDark());  // and the screen dark again
    QVERIFY(corner().lightness() < 64);

    plot->setPalette(QApplication::palette());
    QVERIFY(!plot->drawnDark());
    QCOMPARE(texts(), light);
    QCOMPARE(corner(), QColor(Qt::white));
  }

  // With no statistics file the FDO history chart takes its width: its
  // axes and title span the widget (its empty legend row shrank the whole
  // chart to ~100 px at 1280x800, the title broken word by word).
  void emptyHistoryTakesItsWidth_data() {
    QTest::addColumn<int>("width");
    for (int width : {320, 420, 640}) QTest::newRow(qPrintable(QString::number(width))) << width;
  }
  void emptyHistoryTakesItsWidth() {
    QFETCH(int, width);
    plots::FdoHistoryPlot plot;
    plot.resize(width, 400);
    plot.show();
    QTest::qWait(50);
    QVERIFY(!plot.hasData());
    auto* cp = plot.findChild<QCustomPlot*>();
    QVERIFY(cp);
    QVERIFY2(cp->axisRect()->outerRect().width() >= width * 8 / 10,
             qPrintable(QString::number(cp->axisRect()->outerRect().width())));
    const auto texts = plot.shownTexts();
    QVERIFY(!texts.empty());
    QVERIFY2(texts.front().rect.width() >= width * 8 / 10, qPrintable(texts.front().text));
    QVERIFY2(texts.front().text.count(u'\n') <= 1, qPrintable(texts.front().text));
  }

  // The pipeline chart's box labels show only where they fit their box as
  // drawn (they overflowed at 1280x800, the chart about 560 px wide).
  void pipelineLabelsFitTheirBoxes_data() {
    QTest::addColumn<int>("width");
    for (int width : {420, 560, 900, 1400}) QTest::newRow(qPrintable(QString::number(width))) << width;
  }
  void pipelineLabelsFitTheirBoxes() {
    QFETCH(int, width);
    auto plot = makePlot(QStringLiteral("gantt"));
    plot->resize(width, 480);
    plot->show();
    QTest::qWait(50);
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    cp->replot();
    int boxes = 0, shown = 0;
    for (int i = 0; i < cp->itemCount(); ++i) {
      auto* box = qobject_cast<QCPItemRect*>(cp->item(i));
      if (!box) continue;
      ++boxes;
      const QRectF r = QRectF(box->topLeft->pixelPosition(), box->bottomRight->pixelPosition()).normalized();
      for (int j = 0; j < cp->itemCount(); ++j) {
        auto* text = qobject_cast<QCPItemText*>(cp->item(j));
        if (!text || !text->visible() || !r.contains(text->position->pixelPosition())) continue;
        if (text->positionAlignment() != Qt::AlignCenter) continue;  // step and staleness notes
        ++shown;
        const double w = QFontMetricsF(text->font()).horizontalAdvance(text->text());
        QVERIFY2(w <= r.width(), qPrintable(QStringLiteral("'%1': %2 px in a box of %3 px")
                                                .arg(text->text())
                                                .arg(w)
                                                .arg(r.width())));
      }
    }
    QVERIFY(boxes > 0);
    if (width >= 1400) QVERIFY(shown > 0);  // wide enough for some
  }

  void partitionBarsFollowTheStats() {
    sc::AnalysisReport report = sampleReport("stacked_tables.json");
    const sc::StackStats& stats = report.tables[0].stats;
    plots::PartitionLoadPlot plot;
    plot.setStats(stats, plots::PartitionLoadPlot::Measure::TotalPerTable);
    // One bar series per member table, plus the mean line and its label.
    QCOMPARE(plot.elementCount(), int(stats.tables.size()) + 2);
    QCOMPARE(plot.figures().maxIdsLimit, stats.maxIdsLimit);
    QCOMPARE(plot.figures().observedMaxIds, stats.observedMaxIds());
    QVERIFY(plot.figures().skew >= 1.0);
    // "partitions 0 and 4 carry the hot low ids" (sample README).
    QVERIFY(plot.figures().hottestPartition == 0 || plot.figures().hottestPartition == 4);
  }

  void droppedIdsAreMarked() {
    sc::AnalysisReport report = sampleReport("zipf_dropping.json");
    plots::PartitionLoadPlot plot;
    plot.setStack(report, plots::PartitionLoadPlot::hottestStack(report));
    QCOMPARE(plot.figures().droppedIds, report.tables[0].stats.droppedIds);
    QVERIFY(plot.figures().droppedIds > 0);
    QVERIFY(plot.figures().overLimitPartitions > 0);
    QVERIFY(plot.figuresText().contains(QLatin1String("ids dropped")));
  }

  // The limits are named in the legend row, never by a label on their
  // line (one sat on the bars of the last partitions once they passed it).
  void limitsNamedInTheLegend_data() {
    QTest::addColumn<QString>("sample");
    for (const char* f : {"zipf_dropping.json", "zipf_minibatching.json", "stacked_tables.json"})
      QTest::newRow(f) << QString::fromLatin1(f);
  }
  void limitsNamedInTheLegend() {
    QFETCH(QString, sample);
    sc::AnalysisReport report = sampleReport(qPrintable(sample));
    plots::PartitionLoadPlot plot;
    plot.resize(840, 560);
    plot.show();
    const int stack = plots::PartitionLoadPlot::hottestStack(report);
    plot.setStack(report, stack);
    const sc::StackStats& stats = report.tables[size_t(stack)].stats;
    // The chart's QCustomPlot, read as a user sees it (the plots keep it private).
    auto* cp = plot.findChild<QCustomPlot*>();
    QVERIFY(cp);
    QStringList names;
    for (int i = 0; i < cp->legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(cp->legend->item(i)))
        names << item->plottable()->name();
    QVERIFY2(names.contains(QStringLiteral("max_ids_per_partition %1").arg(stats.maxIdsLimit)),
             qPrintable(names.join(QStringLiteral(" | "))));
    if (stats.maxUniqueIdsLimit != stats.maxIdsLimit)
      QVERIFY(names.contains(
          QStringLiteral("max_unique_ids_per_partition %1").arg(stats.maxUniqueIdsLimit)));
    for (int i = 0; i < cp->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(cp->item(i)))
        QVERIFY2(!text->text().startsWith(QLatin1String("max_")), qPrintable(text->text()));
  }

  void spmemOverflowIsRed() {
    sc::Job job = sc::loadJobFile(
        (QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json")).toStdString());
    plots::SpmemOccupancyPlot plot;
    plot.setReport(sc::analyze(job));
    QCOMPARE(plot.overflowCount(), 0);
    job.tables[0].maxIdsPerPartition = 1 << 20;
    job.tables[0].maxUniqueIdsPerPartition = 1 << 20;
    plot.setReport(sc::analyze(job));
    QCOMPARE(plot.overflowCount(), 1);
    QVERIFY(plot.errorText().contains(QLatin1String("do not fit in TileSpmem")));
  }

  void ganttDrawsEveryStage() {
    plots::PipelineGanttPlot plot;
    sc::PipelineComparison c = sc::comparePipelines({1, 2, 2, 1}, 3);
    plot.setComparison(c);
    // 12 serial + 12 pipelined stages.
    QCOMPARE(plot.stageBoxCount(), 24);
    QCOMPARE(plot.stepBoundaryCount(), c.serial.steps + c.pipelined.steps);
    QCOMPARE(plot.stalenessArrowCount(), 1 + 3);
    plot.setComparison(c, 1);
    QCOMPARE(plot.stageBoxCount(), 8);
    // Four SparseCore rows: SparseCore stages drawn on each.
    plot.setComparison(c, 12, 4);
    QCOMPARE(plot.stageBoxCount(), 2 * (3 * 2 + 3 * 2 * 4));
  }

  // A failed job clears the chart (clearPlot deletes its items, the box
  // labels among them); the next layout and zoom must not touch the deleted
  // labels (a use after free that corrupted the heap in
  // sparsecore_workspace_test::badFilesShowTheEngineError).
  void ganttClearedThenLaidOut() {
    plots::PipelineGanttPlot plot;
    plot.resize(900, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setComparison(sc::comparePipelines({1, 2, 2, 1}, 3));
    QVERIFY(plot.hasData());
    QVERIFY(plot.elementCount() > 0);
    plot.clearPlot(QStringLiteral("job failed"));
    QVERIFY(!plot.hasData());
    QCOMPARE(plot.elementCount(), 0);
    plot.resize(640, 300);  // a layout: labels' visibility checked again
    QCoreApplication::processEvents();
    QCPAxis* x = plot.findChild<QCustomPlot*>()->xAxis;
    x->setRange(0, 5);  // a zoom: checked again
    QCOMPARE(plot.elementCount(), 0);
    plot.setComparison(sc::comparePipelines({1, 2, 2, 1}, 3));  // and drawn again
    QCOMPARE(plot.stageBoxCount(), 24);
  }

  void idDistributionSlopes() {
    const QString path = QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json");
    plots::IdDistribution d = plots::computeIdDistribution(sc::loadJobFile(path.toStdString()));
    QCOMPARE(int(d.series.size()), 2);
    QCOMPARE(d.series[0].table, std::string("user"));
    QVERIFY(d.series[0].slope < -0.5);                 // Zipf 1.3: steep
    QVERIFY(d.series[1].slope > -0.5);                 // uniform: flat
    QVERIFY(d.series[0].topCount > d.series[1].topCount);
    plots::IdDistributionPlot plot;
    plot.setDistribution(d);
    QCOMPARE(plot.seriesCount(), 2);
  }

  void badSuffixFails() {
    plots::HbmUsagePlot plot;
    plot.setReport(sampleReport("stacked_tables.json"));
    QTemporaryDir dir;
    QString error;
    QVERIFY(!plot.exportTo(dir.filePath(QStringLiteral("x.bmpx")), {}, &error));
    QVERIFY(error.contains(QLatin1String("unknown picture format")));
  }

  void emptyPlotHasNoData() {
    plots::PartitionLoadPlot plot;
    plot.clear();
    QVERIFY(!plot.hasData());
  }
};

QTEST_MAIN(SparseCorePlotsTest)
#include "sparsecore_plots_test.moc"
