// Axis movement in the dataflow graph (widgets/graph_axis_animation.h):
// stepping forward through a propagation trace sends one chip per moved
// axis along the source value's edge through the op and out along the
// destination's edge; chips are removed at the end, on re-stepping, on
// stepping back and on a new layout; none with the animation off; ops in
// collapsed groups/regions do not crash. Static markers for export.
//
// SHARDSCOPE_ANIM_PNG_DIR=DIR writes mid-animation grabs (light and dark)
// there for a look.
#include "graph/graph_axis_animation.h"

#include <QApplication>
#include <QDir>
#include <QGraphicsItem>
#include <QSignalSpy>
#include <QTest>

#include "api/propagate.h"
#include "core/axis_style.h"
#include "core/document_state.h"
#include "graph/graph_view.h"
#include "test_util.h"
#include "core/theme_palette.h"
#include "trace/propagation_runner.h"
#include "trace/trace_graph_link.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "export/view_export.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

propagation::PropagationOptions userPriority() {
  propagation::PropagationOptions o;
  o.level = propagation::PropagationLevel::UserPriority;
  return o;
}

// A document, its run and a graph view stepping through it as the main
// window does (the module after each step, laid out synchronously).
struct Stepper {
  std::shared_ptr<api::Document> input;
  std::shared_ptr<api::PropagationRun> run;
  DocumentState state;
  GraphView view{&state};
  // fixedDoc: the graph keeps the input module (as with the trace
  // explorer's player, which only selects ops) instead of the module after
  // each step.
  bool fixedDoc = false;
  explicit Stepper(const QString& sample, const GroupingOptions* grouping = nullptr) {
    input = test::loadSample(sample);
    run = api::propagateDocument(*input, userPriority());
    view.setSynchronous(true);
    if (grouping) view.setGroupingOptions(*grouping);
    view.resize(1000, 760);
    view.setAxisAnimationEnabled(true);
  }
  bool ok() const { return input && input->module && run && run->ok; }
  // Show the module after step `step` (-1: the input) and tell the view.
  void show(int step, int durationMs = 4000) {
    auto doc = fixedDoc && state.document()
                   ? std::const_pointer_cast<api::Document>(state.document())
                   : api::documentAtStep(*input, *run, static_cast<size_t>(step + 1));
    QVERIFY(doc);
    if (doc != state.document()) state.setDocumentKeepingSelection(doc);
    if (step >= 0) {
      const auto ops = propagation::preOrderOps(*doc->module);
      const auto& s = run->trace.steps[static_cast<size_t>(step)];
      if (s.opIndex >= 0 && !ops[static_cast<size_t>(s.opIndex)]->is("func.func"))
        state.selectOp(ops[static_cast<size_t>(s.opIndex)]);
    }
    view.showTraceStep(&run->trace, step, durationMs);
  }
  int tokensOnScene() const {
    int n = 0;
    for (QGraphicsItem* item : view.scene()->items())
      if (dynamic_cast<AxisTokenItem*>(item)) ++n;
    return n;
  }
};

QString pngDir() { return qEnvironmentVariable("SHARDSCOPE_ANIM_PNG_DIR"); }

}  // namespace

class GraphAxisAnimationTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QApplication::setOrganizationName(QStringLiteral("shardscope-tests")); }

  // Every sample: the moves of every step resolve to values of its op.
  void resolve_data() { test::addSampleRows(); }
  void resolve() {
    QFETCH(QString, path);
    auto doc = api::loadDocument(path.toStdString());
    QVERIFY(doc->module);
    if (doc->hasErrors()) QSKIP("sample has errors");
    auto run = api::propagateDocument(*doc, userPriority());
    QVERIFY(run->ok);
    for (size_t i = 0; i < run->trace.steps.size(); ++i) {
      const auto& step = run->trace.steps[i];
      auto after = api::documentAtStep(*doc, *run, i + 1);
      QVERIFY(after);
      const auto moves = resolveAxisMoves(*after->module, step);
      if (step.op == "sdy.sharding_normalization") {
        QVERIFY(moves.empty());
        continue;
      }
      QCOMPARE(moves.size(), step.moves.size());
      for (size_t k = 0; k < moves.size(); ++k) {
        const GraphAxisMove& m = moves[k];
        QVERIFY(m.op);
        QCOMPARE(m.label, axisMoveLabel(step.moves[k].axis));
        if (m.from && !m.fromIsResult && step.op != "func.return" && !m.op->is("sdy.data_flow_edge"))
          QVERIFY(std::find(m.op->operands().begin(), m.op->operands().end(), m.from) !=
                  m.op->operands().end());
        if (m.to && m.toIsResult && step.op != "func.return")
          QCOMPARE(m.to->definingOp, m.op);
      }
    }
  }

  // Stepping forward onto a step with moves creates the expected chips on
  // the expected edges; they are gone when the animation ends.
  void tokens_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("step");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QStringList>("fromTo");  // "from->to" value names per chip
    QTest::newRow("matmul backward through tanh") << QStringLiteral("matmul_chain.mlir") << 0
                                                  << QStringList{QStringLiteral("x")}
                                                  << QStringList{QStringLiteral("%1->%0")};
    QTest::newRow("matmul dot_general weight") << QStringLiteral("matmul_chain.mlir") << 1
                                               << QStringList{QStringLiteral("y")}
                                               << QStringList{QStringLiteral("%arg1->%0")};
    QTest::newRow("matmul contracting operand to operand")
        << QStringLiteral("matmul_chain.mlir") << 5 << QStringList{QStringLiteral("y")}
        << QStringList{QStringLiteral("%1->%arg2")};
    QTest::newRow("sub-axes through reshape")
        << QStringLiteral("reshape_subaxes.mlir") << 3
        << QStringList{QStringLiteral("\"x\":(1)2"), QStringLiteral("\"x\":(2)2")}
        << QStringList{QStringLiteral("%arg0->%1"), QStringLiteral("%arg0->%1")};
    QTest::newRow("two axes into add, four chips")
        << QStringLiteral("mlp_megatron.mlir") << 2
        << QStringList{QStringLiteral("data"), QStringLiteral("model"), QStringLiteral("data"),
                       QStringLiteral("model")}
        << QStringList{};
    QTest::newRow("function result sync") << QStringLiteral("matmul_chain.mlir") << 4
                                          << QStringList{QStringLiteral("x")}
                                          << QStringList{QStringLiteral("%2->")};
    QTest::newRow("inside a while body") << QStringLiteral("while_loop.mlir") << 0
                                         << QStringList{QStringLiteral("y")} << QStringList{};
  }
  void tokens() {
    QFETCH(QString, sample);
    QFETCH(int, step);
    QFETCH(QStringList, labels);
    QFETCH(QStringList, fromTo);
    Stepper s(sample);
    QVERIFY(s.ok());
    QVERIFY(step < static_cast<int>(s.run->trace.steps.size()));
    s.show(step - 1, 0);
    QCOMPARE(s.view.axisAnimator()->tokenCount(), 0);
    QSignalSpy finished(s.view.axisAnimator(), &AxisMoveAnimator::finished);
    s.show(step, 600);
    const auto tokens = s.view.axisAnimator()->tokens();
    QCOMPARE(static_cast<int>(tokens.size()), labels.size());
    QVERIFY(s.view.axisAnimator()->isRunning());
    QCOMPARE(s.tokensOnScene(), labels.size());
    const Mesh& mesh = s.view.scene()->model().legend.mesh;
    const GraphModel& model = s.view.scene()->model();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const AxisTokenItem* t = tokens[i];
      QCOMPARE(t->label(), labels[static_cast<int>(i)]);
      QCOMPARE(t->color(), axisColor(&mesh, t->move().axisName));
      QVERIFY(t->color() != axisColor(-1));  // a real mesh axis colour, not the grey
      const AxisMoveRoute& r = t->route();
      QVERIFY(r.valid());
      QCOMPARE(r.node, s.view.scene()->nodeOf(t->move().op));
      // The chip starts on the source's edge and ends on the destination's.
      if (r.inEdge >= 0) {
        QCOMPARE(model.edges[static_cast<size_t>(r.inEdge)].value, t->move().from);
        const QPainterPath edge = s.view.scene()->edgePath(r.inEdge);
        const QPointF start = r.path.pointAtPercent(0);
        QVERIFY(QLineF(start, edge.pointAtPercent(0)).length() < 0.5 ||
                QLineF(start, edge.pointAtPercent(1)).length() < 0.5);
      }
      if (r.outEdge >= 0) QCOMPARE(model.edges[static_cast<size_t>(r.outEdge)].value, t->move().to);
      if (!fromTo.isEmpty()) {
        const QString expected = fromTo[static_cast<int>(i)];
        const QString from = t->move().from ? toQString(api::valueName(*t->move().from)) : QString();
        const QString to = t->move().to ? toQString(api::valueName(*t->move().to)) : QString();
        QCOMPARE(from + QStringLiteral("->") + to, expected);
        // A value drawn in the graph has its edge at the op.
        if (t->move().from) QVERIFY(r.inEdge >= 0);
        if (t->move().to) QVERIFY(r.outEdge >= 0);
      }
    }
    // Mid-way the chips are between their ends and visible.
    QTest::qWait(300);
    for (const AxisTokenItem* t : s.view.axisAnimator()->tokens()) {
      QVERIFY(t->progress() > 0 && t->progress() < 1);
      QVERIFY(t->scene() == s.view.scene());
    }
    QVERIFY(finished.wait(3000));
    QCOMPARE(s.view.axisAnimator()->tokenCount(), 0);
    QCOMPARE(s.tokensOnScene(), 0);
  }

  // Rapid stepping, stepping back, jumping and a new layout leave no stale chips.
  void restepAndCancel() {
    Stepper s(QStringLiteral("matmul_chain.mlir"));
    QVERIFY(s.ok());
    s.show(-1, 0);
    s.show(0);
    QCOMPARE(s.view.axisAnimator()->tokenCount(), 1);
    QPointer<AxisTokenItem> first = s.view.axisAnimator()->tokens().front();
    s.show(1);  // next step before the chips arrive
    QVERIFY(first.isNull());
    QCOMPARE(s.tokensOnScene(), 1);
    QCOMPARE(s.view.axisAnimator()->tokens().front()->label(), QStringLiteral("y"));
    s.show(0);  // back: no movement
    QCOMPARE(s.tokensOnScene(), 0);
    QVERIFY(!s.view.axisAnimator()->isRunning());
    s.show(1);
    QCOMPARE(s.tokensOnScene(), 1);
    s.show(4);  // a jump (scrubbing): no movement
    QCOMPARE(s.tokensOnScene(), 0);
    s.show(5);
    QCOMPARE(s.tokensOnScene(), 1);
    s.view.relayout();  // a new scene
    QCOMPARE(s.tokensOnScene(), 0);
    QCOMPARE(s.view.axisAnimator()->tokenCount(), 0);
    // Many quick steps forward and back: at most one step's chips.
    for (int round = 0; round < 3; ++round)
      for (int i = -1; i < static_cast<int>(s.run->trace.steps.size()); ++i) {
        s.show(i, 2000);
        QVERIFY(s.tokensOnScene() <= 1);
        QCOMPARE(s.tokensOnScene(), s.view.axisAnimator()->tokenCount());
      }
    s.view.axisAnimator()->cancel();
    QCOMPARE(s.tokensOnScene(), 0);
  }

  // Reduced motion: no chips at all.
  void animationOff() {
    Stepper s(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(s.ok());
    s.show(1, 0);
    s.view.setAxisAnimationEnabled(false);
    QVERIFY(!s.view.axisAnimationEnabled());
    s.show(2);
    QCOMPARE(s.tokensOnScene(), 0);
    s.show(3);
    QCOMPARE(s.tokensOnScene(), 0);
    // Turning it off mid-animation removes the chips.
    s.view.setAxisAnimationEnabled(true);
    s.show(1, 0);
    s.show(2);
    QCOMPARE(s.tokensOnScene(), 4);
    s.view.setAxisAnimationEnabled(false);
    QCOMPARE(s.tokensOnScene(), 0);
    // A zero duration (a player too fast to follow) creates none either.
    QCOMPARE(axisAnimationDuration(16), 0);
    QVERIFY(axisAnimationDuration(2) > 0 && axisAnimationDuration(2) <= 400);
    s.view.setAxisAnimationEnabled(true);
    s.show(1, 0);
    s.show(2, axisAnimationDuration(16));
    QCOMPARE(s.tokensOnScene(), 0);
  }

  // The op inside a collapsed group (large-function grouping) or a
  // collapsed region: chips pass through the node standing for it, or
  // nothing, and nothing crashes.
  void collapsed_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("grouped");
    QTest::newRow("matmul grouped") << QStringLiteral("matmul_chain.mlir") << true;
    QTest::newRow("mlp grouped") << QStringLiteral("mlp_megatron.mlir") << true;
    QTest::newRow("attention grouped") << QStringLiteral("attention_block.mlir") << true;
    QTest::newRow("while region collapsed") << QStringLiteral("while_loop.mlir") << false;
  }
  void collapsed() {
    QFETCH(QString, sample);
    QFETCH(bool, grouped);
    GroupingOptions g;
    g.threshold = 2;
    g.targetSize = 2;
    g.maxSize = 3;
    Stepper s(sample, grouped ? &g : nullptr);
    QVERIFY(s.ok());
    s.fixedDoc = !grouped;  // collapsed regions belong to one module
    s.show(-1, 0);
    if (grouped) {
      QVERIFY(s.view.isGrouped());
    } else {
      const ir::Op* loop = nullptr;
      const_cast<ir::Op*>(s.state.function())->walk([&](ir::Op& o) {
        if (o.is("stablehlo.while")) loop = &o;
      });
      QVERIFY(loop);
      s.view.toggleRegions(loop);
    }
    int viaGroup = 0;
    for (int i = 0; i < static_cast<int>(s.run->trace.steps.size()); ++i) {
      s.show(i, 500);
      // Grouped views keep their groups collapsed (stepping selects the op,
      // which does not expand anything).
      for (const AxisTokenItem* t : s.view.axisAnimator()->tokens()) {
        QVERIFY(t->route().valid());
        QVERIFY(!t->route().path.isEmpty());
        if (t->route().viaGroup) ++viaGroup;
      }
      QCOMPARE(s.tokensOnScene(), s.view.axisAnimator()->tokenCount());
    }
    QVERIFY(viaGroup > 0);
    QSignalSpy finished(s.view.axisAnimator(), &AxisMoveAnimator::finished);
    if (s.view.axisAnimator()->isRunning()) QVERIFY(finished.wait(3000));
    QCOMPARE(s.tokensOnScene(), 0);
  }

  // The trace explorer's player drives the graph: its speed sets the duration.
  void tracePlayerLink() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    DocumentState state;
    state.setDocument(doc);
    GraphView view(&state);
    view.setSynchronous(true);
    view.relayout();
    view.setAxisAnimationEnabled(true);
    widgets::trace::TracePanel panel;
    widgets::trace::linkGraphAnimation(&panel, &view);
    std::shared_ptr<const widgets::trace::TraceRun> run =
        widgets::trace::runPropagation(doc->text, doc->name, userPriority());
    QVERIFY(run && run->ok());
    panel.showRun(run);
    auto* player = panel.player();
    player->setSpeed(1.0);
    player->scrubTo(0);
    QCOMPARE(view.axisAnimator()->tokenCount(), 0);  // a jump
    player->stepForward();                            // step 1: "y" into dot_general
    QCOMPARE(view.axisAnimator()->tokenCount(), 1);
    QCOMPARE(view.axisAnimator()->lastDuration(), axisAnimationDuration(1.0));
    player->stepBack();
    QCOMPARE(view.axisAnimator()->tokenCount(), 0);
    // Playing: each step's chips fit in the step interval.
    player->setSpeed(4.0);
    player->scrubTo(-1);
    QSignalSpy started(view.axisAnimator(), &AxisMoveAnimator::started);
    QSignalSpy done(view.axisAnimator(), &AxisMoveAnimator::finished);
    player->play();
    QTRY_VERIFY_WITH_TIMEOUT(!player->isPlaying(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.axisAnimator()->isRunning(), 3000);
    QVERIFY(started.count() >= 5);
    QCOMPARE(done.count(), started.count());  // none cut short by the next step
    QCOMPARE(view.axisAnimator()->tokenCount(), 0);
  }

  // Headless export: static arrows + chips, and the caption.
  void staticMarkers() {
    Stepper s(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(s.ok());
    s.show(2, 0);
    const auto& step = s.run->trace.steps[2];
    const auto moves = resolveAxisMoves(*s.state.module(), step);
    // add: operand-0 -> operand-1 and operand-0 -> result-0: markers on the
    // edge in (one, both axes), out to operand 1 and out to the result.
    QCOMPARE(addAxisMoveMarkers(*s.view.scene(), moves), 3);
    ExportRequest req;
    req.view = ExportView::Graph;
    req.step = &step;
    QString error;
    const Picture pic = exportPicture(*s.state.document(), req, &error);
    QVERIFY2(!pic.isNull(), qPrintable(error));
    QVERIFY(describeAxisMoves(moves).contains(QStringLiteral("data")));
    QVERIFY(describeAxisMoves(moves).contains(QStringLiteral("model")));
    if (!pngDir().isEmpty()) {
      QString err;
      QVERIFY(writePicture(pic, QDir(pngDir()).filePath(QStringLiteral("export_mlp_step2.png")), &err));
    }
  }

  // Mid-animation grabs for a look, light and dark (SHARDSCOPE_ANIM_PNG_DIR).
  void grabMidAnimation_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("step");
    QTest::addColumn<bool>("dark");
    QTest::newRow("matmul 1 light") << QStringLiteral("matmul_chain.mlir") << 1 << false;
    QTest::newRow("matmul 1 dark") << QStringLiteral("matmul_chain.mlir") << 1 << true;
    QTest::newRow("mlp 2 light") << QStringLiteral("mlp_megatron.mlir") << 2 << false;
    QTest::newRow("reshape 3 dark") << QStringLiteral("reshape_subaxes.mlir") << 3 << true;
  }
  void grabMidAnimation() {
    QFETCH(QString, sample);
    QFETCH(int, step);
    QFETCH(bool, dark);
    const QPalette before = QApplication::palette();
    if (dark) applyTheme(Theme::Dark);
    Stepper s(sample);
    QVERIFY(s.ok());
    s.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&s.view));
    s.show(step - 1, 0);
    s.view.zoomFit();
    s.show(step, 1600);
    QVERIFY(s.view.axisAnimator()->tokenCount() > 0);
    QTest::qWait(700);
    const QImage img = s.view.grab().toImage();
    QVERIFY(!img.isNull());
    if (!pngDir().isEmpty())
      img.save(QDir(pngDir()).filePath(QStringLiteral("anim_%1_step%2_%3.png")
                                           .arg(QFileInfo(sample).baseName())
                                           .arg(step)
                                           .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"))));
    s.view.axisAnimator()->cancel();
    QApplication::setPalette(before);
  }
};

QTEST_MAIN(GraphAxisAnimationTest)
#include "graph_axis_animation_test.moc"
