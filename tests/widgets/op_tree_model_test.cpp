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

  // A function of more than kMaxChildRows ops shows ranges of them, each
  // holding its ops in order; every op is still found (indexOfOp) under its
  // range, and the model stays valid (QAbstractItemModelTester).
  void longListsInRanges_data() {
    QTest::addColumn<int>("ops");          // in @main, the return included
    QTest::addColumn<QStringList>("rows");  // under @main: ranges or the op count
    QTest::newRow("1000: no ranges") << 1000 << QStringList{QStringLiteral("1000 ops")};
    QTest::newRow("1001: a full range and one op")
        << 1001 << QStringList{QStringLiteral("ops 0–999"), QStringLiteral("ops 1000–1000")};
    QTest::newRow("2500: three ranges")
        << 2500
        << QStringList{QStringLiteral("ops 0–999"), QStringLiteral("ops 1000–1999"),
                       QStringLiteral("ops 2000–2499")};
  }
  void longListsInRanges() {
    QFETCH(int, ops);
    QFETCH(QStringList, rows);
    std::string text = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n";
    std::string prev = "%arg0";
    for (int i = 0; i + 1 < ops; ++i) {
      const std::string v = "%v" + std::to_string(i);
      text += "  " + v + " = stablehlo.negate " + prev + " : tensor<4xf32>\n";
      prev = v;
    }
    text += "  return " + prev + " : tensor<4xf32>\n}\n";
    auto doc = api::parseDocument(text, "chain.mlir");
    QVERIFY(doc->module);
    OpTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDocument(doc);
    const QModelIndex main = model.index(0, 0);
    QCOMPARE(main.data(OpTreeModel::KindRole).toInt(), int(OpTreeModel::FunctionNode));
    if (rows.size() == 1) {
      QCOMPARE(model.rowCount(main), ops);
      QCOMPARE(model.index(0, 0, main).data(OpTreeModel::KindRole).toInt(), int(OpTreeModel::OpNode));
      return;
    }
    QCOMPARE(model.rowCount(main), int(rows.size()));
    int seen = 0;
    for (int r = 0; r < rows.size(); ++r) {
      const QModelIndex range = model.index(r, 0, main);
      QCOMPARE(range.data().toString(), rows[r]);
      QCOMPARE(range.data(OpTreeModel::KindRole).toInt(), int(OpTreeModel::RangeNode));
      QVERIFY(!OpTreeModel::opAt(range));
      QVERIFY(model.rowCount(range) <= OpTreeModel::kMaxChildRows);
      // Its first and last value; its line is its first op's.
      const QModelIndex first = model.index(0, 0, range);
      QCOMPARE(range.data(OpTreeModel::LineRole), first.data(OpTreeModel::LineRole));
      QVERIFY(range.siblingAtColumn(OpTreeModel::ResultsColumn).data().toString().startsWith(
          first.siblingAtColumn(OpTreeModel::ResultsColumn).data().toString().section(u':', 0, 0)));
      for (int k = 0; k < model.rowCount(range); ++k) {
        const QModelIndex op = model.index(k, 0, range);
        QCOMPARE(model.indexOfOp(OpTreeModel::opAt(op)), op);
        QCOMPARE(model.parent(op), range);
        // In source order: the line of op number `seen` is 2 + seen.
        QCOMPARE(op.data(OpTreeModel::LineRole).toInt(), 2 + seen);
        ++seen;
      }
    }
    QCOMPARE(seen, ops);
  }

  // A function of thousands of arguments: its row shows the first few hundred
  // characters and "…", the tooltip a few thousand, each made without
  // building the whole text (a 1M-op transformer's @main has 130,000
  // arguments: the whole text at every paint of the row took tens of ms).
  // A short list is shown whole, as before.
  void longArgumentListsAreCut_data() {
    QTest::addColumn<int>("args");
    QTest::addColumn<bool>("cut");
    QTest::newRow("3 arguments: whole") << 3 << false;
    QTest::newRow("20 arguments: whole") << 20 << false;
    QTest::newRow("5000 arguments: cut") << 5000 << true;
  }
  void longArgumentListsAreCut() {
    QFETCH(int, args);
    QFETCH(bool, cut);
    std::string text = "sdy.mesh @mesh = <[\"x\"=2]>\nfunc.func @main(";
    for (int i = 0; i < args; ++i)
      text += (i ? ", %a" : "%a") + std::to_string(i) +
              ": tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}";
    text += ") -> tensor<8x4xf32> {\n  return %a0 : tensor<8x4xf32>\n}\n";
    auto doc = api::parseDocument(text, "args.mlir");
    QVERIFY(doc->module);
    OpTreeModel model;
    model.setDocument(doc);
    const QModelIndex main = model.index(1, 0);
    QCOMPARE(main.data(OpTreeModel::KindRole).toInt(), int(OpTreeModel::FunctionNode));
    for (int column : {int(OpTreeModel::ResultsColumn), int(OpTreeModel::ShardingColumn)}) {
      const QModelIndex cell = main.siblingAtColumn(column);
      const QString shown = cell.data(Qt::DisplayRole).toString();
      const QString tip = cell.data(Qt::ToolTipRole).toString();
      QVERIFY2(shown.contains(QStringLiteral("%a0")), qPrintable(shown));
      QCOMPARE(shown.contains(QChar(0x2026)), cut);
      if (!cut) {
        // Every argument, and the tooltip says the same.
        QVERIFY2(shown.contains(QStringLiteral("%a%1").arg(args - 1)), qPrintable(shown));
        QCOMPARE(tip, shown);
        continue;
      }
      // About a row's worth (one more part may cross the limit), the tooltip
      // longer, both far from the 5000 arguments' ~150,000 characters.
      QVERIFY2(shown.size() > 300 && shown.size() < 600, qPrintable(QString::number(shown.size())));
      QVERIFY2(tip.size() > 3000 && tip.size() < 5000, qPrintable(QString::number(tip.size())));
      QVERIFY(tip.startsWith(shown.chopped(2)));
      QVERIFY(tip.endsWith(QChar(0x2026)) || tip.endsWith(QStringLiteral("\u2026)")));
      QVERIFY(!tip.contains(QStringLiteral("%a%1").arg(args - 1)));
    }
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
