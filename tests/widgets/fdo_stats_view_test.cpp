// The FDO statistics page of the SparseCore workspace: statistics files
// (NPZ, CSV, a folder of hosts) open off the UI thread into the history
// plot, the heatmap and the limits table; a bad file shows the engine's
// message naming the file and entry and keeps the last good result; the
// headless export draws both pictures.
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "fdo_history_plot.h"
#include "fdo_limits_model.h"
#include "fdo_stats_view.h"
#include "middle_elided_label.h"
#include "partition_heatmap_plot.h"
#include "sparsecore_export.h"
#include "sparsecore_workspace.h"

using namespace shardscope;
using namespace shardscope::scw;

namespace {

QString fixture(const QString& rel) { return QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/sparsecore/fdo/") + rel; }

const QString kHistoryNpz = QStringLiteral("history/fdo_stats_0_1700000000000000000.npz");
const QString kHistoryCsv = QStringLiteral("history/fdo_stats_0_1700000000000000000.csv");

bool openAndWait(FdoStatsView& v, const QStringList& inputs) {
  QSignalSpy ok(&v, &FdoStatsView::statsLoaded);
  QSignalSpy bad(&v, &FdoStatsView::loadFailed);
  v.openStats(inputs);
  QElapsedTimer clock;
  clock.start();
  while (ok.count() + bad.count() == 0 && clock.elapsed() < 30000) QTest::qWait(10);
  return ok.count() > 0;
}

bool pngHasContent(const QString& path) {
  QImage image(path);
  if (image.isNull()) return false;
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 5)
    for (int x = 0; x < image.width(); x += 5) colours.insert(image.pixel(x, y));
  return colours.size() > 8;
}

}  // namespace

class FdoStatsViewTest : public QObject {
  Q_OBJECT
 private slots:
  void opensEachLayout_data() {
    QTest::addColumn<QStringList>("inputs");
    QTest::addColumn<int>("tables");
    QTest::addColumn<int>("limitRows");
    QTest::addColumn<QString>("firstTable");
    // user_item: max + p50 for both limits, and the buffer; ad: one each.
    QTest::newRow("npz history") << QStringList{fixture(kHistoryNpz)} << 2 << 7 << QStringLiteral("user_item");
    QTest::newRow("csv history") << QStringList{fixture(kHistoryCsv)} << 2 << 7 << QStringLiteral("user_item");
    QTest::newRow("folder of hosts") << QStringList{fixture(QStringLiteral("hosts"))} << 2 << 6
                                     << QStringLiteral("t_one");
  }
  void opensEachLayout() {
    QFETCH(QStringList, inputs);
    QFETCH(int, tables);
    QFETCH(int, limitRows);
    QFETCH(QString, firstTable);
    FdoStatsView view;
    QAbstractItemModelTester tester(view.limitsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openAndWait(view, inputs));
    QVERIFY(view.report());
    QCOMPARE(int(view.report()->history.size()), tables);
    QCOMPARE(view.limitsModel()->rowCount(), limitRows);
    QCOMPARE(view.currentTable(), firstTable);
    QVERIFY(view.historyPlot()->hasData());
    QVERIFY(view.heatmapPlot()->hasData());
    QVERIFY(view.errorText().isEmpty());
  }

