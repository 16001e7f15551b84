// The source view: text, highlighting, error underlines at diagnostics.
#include "source_view.h"

#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include "document_state.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

class SourceViewTest : public QObject {
  Q_OBJECT
 private slots:
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
};

QTEST_MAIN(SourceViewTest)
#include "source_view_test.moc"
