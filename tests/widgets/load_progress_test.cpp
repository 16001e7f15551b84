// Opening a large file in the real main window (issue 17 item 3): the
// status bar shows the progress and Cancel; Cancel (the button or Esc)
// stops the read and keeps the document shown before; the Diagnostics dock
// stays behind while loading and comes forward only for a file with
// problems, whose error says where (line and column), even in a big file.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/document_state.h"
#include "diagnostics/diagnostics_model.h"
#include "load_progress.h"
#include "source/source_view.h"
#include "main_window_test_util.h"

using namespace shardscope;

namespace {

// A module of `ops` chained adds in @main: ~70 bytes a line, a few MB for
// a read that takes long enough to be cancelled on any machine.
QByteArray chainModule(int ops) {
  QByteArray text = "func.func @main(%arg0: tensor<8x128xf32>) -> tensor<8x128xf32> {\n";
  text.reserve(ops * 72);
  QByteArray prev = "%arg0";
  for (int i = 0; i < ops; ++i) {
    const QByteArray v = "%v" + QByteArray::number(i);
    text += "  " + v + " = stablehlo.add " + prev + ", " + prev + " : tensor<8x128xf32>\n";
    prev = v;
  }
  return text + "  return " + prev + " : tensor<8x128xf32>\n}\n";
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool inFront(QDockWidget* d) { return d && d->isVisible() && !d->visibleRegion().isEmpty(); }

}  // namespace

class LoadProgressTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString big_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    big_ = dir_.filePath(QStringLiteral("big.mlir"));
    QVERIFY(writeFile(big_, chainModule(400000)));
  }

  // The bar moves up to its end, Cancel is offered while reading, and all
  // is put away once the document is shown; the Diagnostics dock (nothing
  // to say) never comes to the front on the way.
  void progressWhileReading() {
    app::MainWindow w{test::sampleDir()};
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* bar = w.findChild<QProgressBar*>(QStringLiteral("loadProgressBar"));
    auto* diag = w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
    QVERIFY(bar && diag);
    QVERIFY(!w.isLoading());
    QVERIFY(!w.loadProgress()->isVisible());
    QSignalSpy values(bar, &QProgressBar::valueChanged);
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(big_);
    QVERIFY(w.isLoading());
    QVERIFY(w.loadProgress()->isVisible());
    QVERIFY(w.loadProgress()->cancelButton()->isVisible());
    QVERIFY(w.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().contains(
        QStringLiteral("big.mlir")));
    bool diagInFront = false;
    QVERIFY(QTest::qWaitFor(
        [&] {
          diagInFront = diagInFront || inFront(diag);
          return !loaded.isEmpty();
        },
        120000));
    QVERIFY(loaded.last().at(0).toBool());
    QVERIFY(!diagInFront);
    QVERIFY(!w.isLoading());
    QVERIFY(!w.loadProgress()->isVisible());
    // Several steps, rising, the last one the end of the bar.
    QVERIFY2(values.size() >= 3, qPrintable(QString::number(values.size())));
    int previous = -1;
    for (const auto& v : values) {
      QVERIFY(v.at(0).toInt() >= previous);
      previous = v.at(0).toInt();
    }
    QCOMPARE(previous, app::LoadProgress::kRange);
    QCOMPARE(w.state()->functions().size(), size_t(1));
    // The source view's text was converted beside the parse (the file is
    // over the read-ahead size): it is the file's.
    QFile f(big_);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(w.sourceView()->text(), QString::fromUtf8(f.readAll()));
  }

  // Cancel by the button and by Esc: the read stops, `loadCancelled` says
  // which file, and the document shown before (its state, title and
  // status) is untouched.
  void cancelKeepsThePreviousDocument_data() {
    QTest::addColumn<bool>("escape");
    QTest::newRow("Cancel button") << false;
    QTest::newRow("Esc") << true;
  }
  void cancelKeepsThePreviousDocument() {
    QFETCH(bool, escape);
    app::MainWindow w{test::sampleDir()};
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(test::openSample(w, QStringLiteral("matmul_chain.mlir")));
    const auto before = w.state()->document();
    const QString title = w.windowTitle();
    const QString status = w.statusText();
    auto* bar = w.findChild<QProgressBar*>(QStringLiteral("loadProgressBar"));
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    QSignalSpy cancelled(&w, &app::MainWindow::loadCancelled);
    w.openFile(big_);
    // Cancel once the reader has reported (it is parsing).
    QVERIFY(QTest::qWaitFor([&] { return bar->value() > 0 || !loaded.isEmpty(); }, 60000));
    QVERIFY2(loaded.isEmpty(), "the file was read before Cancel: make it bigger");
    if (escape)
      QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
    else
      QTest::mouseClick(w.loadProgress()->cancelButton(), Qt::LeftButton);
    QVERIFY(cancelled.wait(10000));
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(cancelled.first().at(0).toString(), big_);
    QVERIFY(!w.isLoading());
    QVERIFY(!w.loadProgress()->isVisible());
    QTest::qWait(200);  // nothing arrives late
    QCOMPARE(loaded.size(), 0);
    QCOMPARE(w.state()->document(), before);
    QCOMPARE(w.windowTitle(), title);
    QVERIFY(w.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().contains(
        QStringLiteral("cancelled")));
    QCOMPARE(w.statusText(), status);
    // Esc does nothing once nothing loads (it is the window's only while loading).
    QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
    QCOMPARE(cancelled.size(), 1);
  }

  // Propagate (Ctrl+P) on the big module: the same bar and Cancel; Cancel
  // leaves no run and the module as it was.
  void cancelPropagation() {
    app::MainWindow w{test::sampleDir()};
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(big_);
    QVERIFY(loaded.wait(120000));
    QVERIFY(loaded.first().at(0).toBool());
    const auto doc = w.state()->document();
    QAction* propagate = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == QStringLiteral("&Propagate")) propagate = a;
    QVERIFY(propagate && propagate->isEnabled());
    auto* bar = w.findChild<QProgressBar*>(QStringLiteral("loadProgressBar"));
    QSignalSpy cancelled(&w, &app::MainWindow::propagationCancelled);
    propagate->trigger();
    QVERIFY(w.isPropagating());
    QVERIFY(w.loadProgress()->isVisible());
    QVERIFY(QTest::qWaitFor([&] { return bar->value() > 0 || !w.isPropagating(); }, 60000));
    QVERIFY2(w.isPropagating(), "the run ended before Cancel: make the module bigger");
    QTest::mouseClick(w.loadProgress()->cancelButton(), Qt::LeftButton);
    QVERIFY(cancelled.wait(60000));
    QVERIFY(!w.isPropagating());
    QVERIFY(!w.loadProgress()->isVisible());
    QCOMPARE(w.state()->steppedRun(), nullptr);
    QCOMPARE(w.state()->document(), doc);
    QVERIFY(propagate->isEnabled());  // it can run again
  }

  // A big file that is cut short or has a bad token near its end: its error
  // at the right line and column, the Diagnostics dock in front.
  void invalidBigFile_data() {
    QTest::addColumn<QByteArray>("tail");    // appended after 200,000 good ops
    // (Cut after an operand's comma: the reader stops at the last token it read.)
    QTest::addColumn<int>("line");          // of the error, 1-based
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");  // part of it
    const int last = 1 + 200000;  // the line of the last good op
    QTest::newRow("truncated in an op")
        << QByteArray("  %bad = stablehlo.add %v199999, ") << last + 1 << 32 << QStringLiteral("expected");
    QTest::newRow("unknown value")
        << QByteArray("  %w = stablehlo.add %nope, %nope : tensor<8x128xf32>\n"
                      "  return %w : tensor<8x128xf32>\n}\n")
        << last + 1 << 22 << QStringLiteral("undeclared SSA value");
  }
  void invalidBigFile() {
    QFETCH(QByteArray, tail);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    QByteArray text = chainModule(200000);
    text.truncate(text.lastIndexOf("  return"));  // the body stays open
    const QString path = dir_.filePath(QStringLiteral("invalid.mlir"));
    QVERIFY(writeFile(path, text + tail));
    app::MainWindow w{test::sampleDir()};
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &app::MainWindow::loaded);
    w.openFile(path);
    QVERIFY(loaded.wait(120000));
    QCOMPARE(loaded.first().at(0).toBool(), false);
    const auto& doc = w.state()->document();
    QVERIFY(doc && doc->hasErrors());
    QCOMPARE(doc->failedStage, api::LoadStage::Parse);
    const ir::Diagnostic& first = doc->diagnostics.front();
    QCOMPARE(int(first.loc.line), line);
    QCOMPARE(int(first.loc.col), column);
    QVERIFY2(QString::fromStdString(first.message).contains(message), first.message.c_str());
    QVERIFY(w.statusText().contains(QStringLiteral("parse error")));
    QVERIFY(inFront(w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))));
  }
};

QTEST_MAIN(LoadProgressTest)
#include "load_progress_test.moc"