  void limitsTableSaysWhatEachChoiceDrops() {
    FdoStatsView view;
    QVERIFY(openAndWait(view, {fixture(kHistoryNpz)}));
    FdoLimitsModel* m = view.limitsModel();
    // Row 1: user_item max_ids_per_partition p50 = 15, >= 25 ids over, 1 of 6 batches.
    QCOMPARE(m->data(m->index(1, FdoLimitsModel::SettingColumn)).toString(), QStringLiteral("max_ids_per_partition"));
    QCOMPARE(m->data(m->index(1, FdoLimitsModel::ChoiceColumn)).toString(), QStringLiteral("p50"));
    QCOMPARE(m->data(m->index(1, FdoLimitsModel::ValueColumn)).toString(), QStringLiteral("15"));
    QCOMPARE(m->data(m->index(1, FdoLimitsModel::OverColumn)).toString(), QStringLiteral("25"));
    QCOMPARE(m->data(m->index(1, FdoLimitsModel::BatchesColumn)).toString(), QStringLiteral("1 of 6"));
    QCOMPARE(m->data(m->index(4, FdoLimitsModel::SettingColumn)).toString(),
             QStringLiteral("suggested_coo_buffer_size_per_device"));
    QCOMPARE(m->data(m->index(4, FdoLimitsModel::ValueColumn)).toString(), QStringLiteral("240"));  // 120 x 2 SCs
    // Sorting goes by the numbers, not their text.
    view.limitsView()->sortByColumn(FdoLimitsModel::ValueColumn, Qt::DescendingOrder);
    QAbstractItemModel* shown = view.limitsView()->model();
    QCOMPARE(shown->data(shown->index(0, FdoLimitsModel::ValueColumn)).toString(), QStringLiteral("240"));
    // A click on a row of the other table shows it.
    view.setCurrentTable(QStringLiteral("ad"));
    QCOMPARE(view.currentTable(), QStringLiteral("ad"));
    QVERIFY(view.historyPlot()->hasData());
  }

