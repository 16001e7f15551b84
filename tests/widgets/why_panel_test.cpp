// The Why panel's "Why not other axes?" part: for the selected value and
// dimension after a run, each blocked mesh axis with its reason (offscreen).
#include "trace/why_panel.h"

#include <QSignalSpy>
#include <QTest>

#include "explain/trace_index.h"
#include "trace/propagation_runner.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

class WhyPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void whyNot_data();
  void whyNot();
  void noSectionWhenEveryAxisIsHeld();
};

namespace {

QString twoArgAdd(const QString& arg0, const QString& arg1) {
  return QStringLiteral(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, ARG0>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, ARG1>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir")
      .replace(QStringLiteral("ARG0"), arg0)
      .replace(QStringLiteral("ARG1"), arg1);
}

// Runs `text` with `strategy` in a panel and selects `value`/`dim` after the last step.
void runAndSelect(TracePanel& panel, const QString& text, Strategy strategy, const QString& value,
                  int dim) {
  panel.resize(1000, 700);
  panel.show();
  panel.setModuleText(text, QStringLiteral("why.mlir"));
  panel.setStrategy(strategy);
  QSignalSpy finished(&panel, &TracePanel::runFinished);
  panel.runPropagation();
  QVERIFY(finished.wait(10000));
  panel.player()->last();
  const auto& run = panel.state()->run();
  QVERIFY(run && run->index);
  bool found = false;
  for (const auto& r : run->index->shardedValues())
    if (QString::fromStdString(run->index->valueName(r)) == value) {
      panel.state()->selectValue(r, dim);
      found = true;
    }
  // A value no step sharded is not in the panel's list; the graph can still select it.
  if (!found)
    run->input->op->walk([&](ir::Op& op) {
      for (ir::Value* v : op.resultRange())
        if (QString::fromStdString(v->sourceName) == value)
          if (auto ref = run->index->refOf(v)) {
            panel.state()->selectValue(*ref, dim);
            found = true;
          }
    });
  QVERIFY2(found, qPrintable(value));
}

}  // namespace

void WhyPanelTest::whyNot_data() {
  QTest::addColumn<QString>("module");
  QTest::addColumn<int>("strategy");
  QTest::addColumn<QString>("value");
  QTest::addColumn<int>("dim");
  QTest::addColumn<QString>("expected");
  QTest::newRow("conflict")
      << twoArgAdd(QStringLiteral(R"([{"a"}, {}])"), QStringLiteral(R"([{"b"}, {}])"))
      << int(Strategy::Basic) << QStringLiteral("%0") << 0
      << QStringLiteral(
             "\"a\" conflict: factor i of %0 = stablehlo.add (line 5) is sharded "
             "on {\"a\"} in %arg0 but on {\"b\"} in %arg1");
  QTest::newRow("closed") << twoArgAdd(QStringLiteral(R"([{"a"}, {}])"),
                                       QStringLiteral(R"([{}, {}])"))
                          << int(Strategy::Basic) << QStringLiteral("%arg1") << 0
                          << QStringLiteral("\"a\" closed: dimension 0 of %arg1 is {}, closed");
  QTest::newRow("used") << twoArgAdd(QStringLiteral(R"([{"a"}, {}])"),
                                     QStringLiteral(R"([{?}, {"a", ?}])"))
                        << int(Strategy::Basic) << QStringLiteral("%arg1") << 0
                        << QStringLiteral("\"a\" used: \"a\" already shards dimension 1 of %arg1");
  QTest::newRow("priority") << twoArgAdd(QStringLiteral(R"([{"a", ?}p1, {?}])"),
                                         QStringLiteral(R"([{"b", ?}p0, {?}])"))
                            << int(Strategy::UserPriority) << QStringLiteral("%0") << 0
                            << QStringLiteral("\"a\" priority: %arg1 holds {\"b\"}p0");
}

void WhyPanelTest::whyNot() {
  QFETCH(QString, module);
  QFETCH(int, strategy);
  QFETCH(QString, value);
  QFETCH(int, dim);
  QFETCH(QString, expected);
  TracePanel panel;
  runAndSelect(panel, module, static_cast<Strategy>(strategy), value, dim);
  const QString text = panel.whyPanel()->plainText().simplified();
  QVERIFY2(text.contains(QStringLiteral("Why not other axes?")), qPrintable(text));
  QVERIFY2(text.contains(expected), qPrintable(text));
}

void WhyPanelTest::noSectionWhenEveryAxisIsHeld() {
  TracePanel panel;
  runAndSelect(panel,
               twoArgAdd(QStringLiteral(R"([{"a", "b"}, {}])"), QStringLiteral(R"([{?}, {?}])")),
               Strategy::Basic, QStringLiteral("%0"), 0);
  const QString text = panel.whyPanel()->plainText();
  QVERIFY2(!text.contains(QStringLiteral("Why not")), qPrintable(text));
}

QTEST_MAIN(WhyPanelTest)
#include "why_panel_test.moc"
