// TracePlayer (stepping, scrubbing, rounds, stages, playback) and the
// TracePanel wiring (offscreen).
#include <cmath>

#include <QImage>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "core/theme_palette.h"

#include "trace/factor_table_model.h"
#include "trace/propagation_runner.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#include "explain/trace_index.h"
#include "trace/why_panel.h"
#include "test_util.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

class TracePlayerTest : public QObject {
  Q_OBJECT
 private slots:
  void stepping_data();
  void stepping();
  void roundsAndStages();
  void playsToTheEnd();
  void speed();
  void panelFollowsThePlayer();
  void stepListRepaintsTheRowsLeft();
  void mediaButtonsReadOnTheTheme_data();
  void mediaButtonsReadOnTheTheme();
};

namespace {
// Shows `panel` and runs the chain module through it with the basic
// strategy; false when the run did not finish.
bool showAndRunChain(TracePanel& panel) {
  panel.resize(1200, 800);
  panel.show();
  panel.setModuleText(test::chainModule(), QStringLiteral("chain.mlir"));
  panel.setStrategy(Strategy::Basic);
  QSignalSpy finished(&panel, &TracePanel::runFinished);
  panel.runPropagation();
  return finished.wait(10000);
}
}  // namespace

void TracePlayerTest::stepping_data() {
  QTest::addColumn<QString>("action");
  QTest::addColumn<int>("start");
  QTest::addColumn<int>("expected");
  QTest::addColumn<int>("emitted");
  QTest::newRow("forward") << QStringLiteral("forward") << 0 << 1 << 1;
  QTest::newRow("back") << QStringLiteral("back") << 1 << 0 << 1;
  QTest::newRow("back to input") << QStringLiteral("back") << 0 << -1 << 1;
  QTest::newRow("back at input stays") << QStringLiteral("back") << -1 << -1 << 0;
  QTest::newRow("first") << QStringLiteral("first") << 2 << -1 << 1;
  QTest::newRow("last") << QStringLiteral("last") << 0 << 999 << 1;
  QTest::newRow("forward at end stays") << QStringLiteral("forward") << 999 << 999 << 0;
  QTest::newRow("scrub 2") << QStringLiteral("scrub2") << 0 << 2 << 1;
  QTest::newRow("scrub past end") << QStringLiteral("scrub1000") << 0 << 999 << 1;
}

void TracePlayerTest::stepping() {
  QFETCH(QString, action);
  QFETCH(int, start);
  QFETCH(int, expected);
  QFETCH(int, emitted);
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::OpPriority));
  QVERIFY(run->ok());
  TracePlayer player;
  player.setTrace(&run->trace);
  const int n = player.stepCount();
  QVERIFY(n >= 3);
  QCOMPARE(player.currentStep(), n - 1);
  if (start == 999) start = n - 1;
  if (expected == 999) expected = n - 1;
  player.scrubTo(start);
  QSignalSpy spy(&player, &TracePlayer::currentStepChanged);
  if (action == QLatin1String("forward")) player.stepForward();
  else if (action == QLatin1String("back")) player.stepBack();
  else if (action == QLatin1String("first")) player.first();
  else if (action == QLatin1String("last")) player.last();
  else if (action.startsWith(QLatin1String("scrub"))) player.scrubTo(action.mid(5).toInt());
  QCOMPARE(player.currentStep(), expected);
  QCOMPARE(spy.count(), emitted);
  if (emitted) QCOMPARE(spy.last().at(0).toInt(), expected);
}

