// Large functions drawn collapsed (graph_grouping.h) and the graph view's
// navigation aids: grouping of a generated transformer, the name-scope tree
// and ranges of groups nested so that no level holds too many boxes,
// expand/collapse, opening nested levels, search over all ops opening the
// path to a match (op_search_index.h), the layout cache, keyboard
// navigation along edges, the overview map, region clusters collapsing in
// small functions.
#include "graph/graph_grouping.h"

#include <cstring>

#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTest>

#include "api/op_source.h"
#include "core/document_state.h"
#include "core/theme_palette.h"
#include "core/work_pool.h"
#include "graph/graph_view.h"
#include "graph/group_header_text.h"
#include "graph/op_search_index.h"
#include "graph/overview_map.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// A transformer-like module of about `ops` ops, written by the benchmark's
// generator (73 ops per layer, 61 of them at the top level); with
// `locations`, each op has a JAX name scope
// (jit(model)/transformer/layer_N/{ln_1,attention,ln_2,mlp}/primitive).
std::shared_ptr<api::Document> generated(int ops, bool locations = false) {
  static QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("t%1%2.mlir").arg(ops).arg(QLatin1String(locations ? "l" : "")));
  if (!QFile::exists(path)) {
    QStringList args = {QStringLiteral(SHARDSCOPE_SOURCE_DIR "/tests/bench/gen_transformer.py"),
                        QStringLiteral("--ops"), QString::number(ops), QStringLiteral("-o"), path};
    if (locations) args << QStringLiteral("--locations");
    const int rc = QProcess::execute(QStringLiteral("python3"), args);
    if (rc != 0) return nullptr;
  }
  return api::loadDocument(path.toStdString());
}

// The group reached from the top level by labels ("jit(model)/transformer"),
// -1 for "" (the top level), -2 when a label is missing.
int groupAt(const Grouping& g, const QString& path) {
  int at = -1;
  if (path.isEmpty()) return at;
  for (const QString& label : path.split(u'/')) {
    int next = -2;
    for (int c : g.childrenOf(at))
      if (g.groups[size_t(c)].label == label) next = c;
    if (next == -2) return -2;
    at = next;
  }
  return at;
}

// "a,b,c" -> {"a", "b", "c"} (UTF-8: the ranges' en dashes).
QStringList names(const char* commaSeparated) {
  return QString::fromUtf8(commaSeparated).split(u',');
}

QStringList labels(const Grouping& g, int parent) {
  QStringList out;
  for (int c : g.childrenOf(parent)) out << g.groups[size_t(c)].label;
  return out;
}

// Every op of `func` sits in exactly one leaf, and op counts add up level by
// level.
void checkTree(const Grouping& g, const ir::Op& func) {
  QCOMPARE(int(g.groupOf.size()), countOps(func));
  int top = 0;
  for (int c : g.topLevel) top += g.groups[size_t(c)].opCount;
  QCOMPARE(top, countOps(func));
  for (const OpGroup& grp : g.groups) {
    if (grp.isLeaf()) {
      QVERIFY(!grp.ops.empty());
      continue;
    }
    QVERIFY(grp.ops.empty());
    int sum = 0;
    for (int c : grp.children) {
      QCOMPARE(g.groups[size_t(c)].parent, grp.id);
      sum += g.groups[size_t(c)].opCount;
    }
    QCOMPARE(sum, grp.opCount);
  }
}

// The labels from the top level down to the leaf group holding `op`,
// without the ranges ("layer_10–19") put in between, joined by " › ".
QString leafPath(const Grouping& g, const ir::Op* op) {
  QStringList out;
  for (int p : g.pathTo(g.groupOfOp(op)))
    if (!g.groups[size_t(p)].label.contains(u'–')) out << g.groups[size_t(p)].label;
  return out.join(QStringLiteral(" › "));
}

// A function of one `stablehlo.abs` per name ("" for an op without a
// location), then its return.
std::shared_ptr<api::Document> namedOps(const QStringList& names) {
  QString text = QStringLiteral(
      "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n");
  QString last = QStringLiteral("%arg0");
  for (int i = 0; i < names.size(); ++i) {
    const QString value = u'%' + QString::number(i);
    text += QStringLiteral("    ") + value + QStringLiteral(" = stablehlo.abs ") + last +
            QStringLiteral(" : tensor<4xf32>");
    if (!names[i].isEmpty()) text += QStringLiteral(" loc(\"%1\")").arg(names[i]);
    text += u'\n';
    last = value;
  }
  text += QStringLiteral("    return %1 : tensor<4xf32>\n  }\n}\n").arg(last);
  return api::parseDocument(text.toStdString(), "named_ops.mlir");
}

}  // namespace

