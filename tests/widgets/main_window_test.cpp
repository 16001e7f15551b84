// The main window driven like a user: open (async), select in the tree,
// propagate and step through the trace, drop a file, open a bad file.
#include "main_window.h"

#include <QComboBox>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include "document_state.h"
#include "graph_view.h"
#include "op_tree_model.h"
#include "propagation_panel.h"
#include "propagation_step_model.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class MainWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void openSelectPropagateStep() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(QDir(test::sampleDir()).filePath(QStringLiteral("matmul_chain.mlir")));
    QVERIFY(loaded.wait(30000));
    QCOMPARE(loaded.last().at(0).toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(w.graphView()->scene()->hasGraph(), 30000);
    const auto original = w.state()->document();

    // Select tanh in the tree: the state follows.
    auto* tree = w.findChild<QTreeView*>(QStringLiteral("opTree"));
    QVERIFY(tree);
    const QModelIndexList hits = tree->model()->match(tree->model()->index(0, 0), Qt::DisplayRole,
                                                      QStringLiteral("stablehlo.tanh"), 1,
                                                      Qt::MatchExactly | Qt::MatchRecursive);
    QVERIFY(!hits.isEmpty());
    tree->setCurrentIndex(hits.front());
    QVERIFY(w.state()->selectedOp());
    QCOMPARE(w.state()->selectedOp()->name(), std::string("stablehlo.tanh"));
    auto* combo = w.findChild<QComboBox*>(QStringLiteral("valueCombo"));
    QVERIFY(combo && combo->count() >= 5);  // 3 args + 3 results
    QVERIFY(combo->currentText().startsWith(QLatin1String("%1")));

    // Propagate from the panel, then step back to the input.
    auto* panel = w.findChild<PropagationPanel*>();
    QVERIFY(panel);
    QPushButton* propagate = nullptr;
    for (auto* b : panel->findChildren<QPushButton*>())
      if (b->text() == QLatin1String("Propagate")) propagate = b;
    QVERIFY(propagate && propagate->isEnabled());
    propagate->click();
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->rowCount() > 0, 30000);
    const int n = panel->model()->rowCount();
    QCOMPARE(panel->currentStep(), n);
    QTRY_VERIFY(w.state()->document() != original);
    const ir::Value* v0 = w.state()->findValue(QStringLiteral("%0"));
    QVERIFY(v0 && api::valueSharding(*v0));  // propagated
    // The op of the last step is selected.
    QVERIFY(w.state()->selectedOp());
    QCOMPARE(QString::fromStdString(w.state()->selectedOp()->name()),
             panel->model()->index(n - 1, PropagationStepModel::OpColumn).data().toString());
    panel->setStep(0);
    v0 = w.state()->findValue(QStringLiteral("%0"));
    QVERIFY(v0 && !api::valueSharding(*v0));  // the input has none
    panel->setStep(1);
    QVERIFY(w.state()->selectedOp());  // the op of step 0
    QTRY_VERIFY_WITH_TIMEOUT(
        !w.graphView()->isLayoutRunning() && w.graphView()->scene()->hasGraph(), 30000);
  }

  void dropAndBadFile() {
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("broken.mlir"));
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(test::kBadInputs[1].text);
    }
    app::MainWindow w(test::sampleDir());
    w.show();
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    auto* mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(bad)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(loaded.wait(30000));
    QCOMPARE(loaded.last().at(0).toBool(), false);  // no module
    QCOMPARE(w.state()->fileName(), QStringLiteral("broken.mlir"));
    auto* diags = w.findChild<QTableView*>(QStringLiteral("diagnosticsView"));
    QVERIFY(diags && diags->model()->rowCount() >= 1);
    QVERIFY(!w.graphView()->scene()->hasGraph());
    delete mime;
    // It went into the recent files.
    auto* recent = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
    QVERIFY(recent);
    bool listed = false;
    for (QAction* a : recent->actions())
      listed = listed || a->text().endsWith(QLatin1String("broken.mlir"));
    QVERIFY(listed);
  }

  void staleLoadsDropped() {
    app::MainWindow w(test::sampleDir());
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(QDir(test::sampleDir()).filePath(QStringLiteral("attention_block.mlir")));
    w.openFile(QDir(test::sampleDir()).filePath(QStringLiteral("while_loop.mlir")));
    QVERIFY(loaded.wait(30000));
    QTest::qWait(200);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(w.state()->fileName(), QStringLiteral("while_loop.mlir"));
  }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
