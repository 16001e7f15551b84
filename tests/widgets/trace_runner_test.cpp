// PropagationRunner: runs off the UI thread and delivers a trace; cancel;
// stale results are dropped.
#include <QSignalSpy>
#include <QTest>

#include "explain/trace_index.h"
#include "trace/propagation_runner.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

namespace {
// A long chain of negates so that a run takes a while.
QString longChain(int n) {
  QString body;
  QString prev = QStringLiteral("%arg0");
  for (int i = 0; i < n; ++i) {
    const QString name = u'%' + QString::number(i);
    body += QStringLiteral("  ") + name + QStringLiteral(" = stablehlo.negate ") + prev + QStringLiteral(" : tensor<8x8xf32>\n");
    prev = name;
  }
  return QStringLiteral("sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
                        "func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {\"b\"}]>}) -> tensor<8x8xf32> {\n") +
         body + QStringLiteral("  return ") + prev + QStringLiteral(" : tensor<8x8xf32>\n}\n");
}
}  // namespace

class TraceRunnerTest : public QObject {
  Q_OBJECT
 private slots:
  void strategies_data();
  void strategies();
  void deliversATrace_data();
  void deliversATrace();
  void reportsProgress();
  void invalidModule();
  void staleResultsAreDropped();
  void cancel();
};

void TraceRunnerTest::strategies_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<bool>("valid");
  QTest::addColumn<int>("level");
  QTest::newRow("basic") << QStringLiteral("basic") << true << int(propagation::PropagationLevel::Basic);
  QTest::newRow("aggressive") << QStringLiteral("Aggressive") << true << int(propagation::PropagationLevel::Aggressive);
  QTest::newRow("op-priority") << QStringLiteral("op-priority") << true << int(propagation::PropagationLevel::OpPriority);
  QTest::newRow("op_priority") << QStringLiteral("op_priority") << true << int(propagation::PropagationLevel::OpPriority);
  QTest::newRow("user-priority") << QStringLiteral("user-priority") << true << int(propagation::PropagationLevel::UserPriority);
  QTest::newRow("bad") << QStringLiteral("fastest") << false << 0;
}

void TraceRunnerTest::strategies() {
  QFETCH(QString, name);
  QFETCH(bool, valid);
  QFETCH(int, level);
  Strategy s;
  QCOMPARE(parseStrategy(name, &s), valid);
  if (!valid) return;
  QCOMPARE(int(optionsFor(s).level), level);
  QCOMPARE(strategyOf(optionsFor(s)), s);
  Strategy back;
  QVERIFY(parseStrategy(strategyName(s), &back));
  QCOMPARE(back, s);
}

void TraceRunnerTest::deliversATrace_data() {
  QTest::addColumn<int>("strategy");
  for (Strategy s : {Strategy::Basic, Strategy::Aggressive, Strategy::OpPriority, Strategy::UserPriority})
    QTest::newRow(qPrintable(strategyName(s))) << int(s);
}

void TraceRunnerTest::deliversATrace() {
  QFETCH(int, strategy);
  PropagationRunner runner;
  QSignalSpy started(&runner, &PropagationRunner::started);
  QSignalSpy finished(&runner, &PropagationRunner::finished);
  const int id = runner.start(test::chainModule(), QStringLiteral("chain.mlir"), static_cast<Strategy>(strategy));
  QCOMPARE(started.count(), 1);
  QVERIFY(finished.wait(10000));
  QCOMPARE(finished.count(), 1);
  auto run = finished.first().at(0).value<std::shared_ptr<const TraceRun>>();
  QVERIFY(run);
  QCOMPARE(run->requestId, id);
  QVERIFY(run->ok());
  QVERIFY(!run->trace.steps.empty());
  QVERIFY(run->index);
  QVERIFY(QString::fromStdString(run->outputText).contains(QStringLiteral("{\"a\", ?}")));
  QVERIFY(!QString::fromStdString(run->inputText).contains(QStringLiteral("{\"a\", ?}")));
  QCOMPARE(runner.lastRun(), run);
  QVERIFY(!runner.isRunning());
  QVERIFY(run->summary().contains(strategyName(static_cast<Strategy>(strategy))));
}

