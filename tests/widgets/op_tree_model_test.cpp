// OpTreeModel over every sample, checked by QAbstractItemModelTester.
#include "outline/op_tree_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class OpTreeModelTest : public QObject {
  Q_OBJECT
 private slots:
  void samples_data() { test::addSampleRows(); }
  void samples() {
    QFETCH(QString, path);
    auto doc = api::loadDocument(path.toStdString());
    QVERIFY2(doc->module, qPrintable(path));
    OpTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDocument(doc);
    QVERIFY(model.rowCount() > 0);
    QCOMPARE(model.columnCount(), int(OpTreeModel::NumColumns));
    // Every function is a top-level row with its ops below.
    int functions = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
      const QModelIndex idx = model.index(r, 0);
      if (idx.data(OpTreeModel::KindRole).toInt() != OpTreeModel::FunctionNode) continue;
      ++functions;
      QVERIFY(idx.data().toString().startsWith(QLatin1String("func.func @")));
      QVERIFY(model.rowCount(idx) > 0);
      const ir::Op* op = OpTreeModel::opAt(idx);
      QVERIFY(op);
      QCOMPARE(model.indexOfOp(op), idx);
      QVERIFY(idx.data(OpTreeModel::LineRole).toInt() > 0);
    }
    QCOMPARE(functions, int(doc->module->functions().size()));
    // Recursive filtering through a proxy also passes the tester.
    QSortFilterProxyModel proxy;
    proxy.setRecursiveFilteringEnabled(true);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setFilterFixedString(QStringLiteral("return"));
    QVERIFY(proxy.rowCount() > 0);
    model.setDocument(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void contents_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("opName");
    QTest::addColumn<QString>("results");
    QTest::addColumn<QString>("sharding");
    QTest::newRow("hint") << "matmul_chain.mlir"
                          << "stablehlo.tanh"
                          << "%1: 8x32xf32"
                          << "@mesh [{\"x\", ?}, {?}]";
    QTest::newRow("while") << "while_loop.mlir"
                           << "stablehlo.while"
                           << "%0#0: 8x16xf32, %0#1: i32"
                           << "";
    QTest::newRow("manual") << "manual_computation.mlir"
                            << "sdy.manual_computation"
                            << "%0: 16x32xf32"
                            << "@mesh [{\"x\"}, {?}]";
  }
  void contents() {
    QFETCH(QString, sample);
    QFETCH(QString, opName);
    QFETCH(QString, results);
    QFETCH(QString, sharding);
    auto doc = test::loadSample(sample);
    QVERIFY(doc->module);
    OpTreeModel model;
    model.setDocument(doc);
    const QModelIndexList hits = model.match(model.index(0, 0), Qt::DisplayRole, opName, 1,
                                             Qt::MatchExactly | Qt::MatchRecursive);
    QVERIFY2(!hits.isEmpty(), qPrintable(opName));
    const QModelIndex idx = hits.front();
    QCOMPARE(idx.siblingAtColumn(OpTreeModel::ResultsColumn).data().toString(), results);
    QCOMPARE(idx.siblingAtColumn(OpTreeModel::ShardingColumn).data().toString(), sharding);
  }

  void regions() {
    auto doc = test::loadSample(QStringLiteral("while_loop.mlir"));
    QVERIFY(doc->module);
    OpTreeModel model;
    model.setDocument(doc);
    const QModelIndexList hits =
        model.match(model.index(0, 0), Qt::DisplayRole, QStringLiteral("stablehlo.while"), 1,
                    Qt::MatchExactly | Qt::MatchRecursive);
    QVERIFY(!hits.isEmpty());
    const QModelIndex loop = hits.front();
    QCOMPARE(model.rowCount(loop), 2);
    QCOMPARE(model.index(0, 0, loop).data().toString(), QStringLiteral("cond"));
    QCOMPARE(model.index(1, 0, loop).data().toString(), QStringLiteral("do"));
    QCOMPARE(model.index(1, 0, loop).data(OpTreeModel::KindRole).toInt(),
             int(OpTreeModel::RegionNode));
    QVERIFY(model.rowCount(model.index(1, 0, loop)) >= 3);  // dot_general, tanh, add, return
  }
};

QTEST_MAIN(OpTreeModelTest)
#include "op_tree_model_test.moc"
