// The words of the window (issue 13 item 8): each problem says what kind it
// is, the propagate hint never offers disabled propagation, step numbers
// read the same everywhere, samples carry their description, Help has a
// guided tour and the keyboard shortcuts.
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "core/document_state.h"
#include "core/step_words.h"
#include "help_dialogs.h"
#include "main_window.h"
#include "main_window_test_util.h"
#include "propagation/propagation_panel.h"
#include "sample_catalog.h"
#include "trace/trace_panel.h"

using namespace shardscope;

namespace {

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(bytes);
  return path;
}

// Open `path` (with or without errors) and wait until it is shown.
bool openAny(app::MainWindow& w, const QString& path) {
  QSignalSpy loaded(&w, &app::MainWindow::loaded);
  w.openFile(path);
  return loaded.wait(30000);
}

QString labelText(const QWidget* parent, const char* name) {
  const auto* l = parent->findChild<QLabel*>(QLatin1String(name));
  return l ? l->text() : QString();
}

}  // namespace

class WordsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void stepPlace_data() {
    QTest::addColumn<int>("applied");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("expected");
    QTest::newRow("start") << 0 << 7 << QStringLiteral("before step 0 (steps 0–6)");
    QTest::newRow("middle") << 4 << 7 << QStringLiteral("after step 3 (steps 0–6)");
    QTest::newRow("end") << 7 << 7 << QStringLiteral("after step 6 (steps 0–6)");
    QTest::newRow("one step") << 1 << 1 << QStringLiteral("after step 0 (step 0 only)");
    QTest::newRow("no steps") << 0 << 0 << QStringLiteral("no steps");
  }
  void stepPlace() {
    QFETCH(int, applied);
    QFETCH(int, count);
    QFETCH(QString, expected);
    QCOMPARE(widgets::stepPlace(applied, count), expected);
  }

  void problemsSayWhichTheyAre_data() {
    QTest::addColumn<QByteArray>("bytes");  // empty: a missing file
    QTest::addColumn<QString>("kind");
    QTest::newRow("missing") << QByteArray() << QStringLiteral("file error");
    QTest::newRow("binary") << QByteArray(
                                   "\x7f"
                                   "ELF\x02\x01\x01\0\0\0",
                                   10)
                            << QStringLiteral("file error");
    QTest::newRow("parse") << QByteArray(
                                  "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                                  "  return %arg0 : tensor<4xf32\n}\n")
                           << QStringLiteral("parse error");
    QTest::newRow("verifier")
        << QByteArray(
               "sdy.mesh @mesh = <[\"x\"=2]>\n"
               "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, "
               "[{\"z\"}]>}) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n")
        << QStringLiteral("verifier error");
  }
  void problemsSayWhichTheyAre() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, kind);
    QTemporaryDir dir;
    const QString path = bytes.isEmpty() ? dir.filePath(QStringLiteral("missing.mlir"))
                                         : write(dir, QStringLiteral("m.mlir"), bytes);
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openAny(w, path));
    QVERIFY2(w.statusText().contains(kind), qPrintable(w.statusText()));
    // A file that cannot be read opens nothing to edit.
    QVERIFY(!w.isSourceModified());
    QVERIFY(!labelText(&w, "sourceHint").contains(QLatin1String("Edited")));
    // The propagate hints do not offer what is disabled.
    auto* propagate = w.findChild<QAction*>(QStringLiteral("propagateAction"));
    QVERIFY(propagate);
    QVERIFY(!propagate->isEnabled());
    auto* panel = w.findChild<widgets::PropagationPanel*>();
    QVERIFY(panel);
    for (QLabel* l : panel->findChildren<QLabel*>())
      QVERIFY2(!l->text().startsWith(QLatin1String("Propagate")), qPrintable(l->text()));
    auto* explorer = w.findChild<widgets::trace::TracePanel*>();
    QVERIFY(explorer);
    QTRY_VERIFY(!w.isOpening());
    for (QLabel* l : explorer->findChildren<QLabel*>())
      QVERIFY2(!l->text().startsWith(QLatin1String("Propagate")), qPrintable(l->text()));
  }

  void stepNumbersReadTheSameEverywhere() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(test::openSample(w, QStringLiteral("mlp_megatron.mlir")));
    w.findChild<QAction*>(QStringLiteral("propagateAction"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->stepCount() > 1, 30000);
    const int n = w.state()->stepCount();
    for (int applied : {0, 1, n}) {
      w.state()->setStepsApplied(applied);
      QCoreApplication::processEvents();
      const QString place = widgets::stepPlace(applied, n);
      QVERIFY2(w.windowTitle().contains(place), qPrintable(w.windowTitle()));
      auto* panel = w.findChild<widgets::PropagationPanel*>();
      bool inPanel = false, inExplorer = false;
      for (QLabel* l : panel->findChildren<QLabel*>())
        inPanel = inPanel || l->text().contains(place);
      for (QLabel* l : w.findChild<widgets::trace::TracePanel*>()->findChildren<QLabel*>())
        inExplorer = inExplorer || l->text() == place;
      QVERIFY2(inPanel, qPrintable(place));
      QVERIFY2(inExplorer, qPrintable(place));
    }
  }

  void samplesCarryTheirDescription() {
    const QList<app::SampleEntry> samples = app::sampleCatalog(test::sampleDir());
    QVERIFY(samples.size() >= 10);
    for (const app::SampleEntry& e : samples) {
      QVERIFY2(e.menuText.contains(QStringLiteral(" — ")), qPrintable(e.menuText));
      QVERIFY2(e.description.size() > 20, qPrintable(e.path));
      QVERIFY2(!e.description.contains(u'`') && !e.description.contains(QLatin1String("**")),
               qPrintable(e.description));
    }
    // The window's menu lists them so.
    app::MainWindow w(test::sampleDir());
    auto* menu = w.findChild<QMenu*>(QStringLiteral("sampleMenu"));
    QVERIFY(menu);
    bool megatron = false;
    QStringList texts;
    for (QAction* a : menu->actions()) texts << a->text();
    for (QAction* a : menu->actions())
      if (a->text().startsWith(QStringLiteral("mlp_megatron — "))) {
        megatron = true;
        QVERIFY(a->toolTip().contains(QLatin1String("Megatron")));
      }
    QVERIFY2(megatron, qPrintable(texts.join(u'|')));
  }

  void firstClause_data() {
    QTest::addColumn<QString>("description");
    QTest::addColumn<QString>("clause");
    QTest::newRow("colon") << QStringLiteral("Two matmuls: rows on x")
                           << QStringLiteral("Two matmuls");
    QTest::newRow("parentheses") << QStringLiteral("softmax(QK; V) with heads. More")
                                 << QStringLiteral("softmax(QK; V) with heads");
    QTest::newRow("label") << QStringLiteral("Communication: an all-gather; more")
                           << QStringLiteral("An all-gather");
    QTest::newRow("decimal") << QStringLiteral("Skew 1.5 ids; hot")
                             << QStringLiteral("Skew 1.5 ids");
    QTest::newRow("long") << QStringLiteral(
                                 "a b c d e f g h i j k l m n o p q r s t u v w x y z "
                                 "aa bb cc dd ee ff gg hh ii jj")
                          << QStringLiteral(
                                 "a b c d e f g h i j k l m n o p q r s t u v w x y z "
                                 "aa bb cc dd…");
  }
  void firstClause() {
    QFETCH(QString, description);
    QFETCH(QString, clause);
    QCOMPARE(app::firstClause(description), clause);
  }

  void helpHasATourAndTheShortcuts() {
    app::MainWindow w(test::sampleDir());
    w.show();
    const QList<app::ShortcutRow> rows = app::keyboardShortcuts(w.menuBar());
    auto has = [&rows](const QString& action, const QString& keys) {
      for (const app::ShortcutRow& r : rows)
        if (r.action == action && r.keys.contains(keys)) return true;
      return false;
    };
    QVERIFY(has(QStringLiteral("Propagate"), QStringLiteral("Ctrl+P")));
    QVERIFY(has(QStringLiteral("Presentation Mode"), QStringLiteral("F11")));
    QVERIFY(has(QStringLiteral("Step Forward"), QStringLiteral("Alt+Right")));
    QVERIFY(app::keyboardShortcutsHtml(rows).contains(QLatin1String("Ctrl+P")));
    // The tour: its steps move the window.
    w.findChild<QAction*>(QStringLiteral("guidedTourAction"))->trigger();
    auto* tour = w.findChild<app::GuidedTour*>();
    QVERIFY(tour);
    QVERIFY(tour->stepCount() >= 5);
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    tour->runAction();  // step 1: open the sample
    QVERIFY(loaded.wait(30000));
    QVERIFY(w.windowTitle().contains(QLatin1String("mlp_megatron")));
    tour->showStep(2);
    tour->runAction();  // step 3: propagate
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->stepCount() > 0, 30000);
    tour->showStep(3);
    tour->runAction();  // step 4: back to the start
    QCOMPARE(w.state()->stepsApplied(), 0);
    tour->showStep(99);
    QCOMPARE(tour->currentStep(), tour->stepCount() - 1);
  }
};

QTEST_MAIN(WordsTest)
#include "words_test.moc"
