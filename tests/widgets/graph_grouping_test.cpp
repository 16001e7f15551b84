// Large functions drawn collapsed (graph_grouping.h) and the graph view's
// navigation aids: grouping of a generated transformer, expand/collapse,
// the layout cache, keyboard navigation along edges, the overview map,
// region clusters collapsing in small functions.
#include "graph/graph_grouping.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/document_state.h"
#include "graph/graph_view.h"
#include "graph/overview_map.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// A transformer-like module of about `ops` ops, written by the benchmark's
// generator (73 ops per layer, 61 of them at the top level).
std::shared_ptr<api::Document> generated(int ops) {
  static QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("t%1.mlir").arg(ops));
  if (!QFile::exists(path)) {
    const int rc = QProcess::execute(
        QStringLiteral("python3"),
        {QStringLiteral(SHARDSCOPE_SOURCE_DIR "/tests/bench/gen_transformer.py"),
         QStringLiteral("--ops"), QString::number(ops), QStringLiteral("-o"), path});
    if (rc != 0) return nullptr;
  }
  return api::loadDocument(path.toStdString());
}

}  // namespace

class GraphGroupingTest : public QObject {
  Q_OBJECT
 private slots:
  void findPeriod_data() {
    QTest::addColumn<QList<int>>("seq");
    QTest::addColumn<int>("period");
    QTest::newRow("abc") << QList<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2} << 3;
    QTest::newRow("none") << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11} << 0;
    QTest::newRow("constant") << QList<int>{5, 5, 5, 5, 5, 5, 5, 5} << 1;
  }
  void findPeriod() {
    QFETCH(QList<int>, seq);
    QFETCH(int, period);
    QCOMPARE(widgets::findPeriod(std::vector<int>(seq.begin(), seq.end()), 1, 100, 1.0), period);
  }

  void groupsOfGeneratedModule_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("groups");
    QTest::newRow("10 layers") << 730 << 10;
    QTest::newRow("40 layers") << 2920 << 40;
  }
  void groupsOfGeneratedModule() {
    QFETCH(int, ops);
    QFETCH(int, groups);
    auto doc = generated(ops);
    if (!doc) QSKIP("python3 or the generator is not available");
    QVERIFY(doc->module);
    const ir::Op& main = *doc->module->functions().front();
    auto g = groupFunction(*doc->module, main);
    QVERIFY(g);
    QCOMPARE(g->period, 61);  // one transformer layer at the top level (73 ops, 6 reduces)
    QCOMPARE(int(g->groups.size()), groups);
    QCOMPARE(g->groups[3].label, QStringLiteral("layer 3"));
    int total = 0;
    for (const OpGroup& grp : g->groups) {
      total += grp.opCount;
      QCOMPARE(int(grp.args.size()), grp.id == 0 ? 7 : 6);  // weights (+ %x) folded in
      QVERIFY(grp.axes.contains(QStringLiteral("model")));
    }
    QCOMPARE(total, countOps(main));
    // Every op maps to a group; the collapsed graph is a chain of groups.
    main.region(0).front().ops().front()->walk([&](ir::Op& op) { QCOMPARE(g->groupOfOp(&op), 0); });
    QCOMPARE(g->level.nodes.size(), g->groups.size() + g->freeArgs.size());
    QVERIFY(g->level.edges.size() >= g->groups.size() - 1);
  }

  void smallModulesAreNotGrouped() {
    auto doc = test::loadSample(QStringLiteral("attention_block.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    QVERIFY(view.scene()->hasGraph());
    QVERIFY(!view.isGrouped());
  }

  void expandCollapseAndCache() {
    auto doc = generated(1460);  // 20 layers
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    view.resize(1000, 700);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(spy.wait(60000));
    QVERIFY(spy.last().at(0).toBool());
    QVERIFY(view.isGrouped());
    const int groups = int(view.grouping()->groups.size());
    QCOMPARE(groups, 20);
    QCOMPARE(int(view.scene()->model().nodes.size()), groups);
    // An op of layer 2 is found in its collapsed group.
    const ir::Op* op = view.grouping()->groups[2].ops[5];
    QCOMPARE(view.scene()->nodeOf(op), view.scene()->nodeOfGroup(2));
    // Ctrl+F finds a value of a collapsed group: the group matches.
    const QString valueName = QString::fromStdString(api::valueName(*op->result(0))) + u' ';
    QCOMPARE(view.scene()->search(valueName), std::vector<int>{view.scene()->nodeOfGroup(2)});

    // Expand layer 2: laid out off the UI thread, its ops get nodes.
    view.expandGroup(2);
    QVERIFY(!view.isExpanded(2));  // not yet: laid out asynchronously
    QVERIFY(spy.wait(60000));
    QVERIFY(spy.last().at(0).toBool());
    QVERIFY(view.isExpanded(2));
    const int opNode = view.scene()->nodeOf(op);
    QVERIFY(opNode >= groups);
    QVERIFY(view.scene()
                ->nodeRect(view.scene()->nodeOfGroup(2))
                .contains(view.scene()->nodeRect(opNode)));
    const int misses = view.cacheStats().misses;

    // Collapse: the collapsed layout is cached, no new layout runs.
    const int hits = view.cacheStats().hits;
    view.collapseGroup(2);
    QVERIFY(!view.isLayoutRunning());
    QCOMPARE(view.cacheStats().hits, hits + 1);
    QVERIFY(!view.isExpanded(2));
    QCOMPARE(view.scene()->nodeOf(op), view.scene()->nodeOfGroup(2));
    // Expanding again hits the cache too.
    view.expandGroup(2);
    QVERIFY(!view.isLayoutRunning());
    QCOMPARE(view.cacheStats().hits, hits + 2);
    QCOMPARE(view.cacheStats().misses, misses);
    QVERIFY(view.isExpanded(2));
  }

  void cancelExpansion() {
    auto doc = generated(1460);
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(spy.wait(60000));
    view.expandGroup(4);
    view.cancelLayout();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLayoutRunning(), 60000);
    QTest::qWait(50);
    QVERIFY(!view.isExpanded(4));
    QVERIFY(view.scene()->hasGraph());  // the collapsed graph stays
  }

  void keyboardNavigation_data() {
    QTest::addColumn<int>("key");
    QTest::addColumn<QString>("expected");  // op name selected
    QTest::newRow("Alt+Up: producer") << int(Qt::Key_Up) << "stablehlo.dot_general";
    QTest::newRow("Alt+Down: consumer") << int(Qt::Key_Down) << "stablehlo.tanh";
  }
  void keyboardNavigation() {
    QFETCH(int, key);
    QFETCH(QString, expected);
    // matmul_chain: dot_general(%arg0, %arg1) -> tanh -> dot_general -> return
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    const ir::Op* tanh = state.findOp(QStringLiteral("stablehlo.tanh"));
    QVERIFY(tanh);
    const ir::Op* start = key == Qt::Key_Up ? tanh : tanh->operand(0)->definingOp;
    state.selectOp(start);
    QCOMPARE(view.currentNode(), view.scene()->nodeOf(start));
    QTest::keyClick(view.view(), Qt::Key(key), Qt::AltModifier);
    QVERIFY(state.selectedOp());
    QCOMPARE(QString::fromStdString(state.selectedOp()->name()), expected);
    QCOMPARE(view.currentNode(), view.scene()->nodeOf(state.selectedOp()));
  }

  void tabThroughUsers() {
    auto doc = test::loadSample(QStringLiteral("attention_block.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    // A node with several users.
    int node = -1;
    for (size_t i = 0; i < view.scene()->model().nodes.size() && node < 0; ++i)
      if (view.scene()->model().nodes[i].op && view.scene()->consumers(int(i)).size() >= 2)
        node = int(i);
    QVERIFY(node >= 0);
    const auto users = view.scene()->consumers(node);
    view.setCurrentNode(node);
    QTest::keyClick(view.view(), Qt::Key_Tab);
    QCOMPARE(view.currentNode(), users[0]);
    QTest::keyClick(view.view(), Qt::Key_Tab);
    QCOMPARE(view.currentNode(), users[1]);
    QTest::keyClick(view.view(), Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(view.currentNode(), users[0]);
  }

  void groupNavigation() {
    auto doc = generated(730);
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    QVERIFY(view.isGrouped());
    view.setCurrentNode(view.scene()->nodeOfGroup(3));
    QTest::keyClick(view.view(), Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(view.currentNode(), view.scene()->nodeOfGroup(4));
    QTest::keyClick(view.view(), Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(view.currentNode(), view.scene()->nodeOfGroup(3));
    QTest::keyClick(view.view(), Qt::Key_Return);  // expands
    QVERIFY(view.isExpanded(3));
    QTest::keyClick(view.view(), Qt::Key_Return);  // the group frame is current: collapses
    QVERIFY(!view.isExpanded(3));
  }

  void overviewMap() {
    auto doc = test::loadSample(QStringLiteral("attention_block.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    view.resize(1200, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    state.setDocument(doc);
    QVERIFY(view.overview());
    // The map shows while part of the graph is out of view (zoomed in).
    view.zoomIn();
    view.zoomIn();
    view.zoomIn();
    QVERIFY(QTest::qWaitFor([&] { return view.overview()->isVisible(); }, 5000));
    QCOMPARE(view.overview()->scene(), view.scene());
    QVERIFY(!view.overview()->viewportRect().isEmpty());
    // Clicking in the map moves the main view there.
    const QPointF before = view.overview()->viewportRect().center();
    const QPoint corner(view.overview()->viewport()->width() - 3,
                        view.overview()->viewport()->height() - 3);
    QTest::mouseClick(view.overview()->viewport(), Qt::LeftButton, {}, corner);
    QVERIFY(view.overview()->viewportRect().center() != before);
  }

  void regionClustersCollapse() {
    auto doc = test::loadSample(QStringLiteral("while_loop.mlir"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    state.setDocument(doc);
    const auto& m = view.scene()->model();
    QCOMPARE(m.input.clusters.size(), size_t(2));
    QCOMPARE(m.clusterOps.size(), size_t(2));
    const ir::Op* loop = m.clusterOps[0];
    QVERIFY(loop && loop->numRegions() == 2);
    const size_t before = m.nodes.size();
    view.toggleRegions(loop);
    QCOMPARE(view.scene()->model().input.clusters.size(), size_t(0));
    QVERIFY(view.scene()->model().nodes.size() < before);
    const int node = view.scene()->nodeOf(loop);
    QVERIFY(node >= 0);
    QVERIFY(view.scene()->model().nodes[size_t(node)].collapsedOps > 0);
    view.toggleRegions(loop);  // expand again
    QCOMPARE(view.scene()->model().input.clusters.size(), size_t(2));
    QCOMPARE(view.scene()->model().nodes.size(), before);
  }
};

QTEST_MAIN(GraphGroupingTest)
#include "graph_grouping_test.moc"
