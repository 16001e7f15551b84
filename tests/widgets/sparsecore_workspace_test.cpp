// The SparseCore workspace: every sample loads and every view has data;
// editing a limit re-runs the analysis off the UI thread and updates the
// views; stale results are dropped; bad files show the engine's error; the
// headless export writes non-blank PNG / SVG / PDF for each view.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <QApplication>
#include <QLabel>
#include <QListView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>

#include "fdo_stats_view.h"
#include "hbm_usage_plot.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "sc_messages_model.h"
#include "sc_views.h"
#include "sparsecore_export.h"
#include "sparsecore_workspace.h"
#include "spmem_occupancy_plot.h"
#include "table_limits_model.h"

using namespace shardscope;
using namespace shardscope::scw;

namespace {

QString sample(const QString& file) {
  return QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/") + file;
}

const char* const kJobs[] = {"dlrm_like.json",        "zipf_dropping.json",
                             "zipf_minibatching.json", "stacked_tables.json",
                             "explicit_stacking.json",
                             "pipeline_comparison.json", "pipeline_balanced.json"};

bool hasTables(const QString& file) { return !file.startsWith(QLatin1String("pipeline_")); }

bool pngHasContent(const QString& path) {
  QImage image(path);
  if (image.isNull()) return false;
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 5)
    for (int x = 0; x < image.width(); x += 5) colours.insert(image.pixel(x, y));
  return colours.size() > 8;
}

QByteArray head(const QString& path, int n) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

// Opens `path` in `w` and waits for the result.
bool openAndWait(scw::SparseCoreWorkspace& w, const QString& path) {
  QSignalSpy spy(&w, &scw::SparseCoreWorkspace::analysisUpdated);
  w.openJob(path);
  return spy.wait(60000);
}

// Waits until the workspace has applied the newest request.
bool settle(scw::SparseCoreWorkspace& w) {
  QSignalSpy spy(&w, &scw::SparseCoreWorkspace::analysisUpdated);
  while (w.isBusy())
    if (!spy.wait(60000)) return false;
  return true;
}

int column(scw::TableLimitsModel::Columns c) { return int(c); }

int rowOf(const scw::TableLimitsModel& m, const QString& table) {
  for (int r = 0; r < m.rowCount(); ++r)
    if (m.index(r, scw::TableLimitsModel::NameColumn).data().toString() == table) return r;
  return -1;
}

}  // namespace

class SparseCoreWorkspaceTest : public QObject {
  Q_OBJECT
 private slots:
  // The message list under the plots: one row per message, severity prefix
  // and role, errors counted.
  void messagesModel_data() {
    QTest::addColumn<int>("severity");
    QTest::addColumn<QString>("prefix");
    QTest::newRow("note") << int(Severity::Info) << QStringLiteral("note: ");
    QTest::newRow("warning") << int(Severity::Warning) << QStringLiteral("warning: ");
    QTest::newRow("error") << int(Severity::Error) << QStringLiteral("error: ");
  }
  void messagesModel() {
    QFETCH(int, severity);
    QFETCH(QString, prefix);
    ScMessagesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setMessages({{Severity::Info, QStringLiteral("first")},
                       {Severity(severity), QStringLiteral("table t0 drops 12 ids")}});
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex row = model.index(1, 0);
    QCOMPARE(row.data().toString(), prefix + QStringLiteral("table t0 drops 12 ids"));
    QCOMPARE(row.data(Qt::ToolTipRole).toString(), QStringLiteral("table t0 drops 12 ids"));
    QCOMPARE(row.data(ScMessagesModel::SeverityRole).toInt(), severity);
    QCOMPARE(model.errorCount(), severity == int(Severity::Error) ? 1 : 0);
    model.setMessages({});
    QCOMPARE(model.rowCount(), 0);
  }

