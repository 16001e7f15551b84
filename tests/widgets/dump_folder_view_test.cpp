// File > Open Dump Folder: a folder of module dumps written by the
// propagation pipeline (module-dump-directory) shown as a timeline with the
// diff between neighbours, and "Open this dump" opening one in the real
// main window.
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "core/document_state.h"
#include "dumps/dump_diff_view.h"
#include "dumps/dump_folder_view.h"
#include "dumps/dump_timeline_model.h"
#include "ir/parser.h"
#include "main_window.h"
#include "passes/pass.h"
#include "test_util.h"

using namespace shardscope;

namespace {

// Runs the propagation pipeline with explicit collectives on `sample`,
// dumping into `dir` (6 dumps for priorities.mlir: its priorities 0, 1, 2).
bool writeDumps(const QString& sample, const QString& dir) {
  QFile f(QDir(test::sampleDir()).filePath(sample));
  if (!f.open(QIODevice::ReadOnly)) return false;
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(f.readAll().toStdString(), ir::ParseOptions{}, diags);
  if (!module) return false;
  passes::PassOptions options;
  options.values["module-dump-directory"] = dir.toStdString();
  options.values["enable-inserting-explicit-collectives"] = "true";
  passes::PassContext ctx{diags, {}};
  return passes::lookupPass("sdy-propagation-pipeline")->run(*module, options, ctx);
}

}  // namespace

class DumpFolderViewTest : public QObject {
  Q_OBJECT
 private slots:
  void timelineAndDiff_data();
  void timelineAndDiff();
  void notADumpFolder();
  void openThisDumpInTheMainWindow();
};

void DumpFolderViewTest::timelineAndDiff_data() {
  QTest::addColumn<int>("row");
  QTest::addColumn<QString>("title");
  QTest::addColumn<QString>("expected");
  QTest::newRow("first dump") << 0 << QStringLiteral("01.before_propagation.mlir (the first dump")
                              << QStringLiteral("sdy.mesh @mesh");
  QTest::newRow("after priority 0")
      << 1 << QStringLiteral("01.before_propagation.mlir  ->  02.propagation_after_user_priority_0.mlir")
      << QStringLiteral("+ ");
  QTest::newRow("collectives")
      << 5 << QStringLiteral("03.after_explicit_reshards.mlir  ->  04.after_partitioner_with_global_shapes.mlir")
      << QStringLiteral("+     %0 = sdy.all_to_all");
}

void DumpFolderViewTest::timelineAndDiff() {
  QFETCH(int, row);
  QFETCH(QString, title);
  QFETCH(QString, expected);
  QTemporaryDir dir;
  QVERIFY(writeDumps(QStringLiteral("priorities.mlir"), dir.path()));
  widgets::DumpFolderView view;
  QString error;
  QSignalSpy shown(&view, &widgets::DumpFolderView::diffShown);
  QVERIFY2(view.setFolder(dir.path(), &error), qPrintable(error));
  QCOMPARE(view.dumpCount(), 6);
  QCOMPARE(view.model()->data(view.model()->index(3, widgets::DumpTimelineModel::Stage), Qt::DisplayRole)
               .toString(),
           QStringLiteral("after propagation"));
  // The second dump is selected first, so its diff shows on opening.
  QVERIFY(shown.wait(10000));
  QCOMPARE(shown.last().at(0).toInt(), 1);
  const qsizetype before = shown.count();
  view.selectDump(row);
  QVERIFY(QTest::qWaitFor(
      [&] { return shown.count() > before && shown.last().at(0).toInt() == row; }, 10000));
  const QString text = view.diffView()->toPlainText();
  QVERIFY2(text.startsWith(title), qPrintable(text.left(200)));
  QVERIFY2(text.contains(expected), qPrintable(text.left(2000)));
}

void DumpFolderViewTest::notADumpFolder() {
  QTemporaryDir dir;
  widgets::DumpFolderView view;
  QString error;
  QVERIFY(!view.setFolder(dir.path(), &error));
  QVERIFY2(error.contains(QStringLiteral("no .mlir files")), qPrintable(error));
  QVERIFY(!view.setFolder(dir.filePath(QStringLiteral("missing")), &error));
  QVERIFY2(error.contains(QStringLiteral("not a folder")), qPrintable(error));
  QCOMPARE(view.dumpCount(), 0);
}

void DumpFolderViewTest::openThisDumpInTheMainWindow() {
  QTemporaryDir dir;
  QVERIFY(writeDumps(QStringLiteral("priorities.mlir"), dir.path()));
  app::MainWindow w(test::sampleDir());
  w.resize(1280, 800);
  w.show();
  QVERIFY(w.openDumpFolder(dir.path()));
  widgets::DumpFolderView* view = w.dumpFolderView();
  QVERIFY(view);
  QVERIFY(view->isVisible());  // its centre tab is the current one
  view->selectDump(3);
  auto* open = view->findChild<QPushButton*>(QStringLiteral("openDumpButton"));
  QVERIFY(open && open->isEnabled());
  QSignalSpy loaded(&w, &app::MainWindow::loaded);
  QTest::mouseClick(open, Qt::LeftButton);
  QVERIFY(loaded.wait(30000));
  QVERIFY(loaded.last().at(0).toBool());
  QVERIFY(w.state()->document());
  QCOMPARE(QFileInfo(QString::fromStdString(w.state()->document()->path)).fileName(),
           QStringLiteral("02.after_propagation.mlir"));
  QVERIFY(!view->isVisible());  // back to the graph
  QString error;
  QVERIFY(!w.openDumpFolder(QDir(dir.path()).filePath(QStringLiteral("nothing")), &error));
  QVERIFY(error.contains(QStringLiteral("not a folder")));
}

QTEST_MAIN(DumpFolderViewTest)
#include "dump_folder_view_test.moc"
