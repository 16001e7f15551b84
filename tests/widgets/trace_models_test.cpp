// Models of the trace explorer (widgets/trace/): FactorTableModel for known
// ops, TraceStepModel, ShardingDiffModel, each under QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <cmath>
#include <QImage>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>

#include "explain/factor_table.h"
#include "explain/trace_index.h"
#include "ir/parser.h"
#include "trace/factor_table_model.h"
#include "trace/factor_table_view.h"
#include "trace/propagation_runner.h"
#include "trace/sharding_diff_model.h"
#include "trace/trace_step_model.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

namespace {

std::unique_ptr<ir::Module> parse(const QString& text) {
  ir::DiagnosticSink diags;
  return ir::parseModule(text.toStdString(), ir::ParseOptions{}, diags);
}

ir::Op* findOp(ir::Module& m, const std::string& name) {
  ir::Op* found = nullptr;
  m.op->walk([&](ir::Op& op) {
    if (!found && op.name() == name) found = &op;
  });
  return found;
}

explain::FactorTable tableFor(const QString& text, const std::string& op) {
  auto m = parse(text);
  if (!m) return {};
  ir::Op* o = findOp(*m, op);
  if (!o) return {};
  return explain::factorTableForOp(*m, *o);
}

}  // namespace

class TraceModelsTest : public QObject {
  Q_OBJECT
 private slots:
  void dotGeneralCells_data();
  void dotGeneralCells();
  void dotGeneralHeaders();
  void elementwiseAdd();
  void dimensionView();
  void stepModel();
  void diffModel();
  void namesReadInEveryTheme_data();
  void cellFillsKeepTheTextReadable_data();
  void cellFillsKeepTheTextReadable();
  void namesReadInEveryTheme();
};

void TraceModelsTest::dotGeneralCells_data() {
  QTest::addColumn<int>("row");
  QTest::addColumn<int>("column");
  QTest::addColumn<QString>("text");
  QTest::addColumn<bool>("mapped");
  QTest::addColumn<QStringList>("axes");
  const int f0 = FactorTableModel::NumLeadingColumns;
  QTest::newRow("T0 label") << 0 << int(FactorTableModel::TensorColumn) << QStringLiteral("T0") << true << QStringList();
  QTest::newRow("T0 value") << 0 << int(FactorTableModel::ValueColumn) << QStringLiteral("%arg0") << true << QStringList();
  QTest::newRow("T0 i") << 0 << f0 << QStringLiteral("{\"a\"}") << true << QStringList{QStringLiteral("\"a\"")};
  QTest::newRow("T0 j (unmapped)") << 0 << f0 + 1 << QStringLiteral("—") << false << QStringList();
  QTest::newRow("T0 k") << 0 << f0 + 2 << QStringLiteral("{\"b\"}") << true << QStringList{QStringLiteral("\"b\"")};
  QTest::newRow("T1 i (unmapped)") << 1 << f0 << QStringLiteral("—") << false << QStringList();
  QTest::newRow("T1 j open") << 1 << f0 + 1 << QStringLiteral("{?}") << true << QStringList();
  QTest::newRow("T1 k open") << 1 << f0 + 2 << QStringLiteral("{?}") << true << QStringList();
  QTest::newRow("T2 value") << 2 << int(FactorTableModel::ValueColumn) << QStringLiteral("%0") << true << QStringList();
  QTest::newRow("T2 k (unmapped)") << 2 << f0 + 2 << QStringLiteral("—") << false << QStringList();
}

void TraceModelsTest::dotGeneralCells() {
  QFETCH(int, row);
  QFETCH(int, column);
  QFETCH(QString, text);
  QFETCH(bool, mapped);
  QFETCH(QStringList, axes);
  FactorTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
  model.setTable(tableFor(test::dotModule(), "stablehlo.dot_general"));
  QCOMPARE(model.rowCount(), 3);
  QCOMPARE(model.columnCount(), FactorTableModel::NumLeadingColumns + 3 + 1);
  const QModelIndex i = model.index(row, column);
  QCOMPARE(i.data().toString(), text);
  if (column >= FactorTableModel::NumLeadingColumns) {
    QCOMPARE(i.data(FactorTableModel::MappedRole).toBool(), mapped);
    QCOMPARE(i.data(FactorTableModel::AxesRole).toStringList(), axes);
    QCOMPARE(i.data(FactorTableModel::AxisColorsRole).toList().size(), axes.size());
  }
}

