// Propagation runs for the GUI: the trace model (QAbstractItemModelTester),
// replaying a prefix of the steps, and the trace panel's stepping.
#include "propagation/propagation_step_model.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include "core/document_state.h"
#include "propagation/propagation_panel.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {
// Every value's sharding text in pre-order, for comparing two versions of a module.
// User-priority runs drop the priorities at the end (not a step of the trace).
QString withoutPriorities(QString s) {
  static const QRegularExpression re(QStringLiteral("\\}p[0-9]+"));
  return s.replace(re, QStringLiteral("}"));
}

QStringList shardingsOf(const api::Document& doc) {
  QStringList out;
  for (const auto& top : doc.module->body().ops())
    top->walk([&](ir::Op& op) {
      for (const auto& region : op.regions())
        for (const auto& block : region->blocks())
          for (ir::Value* a : block->arguments()) {
            auto s = api::valueSharding(*a);
            out << (s ? withoutPriorities(QString::fromStdString(s->str())) : QStringLiteral("-"));
          }
      for (ir::Value* r : op.results()) {
        auto s = api::valueSharding(*r);
        out << (s ? withoutPriorities(QString::fromStdString(s->str())) : QStringLiteral("-"));
      }
    });
  return out;
}
}  // namespace

class PropagationStepModelTest : public QObject {
  Q_OBJECT
 private slots:
  void samples_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("level");
    for (const QString& p : test::samplePaths()) {
      QTest::newRow(qPrintable(QFileInfo(p).completeBaseName() + QStringLiteral("/basic")))
          << p << int(propagation::PropagationLevel::Basic);
      QTest::newRow(qPrintable(QFileInfo(p).completeBaseName() + QStringLiteral("/user-priority")))
          << p << int(propagation::PropagationLevel::UserPriority);
    }
  }
  void samples() {
    QFETCH(QString, path);
    QFETCH(int, level);
    auto doc = api::loadDocument(path.toStdString());
    QVERIFY(doc->module);
    propagation::PropagationOptions opts;
    opts.level = static_cast<propagation::PropagationLevel>(level);
    auto run = api::propagateDocument(*doc, opts);
    QVERIFY(run->ok);
    QVERIFY(run->result && run->result->module);
    QCOMPARE(run->result->text, doc->text);  // same text, new shardings

    PropagationStepModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(run);
    QCOMPARE(model.rowCount(), int(run->trace.steps.size()));
    for (int r = 0; r < model.rowCount(); ++r) {
      QCOMPARE(model.index(r, PropagationStepModel::StepColumn)
                   .data(PropagationStepModel::StepRole)
                   .toInt(),
               r);
      QVERIFY(!model.index(r, PropagationStepModel::OpColumn).data().toString().isEmpty());
    }
    // Replaying no step gives the input; replaying all gives the result.
    auto atStart = api::documentAtStep(*doc, *run, 0);
    QVERIFY(atStart);
    QCOMPARE(shardingsOf(*atStart), shardingsOf(*doc));
    auto atEnd = api::documentAtStep(*doc, *run, run->trace.steps.size());
    QVERIFY(atEnd);
    QCOMPARE(shardingsOf(*atEnd), shardingsOf(*run->result));
    model.setRun(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void matmulSteps() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    auto run = api::propagateDocument(*doc, {});
    QVERIFY(run->ok);
    QVERIFY(!run->trace.steps.empty());
    // After propagation %0 is sharded on "x" (rows) and "y" (columns).
    DocumentState state;
    state.setDocument(run->result);
    const ir::Value* v0 = state.findValue(QStringLiteral("%0"));
    QVERIFY(v0);
    const auto s = api::valueSharding(*v0);
    QVERIFY(s);
    QCOMPARE(s->dims.size(), size_t(2));
    QCOMPARE(s->dims[0].axes.front().name, std::string("x"));
    QCOMPARE(s->dims[1].axes.front().name, std::string("y"));
    PropagationStepModel model;
    model.setRun(run);
    QStringList updates;
    for (int r = 0; r < model.rowCount(); ++r)
      updates << model.index(r, PropagationStepModel::UpdatesColumn).data().toString();
    QVERIFY2(updates.join(u'|').contains(QStringLiteral("%0 ← ")), qPrintable(updates.join(u'|')));
  }

  // The panel is a view of the state's timeline: its controls move it.
  void panelStepping() {
    auto doc = test::loadSample(QStringLiteral("mlp_megatron.mlir"));
    DocumentState state;
    state.setDocument(doc);
    PropagationPanel panel(&state);
    auto run = api::propagateDocument(*doc, panel.options());
    QVERIFY(run->ok);
    const int n = int(run->trace.steps.size());
    QVERIFY(n > 0);
    state.setSteppedRun(api::prepareSteppedRun(*doc, run));
    QCOMPARE(state.stepsApplied(), n);
    QSignalSpy spy(&state, &DocumentState::stepChanged);
    panel.setRun(run);
    QCOMPARE(panel.currentStep(), n);
    QCOMPARE(spy.count(), 0);  // setRun itself does not step
    panel.setStep(0);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toInt(), 0);
    QCOMPARE(state.stepsApplied(), 0);
    panel.setStep(n + 5);  // clamped
    QCOMPARE(spy.last().at(0).toInt(), n);
    QCOMPARE(panel.currentStep(), n);
    // Moved elsewhere: the panel follows.
    state.setStepsApplied(1);
    QCOMPARE(panel.currentStep(), 1);
  }

  void keepsSelectionAcrossSteps() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    auto run = api::propagateDocument(*doc, {});
    DocumentState state;
    state.setDocument(doc);
    const ir::Op* tanh = state.findOp(QStringLiteral("stablehlo.tanh"));
    state.selectOp(tanh);
    state.setDocumentKeepingSelection(run->result);
    QVERIFY(state.selectedOp());
    QCOMPARE(state.selectedOp()->name(), std::string("stablehlo.tanh"));
    QVERIFY(state.selectedOp() != tanh);  // the new document's op
    QCOMPARE(state.selectedValue(), state.selectedOp()->result(0));
  }
};

QTEST_MAIN(PropagationStepModelTest)
#include "propagation_step_model_test.moc"
