// The graph's grouping made on the loader's thread (prepared_grouping.h):
// made only for a function drawn grouped, handed out only for the document,
// function and options it was made for, and taken by the graph view so that
// it lays out without grouping again.
#include "graph/prepared_grouping.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>

#include "api/document.h"
#include "api/staged_load.h"
#include "core/document_state.h"
#include "graph/graph_view.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// @main holding a chain of `ops` negates (and its return), after a helper
// function (so @main is not the first function).
std::shared_ptr<const api::Document> chain(int ops) {
  std::string text =
      "func.func @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  return %arg0 : tensor<4xf32>\n}\n"
      "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < ops; ++i) {
    const std::string v = "%v" + std::to_string(i);
    text += "  " + v + " = stablehlo.negate " + prev + " : tensor<4xf32>\n";
    prev = v;
  }
  text += "  return " + prev + " : tensor<4xf32>\n}\n";
  return api::parseDocument(text, "chain.mlir");
}

}  // namespace

class PreparedGroupingTest : public QObject {
  Q_OBJECT
 private slots:
  // The grouping is made for the function a new document shows first:
  // @main, even when another function comes before it.
  void firstShownFunctionIsMain() {
    auto doc = chain(3);
    QVERIFY(doc->module);
    const ir::Op* f = DocumentState::firstShownFunction(*doc->module);
    QVERIFY(f);
    QCOMPARE(api::symbolName(*f), std::string("main"));
  }

  void madeOnlyWhenDrawnGrouped_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<bool>("grouped");
    QTest::newRow("50 ops: drawn whole") << 50 << false;
    QTest::newRow("1000 ops: grouped") << 1000 << true;
  }
  void madeOnlyWhenDrawnGrouped() {
    QFETCH(int, ops);
    QFETCH(bool, grouped);
    auto doc = chain(ops);
    QVERIFY(doc->module);
    const GroupingOptions options;
    auto g = PreparedGrouping::group(*doc, options);
    QCOMPARE(bool(g), grouped);
    if (g) QCOMPARE(g->totalOps, ops + 1);
    // Cancelled: nothing.
    QVERIFY(!PreparedGrouping::group(*doc, options, [] { return true; }));
  }

  void handedOutOnlyForWhatItWasMadeFor_data() {
    QTest::addColumn<bool>("sameDocument");
    QTest::addColumn<bool>("sameFunction");
    QTest::addColumn<bool>("sameOptions");
    QTest::newRow("all the same") << true << true << true;
    QTest::newRow("another document") << false << true << true;
    QTest::newRow("another function") << true << false << true;
    QTest::newRow("other options") << true << true << false;
  }
  void handedOutOnlyForWhatItWasMadeFor() {
    QFETCH(bool, sameDocument);
    QFETCH(bool, sameFunction);
    QFETCH(bool, sameOptions);
    auto doc = chain(1000), other = chain(1000);
    const GroupingOptions options;
    auto g = PreparedGrouping::group(*doc, options);
    QVERIFY(g);
    PreparedGrouping::put(doc, options, g);
    GroupingOptions asked = options;
    if (!sameOptions) asked.targetSize = options.targetSize + 1;
    const api::Document* askedDoc = sameDocument ? doc.get() : other.get();
    const ir::Op* func = DocumentState::firstShownFunction(*askedDoc->module);
    if (!sameFunction) func = askedDoc->module->functions().front();  // @helper
    auto taken = PreparedGrouping::take(askedDoc, func, asked);
    const bool all = sameDocument && sameFunction && sameOptions;
    QCOMPARE(taken.get(), all ? g.get() : nullptr);
    // Asked for another document, it stays for its own (which may still
    // come); asked for its document, it is handed out (or dropped, when of
    // no use for what was asked) and gone.
    auto after = PreparedGrouping::take(doc.get(), DocumentState::firstShownFunction(*doc->module), options);
    QCOMPARE(after.get(), sameDocument ? nullptr : g.get());
  }

  // A load with the grouping beside it (as MainWindow::openFile and
  // gui_open_bench load): kept for the graph only when it describes the
  // module as loaded, for a function drawn grouped, and not canceled.
  void besideLoad_data() {
    QTest::addColumn<int>("ops");
    QTest::addColumn<bool>("gspmd");
    QTest::addColumn<bool>("canceled");
    QTest::addColumn<bool>("kept");
    QTest::newRow("1000 ops: kept") << 1000 << false << false << true;
    QTest::newRow("50 ops: drawn whole, none") << 50 << false << false << false;
    QTest::newRow("GSPMD imported after the parse: stale, dropped") << 1000 << true << false << false;
    QTest::newRow("canceled: none") << 1000 << false << true << false;
  }
  void besideLoad() {
    QFETCH(int, ops);
    QFETCH(bool, gspmd);
    QFETCH(bool, canceled);
    QFETCH(bool, kept);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chain.mlir"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const std::string text = test::shardedNegateChain(ops, gspmd);
    f.write(text.data(), qint64(text.size()));
    f.close();
    const GroupingOptions options;
    std::atomic<int> asked{0};
    std::shared_ptr<api::Document> doc;
    {
      GroupingBesideLoad beside(options, [&] {
        ++asked;
        return canceled;
      });
      api::AfterParse after;
      bool readCalled = false;
      after.read = [&](const std::shared_ptr<const api::Document>&) { readCalled = true; };
      beside.addTo(after);
      QVERIFY(bool(after.read));  // the caller's own hook is left as it was
      doc = api::loadDocument(path.toStdString(), nullptr, after);
      QVERIFY(readCalled);
      beside.finish(doc);
    }
    QVERIFY(doc && doc->module);
    QCOMPARE(doc->gspmdImportNote.empty(), !gspmd);
    if (canceled) QVERIFY(asked > 0);
    const ir::Op* func = DocumentState::firstShownFunction(*doc->module);
    auto g = PreparedGrouping::take(doc.get(), func, options);
    QCOMPARE(bool(g), kept);
    if (g) QCOMPARE(g->totalOps, ops + 1);
  }

  // The view takes the grouping made for the document it is given, and lays
  // it out as it is (no grouping of its own).
  void graphViewTakesIt() {
    auto doc = chain(1000);
    DocumentState state;
    GraphView view(&state);
    const GroupingOptions options = view.groupingOptions();
    auto g = PreparedGrouping::group(*doc, options);
    QVERIFY(g);
    PreparedGrouping::put(doc, options, g);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(spy.wait(30000));
    QVERIFY(spy.last().at(0).toBool());
    QCOMPARE(view.grouping(), g.get());
    QVERIFY(!PreparedGrouping::take(doc.get(), state.function(), options));
  }

  // Without one, the view groups on its own, as before.
  void graphViewGroupsWithout() {
    auto doc = chain(1000);
    DocumentState state;
    GraphView view(&state);
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(spy.wait(30000));
    QVERIFY(spy.last().at(0).toBool());
    QVERIFY(view.grouping());
    QCOMPARE(view.grouping()->totalOps, 1001);
  }
};

QTEST_MAIN(PreparedGroupingTest)
#include "prepared_grouping_test.moc"
