// Export from the GUI (issue 13, item 6; issue 14 for the Communication
// dock and Compare Strategies), driven like a user on the real main window:
// Ctrl+E exports the view in use (each centre tab; the source, the
// Communication dock, the factor table, the Why tab and the strategy
// comparison when they have the focus), File > Export View exports every view, titles say the state shown (as written, before or
// after propagation, strategy, step), pictures carry no selection halo, the
// save dialog starts where the last export went, and SVG text names a
// generic font family after its own.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDockWidget>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <optional>

#include "api/document.h"
#include "comm/communication_export.h"
#include "comm/communication_feed.h"
#include "comm/communication_model.h"
#include "comm/communication_panel.h"
#include "core/document_state.h"
#include "main_window_test_util.h"
#include "source/source_view.h"
#include "sparsecore_workspace.h"
#include "trace/strategy_compare_widget.h"
#include "trace/trace_panel.h"
#include "trace/trace_state.h"
#include "trace/why_panel.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// The window; its save dialog answers `dir/answer` and records what it
// was offered.
struct Fixture {
  app::MainWindow w{test::sampleDir()};
  QTemporaryDir dir;
  QString answer = QStringLiteral("out.png");
  QString suggested;
  Fixture() {
    w.resize(1280, 800);
    w.setSavePathChooser([this](const QString&, const QString& s) {
      suggested = s;
      return out();
    });
    w.show();
    w.activateWindow();
  }
  QString out() const { return QFileInfo(answer).isAbsolute() ? answer : dir.filePath(answer); }
  trace::TracePanel* explorer() { return w.findChild<trace::TracePanel*>(); }
  QTabWidget* tabs() { return w.findChild<QTabWidget*>(QStringLiteral("centreTabs")); }
  // Ctrl+P, as a user presses it; true once the timeline has the run.
  bool propagate() {
    QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier);
    return QTest::qWaitFor([&] { return w.state()->stepCount() > 0; }, 30000) &&
           QTest::qWaitFor([&] { return explorer()->state()->run() != nullptr; }, 30000);
  }
  // Propagation > Compare Strategies (basic with user-priority, the
  // defaults), as a user picks it; true once both runs and their
  // collectives are compared.
  bool compareStrategies() {
    auto* compare = explorer()->compareWidget();
    QSignalSpy done(compare, &trace::StrategyCompareWidget::communicationCompared);
    auto* action = w.findChild<QAction*>(QStringLiteral("compareStrategiesAction"));
    if (!action) return false;
    action->trigger();
    return done.wait(30000) && compare->hasResult();
  }
  // A SparseCore job in the SparseCore tab, analysed.
  bool openJob(const QString& name) {
    auto* ws = w.findChild<scw::SparseCoreWorkspace*>();
    QSignalSpy analysed(ws, &scw::SparseCoreWorkspace::analysisUpdated);
    w.openFile(QDir(test::sampleDir()).filePath(QStringLiteral("sparsecore/") + name));
    return analysed.wait(30000) && ws->analysis();
  }
  // The Why tab explains the first value the last step updated.
  void pickWhyValue() {
    trace::TraceState* ts = explorer()->state();
    const auto& steps = ts->run()->trace.steps;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
      if (!it->updates.empty()) {
        ts->selectValue(it->updates.front().value, 0);
        return;
      }
  }
  // The keyboard focus to `target` (its dock raised), as a click gives it.
  bool focus(QWidget* target) {
    for (QWidget* p = target; p; p = p->parentWidget())
      if (auto* d = qobject_cast<QDockWidget*>(p)) {
        d->show();
        d->raise();
      }
    target->setFocus(Qt::MouseFocusReason);
    return QTest::qWaitFor([&] { return target->hasFocus(); }, 5000);
  }
  // Ctrl+E where the focus is; the exported view and title ("" when none).
  std::pair<QString, QString> pressCtrlE() {
    QSignalSpy done(&w, &app::MainWindow::viewExported);
    QWidget* to = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
    QTest::keyClick(to, Qt::Key_E, Qt::ControlModifier);
    if (done.isEmpty()) return {};
    return {done.last().at(0).toString(), done.last().at(2).toString()};
  }
  // File > Export View > `objectName`.
  std::pair<QString, QString> exportFromMenu(const QString& objectName) {
    QSignalSpy done(&w, &app::MainWindow::viewExported);
    QSignalSpy failed(&w, &app::MainWindow::exportFailed);
    auto* action = w.findChild<QAction*>(objectName);
    if (!action) return {QStringLiteral("<no action>"), {}};
    action->trigger();
    if (done.isEmpty())
      return {QStringLiteral("<failed>"),
              failed.isEmpty() ? QString() : failed.last().at(1).toString()};
    return {done.last().at(0).toString(), done.last().at(2).toString()};
  }
};

