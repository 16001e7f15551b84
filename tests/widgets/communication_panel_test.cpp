// widgets/comm: the Communication model (QAbstractItemModelTester, rows of
// known samples), the panel computing off the UI thread, a click selecting
// the op, and the picture.
#include "comm/communication_panel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "api/propagate.h"
#include "comm/communication_export.h"
#include "comm/communication_model.h"
#include "core/document_state.h"
#include "test_util.h"

using namespace shardscope;
using widgets::comm::CommunicationModel;
using widgets::comm::CommunicationPanel;

namespace {
// The sample after user-priority propagation (what the window shows after Propagate).
std::shared_ptr<const api::Document> propagated(const QString& name) {
  auto doc = test::loadSample(name);
  propagation::PropagationOptions options;
  auto run = api::propagateDocument(*doc, options);
  return run->ok ? run->result : nullptr;
}
}  // namespace

class CommunicationPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void modelRows_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("propagate");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("firstKind");
    QTest::addColumn<QString>("firstAxes");
    QTest::addColumn<double>("totalBytes");
    QTest::addColumn<QString>("totals");
    QTest::newRow("megatron propagated")
        << "mlp_megatron.mlir" << true << 1 << "all-reduce"
        << "\"model\"" << 3072.0 << "1 collective, 3.00 KiB per device";
    QTest::newRow("attention as written")
        << "attention_block.mlir" << false << 3 << "all-gather"
        << "\"batch\", \"heads\"" << 86016.0 << "3 collectives, 84.00 KiB";
    QTest::newRow("attention propagated") << "attention_block.mlir" << true << 0 << ""
                                          << "" << 0.0 << "No collectives (on tpu-v5p)";
  }
  void modelRows() {
    QFETCH(QString, sample);
    QFETCH(bool, propagate);
    QFETCH(int, rows);
    QFETCH(QString, firstKind);
    QFETCH(QString, firstAxes);
    QFETCH(double, totalBytes);
    QFETCH(QString, totals);
    std::shared_ptr<const api::Document> doc =
        propagate ? propagated(sample) : test::loadSample(sample);
    QVERIFY(doc);
    CommunicationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto report = std::make_shared<const api::CommunicationReport>(api::analyzeCommunication(*doc));
    QVERIFY2(report->ok, report->error.c_str());
    model.setReport(report);
    QCOMPARE(model.rowCount(), rows);
    QCOMPARE(model.columnCount(), int(CommunicationModel::NumColumns));
    QVERIFY2(model.totalsText().startsWith(totals), qPrintable(model.totalsText()));
    QCOMPARE(report->total.bytesPerDevice, totalBytes);
    if (rows == 0) return;
    QCOMPARE(model.index(0, CommunicationModel::KindColumn).data().toString(), firstKind);
    QCOMPARE(model.index(0, CommunicationModel::AxesColumn).data().toString(), firstAxes);
    QVERIFY(!model.index(0, CommunicationModel::CauseColumn).data().toString().isEmpty());
    // Sorting by bytes is numeric, through the proxy.
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(CommunicationModel::SortRole);
    proxy.sort(CommunicationModel::BytesColumn, Qt::DescendingOrder);
    double last = 1e300;
    for (int r = 0; r < proxy.rowCount(); ++r) {
      const double b = proxy.index(r, CommunicationModel::BytesColumn)
                           .data(CommunicationModel::SortRole)
                           .toDouble();
      QVERIFY(b <= last);
      last = b;
    }
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  // The panel computes the report off the UI thread when a document opens
  // and when propagation replaces it; a click selects the op and shows why.
  void clickSelectsTheOp() {
    widgets::DocumentState state;
    CommunicationPanel panel(&state);
    panel.resize(900, 300);
    panel.show();
    QSignalSpy ready(&panel, &CommunicationPanel::reportReady);
    auto doc = propagated(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(doc);
    state.setDocument(doc);
    QVERIFY(ready.wait(10000));
    QCOMPARE(panel.model()->rowCount(), 1);
    QVERIFY2(panel.totalsText().startsWith(QLatin1String("1 collective")),
             qPrintable(panel.totalsText()));
    QTableView* view = panel.view();
    const QModelIndex cell = panel.proxy()->index(0, CommunicationModel::KindColumn);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    QVERIFY(state.selectedOp());
    QCOMPARE(QString::fromStdString(state.selectedOp()->name()),
             QStringLiteral("stablehlo.dot_general"));
    QCOMPARE(state.selectedOp()->loc().line, 26u);
    QVERIFY2(panel.detailText().contains(QLatin1String("all-reduce on")),
             qPrintable(panel.detailText()));
    // Selecting the op elsewhere selects its row; another op clears nothing.
    view->clearSelection();
    view->setCurrentIndex({});
    state.selectOp(state.findOp(QStringLiteral("%3")));
    state.selectOp(api::opAtLocation(*state.module(), 26, 8));
    QCOMPARE(view->currentIndex().row(), 0);
    // A new chip recomputes the times.
    const double before = panel.model()->entry(0)->seconds;
    ready.clear();
    panel.setChip(QStringLiteral("tpu-v5e"));
    QVERIFY(ready.wait(10000));
    QVERIFY(panel.model()->entry(0)->seconds != before);
  }

  // Only the last of several quickly replaced documents is shown.
  void staleReportsAreDropped() {
    widgets::DocumentState state;
    CommunicationPanel panel(&state);
    QSignalSpy ready(&panel, &CommunicationPanel::reportReady);
    state.setDocument(test::loadSample(QStringLiteral("attention_block.mlir")));
    panel.refresh();
    state.setDocument(propagated(QStringLiteral("mlp_megatron.mlir")));
    panel.refresh();
    QVERIFY(ready.wait(10000));
    QTest::qWait(300);  // any stale result would have arrived by now
    QCOMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(QString::fromStdString(panel.model()->entry(0)->kind), QStringLiteral("all-reduce"));
    // A document with errors: a message, no rows.
    ready.clear();
    state.setDocument(api::parseDocument("func.func @main(", "broken.mlir"));
    QVERIFY(ready.wait(10000));
    QCOMPARE(panel.model()->rowCount(), 0);
    QVERIFY2(panel.totalsText().contains(QLatin1String("errors")), qPrintable(panel.totalsText()));
  }

  // A new version of the same file (propagation, a what-if re-run) shows
  // what changed in the collectives; another file does not.
  void changeSinceTheLastRun() {
    widgets::DocumentState state;
    CommunicationPanel panel(&state);
    QSignalSpy ready(&panel, &CommunicationPanel::reportReady);
    state.setDocument(test::loadSample(QStringLiteral("mlp_megatron.mlir")));
    QVERIFY(ready.wait(10000));
    QVERIFY(panel.changeText().isEmpty());
    ready.clear();
    state.setDocumentKeepingSelection(propagated(QStringLiteral("mlp_megatron.mlir")));
    QVERIFY(ready.wait(10000));
    // It names what it compares with: the state shown before (here the
    // file as written), not "the last run" (the What-if panel's baseline).
    QVERIFY2(panel.changeText().startsWith(QLatin1String("Since the state shown before (as written): removes ")),
             qPrintable(panel.changeText()));
    QVERIFY2(panel.changeText().contains(QLatin1String("; -")), qPrintable(panel.changeText()));
    ready.clear();
    state.setDocument(test::loadSample(QStringLiteral("attention_block.mlir")));
    QVERIFY(ready.wait(10000));
    QVERIFY(panel.changeText().isEmpty());
  }

  void picture() {
    auto doc = propagated(QStringLiteral("mlp_megatron.mlir"));
    const api::CommunicationReport report = api::analyzeCommunication(*doc);
    const widgets::Picture pic =
        widgets::comm::communicationPicture(report, QStringLiteral("title"));
    QVERIFY(!pic.isNull());
    QVERIFY(pic.size.width() > 500);
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("comm.png"));
    QVERIFY2(widgets::comm::exportCommunicationView(path, *doc, QStringLiteral("after propagation"),
                                                    {}, &error),
             qPrintable(error));
    QImage image(path);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 1000);
  }
};

QTEST_MAIN(CommunicationPanelTest)
#include "communication_panel_test.moc"
