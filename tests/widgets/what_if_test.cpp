// What-if: edit a sharding (in the source or in the what-if panel), re-run,
// and see the changed values (DocumentState, op tree, diff model); a bad
// edit keeps the text; Save through QSaveFile keeps the buffer on failure;
// source <-> op selection.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>
#include <QTreeView>

#include "core/document_state.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "main_window_test_util.h"
#include "outline/op_tree_model.h"
#include "source/source_view.h"
#include "whatif/what_if_diff.h"
#include "whatif/what_if_edit.h"
#include "whatif/what_if_panel.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/sharding_diff_model.h"
#include "trace/strategy_compare_widget.h"
#include "trace/trace_panel.h"
#endif

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

using test::openSample;

// Region ops in generic and custom form, functions with several results.
const QString kRegionResults = QStringLiteral("../tests/widgets/data/region_results.mlir");

// Apply the source view's text and wait for the re-run; its `ok`.
bool applyAndWait(app::MainWindow& w, bool* ok) {
  QSignalSpy done(&w, &app::MainWindow::whatIfFinished);
  w.applySourceEdits();
  if (!done.wait(60000)) return false;
  *ok = done.last().at(0).toBool();
  return true;
}

// A rewritten source parsed without errors, or nullptr with the reason in
// `error` (which holds the rewrite's own error when there is no text).
std::shared_ptr<api::Document> parseRewritten(const std::optional<QString>& text, QString* error) {
  if (!text) return nullptr;
  auto doc = api::parseDocument(text->toStdString(), "edited.mlir");
  if (doc->module && !doc->hasErrors()) return doc;
  *error = doc->diagnostics.empty() ? QStringLiteral("no module")
                                    : QString::fromStdString(doc->diagnostics.front().message);
  return nullptr;
}

void grabTo(QWidget& w, const QString& path) {
  QTest::qWait(300);  // let the graph relayout
  w.grab().save(path);
}

}  // namespace

class WhatIfTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // diffDocuments on two parses: only the edited value (before propagation).
  void diffDocuments_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("matmul arg1") << QStringLiteral("matmul_chain.mlir")
                                 << QStringLiteral("[{}, {\"y\"}]>}") << QStringLiteral("[{}, {}]>}")
                                 << QStringList{QStringLiteral("@main/%arg1")};
    QTest::newRow("matmul tanh") << QStringLiteral("matmul_chain.mlir")
                                 << QStringLiteral("[{\"x\", ?}, {?}]")
                                 << QStringLiteral("[{\"y\", ?}, {?}]")
                                 << QStringList{QStringLiteral("@main/%1")};
    QTest::newRow("no change") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("tanh")
                               << QStringLiteral("tanh") << QStringList{};
  }
  void diffDocuments() {
    QFETCH(QString, sample);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QStringList, expected);
    const auto before = test::loadSample(sample);
    QString text = QString::fromStdString(before->text);
    QVERIFY(text.contains(from));
    text.replace(from, to);
    const auto after = api::parseDocument(text.toStdString(), before->name);
    QVERIFY(after->module && !after->hasErrors());
    const auto changes = widgets::diffDocuments(*before, *after);
    QStringList keys;
    for (const auto& c : changes) keys << c.key;
    QCOMPARE(keys, expected);
    WhatIfDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setChanges(changes);
    QCOMPARE(model.rowCount(), expected.size());
    // The line is the value's own (an argument's line in the signature).
    for (const auto& c : changes) {
      QVERIFY(c.line > 0);
      QVERIFY2(text.section(u'\n', c.line - 1, c.line - 1).contains(c.name), qPrintable(c.name));
    }
  }

  // The inline check of the what-if line edit.
  void parseShardingForValue_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::newRow("dims only") << QStringLiteral("%arg1") << QStringLiteral("[{\"x\"}, {}]") << true;
    QTest::newRow("full") << QStringLiteral("%arg1")
                          << QStringLiteral("#sdy.sharding<@mesh, [{}, {\"x\", \"y\"}]>") << true;
    QTest::newRow("body") << QStringLiteral("%0") << QStringLiteral("<@mesh, [{\"y\"}, {}]>") << true;
    QTest::newRow("rank") << QStringLiteral("%arg1") << QStringLiteral("[{\"x\"}]") << false;
    QTest::newRow("axis") << QStringLiteral("%arg1") << QStringLiteral("[{\"z\"}, {}]") << false;
    QTest::newRow("syntax") << QStringLiteral("%arg1") << QStringLiteral("[{\"x\"}, {}") << false;
    QTest::newRow("mesh") << QStringLiteral("%arg1")
                          << QStringLiteral("#sdy.sharding<@nope, [{}, {}]>") << false;
    QTest::newRow("empty") << QStringLiteral("%arg1") << QString() << false;
  }
  void parseShardingForValue() {
    QFETCH(QString, value);
    QFETCH(QString, text);
    QFETCH(bool, valid);
    DocumentState state;
    state.setDocument(test::loadSample(QStringLiteral("matmul_chain.mlir")));
    const ir::Value* v = state.findValue(value);
    QVERIFY(v);
    QString error;
    const auto s = widgets::parseShardingForValue(text, *state.module(), *v, &error);
    QCOMPARE(s.has_value(), valid);
    QCOMPARE(error.isEmpty(), valid);
  }

  // rewriteValueSharding: the rewritten text parses and the value has the sharding.
  void rewriteValueSharding_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("sharding");
    QTest::newRow("arg with sharding") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("%arg1")
                                       << QStringLiteral("[{\"x\"}, {}]");
    QTest::newRow("arg without attrs") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("%arg2")
                                       << QStringLiteral("[{}, {\"y\"}]");
    QTest::newRow("result with sharding") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("%1")
                                          << QStringLiteral("[{\"y\"}, {}]");
    QTest::newRow("dot_general result") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("%0")
                                        << QStringLiteral("[{\"x\"}, {\"y\"}]");
    QTest::newRow("last result") << QStringLiteral("matmul_chain.mlir") << QStringLiteral("%2")
                                 << QStringLiteral("[{}, {\"x\"}]");
    QTest::newRow("megatron arg") << QStringLiteral("mlp_megatron.mlir") << QStringLiteral("%arg1")
                                  << QStringLiteral("[{}, {}]");
    // Results of ops with regions.
    QTest::newRow("while result, custom form")
        << QStringLiteral("while_loop.mlir") << QStringLiteral("%0#0")
        << QStringLiteral("[{\"x\"}, {\"y\"}]");
    QTest::newRow("manual computation result")
        << QStringLiteral("manual_computation.mlir") << QStringLiteral("%0")
        << QStringLiteral("[{\"x\"}, {}]");
    QTest::newRow("case result, generic form")
        << kRegionResults << QStringLiteral("%0") << QStringLiteral("[{}, {\"y\"}]");
    QTest::newRow("while result, generic form with attributes")
        << kRegionResults << QStringLiteral("%1#0") << QStringLiteral("[{\"y\"}, {}]");
    QTest::newRow("named computation result, no out_shardings")
        << kRegionResults << QStringLiteral("%2") << QStringLiteral("[{\"x\"}, {\"y\"}]");
    QTest::newRow("while result, custom form with attributes")
        << kRegionResults << QStringLiteral("%w#0") << QStringLiteral("[{}, {\"x\"}]");
  }
  void rewriteValueSharding() {
    QFETCH(QString, sample);
    QFETCH(QString, value);
    QFETCH(QString, sharding);
    DocumentState state;
    state.setDocument(test::loadSample(sample));
    const ir::Value* v = state.findValue(value);
    QVERIFY(v);
    QString error;
    const auto s = widgets::parseShardingForValue(sharding, *state.module(), *v, &error);
    QVERIFY2(s, qPrintable(error));
    const QString source = QString::fromStdString(state.document()->text);
    const auto doc = parseRewritten(widgets::rewriteValueSharding(source, *v, *s, &error), &error);
    QVERIFY2(doc, qPrintable(error));
    DocumentState edited;
    edited.setDocument(doc);
    const ir::Value* ev = edited.findValue(value);
    QVERIFY(ev);
    const auto got = api::valueSharding(*ev);
    QVERIFY(got);
    QCOMPARE(*got, *s);
    // Only that value changed (its op's other results may now say they
    // are replicated, which they were; a while's loop-carried values are
    // sharded as its results).
    QStringList allowed{value};
    if (const ir::Op* op = ev->definingOp) {
      for (const ir::Value* r : op->results())
        allowed << QString::fromStdString(api::valueName(*r));
      for (const auto& region : op->regions())
        for (const ir::Value* a : region->front().arguments())
          allowed << QString::fromStdString(api::valueName(*a));
    }
    const auto changes = widgets::diffDocuments(*state.document(), *doc);
    bool found = false;
    for (const auto& c : changes) {
      found = found || c.name == value;
      QVERIFY2(allowed.contains(c.name), qPrintable(c.name));
    }
    QVERIFY(found);
    if (ev->definingOp)
      for (unsigned r = 0; r < ev->definingOp->numResults(); ++r) {
        if (r == ev->index) continue;
        const auto was = api::valueSharding(*v->definingOp->result(r));
        const auto now = api::valueSharding(*ev->definingOp->result(r));
        QVERIFY(was ? now == was : !now || now->isFullyReplicated());
      }
  }

  // rewriteFunctionResultSharding: with and without parentheses, with and
  // without an attribute dictionary; the other results keep theirs.
  void rewriteFunctionResultSharding_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("function");
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("sharding");
    QTest::newRow("single result, no parentheses")
        << QStringLiteral("matmul_chain.mlir") << QStringLiteral("main") << 0
        << QStringLiteral("[{\"x\"}, {\"y\"}]");
    QTest::newRow("first of three, no attributes")
        << kRegionResults << QStringLiteral("main") << 0 << QStringLiteral("[{\"x\"}, {}]");
    QTest::newRow("second of three, replaced")
        << kRegionResults << QStringLiteral("main") << 1 << QStringLiteral("[{\"x\"}, {\"y\"}]");
    QTest::newRow("last of three")
        << kRegionResults << QStringLiteral("main") << 2 << QStringLiteral("[{}, {\"x\"}]");
    QTest::newRow("second function")
        << kRegionResults << QStringLiteral("custom") << 0 << QStringLiteral("[{\"y\"}, {}]");
  }
  void rewriteFunctionResultSharding() {
    QFETCH(QString, sample);
    QFETCH(QString, function);
    QFETCH(int, index);
    QFETCH(QString, sharding);
    DocumentState state;
    state.setDocument(test::loadSample(sample));
    const ir::Op* func = state.findFunction(function);
    QVERIFY(func);
    const auto idx = static_cast<unsigned>(index);
    QString error;
    const auto s =
        widgets::parseShardingForFunctionResult(sharding, *state.module(), *func, idx, &error);
    QVERIFY2(s, qPrintable(error));
    QVERIFY(!widgets::parseShardingForFunctionResult(QStringLiteral("[{}]"), *state.module(), *func,
                                                     idx, &error));
    const auto doc =
        parseRewritten(widgets::rewriteFunctionResultSharding(
                           QString::fromStdString(state.document()->text), *func, idx, *s, &error),
                       &error);
    QVERIFY2(doc, qPrintable(error));
    DocumentState edited;
    edited.setDocument(doc);
    const ir::Op* efunc = edited.findFunction(function);
    QVERIFY(efunc);
    QCOMPARE(api::functionResultSharding(*efunc, idx), std::optional<TensorSharding>(*s));
    const ir::Op* ret = efunc->region(0).front().terminator();
    for (unsigned i = 0; i < ret->numOperands(); ++i)
      if (i != idx)
        QCOMPARE(api::functionResultSharding(*efunc, i), api::functionResultSharding(*func, i));
  }

  // Edit in the source view, Ctrl+Return: changed values published, marked in the tree.
  void editSourceAndRerun_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QStringList>("mustChange");
    QTest::addColumn<QString>("picture");
    QTest::newRow("matmul_chain %arg1 unsharded")
        << QStringLiteral("matmul_chain.mlir") << QStringLiteral("[{}, {\"y\"}]>}")
        << QStringLiteral("[{}, {}]>}")
        << QStringList{QStringLiteral("@main/%arg1"), QStringLiteral("@main/%0")}
        << QStringLiteral("/tmp/whatif_matmul.png");
    QTest::newRow("mlp_megatron %arg1 rows on data")
        << QStringLiteral("mlp_megatron.mlir") << QStringLiteral("[{}, {\"model\"}]>}")
        << QStringLiteral("[{}, {}]>}") << QStringList{QStringLiteral("@main/%arg1")}
        << QStringLiteral("/tmp/whatif_megatron.png");
  }
  void editSourceAndRerun() {
    QFETCH(QString, sample);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QStringList, mustChange);
    QFETCH(QString, picture);
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, sample));
    QSignalSpy changedSpy(w.state(), &DocumentState::changedValuesChanged);
    SourceView* source = w.sourceView();
    QString text = source->toPlainText();
    QVERIFY(text.contains(from));
    text.replace(from, to);
    source->replaceText(text);
    QVERIFY(source->hasUnappliedEdits());
    QVERIFY(w.isSourceModified());
    // Ctrl+Return in the source view applies.
    QSignalSpy done(&w, &app::MainWindow::whatIfFinished);
    source->setFocus();
    QTest::keyClick(source, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(0).toBool(), true);
    QCOMPARE(source->toPlainText(), text);  // the edit is still there, now applied
    QVERIFY(!source->hasUnappliedEdits());
    QCOMPARE(QString::fromStdString(w.state()->document()->text), text);
    const QSet<QString> changed = w.state()->changedValues();
    QVERIFY(!changed.isEmpty());
    QVERIFY(changedSpy.count() >= 1);
    for (const QString& key : mustChange) QVERIFY2(changed.contains(key), qPrintable(key));
    // isValueChanged works on the document shown.
    const ir::Value* arg1 = w.state()->findValue(QStringLiteral("%arg1"));
    QVERIFY(w.state()->isValueChanged(arg1));
    // The diff table lists them.
    auto* panel = w.whatIfPanel();
    QCOMPARE(panel->model()->rowCount(), changed.size());
    QAbstractItemModelTester tester(panel->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The op tree marks the changed ops (ChangedRole) and passes the tester.
    auto* tree = w.findChild<QTreeView*>(QStringLiteral("opTree"));
    QVERIFY(tree);
    QAbstractItemModelTester treeTester(tree->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndexList marked =
        tree->model()->match(tree->model()->index(0, 0), OpTreeModel::ChangedRole, true, -1,
                             Qt::MatchExactly | Qt::MatchRecursive);
    QVERIFY(!marked.isEmpty());
    QVERIFY(marked.front().data(Qt::BackgroundRole).isValid());
    // Still modified (not saved) until saved.
    QVERIFY(w.isSourceModified());
    // A second edit diffs against this run: undo -> back to the original shardings.
    source->undo();
    bool ok = false;
    QVERIFY(applyAndWait(w, &ok));
    QVERIFY(ok);
    for (const QString& key : mustChange)
      QVERIFY2(w.state()->changedValues().contains(key), qPrintable(key));
    grabTo(w, picture);
  }

  // A bad edit: diagnostics shown, the text and the shown document kept.
  void badEditKeepsText() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    const auto shown = w.state()->document();
    SourceView* source = w.sourceView();
    QString text = source->toPlainText();
    text.replace(QStringLiteral("[{}, {\"y\"}]>}"), QStringLiteral("[{}, {\"y\"]>}"));
    source->replaceText(text);
    bool ok = true;
    QVERIFY(applyAndWait(w, &ok));
    QVERIFY(!ok);
    QCOMPARE(source->toPlainText(), text);
    QVERIFY(source->hasUnappliedEdits());
    QCOMPARE(w.state()->document(), shown);
    auto* diags = w.findChild<QTableView*>(QStringLiteral("diagnosticsView"));
    QVERIFY(diags && diags->model()->rowCount() >= 1);
    bool underlined = false;
    for (const auto& sel : source->extraSelections())
      underlined = underlined || sel.format.underlineStyle() == QTextCharFormat::WaveUnderline;
    QVERIFY(underlined);
    grabTo(w, QStringLiteral("/tmp/whatif_bad.png"));
    // Stepping the old run (same module as shown) does not wipe the edits.
    w.state()->setDocumentKeepingSelection(shown);
    QCOMPARE(source->toPlainText(), text);
    // Fix it and re-run: fine now.
    text.replace(QStringLiteral("[{}, {\"y\"]>}"), QStringLiteral("[{}, {\"x\"}]>}"));
    source->replaceText(text);
    QVERIFY(applyAndWait(w, &ok));
    QVERIFY(ok);
    QVERIFY(w.state()->changedValues().contains(QStringLiteral("@main/%arg1")));
  }

  // The inspector: edit the selected value's sharding in the line edit.
  void inspectorEdit() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    WhatIfPanel* panel = w.whatIfPanel();
    QLineEdit* edit = panel->shardingEdit();
    w.state()->selectValue(w.state()->findValue(QStringLiteral("%arg2")));
    QVERIFY(edit->isEnabled());
    QVERIFY(edit->text().isEmpty());  // %arg2 has no sharding
    // A wrong rank: inline error, nothing re-run.
    QSignalSpy done(&w, &app::MainWindow::whatIfFinished);
    edit->setText(QStringLiteral("[{\"y\"}]"));
    panel->apply();
    QVERIFY(!panel->errorText().isEmpty());
    QTest::qWait(50);
    QCOMPARE(done.count(), 0);
    // A valid one: the source is rewritten and re-run. (Not [{"y"}, {}]:
    // the pipeline gives %arg2 that one anyway, nothing would change.)
    edit->setText(QStringLiteral("[{}, {\"y\"}]"));
    panel->apply();
    QVERIFY(panel->errorText().isEmpty());
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(0).toBool(), true);
    QVERIFY(w.sourceView()->toPlainText().contains(QStringLiteral(
        "%arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {\"y\"}]>}")));
    QVERIFY(w.state()->changedValues().contains(QStringLiteral("@main/%arg2")));
    // The value stays selected and shows its new sharding.
    QVERIFY(w.state()->selectedValue());
    QCOMPARE(QString::fromStdString(api::valueName(*w.state()->selectedValue())), QStringLiteral("%arg2"));
    QVERIFY(edit->text().contains(QStringLiteral("{\"y\"}")));
    grabTo(w, QStringLiteral("/tmp/whatif_inspector.png"));
  }

  // The what-if field as a user drives it: select, type, Ctrl+Return (the
  // window's "apply source edits" shortcut must not take the key) or
  // Return; the source is rewritten, propagation re-runs, the diff lists
  // the edited value. A second edit diffs against the first re-run.
  void typeAndApply_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("select");  // a value name, or "return" for the function results
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("ctrl");
    QTest::addColumn<QString>("key");  // the changed value's key
    QTest::addColumn<QString>("inSource");
    QTest::newRow("megatron %arg1, Ctrl+Return")
        << QStringLiteral("mlp_megatron.mlir") << QStringLiteral("%arg1")
        << QStringLiteral("#sdy.sharding<@mesh, [{\"model\"}, {}]>") << true
        << QStringLiteral("@main/%arg1")
        << QStringLiteral(
               "%arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, "
               "[{\"model\"}, {}]>}");
    QTest::newRow("megatron %arg1, Return")
        << QStringLiteral("mlp_megatron.mlir") << QStringLiteral("%arg1")
        << QStringLiteral("[{\"model\"}, {}]") << false << QStringLiteral("@main/%arg1")
        << QStringLiteral("[{\"model\"}, {}]>}");
    QTest::newRow("while result, Ctrl+Return")
        << QStringLiteral("while_loop.mlir") << QStringLiteral("%0#0")
        << QStringLiteral("[{}, {\"x\"}]") << true << QStringLiteral("@main/%0#0")
        << QStringLiteral(
               "attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, "
               "{\"x\"}]>, <@mesh, []>]>}");
    QTest::newRow("manual computation result, Ctrl+Return")
        << QStringLiteral("manual_computation.mlir") << QStringLiteral("%0")
        << QStringLiteral("[{\"x\"}, {}]") << true << QStringLiteral("@main/%0")
        << QStringLiteral("out_shardings=[<@mesh, [{\"x\"}, {}]>]");
    QTest::newRow("function result, Ctrl+Return")
        << QStringLiteral("matmul_chain.mlir") << QStringLiteral("return")
        << QStringLiteral("[{}, {\"y\"}]") << true << QString()
        << QStringLiteral(
               "-> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, "
               "{\"y\"}]>})");
  }
  void typeAndApply() {
    QFETCH(QString, sample);
    QFETCH(QString, select);
    QFETCH(QString, typed);
    QFETCH(bool, ctrl);
    QFETCH(QString, key);
    QFETCH(QString, inSource);
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(openSample(w, sample));
    WhatIfPanel* panel = w.whatIfPanel();
    QLineEdit* edit = panel->shardingEdit();
    QSignalSpy done(&w, &app::MainWindow::whatIfFinished);
    auto selectTarget = [&] {
      if (select == QLatin1String("return")) {
        const ir::Op* ret = w.state()->function()->region(0).front().terminator();
        w.state()->selectOp(ret);
        return panel->editedFunction() == w.state()->function();
      }
      w.state()->selectValue(w.state()->findValue(select));
      return !panel->editedFunction() && w.state()->selectedValue();
    };
    // A first edit through the Edit menu's shortcut target (plain Return),
    // so that a diff is on show before the key under test.
    QVERIFY(selectTarget());
    QVERIFY(edit->isEnabled());
    const QString before = edit->text();
    if (auto* d = w.findChild<QDockWidget*>(QStringLiteral("whatIfDock"))) d->raise();
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, typed);
    QVERIFY2(panel->errorText().isEmpty(), qPrintable(panel->errorText()));
    QTest::keyClick(edit, Qt::Key_Return, ctrl ? Qt::ControlModifier : Qt::NoModifier);
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(0).toBool(), true);
    QVERIFY2(w.sourceView()->toPlainText().contains(inSource), qPrintable(inSource));
    const QString summary = panel->findChild<QLabel*>(QStringLiteral("whatIfSummary"))->text();
    QVERIFY2(!summary.contains(QLatin1String("no value's sharding changed")), qPrintable(summary));
    QVERIFY(panel->model()->rowCount() > 0);
    if (!key.isEmpty()) QVERIFY2(w.state()->changedValues().contains(key), qPrintable(key));
    // The field shows what was applied, for the same target.
    QVERIFY(select == QLatin1String("return") ? panel->editedFunction() != nullptr
                                              : panel->editedFunction() == nullptr);
    QVERIFY(!edit->isModified());
    QVERIFY2(edit->text() != before, qPrintable(edit->text()));
    // Ctrl+Return back to the first text: applied too, and the diff is of
    // this re-run against the previous one (not wiped).
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, before.isEmpty() ? QStringLiteral("[{}, {}]") : before);
    QTest::keyClick(edit, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY2(
        done.wait(60000),
        qPrintable(panel->errorText() + u' ' + edit->text() + u' ' +
                   w.whatIfPanel()->findChild<QLabel*>(QStringLiteral("whatIfSummary"))->text()));
    QCOMPARE(done.last().at(0).toBool(), true);
    QVERIFY(panel->model()->rowCount() > 0);
    if (!key.isEmpty()) QVERIFY2(w.state()->changedValues().contains(key), qPrintable(key));
  }

  // Save through QSaveFile; a failure keeps the buffer.
  void saveKeepsBufferOnFailure() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.mlir"));
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    SourceView* source = w.sourceView();
    QVERIFY(!w.isSourceModified());
    source->replaceText(source->toPlainText() + QStringLiteral("// edited\n"));
    QVERIFY(w.isSourceModified());
    const QString text = source->toPlainText();
    // Unwritable: a directory that does not exist.
    QString error;
    QVERIFY(!w.saveSourceTo(dir.filePath(QStringLiteral("no/such/dir/x.mlir")), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(source->toPlainText(), text);
    QVERIFY(w.isSourceModified());
    // Writable.
    QVERIFY(w.saveSourceTo(path, &error));
    QVERIFY(!w.isSourceModified());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), text);
    QVERIFY(!QFileInfo::exists(path + QStringLiteral(".tmp")));
  }

  // Closing with unsaved edits asks; Cancel keeps the window and the text.
  void closeAsksAboutUnsavedEdits() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    w.sourceView()->replaceText(w.sourceView()->toPlainText() + QStringLiteral("// x\n"));
    bool asked = false;
    QTimer::singleShot(100, &w, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      asked = box != nullptr;
      if (box) box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!w.close());
    QVERIFY(asked);
    QVERIFY(w.isVisible());
    QVERIFY(w.sourceView()->toPlainText().endsWith(QStringLiteral("// x\n")));
    w.sourceView()->document()->setModified(false);  // let the window go
  }