// `shardscope ARGS` as a user runs it headless; its exit code and stderr.
std::pair<int, QString> runCli(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(SHARDSCOPE_BIN), args);
  if (!p.waitForFinished(120000)) {
    p.kill();
    return {-1, QStringLiteral("timed out")};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
          QString::fromLocal8Bit(p.readAllStandardError())};
}

QByteArray fileHash(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

}  // namespace

class GuiExportTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }

  // Ctrl+E exports the view in use: one row per centre tab and per panel
  // that can hold the focus.
  void ctrlEExportsTheViewInUse_data() {
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("titleWords");
    QTest::newRow("graph tab") << "graph"
                               << "graph"
                               << "dataflow graph — after propagation";
    QTest::newRow("mesh tab") << "mesh"
                              << "mesh"
                              << "mesh view — after propagation";
    QTest::newRow("sparsecore tab") << "sparsecore"
                                    << "sc-load"
                                    << "";
    QTest::newRow("sparsecore hbm page") << "sparsecore-hbm"
                                         << "sc-hbm"
                                         << "";
    QTest::newRow("source focused") << "source"
                                    << "source"
                                    << "as written";
    QTest::newRow("factor table focused") << "factors"
                                          << "factors"
                                          << "factor table";
    QTest::newRow("why tab focused") << "why"
                                     << "why"
                                     << "Why chain — after propagation";
    QTest::newRow("communication dock focused")
        << "comm"
        << "comm"
        << "Communication — mlp_megatron.mlir (after propagation (pipeline, 4 steps))";
    QTest::newRow("strategy comparison focused")
        << "compare"
        << "compare"
        << "mlp_megatron.mlir — strategies compared: basic → user-priority";
    QTest::newRow("back to the graph tab") << "source-then-graph"
                                           << "graph"
                                           << "dataflow graph";
  }
  void ctrlEExportsTheViewInUse() {
    QFETCH(QString, where);
    QFETCH(QString, view);
    QFETCH(QString, titleWords);
    Fixture f;
    QVERIFY(QTest::qWaitForWindowActive(&f.w));
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    QVERIFY(f.propagate());
    if (where == QLatin1String("mesh")) f.tabs()->setCurrentIndex(1);
    if (where.startsWith(QLatin1String("sparsecore"))) {
      QVERIFY(f.openJob(QStringLiteral("dlrm_like.json")));
      auto* ws = f.w.findChild<scw::SparseCoreWorkspace*>();
      QVERIFY(f.tabs()->currentWidget()->isAncestorOf(ws) || f.tabs()->currentWidget() == ws);
      if (where.endsWith(QLatin1String("-hbm"))) {
        bool found = false;
        for (QTabWidget* pages : ws->findChildren<QTabWidget*>())
          for (int i = 0; i < pages->count(); ++i)
            if (pages->tabText(i) == QLatin1String("HBM")) {
              pages->setCurrentIndex(i);
              found = true;
            }
        QVERIFY(found);
      }
    }
    if (where.startsWith(QLatin1String("source"))) QVERIFY(f.focus(f.w.sourceView()));
    if (where == QLatin1String("source-then-graph")) {
      f.tabs()->setCurrentIndex(1);
      f.tabs()->setCurrentIndex(0);  // a tab chosen after the source was used
    }
    if (where == QLatin1String("factors")) QVERIFY(f.focus(f.explorer()->factorTableWidget()));
    if (where == QLatin1String("why")) {
      f.pickWhyValue();
      QVERIFY(f.focus(f.explorer()->whyPanel()->findChild<QComboBox*>()));
    }
    if (where == QLatin1String("comm")) {
      auto* panel = f.w.communicationPanel();
      QVERIFY(panel);
      QTRY_VERIFY_WITH_TIMEOUT(panel->feed()->isCurrent(), 30000);
      QVERIFY(f.focus(panel->view()));
    }
    if (where == QLatin1String("compare")) {
      QVERIFY(f.compareStrategies());
      // The comparison's strategy chooser (its table of differing values
      // shows only when some differ).
      QVERIFY(f.focus(f.explorer()->compareWidget()->findChild<QComboBox*>()));
    }
    QCOMPARE(f.w.currentExportView(), view);
    const auto [exported, title] = f.pressCtrlE();
    QCOMPARE(exported, view);
    QVERIFY2(QFileInfo(f.out()).size() > 1000, qPrintable(f.out()));
    QVERIFY2(!title.isEmpty(), qPrintable(view));
    QVERIFY2(title.contains(titleWords), qPrintable(title));
  }

  // File > Export View: every view, by its menu entry.
  void everyViewFromTheMenu_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("view");
    QTest::newRow("graph") << "exportGraphAction"
                           << "graph";
    QTest::newRow("mesh") << "exportMeshAction"
                          << "mesh";
    QTest::newRow("source") << "exportSourceAction"
                            << "source";
    QTest::newRow("communication") << "exportCommAction"
                                   << "comm";
    QTest::newRow("factor table") << "exportFactorsAction"
                                  << "factors";
    QTest::newRow("trace") << "exportTraceAction"
                           << "trace";
    QTest::newRow("why chain") << "exportWhyAction"
                               << "why";
    QTest::newRow("strategy comparison") << "exportCompareAction"
                                         << "compare";
    QTest::newRow("sc load") << "exportScLoadAction"
                             << "sc-load";
    QTest::newRow("sc spmem") << "exportScSpmemAction"
                              << "sc-spmem";
    QTest::newRow("sc hbm") << "exportScHbmAction"
                            << "sc-hbm";
    QTest::newRow("sc pipeline") << "exportScPipelineAction"
                                 << "sc-pipeline";
    QTest::newRow("sc ids") << "exportScIdsAction"
                            << "sc-ids";
  }
  void everyViewFromTheMenu() {
    QFETCH(QString, action);
    QFETCH(QString, view);
    Fixture f;
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    QVERIFY(f.propagate());
    f.pickWhyValue();
    if (view == QLatin1String("compare")) QVERIFY(f.compareStrategies());
    QVERIFY(f.openJob(QStringLiteral("dlrm_like.json")));
    for (const QString& suffix :
         {QStringLiteral(".png"), QStringLiteral(".svg"), QStringLiteral(".pdf")}) {
      f.answer = view + suffix;
      const auto [exported, title] = f.exportFromMenu(action);
      QVERIFY2(exported == view, qPrintable(exported + u' ' + title));
      QVERIFY2(QFileInfo(f.out()).size() > 500, qPrintable(f.out()));
      QVERIFY(!title.isEmpty());
    }
  }

  // Titles say the state the views show.
  void titlesSayTheState_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<int>("stepsBack");  // -1: not propagated
    QTest::addColumn<QString>("expected");
    QTest::newRow("graph as written") << "exportGraphAction" << -1 << "dataflow graph — as written";
    QTest::newRow("graph after propagation")
        << "exportGraphAction" << 0 << "after propagation (pipeline, 4 steps)";
    QTest::newRow("graph mid-way") << "exportGraphAction" << 2 << "after step 1 of 4 (pipeline)";
    QTest::newRow("graph at the input")
        << "exportGraphAction" << 4 << "before propagation (pipeline, 4 steps)";
    QTest::newRow("mesh mid-way") << "exportMeshAction" << 1 << "after step 2 of 4 (pipeline)";
    QTest::newRow("why mid-way") << "exportWhyAction" << 1 << "after step 2 of 4 (pipeline)";
    QTest::newRow("trace mid-way") << "exportTraceAction" << 1 << "step 2 of 4";
    QTest::newRow("comm as written")
        << "exportCommAction" << -1 << "Communication — mlp_megatron.mlir (as written)";
    QTest::newRow("comm after propagation")
        << "exportCommAction" << 0 << "(after propagation (pipeline, 4 steps))";
    QTest::newRow("comm mid-way") << "exportCommAction" << 1 << "(after step 2 of 4 (pipeline))";
  }
  void titlesSayTheState() {
    QFETCH(QString, action);
    QFETCH(int, stepsBack);
    QFETCH(QString, expected);
    Fixture f;
    QVERIFY(QTest::qWaitForWindowActive(&f.w));
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    if (stepsBack >= 0) {
      QVERIFY(f.propagate());
      QCOMPARE(f.w.state()->stepCount(), 4);
      f.pickWhyValue();
      for (int i = 0; i < stepsBack; ++i) QTest::keyClick(&f.w, Qt::Key_Left, Qt::AltModifier);
      QCOMPARE(f.w.state()->stepsApplied(), 4 - stepsBack);
    }
    const auto [exported, title] = f.exportFromMenu(action);
    QVERIFY2(title.contains(expected), qPrintable(exported + QStringLiteral(": ") + title));
  }

  // Selecting an op changes nothing in the graph's picture (no halo).
  void noSelectionHaloInPictures() {
    const QString action = QStringLiteral("exportGraphAction");
    Fixture f;
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    const ir::Op* func = f.w.state()->function();
    QVERIFY(func);
    f.w.state()->selectOp(func);
    f.answer = QStringLiteral("plain.png");
    QCOMPARE(f.exportFromMenu(action).first.isEmpty(), false);
    const ir::Op* dot = f.w.state()->findOp(QStringLiteral("stablehlo.dot_general"));
    QVERIFY(dot);
    f.w.state()->selectOp(dot);
    QCOMPARE(f.w.state()->function(), func);
    QVERIFY(f.w.state()->selectedValue());
    f.answer = QStringLiteral("selected.png");
    QCOMPARE(f.exportFromMenu(action).first.isEmpty(), false);
    QCOMPARE(fileHash(f.dir.filePath(QStringLiteral("selected.png"))),
             fileHash(f.dir.filePath(QStringLiteral("plain.png"))));
  }

  // The dialog starts in the folder of the last export, also in the next session.
  void dialogRemembersTheLastFolder() {
    QTemporaryDir elsewhere;  // outlives the first session
    {
      Fixture f;
      QVERIFY(test::openSample(f.w, QStringLiteral("matmul_chain.mlir")));
      // First export: next to the module.
      f.exportFromMenu(QStringLiteral("exportGraphAction"));
      QCOMPARE(QFileInfo(f.suggested).absolutePath(), QDir(test::sampleDir()).absolutePath());
      QCOMPARE(QFileInfo(f.suggested).fileName(), QStringLiteral("matmul_chain_graph.png"));
      QVERIFY(QDir().mkpath(f.dir.filePath(QStringLiteral("pictures"))));
      f.answer = QStringLiteral("pictures/a.png");
      f.exportFromMenu(QStringLiteral("exportMeshAction"));
      f.exportFromMenu(QStringLiteral("exportSourceAction"));
      QCOMPARE(QFileInfo(f.suggested).absolutePath(), f.dir.filePath(QStringLiteral("pictures")));
      QCOMPARE(QFileInfo(f.suggested).fileName(), QStringLiteral("matmul_chain_source.png"));
      f.answer = elsewhere.filePath(QStringLiteral("b.png"));
      const auto [view, title] = f.exportFromMenu(QStringLiteral("exportGraphAction"));
      QVERIFY2(QFileInfo::exists(f.answer), qPrintable(view + u' ' + title + u' ' + f.answer));
    }
    // The next session starts where the last export went.
    Fixture g;
    QVERIFY(test::openSample(g.w, QStringLiteral("matmul_chain.mlir")));
    g.exportFromMenu(QStringLiteral("exportGraphAction"));
    QCOMPARE(QFileInfo(g.suggested).absolutePath(), QDir(elsewhere.path()).absolutePath());
  }

  // The Communication dock's picture is the one `shardscope --export OUT
  // --view comm` makes of the same state (one renderer): byte for byte, as
  // written and after propagation, whether the dock's report or a fresh
  // analysis is drawn.
  void commPictureIsTheHeadlessOne_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("propagated");
    for (const char* sample :
         {"megatron_allreduce.mlir", "alltoall_conflict.mlir", "reshape_subaxis_gather.mlir"}) {
      QTest::newRow(qPrintable(QLatin1String(sample) + QStringLiteral(" as written")))
          << QString::fromLatin1(sample) << false;
      QTest::newRow(qPrintable(QLatin1String(sample) + QStringLiteral(" propagated")))
          << QString::fromLatin1(sample) << true;
    }
  }
  void commPictureIsTheHeadlessOne() {
    QFETCH(QString, sample);
    QFETCH(bool, propagated);
    Fixture f;
    QVERIFY(test::openSample(f.w, sample));
    if (propagated) QVERIFY(f.propagate());
    auto* panel = f.w.communicationPanel();
    QVERIFY(panel);
    QTRY_VERIFY_WITH_TIMEOUT(panel->feed()->isCurrent(), 30000);
    QVERIFY(panel->model()->rowCount() > 0);  // these samples are about collectives
    // The same file name in two folders: SVG writes it as its <title>.
    QVERIFY(QDir().mkpath(f.dir.filePath(QStringLiteral("gui"))));
    QVERIFY(QDir().mkpath(f.dir.filePath(QStringLiteral("headless"))));
    f.answer = QStringLiteral("gui/comm.svg");
    const auto [view, title] = f.exportFromMenu(QStringLiteral("exportCommAction"));
    QCOMPARE(view, QStringLiteral("comm"));
    const QString state = propagated ? QStringLiteral("after propagation (pipeline, %1 steps)")
                                           .arg(f.w.state()->stepCount())
                                     : QStringLiteral("as written");
    QCOMPARE(title, comm::communicationTitle(sample, state));
    api::CommunicationOptions options;
    options.chip = panel->chip().toStdString();
    QString error;
    const QString headless = f.dir.filePath(QStringLiteral("headless/comm.svg"));
    QVERIFY2(comm::exportCommunicationView(headless, *f.w.state()->document(), state, options,
                                           &error),
             qPrintable(error));
    QCOMPARE(fileHash(f.out()), fileHash(headless));
  }

  // The headless CLI's pictures are the GUI's: the Communication dock's
  // and Compare Strategies' (with the strategies its choosers start at),
  // byte for byte, as `shardscope --export OUT --view comm|compare` writes
  // them.
  void cliPictureIsTheGuiOne_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("view");
    QTest::addColumn<bool>("propagated");
    QTest::newRow("comm megatron_allreduce as written") << "megatron_allreduce.mlir" << "comm" << false;
    QTest::newRow("comm alltoall_conflict propagated") << "alltoall_conflict.mlir" << "comm" << true;
    QTest::newRow("compare mlp_megatron") << "mlp_megatron.mlir" << "compare" << false;
    QTest::newRow("compare alltoall_conflict") << "alltoall_conflict.mlir" << "compare" << false;
    QTest::newRow("compare while_loop") << "while_loop.mlir" << "compare" << false;
  }
  void cliPictureIsTheGuiOne() {
    QFETCH(QString, sample);
    QFETCH(QString, view);
    QFETCH(bool, propagated);
    Fixture f;
    QVERIFY(test::openSample(f.w, sample));
    if (propagated) QVERIFY(f.propagate());
    if (view == QLatin1String("compare")) {
      QVERIFY(f.compareStrategies());
    } else {
      QTRY_VERIFY_WITH_TIMEOUT(f.w.communicationPanel()->feed()->isCurrent(), 30000);
    }
    // The same file name in two folders: SVG writes it as its <title>.
    QVERIFY(QDir().mkpath(f.dir.filePath(QStringLiteral("gui"))));
    QVERIFY(QDir().mkpath(f.dir.filePath(QStringLiteral("cli"))));
    f.answer = QStringLiteral("gui/") + view + QStringLiteral(".svg");
    const QString action =
        view == QLatin1String("comm") ? QStringLiteral("exportCommAction") : QStringLiteral("exportCompareAction");
    QCOMPARE(f.exportFromMenu(action).first, view);
    const QString cli = f.dir.filePath(QStringLiteral("cli/") + view + QStringLiteral(".svg"));
    QStringList args{QStringLiteral("--export"), cli, QStringLiteral("--view"), view};
    if (propagated) args << QStringLiteral("--propagate") << QStringLiteral("pipeline");
    args << QDir(test::sampleDir()).filePath(sample);
    const auto [code, err] = runCli(args);
    QVERIFY2(code == 0, qPrintable(err));
    QCOMPARE(fileHash(f.out()), fileHash(cli));
  }

  // A module without a communication report: the GUI's export and the
  // CLI's say why in the same words (comm::reportFailedMessage).
  void commReportFailedSaysWhatTheCliSays() {
    Fixture f;
    const QString broken = f.dir.filePath(QStringLiteral("broken.mlir"));
    {
      QFile file(broken);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("func.func @main(\n");
    }
    QSignalSpy loaded(&f.w, &app::MainWindow::loaded);
    f.w.openFile(broken);
    QVERIFY(loaded.wait(30000));
    const auto [view, guiMessage] = f.exportFromMenu(QStringLiteral("exportCommAction"));
    QCOMPARE(view, QStringLiteral("<failed>"));
    const auto [code, err] = runCli({QStringLiteral("--export"), f.dir.filePath(QStringLiteral("b.png")),
                                     QStringLiteral("--view"), QStringLiteral("comm"), broken});
    QCOMPARE(code, 1);
    QVERIFY2(guiMessage.startsWith(QStringLiteral("no communication report for broken.mlir: ")),
             qPrintable(guiMessage));
    QVERIFY2(err.contains(QStringLiteral("shardscope: ") + guiMessage + u'\n'),
             qPrintable(err + QStringLiteral(" vs ") + guiMessage));
    QVERIFY(!QFileInfo::exists(f.out()));
  }

  // Before any comparison there is nothing to export, and the user is told
  // what to do rather than given an empty picture.
  void compareNeedsAComparisonFirst() {
    Fixture f;
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    const auto [view, message] = f.exportFromMenu(QStringLiteral("exportCompareAction"));
    QCOMPARE(view, QStringLiteral("<failed>"));
    QVERIFY2(message.contains(QStringLiteral("Compare Strategies")), qPrintable(message));
    QVERIFY(!QFileInfo::exists(f.out()));
  }

  // SVG text: its own family, then a generic one every viewer has.
  void svgTextNamesAGenericFamily_data() {
    QTest::addColumn<QString>("action");
    QTest::newRow("graph") << "exportGraphAction";
    QTest::newRow("mesh") << "exportMeshAction";
    QTest::newRow("source") << "exportSourceAction";
    QTest::newRow("factor table") << "exportFactorsAction";
    QTest::newRow("why chain") << "exportWhyAction";
    QTest::newRow("communication") << "exportCommAction";
    QTest::newRow("sc load") << "exportScLoadAction";
  }
  void svgTextNamesAGenericFamily() {
    QFETCH(QString, action);
    Fixture f;
    QVERIFY(test::openSample(f.w, QStringLiteral("mlp_megatron.mlir")));
    QVERIFY(f.propagate());
    f.pickWhyValue();
    if (action.startsWith(QLatin1String("exportSc")))
      QVERIFY(f.openJob(QStringLiteral("dlrm_like.json")));
    f.answer = QStringLiteral("picture.svg");
    QVERIFY(!f.exportFromMenu(action).first.startsWith(u'<'));
    QFile svg(f.out());
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    int count = 0;
    for (auto it = family.globalMatch(text); it.hasNext(); ++count) {
      const QString families = it.next().captured(1);
      QVERIFY2(families.endsWith(QLatin1String(", sans-serif")) ||
                   families.endsWith(QLatin1String(", monospace")) ||
                   families.endsWith(QLatin1String(", serif")),
               qPrintable(families));
    }
    QVERIFY(count > 0);
  }
};

QTEST_MAIN(GuiExportTest)
#include "gui_export_test.moc"
