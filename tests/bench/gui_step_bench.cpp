// Stepping through a propagation run of a large module in the main window,
// offscreen: the UI-thread time of one step and the playback rate.
//
//   gui_step_bench [--ops 100000] [--steps 100] [--play-seconds 5] [FILE.mlir]
//
// Without FILE, writes a transformer of --ops ops with
// tests/bench/gen_transformer.py. The module is opened in the whole main
// window and propagated as Ctrl+P does (the window's one timeline, at the
// last step, the graph laid out). Then, with the graph tab and again with
// the Mesh tab in front:
// - --steps single steps back and as many forward (as Alt+Left / Alt+Right);
//   each is timed as the UI thread's CPU time from the step until every
//   event it posted (repaints included) has been handled;
// - a jump to the input and back to the result (every update crossed);
// - playback with the explorer's player at 10 and 50 steps per second for
//   --play-seconds each: the steps shown per second (wall) and the longest
//   UI stall (a 10 ms heartbeat).
// - the communication report that follows once the timeline rests (the
//   feed analyses off the UI thread after a pause, communication_feed.h):
//   how long after the last step it is shown, and the UI-thread CPU time
//   its landing took (the most between two heartbeats).
// Ends with one PASS / FAIL line per target of issue 13 item 4: a step
// (p90 of every single step, both tabs) under 50 ms of UI-thread CPU time
// with --ops 100000, and playback at 10 steps/s showing at least 9.5 steps
// per second with --ops 25000 (the targets are checked whatever the size;
// which one the module is meant for is the lead's call), and a strict line
// for the slowest single step, whose index and the places its time went
// (the step's signals, then each event it posted, by receiver and type:
// ui_time_profile.h) are printed, as they are for the jumps. The exit
// status is 0 either way: a loaded machine inflates the figures.
#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

#include "comm/communication_feed.h"
#include "comm/communication_panel.h"
#include "core/document_state.h"
#include "gui_bench_util.h"
#include "ui_time_profile.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"

using namespace shardscope;
using namespace shardscope::widgets;
using namespace shardscope::bench;