void TraceRunnerTest::reportsProgress() {
  // A long run reports throttled progress; the values only grow.
  PropagationRunner runner;
  QSignalSpy finished(&runner, &PropagationRunner::finished);
  QSignalSpy progress(&runner, &PropagationRunner::progress);
  runner.start(longChain(1500), QStringLiteral("long.mlir"), Strategy::UserPriority);
  QVERIFY(finished.wait(60000));
  auto run = finished.first().at(0).value<std::shared_ptr<const TraceRun>>();
  QVERIFY(run->ok());
  int last = 0;
  for (const auto& args : progress) {
    QCOMPARE(args.at(0).toInt(), run->requestId);
    QVERIFY2(args.at(1).toInt() >= last, qPrintable(QString::number(args.at(1).toInt())));
    last = args.at(1).toInt();
  }
  QVERIFY(last <= int(run->trace.steps.size()));
  if (progress.isEmpty()) qInfo("the run was too quick for a progress report");
}

void TraceRunnerTest::invalidModule() {
  PropagationRunner runner;
  QSignalSpy finished(&runner, &PropagationRunner::finished);
  runner.start(QStringLiteral("func.func @main( {"), QStringLiteral("bad.mlir"), Strategy::Basic);
  QVERIFY(finished.wait(10000));
  auto run = finished.first().at(0).value<std::shared_ptr<const TraceRun>>();
  QVERIFY(!run->ok());
  QCOMPARE(run->status, explain::RunStatus::Invalid);
  QVERIFY(run->summary().contains(QStringLiteral("failed")));
}

void TraceRunnerTest::staleResultsAreDropped() {
  PropagationRunner runner;
  QSignalSpy finished(&runner, &PropagationRunner::finished);
  runner.start(longChain(200), QStringLiteral("long.mlir"), Strategy::UserPriority);
  const int second = runner.start(test::chainModule(), QStringLiteral("chain.mlir"), Strategy::Basic);
  QVERIFY(finished.wait(20000));
  QTest::qWait(200);  // the first run's result, if it arrived, must not be delivered
  QCOMPARE(finished.count(), 1);
  auto run = finished.first().at(0).value<std::shared_ptr<const TraceRun>>();
  QVERIFY2(run->ok(), qPrintable(run->summary()));
  QCOMPARE(run->requestId, second);
  QCOMPARE(run->fileName, std::string("chain.mlir"));
}

void TraceRunnerTest::cancel() {
  PropagationRunner runner;
  QSignalSpy finished(&runner, &PropagationRunner::finished);
  QSignalSpy progress(&runner, &PropagationRunner::progress);
  runner.start(longChain(400), QStringLiteral("long.mlir"), Strategy::UserPriority);
  QVERIFY(runner.isRunning());
  runner.cancel();
  QVERIFY(finished.wait(20000));
  auto run = finished.first().at(0).value<std::shared_ptr<const TraceRun>>();
  // Without cancelling, the same run records one step per negate (and more).
  auto full = runPropagation(longChain(400).toStdString(), "long.mlir", optionsFor(Strategy::UserPriority));
  QVERIFY(full->ok());
  QVERIFY(full->trace.steps.size() >= 400);
  // Either it stopped early, with at most the whole run's steps, or it
  // reached the end before it saw the request and is the whole run. (The
  // point where it stops depends on the scheduler: on a loaded machine the
  // worker may get far before the request arrives.)
  if (run->status == explain::RunStatus::Cancelled) {
    QVERIFY(run->summary().contains(QStringLiteral("cancelled")));
    QVERIFY(run->trace.steps.size() <= full->trace.steps.size());
  } else {
    QVERIFY2(run->ok(), qPrintable(run->summary()));
    QCOMPARE(run->trace.steps.size(), full->trace.steps.size());
  }
}

QTEST_MAIN(TraceRunnerTest)
#include "trace_runner_test.moc"