void TracePlayerTest::roundsAndStages() {
  auto run = runPropagation(test::priorityModule().toStdString(), "p.mlir", optionsFor(Strategy::UserPriority));
  QVERIFY(run->ok());
  const auto& steps = run->trace.steps;
  QVERIFY(!steps.empty());
  QVERIFY2(steps.front().userPriority != steps.back().userPriority, "expected steps in two user-priority rounds");
  TracePlayer player;
  player.setTrace(&run->trace, -1);
  QCOMPARE(player.currentStep(), -1);
  player.nextRound();
  QCOMPARE(player.currentStep(), 0);
  player.nextRound();
  const int second = player.currentStep();
  QVERIFY(second > 0);
  QVERIFY(steps[size_t(second)].userPriority != steps[size_t(second - 1)].userPriority);
  player.previousRound();
  QCOMPARE(player.currentStep(), 0);
  // Stages: each jump lands on a step whose fixed point differs from the one before.
  player.scrubTo(-1);
  int last = -1;
  for (int guard = 0; guard < 100 && player.currentStep() < player.stepCount() - 1; ++guard) {
    player.nextStage();
    const int s = player.currentStep();
    QVERIFY(s > last);
    if (s > 0 && s < player.stepCount() - 1) QVERIFY(steps[size_t(s)].iteration != steps[size_t(s - 1)].iteration);
    last = s;
  }
  player.previousStage();
  QVERIFY(player.currentStep() < last);
}

void TracePlayerTest::playsToTheEnd() {
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::Basic));
  TracePlayer player;
  player.setTrace(&run->trace, -1);
  player.setSpeed(50);
  QSignalSpy playing(&player, &TracePlayer::playingChanged);
  QSignalSpy steps(&player, &TracePlayer::currentStepChanged);
  player.play();
  QVERIFY(player.isPlaying());
  QTRY_VERIFY_WITH_TIMEOUT(!player.isPlaying(), 5000);
  QCOMPARE(player.currentStep(), player.stepCount() - 1);
  QCOMPARE(steps.count(), player.stepCount());
  QCOMPARE(playing.count(), 2);
  // Play from the end restarts from the input.
  player.play();
  QCOMPARE(player.currentStep(), -1);
  player.pause();
  QVERIFY(!player.isPlaying());
}

void TracePlayerTest::speed() {
  TracePlayer player;
  QSignalSpy spy(&player, &TracePlayer::speedChanged);
  player.setSpeed(4);
  QCOMPARE(player.speed(), 4.0);
  player.setSpeed(1000);
  QCOMPARE(player.speed(), 50.0);
  QCOMPARE(spy.count(), 2);
  player.play();  // no steps: nothing happens
  QVERIFY(!player.isPlaying());
}

void TracePlayerTest::panelFollowsThePlayer() {
  TracePanel panel;
  QVERIFY(showAndRunChain(panel));
  const int n = panel.state()->stepCount();
  QVERIFY(n >= 2);
  QCOMPARE(panel.state()->currentStep(), n - 1);
  QSignalSpy selected(&panel, &TracePanel::stepSelected);
  panel.player()->first();
  QCOMPARE(panel.state()->currentStep(), -1);
  QVERIFY(panel.narrationText().contains(QStringLiteral("input")));
  panel.player()->stepForward();
  QCOMPARE(panel.state()->currentStep(), 0);
  QCOMPARE(selected.count(), 2);
  QVERIFY(panel.narrationText().contains(QStringLiteral("add %0 (line 5)")));
  QVERIFY(panel.factorModel()->rowCount() == 3);
  // Before/after toggle.
  const int f0 = FactorTableModel::NumLeadingColumns;
  QCOMPARE(panel.factorModel()->index(2, f0).data().toString(), QStringLiteral("{\"a\", ?}"));
  panel.state()->setShowBefore(true);
  QCOMPARE(panel.factorModel()->index(2, f0).data().toString(), QStringLiteral("{?}"));
  panel.state()->setDimensionView(true);
  QVERIFY(panel.factorModel()->dimensionView());
  // The Why panel explains the selected value after the current step.
  panel.player()->last();
  QVERIFY(panel.whyPanel()->plainText().contains(QStringLiteral("seed")));
  // Keep a screenshot when asked (to look at the layout).
  const QString dir = qEnvironmentVariable("SHARDSCOPE_TRACE_PNG_DIR");
  if (!dir.isEmpty()) {
    panel.state()->setShowBefore(false);
    panel.state()->setDimensionView(false);
    panel.player()->scrubTo(1);
    const auto& run = panel.state()->run();
    for (const auto& r : run->index->shardedValues())
      if (run->index->valueName(r) == "%1") panel.state()->selectValue(r, 0);
    QVERIFY(panel.whyPanel()->plainText().contains(QStringLiteral("function argument 0 of @main")));
    QVERIFY(panel.grab().save(dir + QStringLiteral("/trace_panel.png")));
  }
  // Inspecting an op without a step shows its input shardings.
  panel.inspectOp(2);
  QCOMPARE(panel.state()->currentStep(), -1);
  QVERIFY(panel.factorModel()->rowCount() > 0);
}

