// DiagnosticsModel with bad inputs, checked by QAbstractItemModelTester.
#include "diagnostics/diagnostics_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class DiagnosticsModelTest : public QObject {
  Q_OBJECT
 private slots:
  void badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    for (const auto& b : test::kBadInputs)
      QTest::newRow(b.name) << QString::fromUtf8(b.text) << b.line;
  }
  void badInput() {
    QFETCH(QString, text);
    QFETCH(int, line);
    auto doc = api::parseDocument(text.toStdString(), "bad.mlir");
    QVERIFY(doc->hasErrors());
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiagnostics(doc->diagnostics);
    QVERIFY(model.rowCount() >= 1);
    QVERIFY(model.errorCount() >= 1);
    const QModelIndex first = model.index(0, DiagnosticsModel::MessageColumn);
    QVERIFY(!first.data().toString().isEmpty());
    QCOMPARE(first.data(DiagnosticsModel::LineRole).toInt(), line);
    QCOMPARE(model.index(0, DiagnosticsModel::SeverityColumn).data().toString(),
             QStringLiteral("error"));
    QCOMPARE(model.index(0, DiagnosticsModel::LineColumn).data().toInt(), line);

    QSortFilterProxyModel proxy;
    proxy.setSortRole(DiagnosticsModel::SortRole);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(DiagnosticsModel::LineColumn, Qt::DescendingOrder);
    model.setDiagnostics({});
    QCOMPARE(model.rowCount(), 0);
  }

  void missingFile() {
    auto doc = api::loadDocument("/nonexistent/dir/missing.mlir");
    QVERIFY(!doc->module);
    QCOMPARE(doc->errorCount(), 1);
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiagnostics(doc->diagnostics);
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.index(0, DiagnosticsModel::MessageColumn)
                .data()
                .toString()
                .contains(QLatin1String("cannot open")));
    QCOMPARE(model.index(0, DiagnosticsModel::LineColumn).data().toString(), QStringLiteral("—"));
  }

  void samplesHaveNoErrors_data() { test::addSampleRows(); }
  void samplesHaveNoErrors() {
    QFETCH(QString, path);
    auto doc = api::loadDocument(path.toStdString());
    QString all;
    for (const auto& d : doc->diagnostics)
      all += QString::fromStdString(d.format(doc->name)) + u'\n';
    QVERIFY2(!doc->hasErrors(), qPrintable(all));
    QVERIFY(doc->module);
  }
};

QTEST_MAIN(DiagnosticsModelTest)
#include "diagnostics_model_test.moc"