void TraceModelsTest::dotGeneralHeaders() {
  FactorTableModel model;
  model.setTable(tableFor(test::dotModule(), "stablehlo.dot_general"));
  const int f0 = FactorTableModel::NumLeadingColumns;
  QCOMPARE(model.headerData(f0, Qt::Horizontal).toString(), QStringLiteral("F0 i=8\nlhs non-contracting"));
  QCOMPARE(model.headerData(f0 + 1, Qt::Horizontal).toString(), QStringLiteral("F1 j=16\nrhs non-contracting"));
  QCOMPARE(model.headerData(f0 + 2, Qt::Horizontal).toString(), QStringLiteral("F2 k=32\ncontracting, reduction"));
  QCOMPARE(model.headerData(f0 + 2, Qt::Horizontal, FactorTableModel::KindRole).toString(),
           QStringLiteral("contracting, reduction"));
  QCOMPARE(model.headerData(model.replicatedColumn(), Qt::Horizontal).toString(), QStringLiteral("replicated"));
  // Same axis, same colour everywhere; different axes differ.
  const QColor a = model.axisColor(QStringLiteral("a"));
  const QColor b = model.axisColor(QStringLiteral("b"));
  QVERIFY(a != b);
  QCOMPARE(model.index(0, f0).data(FactorTableModel::AxisColorsRole).toList().value(0).value<QColor>(), a);
  QCOMPARE(model.legendAxes().size(), 2);
  QCOMPARE(model.legendAxes().front().second, qint64(2));
}

void TraceModelsTest::elementwiseAdd() {
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::Basic));
  QVERIFY(run->ok());
  const propagation::TraceStep* add = nullptr;
  for (const auto& s : run->trace.steps)
    if (s.op == "stablehlo.add") add = &s;
  QVERIFY(add);
  FactorTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
  model.setTable(explain::factorTableForStep(*add, true, run->input->lookupMesh("mesh")));
  QCOMPARE(model.rowCount(), 3);
  const int f0 = FactorTableModel::NumLeadingColumns;
  QCOMPARE(model.headerData(f0, Qt::Horizontal).toString(), QStringLiteral("F0 i=8\npass-through"));
  QCOMPARE(model.index(2, f0).data().toString(), QStringLiteral("{\"a\", ?}"));
  QVERIFY(model.index(2, f0).data(FactorTableModel::ChangedRole).toBool());
  QVERIFY(!model.index(0, f0).data(FactorTableModel::ChangedRole).toBool());
  QVERIFY(model.index(2, f0).data(FactorTableModel::OpenRole).toBool());
  QCOMPARE(model.index(2, f0).data(FactorTableModel::CompatiblePrefixRole).toInt(), 1);
  model.setTable(explain::factorTableForStep(*add, false));
  QCOMPARE(model.index(2, f0).data().toString(), QStringLiteral("{?}"));
}

void TraceModelsTest::dimensionView() {
  FactorTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
  model.setTable(tableFor(test::dotModule(), "stablehlo.dot_general"));
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  model.setDimensionView(true);
  QCOMPARE(reset.count(), 1);
  QCOMPARE(model.columnCount(), FactorTableModel::NumLeadingColumns + 2 + 1);
  const int d0 = FactorTableModel::NumLeadingColumns;
  QCOMPARE(model.headerData(d0 + 1, Qt::Horizontal).toString(), QStringLiteral("d1"));
  QCOMPARE(model.index(0, d0).data().toString(), QStringLiteral("{\"a\"}"));
  QCOMPARE(model.index(0, d0 + 1).data().toString(), QStringLiteral("{\"b\"}"));
  QCOMPARE(model.index(2, d0 + 1).data().toString(), QStringLiteral("{?}"));
  model.setDimensionView(false);
  QCOMPARE(model.columnCount(), FactorTableModel::NumLeadingColumns + 3 + 1);
  model.setTable({});
  QCOMPARE(model.rowCount(), 0);
  QCOMPARE(model.columnCount(), 0);
}

