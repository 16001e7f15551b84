// The main window on modules users export: the selected op's Python line
// and name scope in the status bar, Ctrl+F by Python line and by name
// scope, and a GSPMD-annotated module shown with the sdy shardings it was
// imported to.
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

#include "core/document_state.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "main_window_test_util.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {
// A module as jax.jit exports it: name scopes and Python frames in #loc
// aliases (relative to the sample folder, as openSample takes it).
const QString kExported = QStringLiteral("../tests/widgets/data/jax_locations.mlir");

void selectInTree(app::MainWindow& w, const QString& opName, int nth = 0) {
  auto* tree = w.findChild<QTreeView*>(QStringLiteral("opTree"));
  QVERIFY(tree);
  const QModelIndexList hits = tree->model()->match(tree->model()->index(0, 0), Qt::DisplayRole, opName,
                                                    -1, Qt::MatchExactly | Qt::MatchRecursive);
  QVERIFY(hits.size() > nth);
  tree->setCurrentIndex(hits[nth]);
}
}  // namespace

class OpSourceWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void selectedOpShowsSourceLineAndNameScope_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("nth");
    QTest::addColumn<QString>("summary");
    QTest::newRow("first dense") << "stablehlo.dot_general" << 0
                                 << "model.py:41:12 in Dense.__call__ · jit(train_step) › mlp › dense_1 · "
                                    "dot_general";
    QTest::newRow("second dense") << "stablehlo.dot_general" << 1
                                  << "model.py:42:12 in Dense.__call__ · jit(train_step) › mlp › dense_2 · "
                                     "dot_general";
    QTest::newRow("activation") << "stablehlo.tanh" << 0
                                << "model.py:57:8 in MLP.__call__ · jit(train_step) › mlp · tanh";
  }
  void selectedOpShowsSourceLineAndNameScope() {
    QFETCH(QString, op);
    QFETCH(int, nth);
    QFETCH(QString, summary);
    app::MainWindow w(test::sampleDir());
    w.resize(1600, 1000);
    w.show();
    QVERIFY(test::openSample(w, kExported));
    auto* label = w.findChild<QLabel*>(QStringLiteral("opSourceLabel"));
    QVERIFY(label);
    selectInTree(w, op, nth);
    QCOMPARE(label->text(), summary);
    // The tooltip has the whole stack, innermost first.
    QVERIFY(label->toolTip().contains(QLatin1String("train.py:88:11 in train_step")));
    QVERIFY(label->toolTip().indexOf(QLatin1String("model.py")) <
            label->toolTip().indexOf(QLatin1String("train.py")));
  }

  void functionArgumentShowsItsName() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, kExported));
    const ir::Value* arg = w.state()->findValue(QStringLiteral("%arg1"));
    QVERIFY(arg);
    w.state()->selectValue(arg);
    auto* label = w.findChild<QLabel*>(QStringLiteral("opSourceLabel"));
    QCOMPARE(label->text(), QStringLiteral("params['mlp']['w1']"));
  }

  void sampleWithoutLocationsShowsNothing() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, QStringLiteral("matmul_chain.mlir")));
    selectInTree(w, QStringLiteral("stablehlo.tanh"));
    auto* label = w.findChild<QLabel*>(QStringLiteral("opSourceLabel"));
    QVERIFY(label);
    QVERIFY(label->text().isEmpty());
    QVERIFY(label->toolTip().isEmpty());
  }

  // Ctrl+F: a Python line finds the ops it made (also through calls: the
  // caller's line finds all of them); a name scope finds its ops.
  void searchByPythonLineAndNameScope_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("matches");
    QTest::newRow("line") << "model.py:41" << 1;
    QTest::newRow("line and column") << "model.py:57:8" << 1;
    QTest::newRow("caller's line") << "train.py:88" << 4;
    QTest::newRow("other line") << "model.py:43" << 0;
    QTest::newRow("name scope") << "dense_2" << 1;
    QTest::newRow("outer scope") << "jit(train_step)/mlp" << 4;
    QTest::newRow("frame's function") << "Dense.__call__" << 2;
  }
  void searchByPythonLineAndNameScope() {
    QFETCH(QString, text);
    QFETCH(int, matches);
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, kExported));
    GraphView* view = w.graphView();
    view->showSearch();
    auto* edit = view->findChild<QLineEdit*>();
    QVERIFY(edit);
    edit->setText(text);  // searches as typed; Return would go to the next match
    const QList<QLabel*> labels = view->findChildren<QLabel*>();
    const QString expected = matches ? QStringLiteral("1 of %1").arg(matches) : QStringLiteral("no match");
    QStringList texts;
    for (QLabel* l : labels) texts << l->text();
    QVERIFY2(texts.contains(expected), qPrintable(expected + u" not in: " + texts.join(u" | ")));
  }

  // A GSPMD-annotated module opens with the sdy shardings it was imported
  // to (`-xla-sdy-import-shardings`), and a note says so.
  void gspmdModuleShowsSdyShardings() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, QStringLiteral("gspmd/mlp_gspmd.mlir")));
    const auto doc = w.state()->document();
    QVERIFY(!doc->gspmdImportNote.empty());
    QStringList chips;
    for (const GraphNodeInfo& n : w.graphView()->scene()->model().nodes)
      if (n.kind == GraphNodeInfo::ArgumentNode || n.kind == GraphNodeInfo::ValueNode) chips << n.searchText;
    QVERIFY2(chips.join(u'\n').contains(QLatin1String("{\"_axis_0\"}")), qPrintable(chips.join(u'\n')));
    const ir::Value* arg0 = w.state()->findValue(QStringLiteral("%arg0"));
    QVERIFY(arg0);
    const auto sharding = api::valueSharding(*arg0);
    QVERIFY(sharding);
    QVERIFY(!sharding->dims.empty());
    QVERIFY(api::meshFor(*doc->module, *sharding));
  }
};

QTEST_MAIN(OpSourceWindowTest)
#include "op_source_window_test.moc"