#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  // Propagation > Compare Strategies: the side-by-side comparison, on the applied text.
  void compareStrategiesReachable() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("priorities.mlir")));
    auto* act = w.findChild<QAction*>(QStringLiteral("compareStrategiesAction"));
    QVERIFY(act);
    auto* compare = w.findChild<trace::StrategyCompareWidget*>();
    QVERIFY(compare);
    QSignalSpy compared(compare, &trace::StrategyCompareWidget::compared);
    act->trigger();
    QVERIFY(compared.wait(60000));
    QTRY_VERIFY(compare->isVisible());
    QAbstractItemModelTester tester(compare->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
  }
#endif

  // Clicking a line selects its op; selecting an op scrolls the source.
  void sourceSelectionSync() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    SourceView* source = w.sourceView();
    const ir::Op* tanh = w.state()->findOp(QStringLiteral("tanh"));
    QVERIFY(tanh);
    const int tanhLine = static_cast<int>(tanh->loc().line);
    QTextCursor c(source->document()->findBlockByNumber(tanhLine - 1));
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 8);
    source->setTextCursor(c);
    QCOMPARE(w.state()->selectedOp(), tanh);
    // The cursor stayed where it was put (no jump to the line start).
    QCOMPARE(source->textCursor().positionInBlock(), 8);
    // The other way: select the first dot_general, the cursor moves to its line.
    const ir::Op* dot = w.state()->findOp(QStringLiteral("%0"));
    QVERIFY(dot);
    w.state()->selectOp(dot);
    QCOMPARE(source->textCursor().blockNumber() + 1, static_cast<int>(dot->loc().line));
  }
};

QTEST_MAIN(WhatIfTest)
#include "what_if_test.moc"