void TraceModelsTest::stepModel() {
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::OpPriority));
  QVERIFY(run->ok());
  TraceStepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
  model.setRun(run);
  QCOMPARE(model.rowCount(), int(run->trace.steps.size()));
  QVERIFY(model.rowCount() >= 3);
  QCOMPARE(model.columnCount(), int(TraceStepModel::NumColumns));
  bool sawDot = false;
  for (int r = 0; r < model.rowCount(); ++r) {
    QCOMPARE(model.index(r, TraceStepModel::StepColumn).data().toInt(), r);
    QVERIFY(model.index(r, 0).data(TraceStepModel::OpPriorityRole).toInt() >= 0);
    if (model.index(r, TraceStepModel::OpColumn).data().toString() == QLatin1String("dot_general %1")) {
      sawDot = true;
      QCOMPARE(model.index(r, TraceStepModel::LineColumn).data().toInt(), 6);
      QVERIFY(model.index(r, TraceStepModel::SummaryColumn).data().toString().contains(QStringLiteral("\"b\" %arg1→%1")));
      QVERIFY(model.index(r, 0).data(TraceStepModel::NarrationRole).toString().contains(QStringLiteral("rhs non-contracting")));
    }
  }
  QVERIFY(sawDot);
  model.setRun(nullptr);
  QCOMPARE(model.rowCount(), 0);
}

void TraceModelsTest::diffModel() {
  // Basic vs user-priority where priorities decide a conflict: %0 differs.
  auto a = runPropagation(test::conflictPriorityModule().toStdString(), "p.mlir", optionsFor(Strategy::Basic));
  auto b = runPropagation(test::conflictPriorityModule().toStdString(), "p.mlir", optionsFor(Strategy::UserPriority));
  QVERIFY(a->ok());
  QVERIFY(b->ok());
  ShardingDiffModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
  model.setRuns(a, a);
  QCOMPARE(model.rowCount(), 0);
  model.setRuns(a, b);
  QVERIFY(model.rowCount() >= 1);
  QCOMPARE(model.index(0, ShardingDiffModel::ValueColumn).data().toString(), QStringLiteral("%0"));
  QCOMPARE(model.index(0, ShardingDiffModel::RightColumn).data().toString(), QStringLiteral("[{\"b\", ?}]"));
  for (int r = 0; r < model.rowCount(); ++r)
    QVERIFY(model.index(r, ShardingDiffModel::LeftColumn).data() != model.index(r, ShardingDiffModel::RightColumn).data());
  QCOMPARE(model.headerData(ShardingDiffModel::LeftColumn, Qt::Horizontal).toString(), QStringLiteral("basic"));
  QCOMPARE(model.headerData(ShardingDiffModel::RightColumn, Qt::Horizontal).toString(), QStringLiteral("user-priority"));
  // A different module text: nothing to compare.
  auto c = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::Basic));
  model.setRuns(a, c);
  QCOMPARE(model.rowCount(), 0);
}

void TraceModelsTest::namesReadInEveryTheme_data() {
  QTest::addColumn<QColor>("base");
  QTest::addColumn<QColor>("text");
  QTest::addColumn<bool>("selected");
  QTest::newRow("light") << QColor(Qt::white) << QColor(0x20, 0x20, 0x20) << false;
  QTest::newRow("dark") << QColor(0x1e, 0x1e, 0x1e) << QColor(0xe6, 0xe6, 0xe6) << false;
  QTest::newRow("dark, row selected") << QColor(0x1e, 0x1e, 0x1e) << QColor(0xe6, 0xe6, 0xe6) << true;
}