  void loads_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : kJobs) QTest::newRow(f) << QString::fromLatin1(f);
  }
  void loads() {
    QFETCH(QString, file);
    scw::SparseCoreWorkspace w;
    QAbstractItemModelTester tableTester(w.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester messagesTester(w.messagesModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openAndWait(w, sample(file)));
    QVERIFY(w.analysis());
    QVERIFY2(w.errorText().isEmpty() || file == QLatin1String("dlrm_like.json"), qPrintable(w.errorText()));
    QVERIFY(w.pipelinePlot()->hasData());
    QVERIFY(!w.summaryText().isEmpty());
    if (hasTables(file)) {
      QVERIFY(w.loadPlot()->hasData());
      QVERIFY(w.spmemPlot()->hasData());
      QVERIFY(w.hbmPlot()->hasData());
      QVERIFY(w.idsPlot()->hasData());
      QVERIFY(w.tableModel()->rowCount() > 0);
      // The derived columns are filled from the analysis.
      QVERIFY(!w.tableModel()->index(0, scw::TableLimitsModel::StackColumn).data().toString().isEmpty());
    } else {
      QCOMPARE(w.tableModel()->rowCount(), 0);
      QVERIFY(!w.loadPlot()->hasData());
    }
  }

  void editingALimitUpdatesTheLoadPlot_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("table");
    QTest::addColumn<int>("limitColumn");
    QTest::addColumn<int>("newLimit");
    QTest::newRow("dropping: raise user max ids")
        << QStringLiteral("zipf_dropping.json") << QStringLiteral("user")
        << column(scw::TableLimitsModel::MaxIdsColumn) << 600;
    QTest::newRow("dropping: lower user max ids")
        << QStringLiteral("zipf_dropping.json") << QStringLiteral("user")
        << column(scw::TableLimitsModel::MaxIdsColumn) << 128;
    QTest::newRow("minibatching: raise user max unique")
        << QStringLiteral("zipf_minibatching.json") << QStringLiteral("user")
        << column(scw::TableLimitsModel::MaxUniqueIdsColumn) << 4096;
  }
  void editingALimitUpdatesTheLoadPlot() {
    QFETCH(QString, file);
    QFETCH(QString, table);
    QFETCH(int, limitColumn);
    QFETCH(int, newLimit);
    scw::SparseCoreWorkspace w;
    w.setDebounceMs(10);
    QAbstractItemModelTester tester(w.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openAndWait(w, sample(file)));
    const plots::LoadFigures before = w.loadPlot()->figures();
    const int row = rowOf(*w.tableModel(), table);
    QVERIFY(row >= 0);
    const int oldLimit = w.tableModel()->index(row, limitColumn).data(Qt::EditRole).toInt();
    QSignalSpy spy(&w, &scw::SparseCoreWorkspace::analysisUpdated);
    QVERIFY(w.tableModel()->setData(w.tableModel()->index(row, limitColumn), newLimit));
    QVERIFY(spy.wait(60000));
    QVERIFY(settle(w));
    const plots::LoadFigures after = w.loadPlot()->figures();
    if (limitColumn == scw::TableLimitsModel::MaxIdsColumn) {
      QCOMPARE(before.maxIdsLimit, int64_t(oldLimit));
      QCOMPARE(after.maxIdsLimit, int64_t(newLimit));
      // Fewer ids dropped with a higher limit, more with a lower one.
      if (newLimit > oldLimit) QVERIFY(after.droppedIds < before.droppedIds);
      else QVERIFY(after.droppedIds > before.droppedIds);
    } else {
      QCOMPARE(before.maxUniqueIdsLimit, int64_t(oldLimit));
      QCOMPARE(after.maxUniqueIdsLimit, int64_t(newLimit));
      QVERIFY(before.minibatches > 1);
      QCOMPARE(after.minibatches, 1);
    }
    // Every view was redrawn from the same result.
    QVERIFY(w.spmemPlot()->hasData());
    QVERIFY(w.hbmPlot()->hasData());
    QCOMPARE(w.analysis()->report->tables.empty(), false);
  }

  // A pipeline-only file after a job: no stale partition-load chart (its
  // ticks ran together), and the pipeline view comes to the front.
  void pipelineOnlyFileShowsThePipeline() {
    scw::SparseCoreWorkspace w;
    QVERIFY(openAndWait(w, sample(QStringLiteral("dlrm_like.json"))));
    QVERIFY(w.loadPlot()->hasData());
    QCOMPARE(w.currentView(), w.loadPlot()->parentWidget());
    QVERIFY(openAndWait(w, sample(QStringLiteral("pipeline_balanced.json"))));
    QVERIFY(!w.loadPlot()->hasData());
    QCOMPARE(w.loadPlot()->elementCount(), 0);
    QCOMPARE(w.currentView(), static_cast<QWidget*>(w.pipelinePlot()));
    QVERIFY(w.pipelinePlot()->hasData());
  }

  // An edit keeps the stack on screen, also when the chooser follows the
  // hottest stack and the edit makes another stack the hottest.
  void editingALimitKeepsTheShownStack() {
    scw::SparseCoreWorkspace w;
    w.setDebounceMs(0);
    QVERIFY(openAndWait(w, sample(QStringLiteral("dlrm_like.json"))));
    // Without stacking each table is a stack with its own limits.
    scw::JobSettings settings = w.settings();
    settings.tableStacking = false;
    w.setSettings(settings);
    QVERIFY(settle(w));
    QCOMPARE(w.shownStack(), QStringLiteral("hottest stack"));
    const auto& before = w.analysis()->report->tables;
    QVERIFY(before.size() > 1);
    const int hottest = plots::PartitionLoadPlot::hottestStack(*w.analysis()->report);
    const QString shown = QString::fromStdString(before[size_t(hottest)].stats.name);
    const QString other = QString::fromStdString(before[hottest == 0 ? 1 : 0].stats.tables[0]);
    // A limit of 1 on another table makes its stack the hottest...
    const int row = rowOf(*w.tableModel(), other);
    QVERIFY(row >= 0);
    QVERIFY(w.tableModel()->setData(w.tableModel()->index(row, column(scw::TableLimitsModel::MaxIdsColumn)), 1));
    QVERIFY(settle(w));
    QVERIFY(plots::PartitionLoadPlot::hottestStack(*w.analysis()->report) != hottest);
    // ...but the plot keeps showing the stack it showed.
    QCOMPARE(w.shownStack(), shown);
    QVERIFY(w.loadPlot()->hasData());
  }

  // A stacked table's own limit is ignored (the stack's apply): the edit
  // changes nothing, and the status line says why.
  void anEditWithoutEffectSaysWhy() {
    scw::SparseCoreWorkspace w;
    w.setDebounceMs(0);
    QVERIFY(openAndWait(w, sample(QStringLiteral("stacked_tables.json"))));
    const int row = rowOf(*w.tableModel(), QStringLiteral("t0"));
    QVERIFY(row >= 0);
    const QModelIndex limit = w.tableModel()->index(row, column(scw::TableLimitsModel::MaxIdsColumn));
    QVERIFY(w.tableModel()->setData(limit, limit.data(Qt::EditRole).toInt() + 7));
    QVERIFY(settle(w));
    QVERIFY2(w.summaryText().contains(QStringLiteral("per-table limits are ignored")), qPrintable(w.summaryText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("changes nothing")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("t0 is stacked into")), qPrintable(w.statusText()));
  }

  void settingsSwitchTheOutcome() {
    scw::SparseCoreWorkspace w;
    w.setDebounceMs(0);
    QVERIFY(openAndWait(w, sample(QStringLiteral("zipf_dropping.json"))));
    QVERIFY(w.errorText().isEmpty());
    scw::JobSettings s = w.settings();
    s.allowIdDropping = false;
    w.setSettings(s);
    QVERIFY(settle(w));
    QVERIFY2(w.errorText().contains(QLatin1String("Observed max ids per partition")),
             qPrintable(w.errorText()));
    QVERIFY(w.messagesModel()->errorCount() >= 1);
    // Invalid settings (3 SparseCores is not a power of two): the engine's message.
    s.sparseCoresPerDevice = 3;
    w.setSettings(s);
    QVERIFY(settle(w));
    QVERIFY2(!w.errorText().isEmpty(), "expected a validation error");
    QVERIFY(!w.loadPlot()->hasData());
    QVERIFY(w.pipelinePlot()->hasData());
  }

  void staleResultsAreDropped() {
    scw::SparseCoreWorkspace w;
    w.setDebounceMs(0);
    QVERIFY(openAndWait(w, sample(QStringLiteral("zipf_dropping.json"))));
    scw::JobSettings s = w.settings();
    // Many edits in a row: only the last one may end up on screen.
    for (int limit : {300, 400, 500, 700, 800}) {
      s.tables[0].maxIdsPerPartition = limit;
      w.setSettings(s);
      QTest::qWait(1);
    }
    QVERIFY(settle(w));
    QCOMPARE(w.loadPlot()->figures().maxIdsLimit, int64_t(800));
    QCOMPARE(w.analysis()->report->tables[0].stats.maxIdsLimit, int64_t(800));
  }

  void badFilesShowTheEngineError_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("broken json") << QByteArray("{\n \"tables\": [\n  {\"name\": \"t\",\n")
                                 << QStringLiteral("JSON parse error");
    QTest::newRow("bad field") << QByteArray(
        "{\"tables\": [{\"name\": \"t\", \"vocab_size\": \"many\", \"width\": 8}], \"features\": []}")
                               << QStringLiteral("tables[0]");
    QTest::newRow("unknown table") << QByteArray(
        "{\"tables\": [{\"name\": \"t\", \"vocab_size\": 10, \"width\": 8}],"
        " \"features\": [{\"name\": \"f\", \"table\": \"u\", \"samples\": [[1]]}]}")
                                   << QStringLiteral("unknown table 'u'");
    QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("expected a JSON object");
  }
  void badFilesShowTheEngineError() {
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad_job.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    scw::SparseCoreWorkspace w;
    QAbstractItemModelTester tester(w.messagesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    // A good job first: the bad one must replace it cleanly.
    QVERIFY(openAndWait(w, sample(QStringLiteral("stacked_tables.json"))));
    QVERIFY(openAndWait(w, path));
    QVERIFY2(w.errorText().contains(expected), qPrintable(w.errorText()));
    QVERIFY2(w.errorText().contains(QLatin1String("bad_job.json")), qPrintable(w.errorText()));
    QCOMPARE(w.messagesModel()->errorCount(), 1);
    QVERIFY(!w.loadPlot()->hasData());
    QVERIFY(!w.pipelinePlot()->hasData());
    QCOMPARE(w.tableModel()->rowCount(), 0);
    // Missing file, and the headless export of a broken file.
    QVERIFY(openAndWait(w, dir.filePath(QStringLiteral("missing.json"))));
    QVERIFY(w.errorText().contains(QLatin1String("cannot open file")));
    QString error;
    QVERIFY(!scw::exportSparseCoreView(path, QStringLiteral("sc-load"), dir.filePath(QStringLiteral("x.png")),
                                       {}, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
  }

  void exports_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("suffix");
    for (const char* f : kJobs)
      for (const QString& view : scw::sparseCoreViewNames())
        for (const char* suffix : {"png", "svg", "pdf"})
          QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3").arg(QLatin1String(f), view, QLatin1String(suffix))))
              << QString::fromLatin1(f) << view << QString::fromLatin1(suffix);
  }
  void exports() {
    QFETCH(QString, file);
    QFETCH(QString, view);
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("view.") + suffix);
    QString error;
    const bool ok = scw::exportSparseCoreView(sample(file), view, out, QSize(900, 520), &error);
    if (!hasTables(file) && view != QLatin1String("sc-pipeline")) {
      QVERIFY(!ok);
      QVERIFY2(error.contains(QLatin1String("pipeline")), qPrintable(error));
      return;
    }
    QVERIFY2(ok, qPrintable(error));
    if (suffix == QLatin1String("png")) QVERIFY(pngHasContent(out));
    if (suffix == QLatin1String("svg")) QVERIFY(head(out, 400).contains("<svg"));
    if (suffix == QLatin1String("pdf")) QVERIFY(head(out, 5).startsWith("%PDF"));
  }

  void exportOptions() {
    QTemporaryDir dir;
    QString error;
    QVERIFY(!scw::exportSparseCoreView(sample(QStringLiteral("stacked_tables.json")), QStringLiteral("sc-nope"),
                                       dir.filePath(QStringLiteral("a.png")), {}, &error));
    QVERIFY(error.contains(QLatin1String("unknown SparseCore view")));
    QVERIFY(scw::exportSparseCoreView(sample(QStringLiteral("stacked_tables.json")),
                                      QStringLiteral("sc-load:t0_t1_t2_t3_t4"),
                                      dir.filePath(QStringLiteral("b.png")), {}, &error));
    QVERIFY(!scw::exportSparseCoreView(sample(QStringLiteral("stacked_tables.json")), QStringLiteral("sc-load:zz"),
                                       dir.filePath(QStringLiteral("c.png")), {}, &error));
    QVERIFY(error.contains(QLatin1String("no stack 'zz'")));
    QVERIFY(scw::isSparseCoreView(QStringLiteral("sc-load:t0")));
    QVERIFY(!scw::isSparseCoreView(QStringLiteral("graph")));
  }

  // Presentation mode (the window's font 1.6 times larger, the charts'
  // texts too) fits the window at 1280x800 and 1600x1000: nothing of the
  // workspace scrolls but the settings panel, on every view; table rows
  // hold their larger text; the FDO page says it has no file in full;
  // leaving it gives every size back. (The SparseCore tab's area: the
  // window less its menu, tab bar and status bar.)
  void presentationFitsTheWindow_data() {
    QTest::addColumn<QSize>("window");
    QTest::addColumn<double>("scale");
    for (QSize window : {QSize(1280, 800), QSize(1600, 1000)})
      for (double scale : {1.0, 1.6})
        QTest::newRow(qPrintable(QStringLiteral("%1x%2 x%3").arg(window.width()).arg(window.height()).arg(scale)))
            << window << scale;
  }
  void presentationFitsTheWindow() {
    QFETCH(QSize, window);
    QFETCH(double, scale);
    QScrollArea tab;  // as the main window holds the workspace
    tab.setWidgetResizable(true);
    tab.setFrameShape(QFrame::NoFrame);
    auto* w = new scw::SparseCoreWorkspace;
    tab.setWidget(w);
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * scale);
    tab.setFont(font);
    w->setTextScale(scale);
    tab.resize(window.width(), window.height() - 120);  // the main window's menu, tabs and status bar (~95 px at 1.6x)
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QVERIFY(openAndWait(*w, sample(QStringLiteral("dlrm_like.json"))));
    auto* tabs = w->findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 6);
    for (int i = 0; i < tabs->count(); ++i) {
      tabs->setCurrentIndex(i);
      QTest::qWait(30);
      QVERIFY2(tab.horizontalScrollBar()->maximum() == 0 && tab.verticalScrollBar()->maximum() == 0,
               qPrintable(QStringLiteral("%1: the workspace scrolls, it needs %2x%3 of %4x%5")
                              .arg(tabs->tabText(i))
                              .arg(w->minimumSizeHint().width())
                              .arg(w->minimumSizeHint().height())
                              .arg(tab.viewport()->width())
                              .arg(tab.viewport()->height())));
    }
    for (plots::SparseCorePlot* p : std::initializer_list<plots::SparseCorePlot*>{
             w->loadPlot(), w->spmemPlot(), w->hbmPlot(), w->pipelinePlot(), w->idsPlot()})
      QCOMPARE(p->textScale(), scale);
    // The status and the path are inside the window.
    auto* status = w->findChild<QLabel*>(QStringLiteral("scStatus"));
    QVERIFY(status);
    QVERIFY(status->mapTo(w, QPoint(status->width(), 0)).x() <= w->width());
    QCOMPARE(w->statusText(), QStringLiteral("up to date"));
    // Rows as tall as their text.
    QTableView* table = nullptr;
    for (QTableView* t : w->findChildren<QTableView*>())
      if (t->model() == w->tableModel()) table = t;
    QVERIFY(table);
    QVERIFY2(table->rowHeight(0) >= table->fontMetrics().height() + 2,
             qPrintable(QStringLiteral("%1 px rows for %2 px text").arg(table->rowHeight(0)).arg(table->fontMetrics().height())));
    // No statistics file, said in full.
    auto* fdoLabel = w->statsView()->findChild<QLabel*>(QStringLiteral("fdoPathLabel"));
    QVERIFY(fdoLabel);
    QCOMPARE(w->statsView()->pathText(), QStringLiteral("no statistics file"));
    QCOMPARE(fdoLabel->text(), w->statsView()->pathText());
    // Back to the normal size.
    tab.setFont(QApplication::font());
    w->setTextScale(1.0);
    QTest::qWait(20);
    QCOMPARE(w->loadPlot()->textScale(), 1.0);
    QCOMPARE(table->rowHeight(0), table->fontMetrics().height() + 6);
  }

  // The messages under the views show every line when the window has room
  // (the last line was cut in half and the list scrolled at 1280x800).
  void messagesShowEveryLine_data() {
    QTest::addColumn<QSize>("window");
    QTest::newRow("1280x800") << QSize(1280, 800);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
  }
  void messagesShowEveryLine() {
    QFETCH(QSize, window);
    scw::SparseCoreWorkspace w;
    w.resize(window.width(), window.height() - 110);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, sample(QStringLiteral("dlrm_like.json"))));
    QTest::qWait(50);
    auto* list = w.findChild<QListView*>();
    QVERIFY(list);
    QVERIFY(w.messagesModel()->rowCount() >= 3);
    QTRY_COMPARE(list->verticalScrollBar()->maximum(), 0);
    const QRect last = list->visualRect(w.messagesModel()->index(w.messagesModel()->rowCount() - 1, 0));
    QVERIFY2(last.bottom() <= list->viewport()->height(),
             qPrintable(QStringLiteral("last line ends at %1 of %2").arg(last.bottom()).arg(list->viewport()->height())));
  }

  // With SHARDSCOPE_SC_PICTURES=DIR: writes every view of every sample (and
  // of the jobs in SHARDSCOPE_SC_PICTURE_JOBS, colon-separated) and a grab
  // of the whole workspace there, to look at them.
  void pictures() {
    const QString out = qEnvironmentVariable("SHARDSCOPE_SC_PICTURES");
    if (out.isEmpty()) QSKIP("set SHARDSCOPE_SC_PICTURES=DIR to write the pictures");
    QStringList jobs;
    for (const char* f : kJobs) jobs << sample(QString::fromLatin1(f));
    jobs << qEnvironmentVariable("SHARDSCOPE_SC_PICTURE_JOBS").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    for (const QString& job : jobs) {
      const QString base = QFileInfo(job).completeBaseName();
      for (const QString& view : scw::sparseCoreViewNames()) {
        QString error;
        scw::exportSparseCoreView(job, view, out + QStringLiteral("/sc_%1_%2.png").arg(base, view.mid(3)),
                                  {}, &error);
      }
    }
    for (const char* f : {"zipf_dropping.json", "dlrm_like.json"}) {
      scw::SparseCoreWorkspace w;
      w.resize(1500, 950);
      w.show();
      QVERIFY(openAndWait(w, sample(QString::fromLatin1(f))));
      QVERIFY(w.grab().save(out + QStringLiteral("/sc_workspace_%1.png")
                                      .arg(QString::fromLatin1(f).section(QLatin1Char('.'), 0, 0))));
    }
  }
};

QTEST_MAIN(SparseCoreWorkspaceTest)
#include "sparsecore_workspace_test.moc"