class GraphGroupingTest : public QObject {
  Q_OBJECT
 private slots:
  // Ops and arguments both count towards the threshold: each is a box.
  void groupedByOpsAndArguments_data() {
    QTest::addColumn<int>("args");
    QTest::addColumn<int>("ops");
    QTest::addColumn<bool>("grouped");
    QTest::newRow("few of both") << 3 << 50 << false;
    QTest::newRow("ops over the threshold") << 1 << 450 << true;
    QTest::newRow("arguments over it") << 5000 << 10 << true;
    QTest::newRow("together over it") << 250 << 250 << true;
    QTest::newRow("together just under it") << 200 << 150 << false;
  }
  void groupedByOpsAndArguments() {
    QFETCH(int, args);
    QFETCH(int, ops);
    QFETCH(bool, grouped);
    std::string text = "func.func @main(";
    for (int i = 0; i < args; ++i) text += (i ? ", %a" : "%a") + std::to_string(i) + ": tensor<4xf32>";
    text += ") -> tensor<4xf32> {\n";
    std::string prev = "%a0";
    for (int i = 0; i + 1 < ops; ++i) {  // the return is an op too
      const std::string v = "%v" + std::to_string(i);
      text += "  " + v + " = stablehlo.negate " + prev + " : tensor<4xf32>\n";
      prev = v;
    }
    text += "  return " + prev + " : tensor<4xf32>\n}\n";
    auto doc = api::parseDocument(text, "args.mlir");
    QVERIFY(doc && doc->module);
    const GroupingOptions options;
    QCOMPARE(options.threshold, 400);
    QCOMPARE(drawsGrouped(*doc->module->functions().front(), options), grouped);
  }

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

  void rangeLabel_data() {
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("last");
    QTest::addColumn<QString>("label");
    QTest::newRow("layers") << "layer 0" << "layer 99" << "layers 0–99";
    QTest::newRow("merged layers") << "layers 100–101" << "layers 298–299" << "layers 100–299";
    QTest::newRow("name scopes") << "layer_100" << "layer_199" << "layer_100–199";
    QTest::newRow("ranges of ranges") << "layer_0–99" << "layer_900–999" << "layer_0–999";
    QTest::newRow("chunks") << "ops 1–120" << "ops 1081–1200" << "ops 1–1200";
    QTest::newRow("unlike") << "while" << "layer 7" << "while … layer 7";
  }
  void rangeLabel() {
    QFETCH(QString, first);
    QFETCH(QString, last);
    QFETCH(QString, label);
    QCOMPARE(widgets::rangeLabel(first, last), label);
  }

