// One timeline for the whole window (issue 13, item 3), driven like a user:
// after Ctrl+P the trace explorer shows the run without its own Run, and
// whatever moves the timeline (Alt+Left / Alt+Right, the explorer's player,
// the trace dock's slider) the graph's chips, the explorer's narration, the
// mesh view and the tensor combo all show the state after the same step,
// checked against an independent replay (api::documentAtStep). The graph is
// laid out once: stepping restyles it and no node moves.
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "api/communication.h"
#include "api/propagate.h"
#include "comm/communication_feed.h"
#include "comm/communication_model.h"
#include "comm/communication_panel.h"
#include "explain/factor_table.h"
#include "core/document_state.h"
#include "explain/narration.h"
#include "graph/graph_view.h"
#include "main_window_test_util.h"
#include "mesh/mesh_view.h"
#include "propagation/propagation_panel.h"
#include "trace/trace_panel.h"
#include "trace/factor_table_model.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#include "trace/why_panel.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

std::vector<QRectF> nodePositions(const GraphScene& scene) {
  std::vector<QRectF> out;
  for (size_t i = 0; i < scene.model().nodes.size(); ++i)
    out.push_back(scene.nodeRect(static_cast<int>(i)));
  return out;
}

// The sharding text of the value named like `v` in `expected` ("" if none).
QString expectedSharding(const DocumentState& expected, const ir::Value& v) {
  const ir::Value* e = expected.findValue(toQString(api::valueName(v)));
  if (!e) return QStringLiteral("<missing>");
  const auto s = api::valueSharding(*e);
  return s ? shardingText(*s) : QString();
}

// `w` shown at 1400x860 and active (key clicks need the focus), `sample`
// open in it.
bool showActiveWithSample(app::MainWindow& w, const QString& sample) {
  w.resize(1400, 860);
  w.show();
  w.activateWindow();
  return QTest::qWaitForWindowActive(&w) && test::openSample(w, sample);
}

}  // namespace

class TimelineTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void oneTimelineEveryView_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("matmul_chain") << QStringLiteral("matmul_chain.mlir");
    QTest::newRow("mlp_megatron") << QStringLiteral("mlp_megatron.mlir");
    QTest::newRow("attention_block") << QStringLiteral("attention_block.mlir");
  }

  void oneTimelineEveryView() {
    QFETCH(QString, sample);
    app::MainWindow w(test::sampleDir());
    QVERIFY(showActiveWithSample(w, sample));
    auto input = api::loadDocument(QDir(test::sampleDir()).filePath(sample).toStdString());
    auto* explorer = w.findChild<trace::TracePanel*>();
    auto* panel = w.findChild<PropagationPanel*>();
    auto* mesh = w.findChild<MeshView*>();
    auto* combo = w.findChild<QComboBox*>(QStringLiteral("valueCombo"));
    QVERIFY(explorer && panel && mesh && combo);

    // Ctrl+P: the explorer shows the run, nobody pressed its Run.
    QSignalSpy runSet(w.state(), &DocumentState::steppedRunChanged);
    QTest::keyClick(w.graphView()->view(), Qt::Key_P, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->steppedRun(), 30000);
    // The graph is laid out once for the run's document.
    QTRY_VERIFY_WITH_TIMEOUT(w.graphView()->scene()->shownDocument() == w.state()->document().get(),
                             30000);
    QVERIFY(runSet.count() >= 1);
    const auto& run = w.state()->steppedRun()->run;
    const int n = w.state()->stepCount();
    QVERIFY(n >= 2);
    QVERIFY(explorer->state()->run());
    QCOMPARE(explorer->state()->stepCount(), n);
    QCOMPARE(w.state()->stepsApplied(), n);
    QCOMPARE(explorer->state()->currentStep(), n - 1);
    QCOMPARE(panel->currentStep(), n);

    QSignalSpy layouts(w.graphView(), &GraphView::layoutFinished);
    const std::vector<QRectF> laidOut = nodePositions(*w.graphView()->scene());
    QVERIFY(!laidOut.empty());

    auto check = [&](int k) -> bool {
      [&] {
        QCOMPARE(w.state()->stepsApplied(), k);
        QCOMPARE(panel->currentStep(), k);
        QCOMPARE(explorer->state()->currentStep(), k - 1);
        DocumentState expected;
        expected.setDocument(api::documentAtStep(*input, *run, static_cast<size_t>(k)));
        QVERIFY(expected.module());
        // The graph's chips say the shardings after step k.
        const GraphScene& scene = *w.graphView()->scene();
        int chips = 0;
        for (const GraphNodeInfo& node : scene.model().nodes) {
          if (node.kind != GraphNodeInfo::ValueNode || !node.value) continue;
          ++chips;
          const QString name = toQString(api::valueName(*node.value));
          const QString want = expectedSharding(expected, *node.value);
          const QString got = node.searchText.mid(name.size()).trimmed();
          QVERIFY2(got == want, qPrintable(QStringLiteral("step %1, %2: graph says '%3', replay '%4'")
                                               .arg(k).arg(name, got, want)));
        }
        QVERIFY(chips > 0);
        // The narration is the step's.
        if (k == 0) {
          QVERIFY(explorer->narrationText().contains(QStringLiteral("The input")));
        } else {
          const auto& step = run->trace.steps[static_cast<size_t>(k - 1)];
          const QString headline = QString::fromStdString(
              explain::narrateStep(step, explorer->state()->run()->index.get()).headline);
          QVERIFY2(explorer->narrationText().contains(headline),
                   qPrintable(explorer->narrationText()));
          // The step's op is selected.
          const ir::Op* op = w.state()->timeline()->opAt(step.opIndex);
          if (op && !op->is("func.func")) QCOMPARE(w.state()->selectedOp(), op);
        }
        // The mesh view and the combo name the selected value with its
        // sharding after step k.
        const ir::Value* v = w.state()->selectedValue();
        QVERIFY(v);
        const QString name = toQString(api::valueName(*v));
        QCOMPARE(mesh->tensor().valueName, name);
        const QString want = expectedSharding(expected, *v);
        QCOMPARE(mesh->tensor().hasSharding, !want.isEmpty());
        if (!want.isEmpty()) QCOMPARE(shardingText(mesh->tensor().sharding), want);
        QVERIFY2(combo->currentText().startsWith(name + QStringLiteral(" :")),
                 qPrintable(combo->currentText()));
        if (!want.isEmpty()) QVERIFY(combo->currentText().contains(want));
      }();
      return !QTest::currentTestFailed();
    };

    // Back to the input with Alt+Left, one step at a time.
    QVERIFY(check(n));
    for (int k = n - 1; k >= 0; --k) {
      QTest::keyClick(w.graphView()->view(), Qt::Key_Left, Qt::AltModifier);
      QVERIFY(check(k));
    }
    // Forward with Alt+Right, the explorer's player and the dock's slider.
    QTest::keyClick(w.graphView()->view(), Qt::Key_Right, Qt::AltModifier);
    QVERIFY(check(1));
    explorer->player()->stepForward();
    QVERIFY(check(2));
    panel->setStep(n);
    QVERIFY(check(n));
    explorer->player()->scrubTo(0);
    QVERIFY(check(1));

    // Laid out once: no layout since the run was shown, no node moved.
    QCOMPARE(layouts.count(), 0);
    QVERIFY(!w.graphView()->isLayoutRunning());
    QCOMPARE(nodePositions(*w.graphView()->scene()), laidOut);
  }

  // The views that now update only what a step changes (the factor table,
  // the Why panel, the communication dock, which analyses once the timeline
  // rests) still show the state after the current step, back and forth.
  void stepViewsFollow_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("mlp_megatron") << QStringLiteral("mlp_megatron.mlir");
    QTest::newRow("attention_block") << QStringLiteral("attention_block.mlir");
  }

  void stepViewsFollow() {
    QFETCH(QString, sample);
    app::MainWindow w(test::sampleDir());
    QVERIFY(showActiveWithSample(w, sample));
    auto input = api::loadDocument(QDir(test::sampleDir()).filePath(sample).toStdString());
    auto* explorer = w.findChild<trace::TracePanel*>();
    auto* commPanel = w.findChild<comm::CommunicationPanel*>();
    QVERIFY(explorer && commPanel);
    comm::CommunicationFeed* feed = commPanel->feed();
    QTest::keyClick(w.graphView()->view(), Qt::Key_P, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->steppedRun(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(feed->isCurrent(), 30000);
    const auto& run = w.state()->steppedRun()->run;
    const int n = w.state()->stepCount();
    QVERIFY(n >= 3);
    QSignalSpy reports(feed, &comm::CommunicationFeed::reportReady);
    QSignalSpy steps(w.state(), &DocumentState::stepChanged);

    auto check = [&](int k) -> bool {
      [&] {
        QCOMPARE(w.state()->stepsApplied(), k);
        const auto& step = run->trace.steps[static_cast<size_t>(k - 1)];
        // The factor table is the step's (after it), row by row.
        const explain::FactorTable want = explain::factorTableForStep(step, true, nullptr);
        const trace::FactorTableModel* model = explorer->factorModel();
        QCOMPARE(model->rowCount(), static_cast<int>(want.rows.size()));
        for (int r = 0; r < model->rowCount(); ++r) {
          const auto& row = want.rows[static_cast<size_t>(r)];
          QCOMPARE(model->index(r, trace::FactorTableModel::ValueColumn).data().toString(),
                   QString::fromStdString(row.value.empty() ? row.tensor : row.value));
        }
        // The Why panel explains the state after this step.
        const QString why = explorer->whyPanel()->plainText();
        QVERIFY2(why.contains(QStringLiteral("after step %1").arg(k - 1)), qPrintable(why));
        // The communication dock: once the timeline rests, the report of
        // this step's shardings (an independent analysis of the replay).
        QTRY_VERIFY_WITH_TIMEOUT(feed->isCurrent(), 30000);
        auto expected = api::documentAtStep(*input, *run, static_cast<size_t>(k));
        api::CommunicationOptions options;
        options.chip = feed->chip().toStdString();
        const api::CommunicationReport report = api::analyzeCommunication(*expected, options);
        QVERIFY(feed->report());
        QCOMPARE(feed->report()->total.count, report.total.count);
        QCOMPARE(feed->report()->total.bytesPerDevice, report.total.bytesPerDevice);
        QCOMPARE(feed->report()->collectives.size(), report.collectives.size());
        QCOMPARE(commPanel->totalsText(), comm::CommunicationModel::totalsText(report));
      }();
      return !QTest::currentTestFailed();
    };

    // Three steps back in a burst: no analysis while the keys come, one
    // report (of the step shown) once they stop.
    reports.clear();
    for (int i = 0; i < 3; ++i)
      QTest::keyClick(w.graphView()->view(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(steps.count(), 3);
    QVERIFY(!feed->isCurrent());
    QVERIFY(check(n - 3));
    QCOMPARE(reports.count(), 1);
    // Forward one at a time, resting after each.
    for (int k = n - 2; k <= n; ++k) {
      QTest::keyClick(w.graphView()->view(), Qt::Key_Right, Qt::AltModifier);
      QVERIFY(check(k));
    }
    // Back and forward again: the table and the Why panel are the step's.
    QTest::keyClick(w.graphView()->view(), Qt::Key_Left, Qt::AltModifier);
    QVERIFY(check(n - 1));
    QTest::keyClick(w.graphView()->view(), Qt::Key_Right, Qt::AltModifier);
    QVERIFY(check(n));
  }

  // Play runs the one player: the dock's Play and the explorer's player are
  // the same; playing moves the whole window to the end.
  void playFromTheDock() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, QStringLiteral("matmul_chain.mlir")));
    auto* explorer = w.findChild<trace::TracePanel*>();
    auto* panel = w.findChild<PropagationPanel*>();
    QVERIFY(explorer && panel);
    QTest::keyClick(w.graphView()->view(), Qt::Key_P, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->steppedRun(), 30000);
    const int n = w.state()->stepCount();
    explorer->player()->setSpeed(50);
    w.state()->setStepsApplied(0);
    QCOMPARE(explorer->state()->currentStep(), -1);
    QSignalSpy steps(w.state(), &DocumentState::stepChanged);
    QSignalSpy playing(explorer->player(), &trace::TracePlayer::playingChanged);
    emit panel->playToggled(true);
    QVERIFY(explorer->player()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!explorer->player()->isPlaying(), 10000);
    QCOMPARE(w.state()->stepsApplied(), n);
    QCOMPARE(steps.count(), n);  // one step at a time
    QCOMPARE(playing.count(), 2);
  }
};

QTEST_MAIN(TimelineTest)
#include "timeline_test.moc"
