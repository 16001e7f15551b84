// The Why panel's "Why not other axes?" part: for the selected value and
// dimension after a run, each blocked mesh axis with its reason (offscreen).
#include "trace/why_panel.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QUrl>
#include <QTest>

#include "api/propagate.h"
#include "explain/trace_index.h"
#include "trace/propagation_runner.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#include "test_util.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

class WhyPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void whyNot_data();
  void whyNot();
  void noSectionWhenEveryAxisIsHeld();
  void atTheInputTheMeshNamesTheAxes();
  void longChainCollapses_data();
  void longChainCollapses();
  void valuesAreNamedAsTheWindowNamesThem_data();
  void valuesAreNamedAsTheWindowNamesThem();
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

// A chain of `adds` adds from a sharded %arg0: the result's axis comes back
// hop by hop through every add.
QString addChain(int adds) {
  QString body;
  QString last = QStringLiteral("%arg0");
  for (int i = 0; i < adds; ++i) {
    // One arg() call: the names inserted hold "%N" themselves.
    const QString name = u'%' + QString::number(i);
    body += QStringLiteral("  %1 = stablehlo.add %2, %arg1 : tensor<8x8xf32>\n").arg(name, last);
    last = name;
  }
  return QStringLiteral(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
BODY  return LAST : tensor<8x8xf32>
}
)mlir")
      .replace(QStringLiteral("BODY"), body)
      .replace(QStringLiteral("LAST"), last);
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

// Before the first step a value has no sharding: the mesh whose axes the
// "why not" section goes through is the module's (its one mesh, found
// without listing every value: a jump to the input at 100k ops spent 90 ms
// there).
void WhyPanelTest::atTheInputTheMeshNamesTheAxes() {
  TracePanel panel;
  runAndSelect(panel, twoArgAdd(QStringLiteral(R"([{"a"}, {}])"), QStringLiteral(R"([{?}, {?}])")),
               Strategy::Basic, QStringLiteral("%0"), 0);
  panel.player()->scrubTo(-1);
  const QString text = panel.whyPanel()->plainText().simplified();
  QVERIFY2(text.contains(QStringLiteral("no sharding yet")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Why not other axes?")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("\"a\"")) && text.contains(QStringLiteral("\"b\"")), qPrintable(text));
}

void WhyPanelTest::noSectionWhenEveryAxisIsHeld() {
  TracePanel panel;
  runAndSelect(panel,
               twoArgAdd(QStringLiteral(R"([{"a", "b"}, {}])"), QStringLiteral(R"([{?}, {?}])")),
               Strategy::Basic, QStringLiteral("%0"), 0);
  const QString text = panel.whyPanel()->plainText();
  QVERIFY2(!text.contains(QStringLiteral("Why not")), qPrintable(text));
}

void WhyPanelTest::longChainCollapses_data() {
  QTest::addColumn<int>("adds");
  QTest::addColumn<bool>("collapsed");
  QTest::newRow("short chain, every hop") << 8 << false;
  QTest::newRow("just above the cut, every hop")
      << WhyPanel::kHeadHops + WhyPanel::kTailHops + 1 << false;
  QTest::newRow("long chain, head and tail") << 60 << true;
}