namespace {

// Handle everything pending (posted events, repaints) on the UI thread.
void drain() {
  for (int i = 0; i < 4; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents);
}

struct Stats {
  double median = 0, p90 = 0, max = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  s.p90 = v[std::min(v.size() - 1, v.size() * 9 / 10)];
  s.max = v.back();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  ProfilingApplication app(argc, argv);
  int ops = 100000, steps = 100;
  double playSeconds = 5;
  QString path;
  const QStringList args = app.arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == QLatin1String("--ops") && i + 1 < args.size())
      ops = args[++i].toInt();
    else if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
      steps = args[++i].toInt();
    else if (args[i] == QLatin1String("--play-seconds") && i + 1 < args.size())
      playSeconds = args[++i].toDouble();
    else
      path = args[i];
  }
  QTemporaryDir dir;
  if (path.isEmpty()) {
    path = dir.filePath(QStringLiteral("transformer.mlir"));
    if (!writeTransformer(ops, path)) return 1;
  }

  app::MainWindow win{QString()};
  win.resize(1600, 1000);
  win.show();
  win.setAutoPropagate(propagation::PropagationOptions{});
  QElapsedTimer total;
  total.start();
  win.openFile(path);
  if (!waitFor([&] { return win.state()->steppedRun() != nullptr; })) {
    std::fprintf(stderr, "no propagation run for %s\n", qPrintable(path));
    return 1;
  }
  const qint64 runMs = total.elapsed();
  // The graph laid out for the run's document (once).
  waitFor([&] {
    return win.graphView()->scene()->shownDocument() == win.state()->document().get() &&
           !win.isOpening();
  });
  waitFor([] { return false; }, 300);
  const qint64 shownMs = total.elapsed();
  DocumentState* state = win.state();
  const int n = state->stepCount();
  int opCount = 0;
  for (ir::Op* f : state->module()->functions()) f->walk([&](ir::Op&) { ++opCount; });
  std::printf("module: %s, %d ops, %d propagation steps\n", qPrintable(path), opCount, n);
  std::printf("propagated and shown (run + timeline prepared off the UI thread): %lld ms, "
              "graph laid out: %lld ms\n",
              runMs, shownMs);

  QTabWidget* tabs = nullptr;
  int meshTab = -1;
  for (QTabWidget* t : win.findChildren<QTabWidget*>())
    for (int i = 0; i < t->count(); ++i)
      if (t->tabText(i) == QLatin1String("Mesh")) {
        tabs = t;
        meshTab = i;
      }

  // Each step is profiled: the bench's slots, connected after the window's,
  // close the phase of each signal the step emits.
  UiTimeProfile profile;
  QObject::connect(state, &DocumentState::shardingsAboutToChange, state,
                   [&] { profile.mark(QStringLiteral("shardingsAboutToChange slots")); });
  QObject::connect(state, &DocumentState::shardingsChanged, state,
                   [&] { profile.mark(QStringLiteral("timeline seek + shardingsChanged slots")); });
  QObject::connect(state, &DocumentState::stepChanged, state,
                   [&] { profile.mark(QStringLiteral("stepChanged slots")); });
  struct Slowest {
    double ms = -1;
    QString where, summary;
  } slowest;
  auto timeStep = [&](int k, const QString& where = QString()) {
    const qint64 c0 = threadCpuNs();
    profile.begin();
    state->setStepsApplied(k);
    drain();
    profile.end();
    const double ms = (threadCpuNs() - c0) / 1e6;
    if (!where.isEmpty() && ms > slowest.ms) slowest = {ms, where, profile.summary()};
    return ms;
  };
  const int count = std::min(steps, n);
  std::vector<double> allSteps;  // every single step, both tabs
  double worstPlayRate = 1e9;    // playback at 10 steps/s, the slower tab
  double worstJump = 0;          // a jump to the input or back, either tab
  auto* feed = win.findChild<comm::CommunicationPanel*>()
                   ? win.findChild<comm::CommunicationPanel*>()->feed()
                   : nullptr;
  for (int pass = 0; pass < 2; ++pass) {
    const bool mesh = pass == 1;
    if (mesh) {
      if (!tabs) break;
      tabs->setCurrentIndex(meshTab);
      drain();
    }
    timeStep(n);
    const QString tab = mesh ? QStringLiteral("mesh tab") : QStringLiteral("graph tab");
    std::vector<double> back, forward;
    for (int i = 1; i <= count; ++i)
      back.push_back(timeStep(n - i, QStringLiteral("%1, back %2 of %3 (to step %4)")
                                         .arg(tab).arg(i).arg(count).arg(n - i)));
    for (int i = count - 1; i >= 0; --i)
      forward.push_back(timeStep(n - i, QStringLiteral("%1, forward %2 of %3 (to step %4)")
                                            .arg(tab).arg(count - i).arg(count).arg(n - i)));
    allSteps.insert(allSteps.end(), back.begin(), back.end());
    allSteps.insert(allSteps.end(), forward.begin(), forward.end());
    // The timeline rests: the communication report of the step shown lands.
    if (feed) {
      // Its landing (the dock's table, the graph's glyphs) is one piece of
      // UI work: the most UI-thread CPU between two heartbeats.
      Heartbeat beat;
      QElapsedTimer wall;
      wall.start();
      beat.start();
      const bool current = waitFor([&] { return feed->isCurrent(); }, 120000);
      std::printf("%s: communication report after the steps rest: %s %.1f s later (wall); "
                  "showing it took %.1f ms of UI-thread CPU\n",
                  mesh ? "mesh tab" : "graph tab", current ? "shown" : "NOT shown",
                  wall.elapsed() / 1e3, beat.worstCpuMs());
    }
    // The timeline's own part of a jump: its seek alone, without the views
    // (moved behind the state's back and straight back, nothing shown).
    const qint64 s0 = threadCpuNs();
    state->steppedRun()->timeline->seek(0);
    const qint64 s1 = threadCpuNs();
    state->steppedRun()->timeline->seek(static_cast<size_t>(n));
    const qint64 s2 = threadCpuNs();
    std::printf("%s: the timeline's seek alone: to the input %.1f ms, back to the result %.1f ms\n",
                mesh ? "mesh tab" : "graph tab", (s1 - s0) / 1e6, (s2 - s1) / 1e6);
    const double toInput = timeStep(0);
    const QString toInputWhere = profile.summary(4);
    const double toResult = timeStep(n);
    const QString toResultWhere = profile.summary(4);
    worstJump = std::max({worstJump, toInput, toResult});
    const Stats b = stats(back), f = stats(forward);
    std::printf("%s: one step back (%d): median %.1f ms, p90 %.1f ms, max %.1f ms of UI-thread CPU\n",
                mesh ? "mesh tab" : "graph tab", count, b.median, b.p90, b.max);
    std::printf("%s: one step forward (%d): median %.1f ms, p90 %.1f ms, max %.1f ms\n",
                mesh ? "mesh tab" : "graph tab", count, f.median, f.p90, f.max);
    std::printf("%s: jump to the input %.1f ms, back to the result %.1f ms\n",
                mesh ? "mesh tab" : "graph tab", toInput, toResult);
    std::printf("  to the input: %s\n  to the result: %s\n", qPrintable(toInputWhere),
                qPrintable(toResultWhere));

    auto* player = win.findChild<trace::TracePanel*>()->player();
    for (double speed : {10.0, 50.0}) {
      player->setSpeed(speed);
      player->scrubTo(std::max(-1, n - 1 - int(speed * playSeconds) - 5));
      drain();
      int shown = 0;
      QElapsedTimer clock;
      qint64 firstNs = -1, lastNs = -1;
      auto conn = QObject::connect(state, &DocumentState::stepChanged, state, [&] {
        lastNs = clock.nsecsElapsed();
        if (firstNs < 0) firstNs = lastNs;
        ++shown;
      });
      Heartbeat beat;
      clock.start();
      beat.start();
      player->play();
      waitFor([&] { return !player->isPlaying() || clock.elapsed() > playSeconds * 1000; });
      player->pause();
      QObject::disconnect(conn);
      const double rate = shown > 1 ? (shown - 1) / ((lastNs - firstNs) / 1e9) : 0;
      if (speed == 10.0) worstPlayRate = std::min(worstPlayRate, rate);
      std::printf("%s: playback at %.0f steps/s: %d steps shown, %.1f steps/s, longest UI stall "
                  "%.1f ms (wall), most UI-thread CPU between two 10 ms beats %.1f ms\n",
                  mesh ? "mesh tab" : "graph tab", speed, shown, rate, beat.worstMs(),
                  beat.worstCpuMs());
    }
  }
  const Stats all = stats(allSteps);
  std::printf("%s: one step under 50 ms of UI-thread CPU (%d ops): p90 %.1f ms, median %.1f ms, "
              "max %.1f ms over %zu steps\n",
              all.p90 < 50 ? "PASS" : "FAIL", opCount, all.p90, all.median, all.max,
              allSteps.size());
  std::printf("%s: every step under 50 ms (strict): max %.1f ms\n", all.max < 50 ? "PASS" : "FAIL",
              all.max);
  std::printf("%s: a jump to the input or back to the result under 50 ms (a step whose changed "
              "set is everything): max %.1f ms\n",
              worstJump < 50 ? "PASS" : "FAIL", worstJump);
  std::printf("  the slowest step: %s, %.1f ms: %s\n", qPrintable(slowest.where), slowest.ms,
              qPrintable(slowest.summary));
  std::printf("%s: playback at 10 steps/s shows >= 9.5 steps/s (%d ops): %.1f steps/s (slower tab)\n",
              worstPlayRate >= 9.5 ? "PASS" : "FAIL", opCount, worstPlayRate);
  std::fflush(stdout);
  return 0;
}