  // No locations: layers by period, nested in ranges when a level would
  // hold more than maxBoxes of them.
  void rangeNesting_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("maxBoxes");
    QTest::addColumn<int>("topGroups");
    QTest::addColumn<int>("depth");
    QTest::addColumn<QString>("firstLabel");
    QTest::newRow("10 layers: flat") << 730 << 200 << 10 << 0 << "layer 0";
    QTest::newRow("40 layers, 10 a level") << 2920 << 10 << 4 << 1 << "layers 0–9";
    QTest::newRow("40 layers, 3 a level") << 2920 << 3 << 3 << 4 << "layers 0–13";
    QTest::newRow("400 layers") << 29200 << 200 << 40 << 1 << "layers 0–9";
  }
  void rangeNesting() {
    QFETCH(int, ops);
    QFETCH(int, maxBoxes);
    QFETCH(int, topGroups);
    QFETCH(int, depth);
    QFETCH(QString, firstLabel);
    auto doc = generated(ops);
    if (!doc) QSKIP("python3 or the generator is not available");
    const ir::Op& main = *doc->module->functions().front();
    GroupingOptions options;
    options.maxBoxes = maxBoxes;
    auto g = groupFunction(*doc->module, main, options);
    QVERIFY(g);
    QVERIFY(!g->byNameScope);
    QCOMPARE(int(g->topLevel.size()), topGroups);
    QCOMPARE(g->depth(), depth);
    QVERIFY(g->maxBoxesPerLevel() <= maxBoxes);
    QCOMPARE(g->groups[size_t(g->topLevel.front())].label, firstLabel);
    checkTree(*g, main);
    // Every layer is a leaf somewhere, in order.
    int layer = 0;
    for (const OpGroup& grp : g->groups)
      if (grp.isLeaf()) QCOMPARE(grp.label, QStringLiteral("layer %1").arg(layer++));
    QCOMPARE(layer, ops / 73);
    // A range's level: its layers in a chain, the rest of the function as
    // "from outside" / "to outside".
    if (depth > 0) {
      const int range = g->topLevel[1];
      const GraphModel level = levelModel(*g, range);
      const int children = int(g->groups[size_t(range)].children.size());
      QCOMPARE(int(level.nodes.size()), children + 2);
      QVERIFY(level.nodes[size_t(children)].searchText.startsWith(QStringLiteral("from outside")));
      QVERIFY(level.nodes[size_t(children + 1)].searchText.startsWith(QStringLiteral("to outside")));
      QCOMPARE(int(level.edges.size()), int(level.input.edges.size()));
      QVERIFY(int(level.edges.size()) >= children + 1);
    }
  }

  // With JAX locations: the name-scope tree, ranges where a scope has too
  // many sub-scopes.
  void nameScopeTree_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("count");
    QTest::addColumn<QStringList>("first");  // the first children's labels
    QTest::newRow("top") << 730 << "" << 2 << names("jit(model),return");
    QTest::newRow("jit") << 730 << "jit(model)" << 1 << names("transformer");
    QTest::newRow("layers") << 730 << "jit(model)/transformer" << 10
                            << names("layer_0,layer_1,layer_2");
    QTest::newRow("one layer") << 730 << "jit(model)/transformer/layer_3" << 4
                               << names("ln_1,attention,ln_2,mlp");
    QTest::newRow("ranges") << 29200 << "jit(model)/transformer" << 40
                            << names("layer_0–9,layer_10–19");
    QTest::newRow("in a range") << 29200 << "jit(model)/transformer/layer_10–19" << 10
                                << names("layer_10,layer_11");
  }
  void nameScopeTree() {
    QFETCH(int, ops);
    QFETCH(QString, path);
    QFETCH(int, count);
    QFETCH(QStringList, first);
    auto doc = generated(ops, /*locations=*/true);
    if (!doc) QSKIP("python3 or the generator is not available");
    const ir::Op& main = *doc->module->functions().front();
    auto g = groupFunction(*doc->module, main);
    QVERIFY(g);
    QVERIFY(g->byNameScope);
    const int at = groupAt(*g, path);
    QVERIFY2(at != -2, qPrintable(path));
    const QStringList got = labels(*g, at);
    QCOMPARE(int(got.size()), count);
    QCOMPARE(got.mid(0, first.size()), first);
    QVERIFY(g->maxBoxesPerLevel() <= GroupingOptions().maxBoxes);
    checkTree(*g, main);
    // A view opens inside jit(model) › transformer (they hold everything
    // but the return).
    QCOMPARE(g->openingLevel(), groupAt(*g, QStringLiteral("jit(model)/transformer")));
    // Each op of a layer sits in the group of its name scope.
    const ir::Op* op200 = std::next(main.region(0).front().ops().begin(), 200)->get();
    QStringList scope;
    for (const std::string& s : api::nameScopePath(*op200)) scope << QString::fromStdString(s);
    QVERIFY(scope.size() == 4);
    QStringList leafPath;
    for (int p : g->pathTo(g->groupOfOp(op200)))
      if (!g->groups[size_t(p)].label.contains(u'–')) leafPath << g->groups[size_t(p)].label;
    QCOMPARE(leafPath, scope);
    // A layer's level: its blocks, fed from outside (the previous layer,
    // the weights), their result going on to the next layer.
    if (path.endsWith(QLatin1String("layer_3"))) {
      const GraphModel level = levelModel(*g, at);
      QCOMPARE(int(level.nodes.size()), 4 + 2);
      bool lnToAttention = false;
      for (const GraphInput::Edge& e : level.input.edges)
        lnToAttention = lnToAttention || (level.nodes[size_t(e.from)].title.startsWith(QLatin1String("ln_1")) &&
                                          level.nodes[size_t(e.to)].title.startsWith(QLatin1String("attention")));
      QVERIFY(lnToAttention);
    }
  }

  // The scope of an op is its name up to the last '/' outside brackets, as
  // api::nameScopePath splits it: each op lands in the leaf of its scope
  // (the tree is built from each distinct scope once, not from each op).
  void scopeOfEachOp_data() {
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QStringList>("paths");  // leafPath of each op, then of the return
    QTest::newRow("brackets") << names("jit(f)/scatter[dims=(0/1)]/abs,jit(f)/scatter[dims=(0/1)]/abs")
                              << names("jit(f) › scatter[dims=(0/1)],jit(f) › scatter[dims=(0/1)],return");
    QTest::newRow("interleaved") << names("a/b/abs,a/c/abs,a/b/abs")
                                 << names("a › b,a › c,a › b,return");
    QTest::newRow("same scope, other primitives") << names("a/b/abs,a/b/neg,a/b/abs[x=1/2]")
                                                  << names("a › b,a › b,a › b,return");
    QTest::newRow("unscoped among scoped")
        << names("a/x/abs,abs,,a/x/abs")
        << names("a › x,ops outside name scopes,ops outside name scopes,a › x,"
                 "ops outside name scopes");
    QTest::newRow("empty parts") << names("/x/abs,a//abs") << names(" › x,a › ,return");
    QTest::newRow("prefix of another scope") << names("a/b/c/abs,a/b/abs,a/b/c/abs")
                                             << names("a › b › c,a › b › abs,a › b › c,return");
    // A name that is a transformed function (JAX's name for a hoisted
    // constant or a return) sits in that scope, not outside the scopes; a
    // bare primitive does not.
    QTest::newRow("scope-only name") << names("jit(top)/a/abs,jit(top),jit(top)/a/abs")
                                     << names("jit(top) › a,jit(top) › abs,jit(top) › a,return");
    QTest::newRow("nested transform as a scope")
        << names("transpose(jvp(f))/a/abs,transpose(jvp(f)),abs,iota[dims=(1)]")
        << names("transpose(jvp(f)) › a,transpose(jvp(f)) › abs,ops outside name scopes,"
                 "ops outside name scopes,ops outside name scopes");
  }
  void scopeOfEachOp() {
    QFETCH(QStringList, names);
    QFETCH(QStringList, paths);
    auto doc = namedOps(names);
    QVERIFY2(doc->module, doc->diagnostics.empty() ? "" : doc->diagnostics.front().message.c_str());
    const ir::Op& main = *doc->module->functions().front();
    auto g = groupFunction(*doc->module, main);
    QVERIFY(g);
    QVERIFY(g->byNameScope);
    QStringList got;
    for (const auto& op : main.region(0).front().ops()) got << leafPath(*g, op.get());
    QCOMPARE(got, paths);
    checkTree(*g, main);
  }

  // On a generated model every op sits in the leaf of its own name scope,
  // the path nameScopePath gives (checked for every op, not a sample).
  void everyOpInItsScope_data() {
    QTest::addColumn<int>("ops");
    QTest::newRow("10 layers") << 730;
    QTest::newRow("400 layers, ranges") << 29200;
  }
  void everyOpInItsScope() {
    QFETCH(int, ops);
    auto doc = generated(ops, /*locations=*/true);
    if (!doc) QSKIP("python3 or the generator is not available");
    const ir::Op& main = *doc->module->functions().front();
    std::vector<int> progress;
    auto g = groupFunction(*doc->module, main, {}, {}, [&](int p) { progress.push_back(p); });
    QVERIFY(g);
    // Progress after each stage, rising to the end.
    QVERIFY(progress.size() >= 5);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    QVERIFY(progress.front() > 0);
    QVERIFY(progress.back() >= 99 && progress.back() <= 100);
    int checked = 0;
    for (const auto& op : main.region(0).front().ops()) {
      QStringList scope;
      for (const std::string& s : api::nameScopePath(*op)) scope << QString::fromStdString(s);
      if (scope.isEmpty()) scope << QStringLiteral("return");  // the one op outside scopes
      QCOMPARE(leafPath(*g, op.get()), scope.join(QStringLiteral(" › ")));
      ++checked;
    }
    QCOMPARE(checked, int(main.region(0).front().ops().size()));
    // The stages are reported for the benchmark, the scope tree among them.
    QVERIFY(std::any_of(g->stages.begin(), g->stages.end(), [](const Grouping::Stage& st) {
      return QLatin1String(st.name) == QLatin1String("name-scope tree");
    }));
  }

  // Ctrl+F over all ops: a match inside a collapsed nested group opens the
  // path to it (its level shown, its group expanded, its node in view).
  void searchOpensPath_data() {
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("scope");  // name scope of the first match
    QTest::addColumn<QString>("op");     // its op name
    QTest::newRow("name scope") << "layer_7/mlp" << "jit(model)/transformer/layer_7/mlp"
                                << "stablehlo.dot_general";
    QTest::newRow("primitive in a scope") << "layer_12/attention/dot_general"
                                          << "jit(model)/transformer/layer_12/attention"
                                          << "stablehlo.dot_general";
    QTest::newRow("python line") << "model.py:70" << "jit(model)/transformer/layer_0/mlp"
                                 << "stablehlo.dot_general";
  }
  void searchOpensPath() {
    QFETCH(QString, query);
    QFETCH(QString, scope);
    QFETCH(QString, op);
    auto doc = generated(29200, /*locations=*/true);
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    view.resize(1200, 800);
    view.show();
    QSignalSpy laidOut(&view, &GraphView::layoutFinished);
    QSignalSpy answered(&view, &GraphView::searchAnswered);
    state.setDocument(doc);
    QVERIFY(laidOut.wait(60000));
    QVERIFY(view.isGrouped());
    const Grouping& g = *view.grouping();
    QCOMPARE(view.shownLevel(), g.openingLevel());
    laidOut.clear();
    view.find(query);
    QVERIFY(answered.wait(20000));
    // (the path may open at once when its layout is cached)
    QVERIFY(answered.last().at(0).toInt() > 0);
    const ir::Op* match = view.searchMatches().front();
    QCOMPARE(QString::fromStdString(match->name()), op);
    QStringList path;
    for (const std::string& s : api::nameScopePath(*match)) path << QString::fromStdString(s);
    QCOMPARE(path.join(u'/'), scope);
    // The path opens: the level holding its group, the group expanded,
    // the op's own node shown and in view.
    if (laidOut.isEmpty()) QVERIFY(laidOut.wait(60000));
    const int leaf = g.groupOfOp(match);
    QCOMPARE(view.shownLevel(), g.groups[size_t(leaf)].parent);
    QVERIFY(view.isExpanded(leaf));
    const int node = view.scene()->nodeOf(match);
    QVERIFY(node >= 0);
    QCOMPARE(view.scene()->model().nodes[size_t(node)].op, match);
    const QRectF shown = view.view()->mapToScene(view.view()->viewport()->rect()).boundingRect();
    QVERIFY(shown.intersects(view.scene()->nodeRect(node)));
    // Return goes to the next match (the same level when it is there).
    if (view.searchMatches().size() > 1) {
      view.findNext();
      const ir::Op* second = view.searchMatches()[1];
      // (its own node once its level is laid out: at once when it is shown)
      auto secondShown = [&] {
        const int n = view.scene()->nodeOf(second);
        return n >= 0 && view.scene()->model().nodes[size_t(n)].op == second;
      };
      QTRY_VERIFY_WITH_TIMEOUT(secondShown(), 60000);
      QVERIFY(!view.isLayoutRunning());
    }
    // Backspace goes up a level, the title's path back to the top
    // (layoutFinished: at once from the cache, else when laid out).
    const int before = view.shownLevel();
    laidOut.clear();
    QTest::keyClick(view.view(), Qt::Key_Backspace);
    if (laidOut.isEmpty()) QVERIFY(laidOut.wait(60000));
    QCOMPARE(view.shownLevel(), g.groups[size_t(before)].parent);
    laidOut.clear();
    view.openGroup(-1);
    if (laidOut.isEmpty()) QVERIFY(laidOut.wait(60000));
    QCOMPARE(view.shownLevel(), -1);
    QCOMPARE(int(view.scene()->model().nodes.size()), int(g.topLevel.size() + g.freeArgs.size()));
  }

  // A search over all ops still running when another file replaces the
  // module: its answer is dropped, and the worker, which reads the ops'
  // locations for a Python line, keeps the old module alive until it ends
  // (the sanitizer run reports a use-after-free otherwise).
  void searchOutlivesItsModule() {
    auto doc = generated(29200, /*locations=*/true);
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    view.resize(1000, 700);
    QSignalSpy laidOut(&view, &GraphView::layoutFinished);
    QSignalSpy answered(&view, &GraphView::searchAnswered);
    state.setDocument(doc);
    QVERIFY(laidOut.wait(60000));
    QVERIFY(view.isGrouped());
    std::weak_ptr<api::Document> old = doc;
    doc.reset();  // the view and the state hold it now
    view.find(QStringLiteral("model.py:70"));
    // The small module is laid out at once: the scene lets go of the old
    // module while the search runs over it.
    view.setSynchronous(true);
    state.setDocument(test::loadSample(QStringLiteral("attention_block.mlir")));
    QVERIFY(!view.isGrouped());
    QVERIFY(view.scene()->hasGraph());
    workPool()->waitForDone();  // the views' work runs there
    QCoreApplication::processEvents();
    QVERIFY(old.expired());  // nothing holds the old module once the search ended
    QCOMPARE(answered.count(), 0);
    QVERIFY(view.searchMatches().empty());
  }

  // Double-click on a group of groups opens its level; on a leaf it expands
  // in place.
  void openNestedLevel() {
    auto doc = generated(2920);
    if (!doc) QSKIP("python3 or the generator is not available");
    DocumentState state;
    GraphView view(&state);
    GroupingOptions options;
    options.maxBoxes = 10;
    view.setGroupingOptions(options);
    view.setSynchronous(true);
    state.setDocument(doc);
    QVERIFY(view.isGrouped());
    QCOMPARE(view.shownLevel(), -1);
    const Grouping& g = *view.grouping();
    const int range = g.topLevel[2];  // layers 20–29
    view.setCurrentNode(view.scene()->nodeOfGroup(range));
    QTest::keyClick(view.view(), Qt::Key_Return);
    QCOMPARE(view.shownLevel(), range);
    const int layer = g.groups[size_t(range)].children[4];  // layer 24
    QCOMPARE(g.groups[size_t(layer)].label, QStringLiteral("layer 24"));
    QCOMPARE(int(view.scene()->model().nodes.size()), 10 + 2);  // + from / to outside
    // An op of layer 24 is found in its box at this level, in the range's
    // box at the top level.
    const ir::Op* op = g.groups[size_t(layer)].ops[3];
    QCOMPARE(view.scene()->nodeOf(op), view.scene()->nodeOfGroup(layer));
    view.setCurrentNode(view.scene()->nodeOfGroup(layer));
    QTest::keyClick(view.view(), Qt::Key_Return);
    QVERIFY(view.isExpanded(layer));
    QCOMPARE(view.scene()->model().nodes[size_t(view.scene()->nodeOf(op))].op, op);
    view.openParent();
    QCOMPARE(view.shownLevel(), -1);
    QCOMPARE(view.scene()->nodeOf(op), view.scene()->nodeOfGroup(range));
    QCOMPARE(view.currentNode(), view.scene()->nodeOfGroup(range));  // where we came from
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

  // View > Group by Name Scope: a small function whose ops carry JAX name
  // scopes is grouped by them when asked, drawn op by op otherwise.
  void smallScopedFunctionGroupedOnRequest() {
    // An MLP as JAX exports it from Flax modules (scopes mlp › dense_0 ...).
    const char* text = R"(module @jit_apply {
  func.func public @main(%x: tensor<8x16xf32> loc("x"), %w0: tensor<16x32xf32>, %w1: tensor<32x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc(#d0)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x32xf32> loc(#relu)
    %1 = stablehlo.maximum %0, %cst : tensor<8x32xf32> loc(#relu)
    %2 = stablehlo.dot_general %1, %w1, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32> loc(#d1)
    %3 = stablehlo.tanh %2 : tensor<8x4xf32> loc(#out)
    return %3 : tensor<8x4xf32>
  }
}
#py = loc("model.py":21:8)
#d0 = loc("jit(apply)/mlp/dense_0/dot_general"(#py))
#relu = loc("jit(apply)/mlp/relu/max"(#py))
#d1 = loc("jit(apply)/mlp/dense_1/dot_general"(#py))
#out = loc("jit(apply)/head/tanh"(#py))
)";
    auto doc = api::parseDocument(text, "scoped_mlp.mlir");
    QVERIFY(doc && doc->module);
    const ir::Op& main = *doc->module->functions().front();
    GroupingOptions options;
    QVERIFY(!drawsGrouped(main, options));
    options.scopesAtAnySize = true;
    QVERIFY(drawsGrouped(main, options));

    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    view.setGroupScopesAtAnySize(false);
    state.setDocument(doc);
    QVERIFY(!view.isGrouped());
    QVERIFY(view.scene()->hasGraph());
    // The menu's action regroups the shown function at once.
    QAction* action = view.groupByNameScopeAction();
    QVERIFY(action && action->isCheckable() && !action->isChecked());
    action->trigger();
    QVERIFY(view.isGrouped());
    const Grouping& g = *view.grouping();
    QVERIFY(g.byNameScope);
    checkTree(g, main);
    // jit(apply) holds everything but the return: the view opens inside it.
    QCOMPARE(view.shownLevel(), groupAt(g, QStringLiteral("jit(apply)")));
    QCOMPARE(labels(g, view.shownLevel()), names("mlp,head"));
    QCOMPARE(labels(g, groupAt(g, QStringLiteral("jit(apply)/mlp"))), names("dense_0,relu,dense_1"));
    action->trigger();
    QVERIFY(!view.isGrouped());
    QVERIFY(view.scene()->hasGraph());
    // Nor is one whose ops all sit in one scope (small JAX exports: every
    // op in jit(f)/jit(main)): one box would hide everything.
    auto oneScope = api::parseDocument(R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32> loc(#s)
  %1 = stablehlo.negate %0 : tensor<4xf32> loc(#t)
  return %1 : tensor<4xf32>
}
#py = loc("lu.py":3:1)
#s = loc("jit(f)/jit(main)/abs"(#py))
#t = loc("jit(f)/jit(main)/neg"(#py))
)", "one_scope.mlir");
    QVERIFY(oneScope && oneScope->module);
    QVERIFY(!drawsGrouped(*oneScope->module->functions().front(), options));
    // A function without name scopes is not grouped by the option.
    auto plain = test::loadSample(QStringLiteral("attention_block.mlir"));
    view.setGroupScopesAtAnySize(true);
    state.setDocument(plain);
    QVERIFY(!view.isGrouped());
    view.setGroupScopesAtAnySize(false);
  }

  // JAX names what an op made outside any primitive by its scope alone
  // (`loc("jit(top)"(...))` on a hoisted constant and on the return, as in
  // a jax.jit(top).lower(x).as_text(debug_info=True) with two nested
  // jax.named_scope's): those ops sit in jit(top), which then holds every op,
  // so the grouping opens inside it rather than at a jit(top) box beside
  // "ops outside name scopes".
  void scopeOnlyNamesOpenInside() {
    const char* text = R"M(module @jit_top {
  func.func public @main(%x: tensor<8x8xf32> loc("x")) -> tensor<f32> {
    %0 = stablehlo.tanh %x : tensor<8x8xf32> loc(#inner)
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<8x8xf32> loc(#top)
    %1 = stablehlo.multiply %0, %cst : tensor<8x8xf32> loc(#inner)
    %2 = stablehlo.add %1, %x : tensor<8x8xf32> loc(#solve)
    %3 = stablehlo.dot_general %2, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc(#dot)
    %c0 = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#top)
    %4 = stablehlo.reduce(%3 init: %c0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32> loc(#dot)
    return %4 : tensor<f32> loc(#top)
  }
}
#py = loc("model.py":17:19)
#top = loc("jit(top)"(#py))
#inner = loc("jit(top)/lib.solve/Model.residual/tanh"(#py))
#solve = loc("jit(top)/lib.solve/add"(#py))
#dot = loc("jit(top)/dot_general"(#py))
)M";
    auto doc = api::parseDocument(text, "scope_only_names.mlir");
    QVERIFY(doc && doc->module);
    const ir::Op& main = *doc->module->functions().front();
    GroupingOptions options;
    options.scopesAtAnySize = true;
    QVERIFY(drawsGrouped(main, options));
    auto g = groupFunction(*doc->module, main, options);
    QVERIFY(g && g->byNameScope);
    checkTree(*g, main);
    QCOMPARE(labels(*g, -1), names("jit(top)"));
    QCOMPARE(g->openingLevel(), groupAt(*g, QStringLiteral("jit(top)")));
    QCOMPARE(labels(*g, g->openingLevel()), names("lib.solve,other ops"));
    for (const auto& op : main.region(0).front().ops())
      QVERIFY2(leafPath(*g, op.get()).startsWith(QStringLiteral("jit(top) › ")),
               qPrintable(leafPath(*g, op.get())));
    // Only %x comes from outside jit(top), read by both boxes: one value,
    // not one per edge.
    QStringList outside;
    for (const GraphNodeInfo& n : levelModel(*g, g->openingLevel()).nodes)
      if (n.searchText.startsWith(QStringLiteral("from outside"))) outside << n.searchText;
    QCOMPARE(outside, QStringList{QStringLiteral("from outside 1 value")});
  }

  // JAX's nested name form, where the primitive wraps its scope
  // (`"tanh"("jit(top)/solve"(...))`, as the export back-compat modules of
  // 2025-26 write it), groups as the one-piece form does: the status bar
  // and the search read the same scopes (api::nestedNameScopeOf).
  void nestedNamesGroupByTheirScope() {
    auto module = [](const char* tanh, const char* mul, const char* add, const char* neg) {
      std::string text = R"M(module @jit_top {
  func.func public @main(%x: tensor<8x8xf32> loc("x")) -> tensor<8x8xf32> {
    %0 = stablehlo.tanh %x : tensor<8x8xf32> loc(#tanh)
    %1 = stablehlo.multiply %0, %x : tensor<8x8xf32> loc(#mul)
    %2 = stablehlo.add %1, %x : tensor<8x8xf32> loc(#add)
    %3 = stablehlo.negate %2 : tensor<8x8xf32> loc(#neg)
    return %3 : tensor<8x8xf32> loc(#top)
  }
}
#py = loc("model.py":17:19)
#top = loc("jit(top)"(#py))
#tanh = loc(TANH)
#mul = loc(MUL)
#add = loc(ADD)
#neg = loc(NEG)
)M";
      for (auto [key, loc] : {std::pair{"TANH", tanh}, {"MUL", mul}, {"ADD", add}, {"NEG", neg}})
        text.replace(text.find(key), std::strlen(key), loc);
      return text;
    };
    const std::string nested = module(R"L("tanh"("jit(top)/solve"(#py)))L", R"L("mul:"("mul"("jit(top)/solve/residual"(#py))))L",
                                      R"L("add"("jit(top)/solve"(#py)))L", R"L("neg"("jit(top)"(#py)))L");
    const std::string onePiece = module(R"L("jit(top)/solve/tanh"(#py))L", R"L("mul:"("jit(top)/solve/residual/mul"(#py)))L",
                                        R"L("jit(top)/solve/add"(#py))L", R"L("jit(top)/neg"(#py))L");
    QStringList paths[2];
    int k = 0;
    for (const std::string& text : {nested, onePiece}) {
      auto doc = api::parseDocument(text, "nested_names.mlir");
      QVERIFY2(doc && doc->module, doc && !doc->diagnostics.empty() ? doc->diagnostics.front().message.c_str() : "");
      const ir::Op& main = *doc->module->functions().front();
      QVERIFY(api::hasNameScopes(main));
      GroupingOptions options;
      options.scopesAtAnySize = true;
      QVERIFY(drawsGrouped(main, options));
      auto g = groupFunction(*doc->module, main, options);
      QVERIFY(g && g->byNameScope);
      checkTree(*g, main);
      for (const auto& op : main.region(0).front().ops()) paths[k] << leafPath(*g, op.get());
      // Found by the scope as the status bar writes it.
      OpSearchIndex index(main);
      QCOMPARE(int(index.find(QStringLiteral("jit(top)/solve/residual/mul")).size()), 1);
      ++k;
    }
    QCOMPARE(paths[0], paths[1]);
    QVERIFY2(paths[0].at(1).startsWith(QStringLiteral("jit(top) › solve › residual")), qPrintable(paths[0].join(QLatin1Char(','))));
  }

  // The path's links ("@main › jit(top) › ...") take the theme's link
  // colour also when the theme changes while they are shown (QLabel fixes
  // a link's colour when its text is set: the light theme's dark blue stayed
  // on the dark canvas, the dark theme's pale blue on the light one).
  void pathLinksFollowTheme_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::newRow("light to dark") << QStringLiteral("light") << QStringLiteral("dark");
    QTest::newRow("dark to light") << QStringLiteral("dark") << QStringLiteral("light");
  }
  void pathLinksFollowTheme() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    auto doc = namedOps(names("jit(top)/a/abs,jit(top)/b/abs,jit(top)/b/neg"));
    QVERIFY(doc && doc->module);
    applyTheme(themeFromName(from));
    DocumentState state;
    GraphView view(&state);
    view.setSynchronous(true);
    view.setGroupScopesAtAnySize(true);
    state.setDocument(doc);
    QVERIFY(view.isGrouped());
    QVERIFY(view.shownLevel() >= 0);  // inside jit(top): "@main" is a link
    QLabel* path = nullptr;
    for (QLabel* l : view.findChildren<QLabel*>())
      if (l->text().contains(QStringLiteral("href=\"group:"))) path = l;
    QVERIFY(path);
    // Whether the label as drawn has pixels of exactly `c` (the inside of
    // the links' glyphs; the rest of the text is in another colour).
    auto drawnWith = [&](const QColor& c) {
      path->resize(900, path->heightForWidth(900));
      const QImage image = path->grab().toImage();
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
          if (image.pixelColor(x, y).rgb() == c.rgb()) return true;
      return false;
    };
    const QColor before = themePalette(themeFromName(from)).color(QPalette::Link);
    const QColor after = themePalette(themeFromName(to)).color(QPalette::Link);
    QVERIFY(drawnWith(before));
    applyTheme(themeFromName(to));
    QCoreApplication::processEvents();
    QVERIFY(drawnWith(after));
    QVERIFY(!drawnWith(before));
    applyTheme(Theme::Light);
    view.setGroupScopesAtAnySize(false);
  }

  // An expanded group's frame is as wide as its ops: its title line drops
  // the hint, then elides the title, rather than being cut at the frame.
  void expandedGroupHeader_data() {
    QTest::addColumn<QString>("title");
    QTest::addColumn<int>("extra");  // room beyond the title with its hint (px)
    QTest::addColumn<QString>("shown");
    const QString t = QStringLiteral("mylib:user.MyModel.residual · 3 ops");
    const QString hint = QStringLiteral("▾ ") + t + QStringLiteral("   (double-click here to collapse)");
    QTest::newRow("room for all") << t << 0 << hint;
    QTest::newRow("one pixel short: title only") << t << -1 << QStringLiteral("▾ ") + t;
    QTest::newRow("narrower than the title: elided") << t << -400 << QStringLiteral("elided");
  }
  void expandedGroupHeader() {
    QFETCH(QString, title);
    QFETCH(int, extra);
    QFETCH(QString, shown);
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(12);
    f.setBold(true);
    const QFontMetricsF fm(f);
    const QString full = QStringLiteral("▾ ") + title + QStringLiteral("   (double-click here to collapse)");
    const qreal width = fm.horizontalAdvance(full) + extra;
    const QString got = widgets::expandedGroupHeader(title, fm, width);
    QVERIFY(fm.horizontalAdvance(got) <= width);
    if (shown == QLatin1String("elided")) {
      QVERIFY2(got.endsWith(QChar(0x2026)) && got.startsWith(QStringLiteral("▾ mylib")), qPrintable(got));
    } else {
      QCOMPARE(got, shown);
    }
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
    // Ctrl+F over all ops (not only the boxes drawn) finds a value of a
    // collapsed group.
    const QString valueName = QString::fromStdString(api::valueName(*op->result(0))) + u' ';
    const std::vector<int> found = view.grouping()->search.find(valueName);
    QCOMPARE(int(found.size()), 1);
    QCOMPARE(view.grouping()->search.op(found.front()), op);

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