  // The limit labels of the history plot (max and p50 of both series) sit
  // where they cover no series line or point, no limit line and no other
  // label, at the sizes the workspace gives it (1280x800: about 600x330)
  // and the export's.
  void historyLabelsCoverNothing_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("table");
    for (const QSize& size : {QSize(600, 330), QSize(520, 300), QSize(780, 420), QSize(900, 500)})
      for (const char* table : {"user_item", "ad"})
        QTest::newRow(qPrintable(QStringLiteral("%1x%2 %3")
                                     .arg(size.width())
                                     .arg(size.height())
                                     .arg(QLatin1String(table))))
            << size << QString::fromLatin1(table);
  }
  void historyLabelsCoverNothing() {
    QFETCH(QSize, size);
    QFETCH(QString, table);
    FdoStatsView view;
    QVERIFY(openAndWait(view, {fixture(kHistoryNpz)}));
    const sc::FdoStatsReport& r = *view.report();
    size_t index = 0;
    while (index < r.history.size() && QString::fromStdString(r.history[index].table) != table) ++index;
    QVERIFY(index < r.history.size());
    plots::FdoHistoryPlot plot;
    plot.resize(size);
    plot.show();
    plot.setTable(r.history[index], r.suggestions[index]);
    QTRY_VERIFY(!plot.limitLabels().empty() && plot.axisRectInPixels().width() > 0);
    QTest::qWait(50);  // the queued replot of the resize
    const QRectF area = plot.axisRectInPixels();
    const auto series = plot.seriesInPixels();
    const auto labels = plot.limitLabels();
    QVERIFY(labels.size() >= 2);
    for (size_t i = 0; i < labels.size(); ++i) {
      const auto& l = labels[i];
      const QString what = l.text + QStringLiteral(" at ") +
                           QStringLiteral("%1,%2 %3x%4")
                               .arg(l.box.x())
                               .arg(l.box.y())
                               .arg(l.box.width())
                               .arg(l.box.height());
      QVERIFY2(area.adjusted(-1, -1, 1, 1).contains(l.box), qPrintable(what));
      // Not on its own line nor on any other limit line.
      for (const auto& other : labels)
        QVERIFY2(!(other.lineY > l.box.top() && other.lineY < l.box.bottom()), qPrintable(what));
      // No series segment or point under it.
      for (const QPolygonF& s : series)
        for (qsizetype k = 0; k < s.size(); ++k) {
          QVERIFY2(!l.box.contains(s[k]), qPrintable(what));
          if (k == 0) continue;
          // Sampled along the segment: no point of it inside the box.
          for (int t = 0; t <= 50; ++t) {
            const QPointF p = s[k - 1] + (s[k] - s[k - 1]) * (t / 50.0);
            QVERIFY2(!l.box.contains(p), qPrintable(what));
          }
        }
      for (size_t j = i + 1; j < labels.size(); ++j)
        QVERIFY2(!l.box.intersects(labels[j].box), qPrintable(what + QStringLiteral(" / ") + labels[j].text));
    }
  }

  void heatmapOverviewOfAllTables() {
    FdoStatsView view;
    QVERIFY(openAndWait(view, {fixture(kHistoryNpz)}));
    view.setHeatmapAllTables();
    QVERIFY(view.heatmapPlot()->hasData());
    QCOMPARE(view.heatmapPlot()->elementCount(), 1);  // one colour map
    view.setHeatmapStat(sc::StatKind::MaxUniqueIds);
    QVERIFY(view.heatmapPlot()->hasData());
  }

  void badFilesNameTheFileAndKeepTheLastResult_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated zip") << QStringLiteral("broken/truncated.npz")
                                   << QStringLiteral("not a readable .npz (zip) file");
    QTest::newRow("wrong dtype") << QStringLiteral("broken/float_dtype.npz")
                                 << QStringLiteral("entry 't_max_ids.npy': dtype '<f8' is not an integer type");
    QTest::newRow("unknown key") << QStringLiteral("broken/unknown_key.npz")
                                 << QStringLiteral("entry 't_histogram.npy': unexpected key");
    QTest::newRow("ragged csv") << QStringLiteral("broken/ragged.csv") << QStringLiteral("ragged.csv:3:");
  }
  void badFilesNameTheFileAndKeepTheLastResult() {
    QFETCH(QString, file);
    QFETCH(QString, message);
    FdoStatsView view;
    QVERIFY(openAndWait(view, {fixture(kHistoryNpz)}));
    QVERIFY(!openAndWait(view, {fixture(file)}));
    QVERIFY2(view.errorText().contains(fixture(file)), qPrintable(view.errorText()));
    QVERIFY2(view.errorText().contains(message), qPrintable(view.errorText()));
    QVERIFY(view.report());  // the last good statistics stay
    QCOMPARE(view.currentTable(), QStringLiteral("user_item"));
    QVERIFY(view.historyPlot()->hasData());
  }

  // The path label names the file (a narrow label still shows its name;
  // the whole path was cut to its first folders at 1280x800), the paths in
  // its tooltip; a folder says how many files; a bad file after a good one
  // says the shown one is kept.
  void pathLabelNamesTheFile_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("shown");
    QTest::newRow("npz") << kHistoryNpz << QStringLiteral("fdo_stats_0_1700000000000000000.npz");
    QTest::newRow("csv") << kHistoryCsv << QStringLiteral("fdo_stats_0_1700000000000000000.csv");
    QTest::newRow("folder") << QStringLiteral("hosts") << QStringLiteral("2 files");
  }
  void pathLabelNamesTheFile() {
    QFETCH(QString, input);
    QFETCH(QString, shown);
    FdoStatsView view;
    auto* label = view.findChild<MiddleElidedLabel*>(QStringLiteral("fdoPathLabel"));
    QVERIFY(label);
    QVERIFY(openAndWait(view, {fixture(input)}));
    QVERIFY2(label->fullText().startsWith(shown), qPrintable(label->fullText()));
    QVERIFY2(!label->fullText().contains(QLatin1Char('/')), qPrintable(label->fullText()));
    const QStringList paths = label->toolTip().split(QLatin1Char('\n'));
    QCOMPARE(paths.size(), input == QLatin1String("hosts") ? 2 : 1);
    for (const QString& path : paths) QVERIFY2(QFileInfo(path).isAbsolute() && QFileInfo::exists(path), qPrintable(path));
    QVERIFY(!openAndWait(view, {fixture(QStringLiteral("broken/ragged.csv"))}));
    QVERIFY2(label->fullText().startsWith(shown) && label->fullText().contains(QLatin1String("kept")),
             qPrintable(label->fullText()));
  }

  // In a bar narrower than the name (presentation mode's larger font on a
  // narrow page), the label shows the name's start and its end (the
  // extension), elided in the middle, within its width; wide enough, all
  // of it (the table and heatmap choosers sit above their charts, so at
  // 640 px the name fits).
  void pathLabelElidesInTheMiddle_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("fontScale");
    QTest::newRow("page 560, large font") << 560 << 1.6;
    QTest::newRow("page 640") << 640 << 1.0;
    QTest::newRow("page 800") << 800 << 1.0;
    QTest::newRow("page 1800") << 1800 << 1.0;
  }
  void pathLabelElidesInTheMiddle() {
    QFETCH(int, width);
    QFETCH(double, fontScale);
    FdoStatsView view;
    QFont large = view.font();
    large.setPointSizeF(large.pointSizeF() * fontScale);
    view.setFont(large);
    auto* label = view.findChild<MiddleElidedLabel*>(QStringLiteral("fdoPathLabel"));
    QVERIFY(label);
    QVERIFY(openAndWait(view, {fixture(kHistoryCsv)}));
    view.resize(width, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(20);
    const QString full = label->fullText();
    const QString shown = label->text();
    QVERIFY(!full.isEmpty());
    QVERIFY2(label->fontMetrics().horizontalAdvance(shown) <= label->contentsRect().width(),
             qPrintable(QStringLiteral("%1: %2 px in %3").arg(shown).arg(label->fontMetrics().horizontalAdvance(shown))
                            .arg(label->contentsRect().width())));
    if (fontScale > 1) QVERIFY2(shown != full, qPrintable(QStringLiteral("%1 px").arg(label->width())));
    if (width >= 640) QCOMPARE(shown, full);
    if (label->fontMetrics().horizontalAdvance(full) <= label->contentsRect().width()) {
      QCOMPARE(shown, full);
    } else {
      QVERIFY2(shown.contains(QChar(0x2026)), qPrintable(shown));
      QVERIFY2(shown.startsWith(full.left(3)) && shown.endsWith(QLatin1String(".csv")), qPrintable(shown));
    }
  }

  void workspaceHasTheStatisticsPage() {
    SparseCoreWorkspace w;
    QSignalSpy spy(w.statsView(), &FdoStatsView::statsLoaded);
    w.openStats({fixture(kHistoryCsv)});
    QVERIFY(spy.wait(30000));
    QVERIFY(w.statsView()->isVisibleTo(&w) || !w.isVisible());
    QVERIFY(w.statsView()->historyPlot()->hasData());
  }

  // The history and the heatmap share the width, with or without a file
  // (without, the heatmap's size hint once left the history a sliver with
  // its title wrapped word by word).
  void historyAndHeatmapShareTheWidth_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("loaded");
    for (const QSize& size : {QSize(850, 700), QSize(1170, 900)})
      for (const bool loaded : {false, true})
        QTest::newRow(qPrintable(QStringLiteral("%1x%2 %3")
                                     .arg(size.width())
                                     .arg(size.height())
                                     .arg(loaded ? QStringLiteral("loaded") : QStringLiteral("empty"))))
            << size << loaded;
  }
  void historyAndHeatmapShareTheWidth() {
    QFETCH(QSize, size);
    QFETCH(bool, loaded);
    FdoStatsView view;
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    if (loaded) QVERIFY(openAndWait(view, {fixture(kHistoryNpz)}));
    QTest::qWait(50);
    const int history = view.historyPlot()->width();
    const int heatmap = view.findChild<plots::PartitionHeatmapPlot*>()->width();
    QVERIFY2(history >= 260 && history * 10 >= (history + heatmap) * 4,
             qPrintable(QStringLiteral("history %1, heatmap %2").arg(history).arg(heatmap)));
  }

  void headlessExport_data() {
    QTest::addColumn<QString>("view");
    QTest::newRow("history") << QStringLiteral("sc-stats");
    QTest::newRow("heatmap") << QStringLiteral("sc-stats-heatmap:ad");
    QTest::newRow("all tables") << QStringLiteral("sc-stats-tables");
  }
  void headlessExport() {
    QFETCH(QString, view);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("stats.png"));
    QVERIFY(isSparseCoreView(view));
    QString error;
    QVERIFY2(exportSparseCoreView(fixture(kHistoryNpz), view, out, QSize(900, 500), &error), qPrintable(error));
    QVERIFY(pngHasContent(out));
    QVERIFY(!exportSparseCoreView(fixture(kHistoryNpz), QStringLiteral("sc-stats:nope"), out, {}, &error));
    QVERIFY2(error.contains(QStringLiteral("no table 'nope'")), qPrintable(error));
  }
};

QTEST_MAIN(FdoStatsViewTest)
#include "fdo_stats_view_test.moc"
