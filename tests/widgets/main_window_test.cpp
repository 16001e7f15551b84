// The main window driven like a user: open (async), select in the tree,
// propagate and step through the trace, Ctrl+P runs the propagation
// pipeline as shardscope-opt does, drop a file, open a bad file.
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

#include "api/propagate.h"
#include "core/document_state.h"
#include "graph/graph_grouping.h"
#include "graph/graph_view.h"
#include "ir/printer.h"
#include "main_window_test_util.h"
#include "outline/op_tree_model.h"
#include "passes/pass.h"
#include "propagation/propagation_panel.h"
#include "propagation/propagation_step_model.h"
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

  // Ctrl+P runs what `shardscope-opt -sdy-propagation-pipeline` runs (the
  // level chooser's default); the trace goes through the data-flow edges
  // and calls; stepping back shows the module after each step, step 0 the
  // module after the import passes.
  void ctrlPRunsThePipeline_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QStringList>("sharded");  // values sharded after the run
    QTest::addColumn<QString>("importedOp");   // an op the import passes add
    QTest::newRow("while_loop") << QStringLiteral("while_loop.mlir")
                                << QStringList{QStringLiteral("%iterArg"), QStringLiteral("%0#0")}
                                << QStringLiteral("sdy.data_flow_edge");
    QTest::newRow("func_calls") << QStringLiteral("func_calls.mlir")
                                << QStringList{QStringLiteral("%arg2"), QStringLiteral("%1")}
                                << QStringLiteral("sdy.named_computation");
  }
  void ctrlPRunsThePipeline() {
    QFETCH(QString, sample);
    QFETCH(QStringList, sharded);
    QFETCH(QString, importedOp);
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(test::openSample(w, sample));
    const auto input = w.state()->document();
    for (const QString& name : sharded) {
      const ir::Value* v = w.state()->findValue(name);
      QVERIFY2(v && !api::valueSharding(*v), qPrintable(name));
    }
    auto* panel = w.findChild<PropagationPanel*>();
    auto* level = panel->findChild<QComboBox*>(QStringLiteral("propagationLevel"));
    QVERIFY(level);
    QCOMPARE(level->currentText(), QStringLiteral("pipeline"));
    for (int i = 0; i < level->count(); ++i)  // every entry is a CLI level name
      QVERIFY(api::levelFromName(level->itemText(i).toStdString()));

    QSignalSpy changed(w.state(), &DocumentState::documentChanged);
    QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->run() && panel->model()->rowCount() > 0, 30000);
    QTRY_VERIFY(changed.count() > 0);
    const auto run = panel->model()->run();
    QVERIFY(run->ok);
    QCOMPARE(run->options.level, propagation::PropagationLevel::Pipeline);
    const int n = panel->model()->rowCount();
    QVERIFY(n > 2);
    QCOMPARE(panel->currentStep(), n);
    // The run's result is what the command line prints; the timeline shows
    // the module after all steps (before the export passes).
    auto fresh = api::parseDocument(input->text, input->name);
    ir::DiagnosticSink diags;
    passes::PassContext ctx{diags};
    QVERIFY(passes::lookupPass("sdy-propagation-pipeline")->run(*fresh->module, {}, ctx));
    QCOMPARE(QString::fromStdString(ir::printModule(*run->result->module)),
             QString::fromStdString(ir::printModule(*fresh->module)));
    std::string error;
    const auto all = api::documentAtStep(*input, *run, static_cast<size_t>(n), &error);
    QVERIFY2(all, error.c_str());
    QCOMPARE(QString::fromStdString(ir::printModule(*w.state()->module())),
             QString::fromStdString(ir::printModule(*all->module)));
    // The last step is before the export passes, and the title says so
    // (run->result, what --export writes, is after them).
    QVERIFY2(w.windowTitle().contains(QLatin1String("before the export passes")),
             qPrintable(w.windowTitle()));
    for (const QString& name : sharded) {
      const ir::Value* v = w.state()->findValue(name);
      QVERIFY2(v && api::valueSharding(*v) && !api::valueSharding(*v)->isFullyReplicated(),
               qPrintable(name));
    }
    // Alt+Left steps back: the module after step n-2 (n-1 steps applied).
    QTest::keyClick(&w, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(panel->currentStep(), n - 1);
    const auto expected = api::documentAtStep(*input, *run, static_cast<size_t>(n - 1), &error);
    QVERIFY2(expected, error.c_str());
    QCOMPARE(QString::fromStdString(ir::printModule(*w.state()->module())),
             QString::fromStdString(ir::printModule(*expected->module)));
    QVERIFY(!w.windowTitle().contains(QLatin1String("export passes")));
    // Step 0: after the import passes.
    panel->setStep(0);
    QVERIFY(w.windowTitle().contains(QLatin1String("after the import passes")));
    bool imported = false;
    for (const ir::Op* op : propagation::preOrderOps(const_cast<ir::Module&>(*w.state()->module())))
      imported = imported || QString::fromStdString(op->name()) == importedOp;
    QVERIFY2(imported, qPrintable(importedOp));
    // Alt+Right: step 0 done, its op selected.
    QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(panel->currentStep(), 1);
    QVERIFY(w.state()->selectedOp());
    QCOMPARE(w.state()->selectedOp()->name(), run->trace.steps.front().op);
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

  // A large module is grouped on the loader's thread while the verifier runs
  // (prepared_grouping.h). A module with GSPMD shardings changes after that
  // (the import): its graph must show the imported shardings, not the module
  // as parsed. The group that folds %arg0 counts its sharding.
  void largeModuleGroupedAsImported_data() {
    QTest::addColumn<bool>("gspmd");
    QTest::newRow("sdy shardings") << false;
    QTest::newRow("GSPMD shardings, imported") << true;
  }
  void largeModuleGroupedAsImported() {
    QFETCH(bool, gspmd);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.mlir"));
    const std::string text = test::shardedNegateChain(600, gspmd);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), qint64(text.size()));
    f.close();

    app::MainWindow w(test::sampleDir());
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(path);
    QVERIFY(loaded.wait(30000));
    QVERIFY(loaded.last().at(0).toBool());
    QCOMPARE(w.state()->document()->gspmdImportNote.empty(), !gspmd);
    QVERIFY(QTest::qWaitFor([&] { return w.graphView()->grouping() != nullptr; }, 30000));
    const Grouping* g = w.graphView()->grouping();
    const ir::Value* arg0 = w.state()->function()->region(0).front().argument(0);
    bool folded = false;
    for (const OpGroup& group : g->groups)
      for (const ir::Value* a : group.args)
        if (a == arg0) {
          folded = true;
          const QString lines = group.lines.join(u'\n');
          QVERIFY2(lines.contains(QStringLiteral("1 sharded value")), qPrintable(lines));
        }
    QVERIFY(folded);
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
