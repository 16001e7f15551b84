// The communication layer on the graph (graph_comm_layer.h): one glyph per
// collective with its kind and bytes per device on the right edge, nodes
// that never move, clicks on glyphs, the View toggle; and in the real main
// window, a click on a Communication dock row selecting the op, centring
// the graph on the collective and filling the Why panel, a click on a glyph
// selecting the row.
//
// Bytes per device, by hand (mesh "x"=4, tensor<8x8xf32> is 256 bytes):
//   all-gather [{"x"}, {}] -> [{}, {}]: each device receives the 3 other
//     quarters, 3/4 * 256 = 192 B;
//   all-to-all [{"x"}, {}] -> [{}, {"x"}]: each device keeps 1/4 of its 64
//     bytes and receives the other 3/4, 48 B;
//   all-reduce over "x" of a replicated 8x8xf32 (ring: reduce-scatter then
//     all-gather): 2 * 3/4 * 256 = 384 B;
//   all-slice: nothing moves, 0 B.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsItem>
#include <QGraphicsView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTableView>
#include <QTest>

#include "api/communication.h"
#include "api/propagate.h"
#include "comm/communication_feed.h"
#include "comm/communication_model.h"
#include "comm/communication_panel.h"
#include "core/document_state.h"
#include "core/theme_palette.h"
#include "graph/graph_builder.h"
#include "comm/graph_comm_layer.h"
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "main_window_test_util.h"
#include "trace/trace_panel.h"
#include "trace/why_panel.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

const char* const kGatherAtReturn = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

const char* const kWrittenGather = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

const char* const kWrittenAllToAll = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

const char* const kWrittenAllReduce = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

// The contracting dimension sharded on one side only: %arg1 is sliced (0 B)
// into the dot, whose partial sums are all-reduced (384 B) on their way to
// the return (an edge without a value chip: the dot's result has no sharding).
const char* const kDotPartialSums = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

QStringList strings(std::initializer_list<const char*> items) {
  QStringList out;
  for (const char* s : items) out << QString::fromUtf8(s);
  return out;
}

// A laid-out scene of `doc`'s @main, as the headless export makes it.
std::shared_ptr<GraphScene> sceneOf(const api::Document& doc) {
  const ir::Op* main = nullptr;
  for (const ir::Op* f : doc.module->functions())
    if (api::symbolName(*f) == "main") main = f;
  if (!main) return nullptr;
  GraphModel model = buildGraph(*doc.module, *main);
  const GraphLayout layout = layoutGraph(model.input);
  if (!layout.error.isEmpty()) return nullptr;
  auto scene = std::make_shared<GraphScene>();
  scene->setGraph(std::move(model), layout);
  return scene;
}

// "%0 -> func.return": the value an edge glyph sits on and the op it leads
// to; "on sdy.reshard" for a glyph on a node.
QString anchorOf(const GraphScene& scene, const CommGlyph& g) {
  const GraphModel& m = scene.model();
  if (g.edge >= 0) {
    const GraphEdgeInfo& e = m.edges[static_cast<size_t>(g.edge)];
    const GraphNodeInfo& to = m.nodes[static_cast<size_t>(m.input.edges[static_cast<size_t>(g.edge)].to)];
    return QString::fromStdString(e.value ? api::valueName(*e.value) : std::string("?")) +
           QStringLiteral(" -> ") +
           QString::fromStdString(to.op ? to.op->name() : std::string("(value chip)"));
  }
  const GraphNodeInfo& n = m.nodes[static_cast<size_t>(g.node)];
  return QStringLiteral("on ") + QString::fromStdString(n.op ? n.op->name() : std::string("?"));
}

std::shared_ptr<const api::Document> propagatedSample(const QString& name) {
  auto doc = test::loadSample(name);
  auto run = api::propagateDocument(*doc, propagation::PropagationOptions());
  return run->ok ? run->result : nullptr;
}

}  // namespace

class GraphCommLayerTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void oneGlyphPerCollective_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("sample");  // a propagated sample instead of `text`
    QTest::addColumn<QStringList>("kinds");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QStringList>("anchors");
    QTest::newRow("all-gather the analysis inserts before the return")
        << QString::fromLatin1(kGatherAtReturn) << QString() << strings({"all-gather"})
        << strings({"AG 192 B"}) << strings({"%0 -> func.return"});
    QTest::newRow("written reshard: an all-gather")
        << QString::fromLatin1(kWrittenGather) << QString() << strings({"all-gather"})
        << strings({"AG 192 B"}) << strings({"%arg0 -> sdy.reshard"});
    QTest::newRow("written reshard: an all-to-all")
        << QString::fromLatin1(kWrittenAllToAll) << QString() << strings({"all-to-all"})
        << strings({"A2A 48 B"}) << strings({"%arg0 -> sdy.reshard"});
    QTest::newRow("written all-reduce")
        << QString::fromLatin1(kWrittenAllReduce) << QString() << strings({"all-reduce"})
        << strings({"AR 384 B"}) << strings({"%arg0 -> sdy.all_reduce"});
    QTest::newRow("dot with a sharded contracting dimension")
        << QString::fromLatin1(kDotPartialSums) << QString()
        << strings({"all-slice", "all-reduce"}) << strings({"AS 0 B", "AR 384 B"})
        << strings({"%arg1 -> stablehlo.dot_general", "%0 -> func.return"});
    QTest::newRow("mlp_megatron after propagation")
        << QString() << QStringLiteral("mlp_megatron.mlir") << strings({"all-reduce"})
        << strings({"AR 3.00 KiB"}) << strings({"%4 -> func.return"});
  }
  void oneGlyphPerCollective() {
    QFETCH(QString, text);
    QFETCH(QString, sample);
    QFETCH(QStringList, kinds);
    QFETCH(QStringList, labels);
    QFETCH(QStringList, anchors);
    std::shared_ptr<const api::Document> doc =
        sample.isEmpty() ? api::parseDocument(text.toStdString(), "test.mlir")
                         : propagatedSample(sample);
    QVERIFY(doc && doc->module && !doc->hasErrors());
    auto scene = sceneOf(*doc);
    QVERIFY(scene);
    const api::CommunicationReport report = api::analyzeCommunication(*doc);
    QVERIFY2(report.ok, report.error.c_str());
    QCOMPARE(int(report.collectives.size()), kinds.size());
    const std::vector<CommGlyph> glyphs = placeCommGlyphs(*scene, *doc->module, report);
    QCOMPARE(int(glyphs.size()), kinds.size());
    for (int i = 0; i < kinds.size(); ++i) {
      const CommGlyph& g = glyphs[static_cast<size_t>(i)];
      QCOMPARE(g.entries, std::vector<int>{i});
      QCOMPARE(g.kind, kinds[i]);
      QCOMPARE(commKindTag(g.kind) + u' ' + g.text, labels[i]);
      QCOMPARE(anchorOf(*scene, g), anchors[i]);
      QVERIFY(!g.rect.isEmpty());
    }
    // The most expensive one has the full cost share.
    double top = 0;
    for (const CommGlyph& g : glyphs) top = std::max(top, g.share);
    QCOMPARE(top, 1.0);
  }

  // A glyph has a clear place: 2 px or more from every node's box (the
  // picture pass found "AS 0 B" on the lower border of while_loop's %arg0
  // chip, on an edge too short for it).
  void glyphsClearOfNodes_data() {
    QTest::addColumn<QString>("sample");
    for (const char* sample : {"while_loop.mlir", "mlp_megatron.mlir", "priorities.mlir"})
      QTest::newRow(sample) << QString::fromLatin1(sample);
  }
  void glyphsClearOfNodes() {
    QFETCH(QString, sample);
    auto doc = propagatedSample(sample);
    QVERIFY(doc);
    auto scene = sceneOf(*doc);
    QVERIFY(scene);
    const api::CommunicationReport report = api::analyzeCommunication(*doc);
    QVERIFY(report.ok && !report.collectives.empty());
    const std::vector<CommGlyph> glyphs = placeCommGlyphs(*scene, *doc->module, report);
    QVERIFY(!glyphs.empty());
    for (const CommGlyph& g : glyphs)
      for (size_t i = 0; i < scene->model().nodes.size(); ++i)
        QVERIFY2(!g.rect.adjusted(-2, -2, 2, 2)
                      .intersects(scene->nodeRect(static_cast<int>(i)).adjusted(4, 4, -4, -4)),
                 qPrintable(QStringLiteral("%1 %2 on node %3").arg(g.kind, g.text).arg(i)));
  }

  // The layer is overlay items: no node moves, nothing of the graph is
  // replaced, and deleting the drawing takes its items away.
  void layerNeverMovesNodes() {
    auto doc = propagatedSample(QStringLiteral("priorities.mlir"));
    QVERIFY(doc);
    auto scene = sceneOf(*doc);
    QVERIFY(scene);
    std::vector<QRectF> before;
    for (size_t i = 0; i < scene->model().nodes.size(); ++i)
      before.push_back(scene->nodeRect(static_cast<int>(i)));
    const int itemsBefore = scene->items().size();
    auto report = std::make_shared<const api::CommunicationReport>(api::analyzeCommunication(*doc));
    QVERIFY(report->ok && report->collectives.size() >= 2);
    {
      CommLayerDrawing drawing(scene.get(), placeCommGlyphs(*scene, *doc->module, *report), report);
      QCOMPARE(drawing.glyphs().size(), report->collectives.size());
      QVERIFY(scene->items().size() > itemsBefore);
      for (size_t i = 0; i < before.size(); ++i)
        QCOMPARE(scene->nodeRect(static_cast<int>(i)), before[i]);
      // No two glyphs overlap.
      for (size_t a = 0; a < drawing.glyphs().size(); ++a)
        for (size_t b = a + 1; b < drawing.glyphs().size(); ++b)
          QVERIFY(!drawing.glyphs()[a].rect.intersects(drawing.glyphs()[b].rect));
      const CommLegend legend = drawing.legend(false);
      QCOMPARE(legend.title, QStringLiteral("Communication on tpu-v5p"));
    QVERIFY(legend.totals.startsWith(QStringLiteral("%1 collectives · ").arg(report->collectives.size())));
      QVERIFY(!legend.kinds.isEmpty());
    }
    QCOMPARE(scene->items().size(), itemsBefore);
  }

  // The live layer on a GraphView: drawn for the document the graph shows,
  // a click on a glyph reports its entry, the toggle removes it and is kept.
  void liveLayerClicksAndToggle() {
    QSettings().remove(QStringLiteral("graph/communicationLayer"));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    GraphCommLayer layer(&state, &view);
    QVERIFY(layer.isLayerEnabled());  // on by default
    std::shared_ptr<const api::Document> doc =
        api::parseDocument(kDotPartialSums, "dot.mlir");
    state.setDocument(doc);
    QTRY_VERIFY(view.scene()->hasGraph());
    auto report = std::make_shared<const api::CommunicationReport>(api::analyzeCommunication(*doc));
    // A report for another document is not drawn.
    layer.setReport(report, api::parseDocument(kDotPartialSums, "other.mlir"));
    QVERIFY(layer.glyphs().empty());
    QVERIFY(!layer.legendWidget()->isVisible());
    layer.setReport(report, doc);
    QCOMPARE(layer.glyphs().size(), size_t{2});
    QVERIFY(layer.legendWidget()->isVisible());
    // Click the all-reduce's glyph.
    QSignalSpy clicked(&layer, &GraphCommLayer::entryClicked);
    const int g = layer.glyphOfEntry(1);
    QCOMPARE(g, 1);
    view.view()->centerOn(layer.glyphs()[1].rect.center());
    const QPoint at = view.view()->mapFromScene(layer.glyphs()[1].rect.center());
    QTest::mouseClick(view.view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.first().at(0).toInt(), 1);
    QCOMPARE(layer.selectedEntry(), 1);
    // Off: nothing drawn, the choice kept; on again: drawn again.
    layer.toggleAction()->trigger();
    QVERIFY(!layer.isLayerEnabled());
    QVERIFY(layer.glyphs().empty());
    QVERIFY(!layer.legendWidget()->isVisible());
    QCOMPARE(QSettings().value(QStringLiteral("graph/communicationLayer")).toBool(), false);
    layer.toggleAction()->trigger();
    QCOMPARE(layer.glyphs().size(), size_t{2});
    QCOMPARE(QSettings().value(QStringLiteral("graph/communicationLayer")).toBool(), true);
  }

  // The real window: after Propagate the dock lists the Megatron all-reduce
  // and the graph draws it; a click on the row selects the second
  // dot_general, brings the glyph into view and fills the Why panel; a
  // click on the glyph selects the row.
  void dockAndGraphInTheMainWindow() {
    QSettings().remove(QStringLiteral("graph/communicationLayer"));
    app::MainWindow w(test::sampleDir());
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openSample(w, QStringLiteral("mlp_megatron.mlir")));
    auto* panel = w.findChild<comm::CommunicationPanel*>();
    auto* layer = w.graphView()->findChild<GraphCommLayer*>();
    QVERIFY(panel && layer);
    // The View menu toggles the layer.
    QAction* toggle = nullptr;
    for (QAction* a : w.menuBar()->actions())
      if (a->menu())
        for (QAction* b : a->menu()->actions())
          if (b->objectName() == QLatin1String("communicationLayerAction")) toggle = b;
    QVERIFY(toggle && toggle->isChecked());

    for (QAction* a : w.menuBar()->actions())
      if (a->menu())
        for (QAction* b : a->menu()->actions())
          if (b->text() == QLatin1String("&Propagate")) b->trigger();
    QVERIFY(QTest::qWaitFor(
        [&] {
          return w.state()->steppedRun() && panel->model()->rowCount() == 1 &&
                 panel->model()->report() &&
                 panel->feed()->reportDocument() == w.state()->document() && !layer->glyphs().empty();
        },
        30000));
    QCOMPARE(QString::fromStdString(panel->model()->entry(0)->kind), QStringLiteral("all-reduce"));
    QCOMPARE(layer->glyphs().size(), size_t{1});
    QCOMPARE(layer->glyphs()[0].text, QStringLiteral("3.00 KiB"));

    // Zoom in and look at the top left, away from the glyph, then click the
    // dock row.
    QGraphicsView* canvas = w.graphView()->view();
    for (int i = 0; i < 6; ++i) w.graphView()->zoomIn();
    canvas->centerOn(0, 0);
    QVERIFY(!canvas->viewport()->rect().contains(canvas->mapFromScene(layer->glyphs()[0].rect.center())));
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("communicationDock"));
    QVERIFY(dock);
    dock->show();
    dock->raise();
    QTableView* table = panel->view();
    QTRY_VERIFY(table->isVisible());
    QSignalSpy activated(panel, &comm::CommunicationPanel::collectiveActivated);
    const QModelIndex cell = panel->proxy()->index(0, comm::CommunicationModel::KindColumn);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QCOMPARE(activated.count(), 1);
    QVERIFY(w.state()->selectedOp());
    QCOMPARE(QString::fromStdString(w.state()->selectedOp()->name()),
             QStringLiteral("stablehlo.dot_general"));
    QCOMPARE(w.state()->selectedOp()->loc().line, 26u);
    QCOMPARE(layer->selectedEntry(), 0);
    // The graph moved to the glyph: in view, clear of the legends.
    const QPointF glyph = layer->glyphs()[0].rect.center();
    const QRect glyphShown = canvas->mapFromScene(layer->glyphs()[0].rect).boundingRect();
    QVERIFY(canvas->viewport()->rect().contains(glyphShown));
    QVERIFY(!w.graphView()->coveredByOverlays().intersects(glyphShown));
    // The Why panel shows the collective and its cause.
    auto* explorer = w.findChild<trace::TracePanel*>();
    QVERIFY(explorer);
    const QString why = explorer->whyPanel()->collectiveText();
    QVERIFY2(why.contains(QLatin1String("all-reduce on \"model\"")), qPrintable(why));
    QVERIFY2(why.contains(QLatin1String("3.00 KiB")), qPrintable(why));
    // Named as the document names its values: the all-reduce the analysis
    // inserts is not in it, the dot_general is %4 there.
    QVERIFY2(why.contains(QString::fromUtf8("all-reduce on \"model\" (group of 4), sdy.all_reduce of %4 "
                                            "(planned): 8x64 → 8x64 f32 per device")),
             qPrintable(why));

    // A click on the glyph selects the row.
    table->clearSelection();
    table->setCurrentIndex({});
    w.state()->selectOp(nullptr);
    // The graph's tab in front (its page may be a pane holding the view).
    QWidget* page = w.graphView();
    for (QWidget* p = page->parentWidget(); p; page = p, p = p->parentWidget())
      if (auto* tabs = qobject_cast<QTabWidget*>(p); tabs && tabs->indexOf(page) >= 0) {
        tabs->setCurrentWidget(page);
        break;
      }
    canvas->centerOn(glyph);
    activated.clear();
    QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(glyph));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(table->currentIndex().row(), 0);
    QCOMPARE(w.state()->selectedOp()->loc().line, 26u);

    // Off from the View menu: the glyph goes.
    toggle->trigger();
    QVERIFY(layer->glyphs().empty());
    toggle->trigger();
    QCOMPARE(layer->glyphs().size(), size_t{1});

    // Another file opened: the cause shown was the old module's (its %4,
    // its line 26); the Why panel drops it.
    QVERIFY(!explorer->whyPanel()->collectiveText().isEmpty());
    QVERIFY(test::openSample(w, QStringLiteral("while_loop.mlir")));
    QTRY_VERIFY(explorer->whyPanel()->collectiveText().isEmpty());
  }

  // The layer's legend sits under the mesh legend, in the column Fit keeps
  // free: at Fit neither the legends nor the overview map cover a node or a
  // glyph, and these small graphs are whole in view (not cut at an edge),
  // at the window sizes a laptop and a desktop give, light and dark, in
  // the real window.
  void legendClearOfTheGraph_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<bool>("propagated");    // after Ctrl+P (the Trace explorer up)
    QTest::addColumn<bool>("presentation");  // F11: larger legends
    for (const char* sample : {"priorities.mlir", "alltoall_conflict.mlir", "mlp_megatron.mlir",
                               "megatron_allreduce.mlir", "reshape_subaxis_gather.mlir"})
      for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)})
        for (const bool dark : {false, true})
          QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3 %4")
                                       .arg(QLatin1String(sample))
                                       .arg(size.width())
                                       .arg(size.height())
                                       .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"))))
              << QString::fromLatin1(sample) << size << dark << false << false;
    // After Ctrl+P the bottom dock takes height and the graph scrolls: the
    // column covered %arg2 and broadcast_in_dim of mlp_megatron at
    // 1280x800 (the margin beside the graph was off screen where the view
    // starts), and the while's "do" frame of while_loop.
    for (const char* sample : {"mlp_megatron.mlir", "while_loop.mlir"})
      for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)})
        for (const bool presentation : {false, true})
          QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3 after Ctrl+P%4")
                                       .arg(QLatin1String(sample))
                                       .arg(size.width())
                                       .arg(size.height())
                                       .arg(presentation ? QStringLiteral(", presentation") : QString())))
              << QString::fromLatin1(sample) << size << false << true << presentation;
  }
  void legendClearOfTheGraph() {
    QFETCH(QString, sample);
    QFETCH(QSize, size);
    QFETCH(bool, dark);
    QFETCH(bool, propagated);
    QFETCH(bool, presentation);
    QSettings().remove(QStringLiteral("graph/communicationLayer"));
    app::MainWindow w(test::sampleDir());
    w.setTheme(dark ? Theme::Dark : Theme::Light);
    auto lightAgain = qScopeGuard([&] { w.setTheme(Theme::Light); });
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openSample(w, sample));
    if (propagated) {
      w.findChild<QAction*>(QStringLiteral("propagateAction"))->trigger();
      QVERIFY(QTest::qWaitFor([&] { return w.state()->stepCount() > 0; }, 30000));
    }
    auto* presentationAction = w.findChild<QAction*>(QStringLiteral("presentationAction"));
    auto normalAgain = qScopeGuard([&] {
      if (presentationAction->isChecked()) presentationAction->trigger();
    });
    if (presentation) presentationAction->trigger();
    auto* layer = w.graphView()->findChild<GraphCommLayer*>();
    QVERIFY(layer);
    QTRY_VERIFY_WITH_TIMEOUT(!layer->glyphs().empty(), 30000);
    QWidget* legend = layer->legendWidget();
    QTRY_VERIFY(legend->isVisible());
    QTest::qWait(400);  // the report of the step shown, the refit after the docks settle
    QGraphicsView* canvas = w.graphView()->view();
    GraphScene* scene = w.graphView()->scene();
    // The docks may still settle after the legend first shows (slow under
    // the sanitizers): the legend follows each viewport resize, so wait for
    // the window to come to rest rather than read its first place.
    QTRY_VERIFY2(canvas->viewport()->rect().contains(legend->geometry()),
                 qPrintable(rectText(legend->geometry()) + QStringLiteral(" in ") +
                            rectText(canvas->viewport()->rect())));
    const QRect box = legend->geometry();
    // Presentation mode here fills the test platform's 800x800 screen, a
    // pane so short that bringing the step's op into view (Fit does, the
    // layout test checks it) may put another node under the column, which
    // scrolling reveals (layout_test's graphPaneAtFit checks that).
    if (presentation && w.state()->selectedOp()) return;
    for (size_t i = 0; i < scene->model().nodes.size(); ++i) {
      const QRect node = canvas->mapFromScene(scene->nodeRect(static_cast<int>(i)).adjusted(4, 4, -4, -4))
                             .boundingRect();
      QVERIFY2(!box.intersects(node), qPrintable(QStringLiteral("legend %1 covers node %2 at %3")
                                                     .arg(rectText(box))
                                                     .arg(i)
                                                     .arg(rectText(node))));
    }
    for (const CommGlyph& g : layer->glyphs()) {
      const QRect glyph = canvas->mapFromScene(g.rect).boundingRect();
      QVERIFY2(!box.intersects(glyph), qPrintable(QStringLiteral("legend %1 covers glyph %2 at %3")
                                                      .arg(rectText(box), g.text, rectText(glyph))));
    }
    // All the overlays (the mesh legend, this one, the map) against every
    // node and glyph; each whole in the viewport, except when the graph is
    // taller (wider) than the window at a readable scale: then it starts
    // at its top, never cut there.
    const QRegion covered = w.graphView()->coveredByOverlays();
    const bool scrolls = canvas->verticalScrollBar()->maximum() > 0 ||
                         canvas->horizontalScrollBar()->maximum() > 0;
    std::vector<std::pair<QString, QRectF>> shown;
    for (size_t i = 0; i < scene->model().nodes.size(); ++i)
      shown.emplace_back(QStringLiteral("node %1").arg(i), scene->nodeRect(static_cast<int>(i)));
    for (const CommGlyph& g : layer->glyphs()) shown.emplace_back(g.text, g.rect);
    for (const auto& [what, rect] : shown) {
      const QRect at = canvas->mapFromScene(rect.adjusted(2, 2, -2, -2)).boundingRect();
      QVERIFY2(!covered.intersects(at), qPrintable(QStringLiteral("an overlay covers %1 at %2")
                                                       .arg(what, rectText(at))));
      const QRect vp = canvas->viewport()->rect();
      // A graph that scrolls starts at its top; it may start at its right
      // end, the column over the margin kept beside it, its left edge a
      // scroll away (Fit shows most of it so).
      QVERIFY2(scrolls ? at.top() >= vp.top() : vp.contains(at),
               qPrintable(QStringLiteral("%1 at %2 is cut by the viewport %3")
                              .arg(what, rectText(at), rectText(vp))));
    }
  }

  // A click on a row brings the collective and its op into view at any
  // zoom (Fit, zoomed out, zoomed in and looking elsewhere), clear of the
  // legends and the map; and when the Communication dock shares its tab
  // group with the Trace explorer (as by default), the Why tab comes to the
  // front with the cause.
  void clickBringsCollectiveIntoViewAndRaisesWhy_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("zoom");  // 0 Fit, -3 zoomed out, 6 zoomed in
    for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)})
      for (int zoom : {0, -3, 6})
        QTest::newRow(qPrintable(
            QStringLiteral("%1x%2 zoom %3").arg(size.width()).arg(size.height()).arg(zoom)))
            << size << zoom;
  }
  void clickBringsCollectiveIntoViewAndRaisesWhy() {
    QFETCH(QSize, size);
    QFETCH(int, zoom);
    QSettings().remove(QStringLiteral("graph/communicationLayer"));
    app::MainWindow w(test::sampleDir());
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openSample(w, QStringLiteral("priorities.mlir")));
    auto* panel = w.findChild<comm::CommunicationPanel*>();
    auto* layer = w.graphView()->findChild<GraphCommLayer*>();
    auto* commDock = w.findChild<QDockWidget*>(QStringLiteral("communicationDock"));
    auto* explorerDock = w.findChild<QDockWidget*>(QStringLiteral("traceExplorerDock"));
    auto* explorer = w.findChild<trace::TracePanel*>();
    QVERIFY(panel && layer && commDock && explorerDock && explorer);
    QVERIFY(w.tabifiedDockWidgets(commDock).contains(explorerDock));
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->rowCount() >= 4 && !layer->glyphs().empty(), 30000);
    QGraphicsView* canvas = w.graphView()->view();
    for (int i = 0; i < std::abs(zoom); ++i) {
      if (zoom > 0)
        w.graphView()->zoomIn();
      else
        w.graphView()->zoomOut();
    }
    QTableView* table = panel->view();
    for (int row = 0; row < panel->proxy()->rowCount(); ++row) {
      if (zoom > 0) canvas->centerOn(-2000, -2000);  // looking elsewhere
      commDock->show();
      commDock->raise();
      QTRY_COMPARE(currentTabOf(w, commDock), QStringLiteral("Communication"));
      const QModelIndex cell = panel->proxy()->index(row, comm::CommunicationModel::KindColumn);
      table->scrollTo(cell);
      QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
      const int entry = panel->proxy()->mapToSource(cell).row();
      QCOMPARE(layer->selectedEntry(), entry);
      const int glyph = layer->glyphOfEntry(entry);
      QVERIFY(glyph >= 0);
      const QRect shown = canvas->mapFromScene(layer->glyphs()[static_cast<size_t>(glyph)].rect).boundingRect();
      QVERIFY2(canvas->viewport()->rect().contains(shown),
               qPrintable(QStringLiteral("row %1: glyph at %2 outside %3")
                              .arg(row)
                              .arg(rectText(shown), rectText(canvas->viewport()->rect()))));
      QVERIFY2(!w.graphView()->coveredByOverlays().intersects(shown),
               qPrintable(QStringLiteral("row %1: glyph at %2 under a legend or the map")
                              .arg(row)
                              .arg(rectText(shown))));
      // The op too.
      const int node = w.graphView()->scene()->nodeOf(w.state()->selectedOp());
      QVERIFY(node >= 0);
      QVERIFY(canvas->viewport()->rect().intersects(
          canvas->mapFromScene(w.graphView()->scene()->nodeRect(node)).boundingRect()));
      // The Why tab in front, with this collective's cause.
      QTRY_COMPARE(currentTabOf(w, commDock), QStringLiteral("Trace explorer"));
      QVERIFY(explorer->whyPanel()->isVisible());
      const api::CollectiveEntry* e = panel->model()->entry(entry);
      QVERIFY(e);
      const QString why = explorer->whyPanel()->collectiveText();
      QVERIFY2(why.contains(QString::fromStdString(e->cause)), qPrintable(why));
      for (const std::string& note : e->blocked)
        QVERIFY2(why.contains(QString::fromStdString(note)), qPrintable(why));
      // All of it shown, not cut at the bottom by the text below it.
      auto* label = explorer->whyPanel()->findChild<QLabel*>(QStringLiteral("whyCollective"));
      QVERIFY(label);
      QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
                   qPrintable(QStringLiteral("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
    }
  }

 private:
  // The tab in front in the dock tab group holding `dock` (as the user sees
  // it: the tab bar's current tab).
  static QString currentTabOf(QMainWindow& w, QDockWidget* dock) {
    for (QTabBar* bar : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly))
      for (int i = 0; i < bar->count(); ++i)
        if (bar->tabText(i) == dock->windowTitle()) return bar->tabText(bar->currentIndex());
    return {};
  }
  static QString rectText(const QRect& r) {
    return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
  }
  // A large module's communication is analysed once the graph has laid out
  // its function (both would share the same cores while the first frame is
  // made); a small one's as soon as it is shown, as before. The report comes
  // either way.
  void largeModuleAnalysedAfterItsLayout_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<bool>("held");
    QTest::newRow("3,000 ops: analysed at once") << 3000 << false;
    QTest::newRow("130,000 ops (9 MB): after the layout") << 130000 << true;
  }
  void largeModuleAnalysedAfterItsLayout() {
    QFETCH(int, ops);
    QFETCH(bool, held);
    // A chain of sharded negates ending in a replicated return (one
    // all-gather), ~70 bytes an op.
    QByteArray text = "sdy.mesh @m = <[\"x\"=4]>\n"
                      "func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, "
                      "[{\"x\"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, "
                      "[{}, {}]>}) {\n";
    QByteArray prev = "%arg0";
    for (int i = 0; i < ops; ++i) {
      const QByteArray v = "%v" + QByteArray::number(i);
      text += "  " + v + " = stablehlo.negate " + prev + " : tensor<8x8xf32>\n";
      prev = v;
    }
    text += "  return " + prev + " : tensor<8x8xf32>\n}\n";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chain.mlir"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
    }
    app::MainWindow w(test::sampleDir());
    w.resize(1400, 900);
    w.show();
    comm::CommunicationFeed* feed = w.communicationPanel()->feed();
    QStringList events;
    bool heldAtShow = false;
    // Connected after the window's own slots: the hold is decided by now.
    connect(w.state(), &DocumentState::functionChanged, this,
            [&] { heldAtShow = heldAtShow || feed->isHeld(); });
    connect(w.graphView(), &GraphView::layoutFinished, this, [&] { events << QStringLiteral("layout"); });
    connect(feed, &comm::CommunicationFeed::computing, this, [&] { events << QStringLiteral("computing"); });
    w.openFile(path);
    QVERIFY(QTest::qWaitFor([&] { return w.state()->document() && feed->isCurrent(); }, 120000));
    QCOMPARE(heldAtShow, held);
    QVERIFY(!feed->isHeld());
    QVERIFY(events.contains(QStringLiteral("layout")));
    QVERIFY(events.contains(QStringLiteral("computing")));
    if (held)
      QVERIFY2(events.indexOf(QStringLiteral("layout")) < events.indexOf(QStringLiteral("computing")),
               qPrintable(events.join(u' ')));
    QVERIFY(feed->report());
    QVERIFY2(feed->report()->ok, feed->report()->error.c_str());
    QVERIFY(!feed->report()->collectives.empty());
  }
};

QTEST_MAIN(GraphCommLayerTest)
#include "graph_comm_layer_test.moc"
