// The MLIR source with line numbers, syntax highlighting, wavy underlines
// at diagnostics (tooltips show the message) and the selected op's line
// highlighted. Editable (what-if): the main window re-parses the text on
// Apply; the editor keeps unapplied edits while other versions of the same
// module (propagation steps) are shown. Clicking a line selects its op.
#pragma once
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTimer>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "picture_export.h"

namespace shardscope::widgets {

class DocumentState;

// Highlighting rules for MLIR with the sdy and stablehlo dialects.
class MlirHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit MlirHighlighter(QTextDocument* doc, bool dark = false);
  // Colours for a dark background (rehighlights when it changes).
  void setDark(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression re;
    QTextCharFormat format;
  };
  void buildRules();
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
  bool dark_ = false;
};

// Picture of `text` (or lines [first, last], 1-based, when given) with line
// numbers, highlighting, diagnostics underlined and listed below.
Picture sourcePicture(const QString& text, const std::vector<ir::Diagnostic>& diags,
                      int firstLine = 0, int lastLine = 0);

class SourceView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit SourceView(DocumentState* state, QWidget* parent = nullptr);

  void setDiagnostics(const std::vector<ir::Diagnostic>& diags);
  int lineNumberAreaWidth() const;
  // Picture of the whole source (or lines [first, last] when given) with
  // line numbers, highlighting and diagnostics, for export.
  Picture picture(int firstLine = 0, int lastLine = 0) const;

  // A large text is put into the editor in chunks (the UI stays responsive);
  // true until the last chunk is in.
  bool isFilling() const { return fillPos_ >= 0; }

  // The text of the document last shown (what Apply last succeeded with,
  // or the file as loaded).
  const QString& appliedText() const { return appliedText_; }
  // The editor holds text not yet applied (re-parsed) successfully.
  bool hasUnappliedEdits() const { return !isFilling() && toPlainText() != appliedText_; }
  // Replace the editor's text by `text` as one undoable edit (only the part
  // that differs is replaced, so the scroll position stays).
  void replaceText(const QString& text);
  // The next document shown replaces the editor's text even when it is the
  // same module (a reload after the user chose to discard edits).
  void discardEdits() { appliedText_ = QString(); }
  // Font scale (1: 13 px; presentation mode uses more).
  void setFontScale(double scale);
  double fontScale() const { return fontScale_; }
  // The op whose source line is `line` (1-based) in the shown document.
  const ir::Op* opAtLine(int line) const;

 public slots:
  // Move the cursor to `line` (1-based) and `col`, scroll it into view.
  void goToLine(int line, int col = 0);

 protected:
  void resizeEvent(QResizeEvent* e) override;
  bool event(QEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  friend class LineNumberArea;
  void paintLineNumbers(QPaintEvent* e);
  void updateExtraSelections();
  void onDocumentChanged();
  void onCursorMoved();
  void fillChunk();
  void finishFill();

  DocumentState* state_;
  QWidget* lineArea_;
  MlirHighlighter* highlighter_;
  std::vector<ir::Diagnostic> diags_;
  int currentOpLine_ = 0;
  QString appliedText_;
  double fontScale_ = 1.0;
  int cursorLine_ = 0;        // the block of the cursor when it last moved
  bool movingCursor_ = false;  // goToLine is moving it (no op selection)
  qsizetype fillPos_ = -1;     // next offset of appliedText_ to append (-1: not filling)
  QTimer* fillTimer_ = nullptr;
  int pendingLine_ = 0, pendingCol_ = 0;  // goToLine asked for while filling
};

}  // namespace shardscope::widgets