// A long chain shows its first and last hops and a link to the rest; the
// link shows every hop; another dimension starts collapsed again.
void WhyPanelTest::longChainCollapses() {
  QFETCH(int, adds);
  QFETCH(bool, collapsed);
  TracePanel panel;
  runAndSelect(panel, addChain(adds), Strategy::Basic, u'%' + QString::number(adds - 1), 0);
  WhyPanel* why = panel.whyPanel();
  auto* browser = why->findChild<QTextBrowser*>(QStringLiteral("whyText"));
  QVERIFY(browser);
  auto hopLines = [&] {
    int n = 0;
    for (const QString& line : why->plainText().split(u'\n'))
      if (line.contains(QStringLiteral("(pass-through): from"))) ++n;
    return n;
  };
  const QString text = why->plainText();
  // One hop per add and one for %arg0's step into the first add.
  const int hops = adds;
  if (!collapsed) {
    QVERIFY2(!text.contains(QStringLiteral("more hops")), qPrintable(text));
    QCOMPARE(hopLines(), hops);
    return;
  }
  const int skipped = hops - WhyPanel::kHeadHops - WhyPanel::kTailHops;
  QVERIFY2(text.contains(QStringLiteral("%1 more hops").arg(skipped)), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("show all %1 hops").arg(hops)), qPrintable(text));
  QCOMPARE(hopLines(), WhyPanel::kHeadHops + WhyPanel::kTailHops);
  // The nearest hop is the last add, the farthest starts at %arg0.
  QVERIFY2(text.contains(QStringLiteral("from operand-0 %") + QString::number(adds - 2)), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("from operand-0 %arg0")), qPrintable(text));
  // The tail keeps its place in the chain: the last hop is number `hops`.
  QVERIFY2(text.contains(QString::number(hops) + QStringLiteral(". step ")), qPrintable(text));
  emit browser->anchorClicked(QUrl(QStringLiteral("why:all-hops")));
  QVERIFY(!why->plainText().contains(QStringLiteral("more hops")));
  QCOMPARE(hopLines(), hops);
  // Another value: its chain starts collapsed again.
  runAndSelect(panel, addChain(adds), Strategy::Basic, u'%' + QString::number(adds - 2), 0);
  QVERIFY(why->plainText().contains(QStringLiteral("more hops")));
}

// Every value a run's steps write is named as the graph and the op tree
// name it (`%0#0`), never by its place ("op 12 result 0", which the Why
// chain of while_loop.mlir showed for the data-flow edge the import passes
// put after the while).
void WhyPanelTest::valuesAreNamedAsTheWindowNamesThem_data() {
  QTest::addColumn<QString>("sample");
  for (const char* sample : {"while_loop.mlir", "mlp_megatron.mlir", "func_calls.mlir", "manual_computation.mlir"})
    if (QFile::exists(QDir(test::sampleDir()).filePath(QLatin1String(sample))))
      QTest::newRow(sample) << QString::fromLatin1(sample);
}

void WhyPanelTest::valuesAreNamedAsTheWindowNamesThem() {
  QFETCH(QString, sample);
  auto doc = test::loadSample(sample);
  QVERIFY(doc && doc->module);
  propagation::PropagationOptions options;
  options.level = propagation::PropagationLevel::Pipeline;
  auto run = api::propagateDocument(*doc, options);
  QVERIFY(run && run->ok);
  std::shared_ptr<const TraceRun> traceRun = traceRunFor(*doc, run);
  QVERIFY(traceRun->index);
  static const QRegularExpression place(QStringLiteral("^op \\d+ (result|arg) \\d+$"));
  int named = 0;
  for (const auto& step : traceRun->trace.steps)
    for (const auto& u : step.updates) {
      const QString name = QString::fromStdString(traceRun->index->valueName(u.value));
      QVERIFY2(!place.match(name).hasMatch(), qPrintable(QStringLiteral("step %1: %2").arg(step.step).arg(name)));
      ++named;
    }
  QVERIFY(named > 0);
  if (sample == QLatin1String("while_loop.mlir")) {
    // The sync of @main's result reads from the while's first result.
    bool sync = false;
    for (const auto& step : traceRun->trace.steps)
      for (const auto& row : traceRun->index->rowValues(static_cast<size_t>(&step - traceRun->trace.steps.data())))
        if (row && QString::fromStdString(traceRun->index->valueName(*row)) == QLatin1String("%0#0")) sync = true;
    QVERIFY(sync);
  }
}

QTEST_MAIN(WhyPanelTest)
#include "why_panel_test.moc"
