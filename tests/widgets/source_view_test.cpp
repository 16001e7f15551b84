// The source view: text, highlighting, error underlines at diagnostics.
#include "source/source_view.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLocale>
#include <QMap>
#include <QMoveEvent>
#include <QTemporaryDir>
#include <cmath>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include "api/staged_load.h"
#include "core/document_state.h"
#include "core/theme_palette.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class SourceViewTest : public QObject {
  Q_OBJECT
 private slots:
  // The number of an error's line reads on the gutter's band, 4.5:1 at
  // least, in both themes: it was red on dark red in the dark theme (~2:1).
  void gutterNumbersReadOnTheirBand_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void gutterNumbersReadOnTheirBand() {
    QFETCH(bool, dark);
    applyTheme(dark ? Theme::Dark : Theme::Light);
    const test::BadInput& bad = test::kBadInputs[0];
    DocumentState state;
    SourceView view(&state);
    view.setPalette(QApplication::palette());
    view.resize(500, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    state.setDocument(api::parseDocument(bad.text, "bad.mlir"));
    QTest::qWait(50);
    const QTextBlock block = view.document()->findBlockByNumber(bad.line - 1);
    QVERIFY(block.isValid());
    QTextCursor cursor(block);
    const QRect line = view.cursorRect(cursor);
    const QImage img = view.grab().toImage();
    const qreal dpr = img.devicePixelRatio();
    const int gutter = view.lineNumberAreaWidth() - 2;
    // The band is the commonest colour of the row, the number its pixels of
    // most contrast with it.
    QMap<QRgb, int> count;
    const int y0 = line.top() + view.frameWidth(), y1 = line.bottom() + view.frameWidth();
    for (int y = y0; y <= y1; ++y)
      for (int x = 2; x < gutter; ++x) ++count[img.pixel(int(x * dpr), int(y * dpr))];
    QVERIFY(!count.isEmpty());
    QRgb band = count.firstKey();
    for (auto it = count.begin(); it != count.end(); ++it)
      if (it.value() > count.value(band)) band = it.key();
    double best = 1;
    for (auto it = count.begin(); it != count.end(); ++it) best = std::max(best, test::contrastRatio(QColor(it.key()), QColor(band)));
    applyTheme(Theme::Light);
    QVERIFY2(QColor(band).saturation() > 40, qPrintable(QColor(band).name()));  // the error's band
    QVERIFY2(best >= 4.5, qPrintable(QStringLiteral("number on %1 at %2:1").arg(QColor(band).name()).arg(best, 0, 'f', 2)));
  }

  void underlines_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    for (const auto& b : test::kBadInputs)
      QTest::newRow(b.name) << QString::fromUtf8(b.text) << b.line;
  }
  void underlines() {
    QFETCH(QString, text);
    QFETCH(int, line);
    DocumentState state;
    SourceView view(&state);
    state.setDocument(api::parseDocument(text.toStdString(), "bad.mlir"));
    QCOMPARE(view.toPlainText(), text);
    bool found = false;
    for (const auto& sel : view.extraSelections()) {
      if (sel.format.underlineStyle() != QTextCharFormat::WaveUnderline) continue;
      QCOMPARE(sel.cursor.block().blockNumber() + 1, line);
      QVERIFY(!sel.format.toolTip().isEmpty());
      found = true;
    }
    QVERIFY(found);
    const Picture pic = view.picture();
    QVERIFY(!pic.isNull());
  }

  // A file saved on Windows (CRLF line ends, a byte order mark) opens as
  // it is, not as "edited": the editor holds its lines without the '\r's.
  void windowsFileIsNotEdited_data() {
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("lineEnd");
    QTest::newRow("CRLF") << QString() << QStringLiteral("\r\n");
    QTest::newRow("BOM") << QStringLiteral("\uFEFF") << QStringLiteral("\n");
    QTest::newRow("BOM and CRLF") << QStringLiteral("\uFEFF") << QStringLiteral("\r\n");
  }
  void windowsFileIsNotEdited() {
    QFETCH(QString, prefix);
    QFETCH(QString, lineEnd);
    const QString text = prefix + QStringLiteral("func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {") +
                         lineEnd + QStringLiteral("  return %arg0 : tensor<4xf32>") + lineEnd +
                         QStringLiteral("}") + lineEnd;
    DocumentState state;
    SourceView view(&state);
    state.setDocument(api::parseDocument(text.toStdString(), "windows.mlir"));
    QVERIFY(state.document()->module);
    QVERIFY(!view.hasUnappliedEdits());
    QCOMPARE(view.document()->blockCount(), 4);
    QCOMPARE(view.document()->findBlockByNumber(1).text(), QStringLiteral("  return %arg0 : tensor<4xf32>"));
  }

  void highlighting() {
    DocumentState state;
    SourceView view(&state);
    state.setDocument(test::loadSample(QStringLiteral("matmul_chain.mlir")));
    QTRY_VERIFY(!view.document()->findBlockByNumber(20).layout()->formats().isEmpty());
  }

  void selectedOpLine() {
    DocumentState state;
    SourceView view(&state);
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    state.setDocument(doc);
    const ir::Op* tanh = state.findOp(QStringLiteral("stablehlo.tanh"));
    QVERIFY(tanh);
    state.selectOp(tanh);
    QCOMPARE(view.textCursor().blockNumber() + 1, int(tanh->loc().line));
  }

  // A line longer than kMaxShownLine (an exported signature) is shown in
  // pieces, read-only; positions map onto the pieces, text() stays whole.
  void longLinesInPieces_data() {
    QTest::addColumn<int>("padding");  // extra lines to make the source large
    QTest::newRow("small source") << 0;
    QTest::newRow("large source, filled in chunks") << 40000;
  }
  void longLinesInPieces() {
    QFETCH(int, padding);
    const qsizetype kLong = SourceView::kMaxShownLine;
    // 2.5 pieces' worth of arguments on line 3; a verifier error (unknown
    // mesh) on line 5, after the padding comments.
    QString args;
    for (int i = 0; args.size() < 2 * kLong + kLong / 2; ++i)
      args += QStringLiteral("%a%1: tensor<8xf32>, ").arg(i);
    args += QStringLiteral("%x: tensor<8xf32>");
    QString text = QStringLiteral("sdy.mesh @mesh = <[\"a\"=2]>\n// long signature\n") +
                   QStringLiteral("func.func @main(") + args + QStringLiteral(") -> tensor<8xf32> {\n");
    for (int i = 0; i < padding; ++i) text += QStringLiteral("  // padding line %1 ...........................\n").arg(i);
    text += QStringLiteral("  %0 = stablehlo.negate %x : tensor<8xf32>\n");
    text += QStringLiteral("  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@nomesh, [{}]>]>} : tensor<8xf32>\n");
    text += QStringLiteral("  return %1 : tensor<8xf32>\n}\n");
    const int negateLine = 4 + padding, errorLine = 5 + padding;
    const int longLine = 3;

    DocumentState state;
    SourceView view(&state);
    state.setDocument(api::parseDocument(text.toStdString(), "long.mlir"));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isFilling(), 20000);
    // Over a megabyte: the shorter limit.
    const qsizetype kMax = view.maxShownLine();
    QCOMPARE(kMax, text.size() > 1024 * 1024 ? SourceView::kMaxShownLineLarge : SourceView::kMaxShownLine);
    QVERIFY(view.hasSplitLines());
    QVERIFY(view.isReadOnly());
    QCOMPARE(view.text(), text);
    QVERIFY(!view.hasUnappliedEdits());
    // Every editor block is at most kMax long; the long line takes `pieces`
    // blocks, every other line one.
    for (QTextBlock b = view.document()->begin(); b.isValid(); b = b.next())
      QVERIFY(b.length() - 1 <= kMax);
    const int pieces = int((text.section(u'\n', 2, 2).size() + kMax - 1) / kMax);
    QCOMPARE(view.document()->blockCount(), text.count(u'\n') + 1 + pieces - 1);

    // The op on a line after the long one: selecting it moves the cursor to
    // its block, and clicking that block selects it again.
    const ir::Op* negate = state.findOp(QStringLiteral("stablehlo.negate"));
    QVERIFY(negate);
    QCOMPARE(int(negate->loc().line), negateLine);
    state.selectOp(negate);
    QCOMPARE(view.textCursor().block().text().trimmed().left(24), QStringLiteral("%0 = stablehlo.negate %x"));
    QCOMPARE(view.textCursor().blockNumber(), negateLine - 1 + pieces - 1);

    // The diagnostic (unknown mesh) underlines text on its line.
    QVERIFY(state.document()->hasErrors());
    bool underlined = false;
    for (const auto& sel : view.extraSelections()) {
      if (sel.format.underlineStyle() != QTextCharFormat::WaveUnderline) continue;
      QVERIFY(!sel.cursor.selectedText().isEmpty());
      QCOMPARE(sel.cursor.blockNumber(), errorLine - 1 + pieces - 1);
      underlined = true;
    }
    QVERIFY(underlined);

    // goToLine with a column past the first piece lands in the right piece.
    const qsizetype xAt = text.section(u'\n', 2, 2).indexOf(QStringLiteral("%x:"));
    view.goToLine(longLine, int(xAt) + 1);
    QCOMPARE(view.textCursor().blockNumber(), longLine - 1 + int(xAt / kMax));
    QVERIFY(view.textCursor().block().text().mid(view.textCursor().positionInBlock()).startsWith(QStringLiteral("%x:")));

    // An edit from the what-if panel replaces the text as a whole.
    QString edited = text;
    edited.replace(QStringLiteral("@nomesh"), QStringLiteral("@mesh"));
    view.replaceText(edited);
    QCOMPARE(view.text(), edited);
    QVERIFY(view.hasUnappliedEdits());
    QVERIFY(view.isReadOnly());
  }

  // Issue 12 item 11: a line of megabytes (a dense literal written on one
  // line) shows its first kElideLine characters and a note; the editor's
  // document stays small whatever the line's length, and text() is whole.
  void veryLongLineElided_data() {
    QTest::addColumn<int>("megabytes");
    QTest::newRow("1 MB line") << 1;
    QTest::newRow("8 MB line") << 8;
    QTest::newRow("50 MB line (the issue's)") << 50;
  }
  void veryLongLineElided() {
    QFETCH(int, megabytes);
    const qsizetype lineSize = qsizetype(megabytes) * 1024 * 1024;
    QString longLine = QStringLiteral("// ");
    longLine += QString(lineSize - longLine.size(), u'x');
    QString text = QStringLiteral("sdy.mesh @mesh = <[\"a\"=2]>\n") + longLine +
                   QStringLiteral("\nfunc.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
                                  "  %0 = stablehlo.negate %x : tensor<8xf32>\n"
                                  "  return %0 : tensor<8xf32>\n}\n");
    DocumentState state;
    SourceView view(&state);
    state.setDocument(api::parseDocument(text.toStdString(), "huge.mlir"));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isFilling(), 60000);
    QVERIFY(view.hasSplitLines());
    QVERIFY(view.hasElidedLines());
    QVERIFY(view.isReadOnly());
    QCOMPARE(view.text(), text);  // what Save writes
    // The long line: its first kElideLine characters in pieces, then the note.
    const qsizetype kMax = view.maxShownLine();
    const int pieces = int((SourceView::kElideLine + kMax - 1) / kMax);
    QCOMPARE(view.document()->blockCount(), text.count(u'\n') + 1 + pieces);
    const QTextBlock note = view.document()->findBlockByNumber(1 + pieces);
    QCOMPARE(note.text(), SourceView::elisionNote(longLine.size() - SourceView::kElideLine));
    QVERIFY(note.text().contains(QLocale(QLocale::English).toString(longLine.size() - SourceView::kElideLine)));
    QVERIFY(view.document()->characterCount() < 2 * SourceView::kElideLine);
    // Positions after the long line still map to their lines; a column in
    // the elided part goes to the note.
    const ir::Op* negate = state.findOp(QStringLiteral("stablehlo.negate"));
    QVERIFY(negate);
    state.selectOp(negate);
    QCOMPARE(view.textCursor().block().text().trimmed().left(22), QStringLiteral("%0 = stablehlo.negate "));
    view.goToLine(2, int(longLine.size() - 5));
    QCOMPARE(view.textCursor().blockNumber(), 1 + pieces);
    view.goToLine(2, 5);
    QCOMPARE(view.textCursor().blockNumber(), 1);
    // A picture of the source shows the long line's first kPictureLine
    // characters and the note: an image a viewer can open.
    const Picture pic = view.picture();
    QVERIFY(!pic.isNull());
    QVERIFY2(pic.size.width() < 16000, qPrintable(QString::number(pic.size.width())));
  }
  // A large source goes in by chunks; its line-number gutter is as wide as
  // the final line count needs from the first chunk on. Widening it as the
  // count passed 10,000 or 100,000 resized the editor's viewport, which lays
  // out every block filled so far again (the 208 ms stall of opening a
  // million ops in the main window).
  void gutterKeepsItsWidthWhileFilling_data() {
    QTest::addColumn<int>("lines");
    QTest::addColumn<int>("lineLength");  // characters of each padding line
    QTest::newRow("20,000 lines (passes 10,000)") << 20000 << 60;
    QTest::newRow("120,000 lines (passes 100,000)") << 120000 << 20;
    QTest::newRow("3,400 long lines in 3 pieces (passes 10,000 blocks)") << 3400 << 2100;
  }
  void gutterKeepsItsWidthWhileFilling() {
    QFETCH(int, lines);
    QFETCH(int, lineLength);
    QString text = QStringLiteral("func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n");
    for (int i = 0; i < lines; ++i) {
      QString line = QStringLiteral("  // padding %1 ").arg(i);
      line += QString(lineLength - line.size(), u'.');
      text += line + u'\n';
    }
    text += QStringLiteral("  return %x : tensor<8xf32>\n}\n");
    QVERIFY(text.size() > 1024 * 1024);  // filled in chunks

    // A wider gutter moves the viewport right (a scroll bar appearing only
    // narrows it, with a move event to the same place).
    struct MoveCounter : QObject {
      int moves = 0;
      bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Move) {
          const auto* m = static_cast<QMoveEvent*>(e);
          moves += m->pos() != m->oldPos();
        }
        return false;
      }
    } counter;
    DocumentState state;
    SourceView view(&state);
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    state.setDocument(api::parseDocument(text.toStdString(), "padded.mlir"));
    QVERIFY(view.isFilling());
    const int width = view.lineNumberAreaWidth();
    view.viewport()->installEventFilter(&counter);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isFilling(), 60000);
    QCOMPARE(view.text(), text);
    QCOMPARE(counter.moves, 0);
    QCOMPARE(view.lineNumberAreaWidth(), width);
    // The width is the one the final block count gives.
    int digits = 1;
    for (int n = view.document()->blockCount(); n >= 10; n /= 10) ++digits;
    QCOMPARE(width, 14 + view.fontMetrics().horizontalAdvance(u'9') * std::max(3, digits));
  }
  // The main window converts a large file's text for the editor on another
  // thread while the module is parsed (SourceView::convert, from
  // api::AfterParse::read); the view then shows those very characters, and
  // fills in the whole text. Without them it converts on its own.
  void textConvertedAheadIsTheOneShown_data() {
    QTest::addColumn<bool>("convertedAhead");
    QTest::newRow("converted ahead") << true;
    QTest::newRow("converted when shown") << false;
  }
  void textConvertedAheadIsTheOneShown() {
    QFETCH(bool, convertedAhead);
    QByteArray bytes = "func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n";
    for (int i = 0; i < 30000; ++i) bytes += "  // padding line " + QByteArray::number(i) + " ............\n";
    bytes += "  %0 = stablehlo.negate %x : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ahead.mlir"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
    }
    QString aheadText;
    api::AfterParse after;
    if (convertedAhead)
      after.read = [&](const std::shared_ptr<const api::Document>& read) {
        // Only the text is there yet.
        QVERIFY(!read->module);
        aheadText = SourceView::convert(*read);
      };
    auto doc = api::loadDocument(path.toStdString(), nullptr, after);
    QVERIFY(doc->module);
    if (convertedAhead) {
      QCOMPARE(aheadText, QString::fromUtf8(bytes));
      SourceView::prepare(doc, aheadText);
    } else {
      SourceView::prepare(doc);
    }
    DocumentState state;
    SourceView view(&state);
    state.setDocument(doc);
    QVERIFY(view.isFilling());  // over a megabyte
    QCOMPARE(view.text(), QString::fromStdString(doc->text));
    // The characters converted ahead are the ones shown.
    if (convertedAhead) QCOMPARE(view.text().constData(), aheadText.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isFilling(), 60000);
    QCOMPARE(view.toPlainText(), QString::fromStdString(doc->text));
  }
};

QTEST_MAIN(SourceViewTest)
#include "source_view_test.moc"
