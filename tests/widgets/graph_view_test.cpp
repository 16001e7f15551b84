// The dataflow graph: building, async Graphviz layout (QtConcurrent +
// QFutureWatcher), stale results dropped, cancel, search.
#include "graph/graph_view.h"

#include <QSignalSpy>
#include <QTest>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "graph/graph_builder.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class GraphViewTest : public QObject {
  Q_OBJECT
 private slots:
  void asyncLayout_data() { test::addSampleRows(); }
  void asyncLayout() {
    QFETCH(QString, path);
    auto doc = api::loadDocument(path.toStdString());
    QVERIFY(doc->module);
    DocumentState state;
    GraphView view(&state);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(spy.wait(60000));
    QCOMPARE(spy.last().at(0).toBool(), true);
    QVERIFY(view.scene()->hasGraph());
    // Every op of the function has a node with a real size inside the scene.
    int ops = 0;
    const_cast<ir::Op*>(state.function())->walk([&](ir::Op& op) {
      if (&op == state.function()) return;
      ++ops;
      const int node = view.scene()->nodeOf(&op);
      QVERIFY2(node >= 0, op.name().c_str());
      QVERIFY(view.scene()->nodeRect(node).width() > 10);
      QVERIFY(view.scene()->sceneRect().contains(view.scene()->nodeRect(node)));
    });
    QVERIFY(ops > 0);
    const Picture pic = view.picture();
    QVERIFY(!pic.isNull());
  }

  void chipsAndColours() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    QVERIFY(doc->module);
    const ir::Op* main = doc->module->functions().front();
    const GraphModel g = buildGraph(*doc->module, *main);
    QStringList chips;
    for (const auto& n : g.nodes)
      if (n.kind == GraphNodeInfo::ValueNode) chips << n.searchText;
    QCOMPARE(chips.size(), 3);  // %arg0, %arg1, %1
    QVERIFY(chips.contains(QStringLiteral("%1 [{\"x\", ?}, {?}]")));
    for (size_t i = 0; i < g.edges.size(); ++i) {
      const auto& e = g.edges[i];
      if (!e.value || api::valueName(*e.value) != "%arg1") continue;
      QCOMPARE(e.color, axisColor(1));  // "y"
      QVERIFY(!e.dashed);
    }
    for (const auto& e : g.edges)
      if (e.value && api::valueName(*e.value) == "%1") QVERIFY(e.dashed);  // open dims
    QCOMPARE(g.legend.mesh.axes.size(), size_t(2));
    QCOMPARE(g.input.nodes.size(), g.nodes.size());
    QCOMPARE(g.input.edges.size(), g.edges.size());
  }

  void clusters() {
    auto doc = test::loadSample(QStringLiteral("while_loop.mlir"));
    QVERIFY(doc->module);
    const GraphModel g = buildGraph(*doc->module, *doc->module->functions().front());
    QCOMPARE(g.input.clusters.size(), size_t(2));
    QVERIFY(g.input.clusters[0].label.endsWith(QLatin1String("cond")));
    QVERIFY(g.input.clusters[1].label.endsWith(QLatin1String("do")));
    const GraphLayout l = layoutGraph(g.input);
    QVERIFY(l.error.isEmpty());
    for (size_t i = 0; i < g.input.nodes.size(); ++i) {
      const int c = g.input.nodes[i].cluster;
      if (c >= 0) QVERIFY(l.clusters[static_cast<size_t>(c)].rect.contains(l.nodes[i].rect));
    }
  }

  void staleResultsDropped() {
    auto a = test::loadSample(QStringLiteral("attention_block.mlir"));
    auto b = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    QVERIFY(a->module && b->module);
    DocumentState state;
    GraphView view(&state);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(a);
    state.setDocument(b);  // a's layout is now stale
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLayoutRunning() && view.scene()->hasGraph(), 60000);
    QTest::qWait(50);
    const ir::Op* dot = state.findOp(QStringLiteral("stablehlo.dot_general"));
    QVERIFY(dot);
    QVERIFY(view.scene()->nodeOf(dot) >= 0);  // the scene shows b
    QCOMPARE(view.scene()->model().nodes.size(),
             buildGraph(*b->module, *state.function()).nodes.size());
  }

  void cancel() {
    auto doc = test::loadSample(QStringLiteral("attention_block.mlir"));
    QVERIFY(doc->module);
    DocumentState state;
    GraphView view(&state);
    state.setDocument(doc);
    view.cancelLayout();
    QTest::qWait(500);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLayoutRunning(), 60000);
    QVERIFY(!view.scene()->hasGraph());
    // Laying out again works.
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    view.relayout();
    QVERIFY(spy.wait(60000));
    QVERIFY(view.scene()->hasGraph());
  }

  void search_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("matches");
    QTest::newRow("op name") << "dot_general" << 2;
    QTest::newRow("value") << "%arg2" << 1;
    QTest::newRow("axis") << "\"y\"" << 1;
    QTest::newRow("none") << "no_such_thing" << 0;
  }
  void search() {
    QFETCH(QString, text);
    QFETCH(int, matches);
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    QVERIFY(view.scene()->hasGraph());
    QCOMPARE(int(view.scene()->search(text).size()), matches);
  }

  // A func.call is one node until it is expanded (Enter / double-click):
  // then the callee's body is a cluster "call · @f" fed by the call; a second
  // call of the same function does not draw the body again, nor does a
  // recursive call. Selecting an op in the expanded body keeps @main shown.
  void callsExpandIntoTheirCallee_data() {
    QTest::addColumn<int>("whichCall");  // the call expanded: 0 or 1
    QTest::newRow("first call") << 0;
    QTest::newRow("second call") << 1;
  }
  void callsExpandIntoTheirCallee() {
    QFETCH(int, whichCall);
    auto doc = api::parseDocument(R"mlir(
sdy.mesh @mesh = <["x"=2]>
func.func private @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %a : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = func.call @f(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
)mlir", "calls.mlir");
    QVERIFY(doc->module && !doc->hasErrors());
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    QCOMPARE(toQString(api::symbolName(*state.function())), QStringLiteral("main"));
    const ir::Op* mainFn = state.function();
    std::vector<const ir::Op*> calls;
    const_cast<ir::Op*>(mainFn)->walk([&](ir::Op& op) {
      if (op.is("func.call")) calls.push_back(&op);
    });
    QCOMPARE(calls.size(), size_t(2));
    auto nodeHtml = [&](const ir::Op* op) {
      const int n = view.scene()->nodeOf(op);
      return n < 0 ? QString() : view.scene()->model().nodes[size_t(n)].html;
    };
    // Collapsed: no clusters, each call says what it hides.
    QVERIFY(view.scene()->model().input.clusters.empty());
    QVERIFY(nodeHtml(calls[0]).contains(QStringLiteral("@f: 4 ops")));
    const ir::Op* negate = state.findOp(QStringLiteral("stablehlo.negate"));
    QVERIFY(negate);
    QCOMPARE(view.scene()->nodeOf(negate), -1);

    view.setCurrentNode(view.scene()->nodeOf(calls[size_t(whichCall)]));
    view.activateCurrent();
    const GraphModel& m = view.scene()->model();
    QCOMPARE(m.input.clusters.size(), size_t(1));
    QCOMPARE(m.input.clusters[0].label, QStringLiteral("call · @f"));
    QCOMPARE(m.clusterOps[0], calls[size_t(whichCall)]);
    const int negNode = view.scene()->nodeOf(negate);
    QVERIFY(negNode >= 0);
    QCOMPARE(m.input.nodes[size_t(negNode)].cluster, 0);
    // SHARDSCOPE_TEST_GRAB=DIR: keep a picture of the expanded call.
    if (const QString dir = qEnvironmentVariable("SHARDSCOPE_TEST_GRAB"); !dir.isEmpty()) {
      view.resize(900, 700);
      view.zoomFit();
      view.grab().save(QStringLiteral("%1/graph_call_%2.png").arg(dir).arg(whichCall));
    }
    // The other call and the recursive call inside @f: drawn elsewhere.
    QVERIFY(nodeHtml(calls[size_t(1 - whichCall)]).contains(QStringLiteral("body drawn at another call")));
    const ir::Op* inner = nullptr;
    const_cast<ir::Op*>(negate->parentOfName("func.func"))->walk([&](ir::Op& op) {
      if (op.is("func.call")) inner = &op;
    });
    QVERIFY(inner);
    QVERIFY(nodeHtml(inner).contains(QStringLiteral("@f: recursive call")));
    // Selecting an op of the body keeps @main's graph.
    QSignalSpy functionChanged(&state, &DocumentState::functionChanged);
    emit view.scene()->opActivated(negate);
    QCOMPARE(state.selectedOp(), negate);
    QCOMPARE(state.function(), mainFn);
    QCOMPARE(functionChanged.count(), 0);
    // Collapsing again (double-click on the cluster does the same).
    view.toggleRegions(calls[size_t(whichCall)]);
    QVERIFY(view.scene()->model().input.clusters.empty());
  }

  void selectionFollowsState() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    QSignalSpy sel(&state, &DocumentState::selectionChanged);
    const ir::Op* tanh = state.findOp(QStringLiteral("stablehlo.tanh"));
    QVERIFY(tanh);
    state.selectOp(tanh);
    QCOMPARE(sel.count(), 1);
    QCOMPARE(state.selectedValue(), tanh->result(0));
  }
};

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