// Each step tells the step list its selection changed (a view repaints the
// rows leaving the selection only then): with the selection model's
// signals blocked, the old row kept its highlight beside the new one.
void TracePlayerTest::stepListRepaintsTheRowsLeft() {
  TracePanel panel;
  QVERIFY(showAndRunChain(panel));
  QVERIFY(panel.state()->stepCount() >= 2);
  auto* steps = panel.findChild<QTableView*>(QStringLiteral("traceSteps"));
  QVERIFY(steps && steps->selectionModel());
  panel.player()->first();
  QSignalSpy changed(steps->selectionModel(), &QItemSelectionModel::selectionChanged);
  panel.player()->stepForward();
  panel.player()->stepForward();
  QCOMPARE(changed.count(), 2);
  // The second change deselects the first step's row.
  const auto deselected = changed.at(1).at(1).value<QItemSelection>();
  QVERIFY(deselected.contains(steps->model()->index(0, 0)));
  const QModelIndexList rows = steps->selectionModel()->selectedRows();
  QCOMPARE(rows.size(), 1);
  QCOMPARE(rows.front().row(), 1);
}

// The player's icon buttons read on both themes: the style draws its media
// glyphs near black, which on the dark toolbar looked disabled (~1.2:1).
void TracePlayerTest::mediaButtonsReadOnTheTheme_data() {
  QTest::addColumn<bool>("dark");
  QTest::newRow("light") << false;
  QTest::newRow("dark") << true;
}

void TracePlayerTest::mediaButtonsReadOnTheTheme() {
  QFETCH(bool, dark);
  TracePanel panel;
  panel.setPalette(widgets::themePalette(dark ? widgets::Theme::Dark : widgets::Theme::Light));
  panel.resize(1000, 600);
  panel.show();
  const QColor background = panel.palette().color(QPalette::Window);
  int buttons = 0;
  for (QToolButton* b : panel.findChildren<QToolButton*>()) {
    if (!b->property("shardscopeStandardIcon").isValid()) continue;
    ++buttons;
    // The glyph's darkest or lightest opaque pixel against the background.
    auto contrastOf = [&](QIcon::Mode mode) {
      const QImage glyph = b->icon().pixmap(QSize(16, 16), mode).toImage().convertToFormat(QImage::Format_ARGB32);
      double best = 1.0;
      for (int y = 0; y < glyph.height(); ++y)
        for (int x = 0; x < glyph.width(); ++x) {
          const QColor c = glyph.pixelColor(x, y);
          if (c.alpha() < 200) continue;
          best = std::max(best, test::contrastRatio(c, background));
        }
      return best;
    };
    const double best = contrastOf(QIcon::Normal);
    QVERIFY2(best >= 4.5, qPrintable(b->toolTip() + QStringLiteral(": contrast ") + QString::number(best)));
    // A disabled button looks disabled, as the text buttons do: its glyph
    // fainter than an enabled one's (in the light theme it looked enabled).
    const double disabled = contrastOf(QIcon::Disabled);
    QVERIFY2(disabled < best - 1.0, qPrintable(b->toolTip() + QStringLiteral(": disabled contrast %1, enabled %2")
                                                            .arg(disabled).arg(best)));
  }
  QCOMPARE(buttons, 5);  // input, back, play, forward, result
}

QTEST_MAIN(TracePlayerTest)
#include "trace_player_test.moc"