// The T and tensor columns of a step's table (here the function-result
// sync step, whose rows are the returned value and "result 0") are drawn
// in a colour that stands out from what is behind them, in the light and
// the dark theme: enough of their pixels differ clearly from the cell's
// background.
void TraceModelsTest::namesReadInEveryTheme() {
  QFETCH(QColor, base);
  QFETCH(QColor, text);
  QFETCH(bool, selected);
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(Strategy::Basic));
  QVERIFY(run->ok());
  const propagation::TraceStep* sync = nullptr;
  for (const auto& s : run->trace.steps)
    if (s.op == "func.return") sync = &s;
  QVERIFY(sync);
  FactorTableModel model;
  model.setTable(explain::factorTableForStep(*sync, true, run->input->lookupMesh("mesh")));
  QCOMPARE(model.rowCount(), 2);
  QCOMPARE(model.index(1, FactorTableModel::ValueColumn).data().toString(), QStringLiteral("result 0"));
  FactorTableView view;
  QPalette pal = view.palette();
  pal.setColor(QPalette::Base, base);
  pal.setColor(QPalette::Window, base);
  pal.setColor(QPalette::Text, text);
  pal.setColor(QPalette::Highlight, QColor(0x2a, 0x6f, 0xd0));
  view.setPalette(pal);
  view.setModel(&model);
  view.resize(600, 200);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  if (selected) view.selectRow(1);
  const QImage img = view.viewport()->grab().toImage();
  for (int row = 0; row < 2; ++row)
    for (int col : {int(FactorTableModel::TensorColumn), int(FactorTableModel::ValueColumn)}) {
      const QRect r = view.visualRect(model.index(row, col)).adjusted(2, 2, -2, -2);
      QVERIFY(!r.isEmpty());
      // The cell's background: its most common colour (a corner).
      const QColor bg = img.pixelColor(r.topLeft());
      int ink = 0;
      for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
          if (std::abs(img.pixelColor(x, y).lightness() - bg.lightness()) > 90) ++ink;
      QVERIFY2(ink >= 15, qPrintable(QStringLiteral("row %1 column %2: %3 pixels of text")
                                         .arg(row).arg(col).arg(ink)));
    }
}

void TraceModelsTest::cellFillsKeepTheTextReadable_data() {
  QTest::addColumn<bool>("dark");
  QTest::addColumn<QColor>("base");
  QTest::addColumn<QColor>("text");
  QTest::addColumn<QColor>("highlight");
  QTest::newRow("light") << false << QColor(Qt::white) << QColor(0x20, 0x20, 0x20) << QColor(0x30, 0x8c, 0xc6);
  QTest::newRow("dark") << true << QColor(0x1e, 0x1f, 0x22) << QColor(0xe6, 0xe6, 0xe6) << QColor(0x3d, 0x7e, 0xd6);
}

// The factor table's changed, conflict, unmapped and selected fills keep
// the table's text readable (WCAG contrast 4.5:1 or more) and stand apart
// from the table's base; in the dark theme the light fills (pale yellow,
// pale blue) left the light text at ~1.3:1.
void TraceModelsTest::cellFillsKeepTheTextReadable() {
  QFETCH(bool, dark);
  QFETCH(QColor, base);
  QFETCH(QColor, text);
  QFETCH(QColor, highlight);
  auto luminance = [](const QColor& c) {
    auto channel = [](qreal v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
  };
  auto contrast = [&](const QColor& a, const QColor& b) {
    const qreal la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
  };
  const AxisCellFills fills = axisCellFills(dark, highlight, base);
  const std::pair<const char*, QColor> named[] = {{"changed", fills.changed},
                                                  {"conflict", fills.conflict},
                                                  {"unmapped", fills.unmapped},
                                                  {"selected", fills.selected}};
  for (const auto& [name, fill] : named) {
    QVERIFY2(contrast(text, fill) >= 4.5,
             qPrintable(QStringLiteral("%1 %2: %3:1").arg(QLatin1String(name), fill.name()).arg(contrast(text, fill))));
    QVERIFY2(fill != base, name);
  }
  // The marked fills differ from each other (a changed cell is not a conflict).
  QVERIFY(fills.changed != fills.conflict && fills.changed != fills.selected);
}

QTEST_MAIN(TraceModelsTest)
#include "trace_models_test.moc"
