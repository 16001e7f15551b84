// The MLIR source with line numbers, syntax highlighting, wavy underlines
// at diagnostics (tooltips show the message) and the selected op's line
// highlighted. Read-only.
#pragma once
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <vector>

#include "ir/diagnostics.h"
#include "picture_export.h"

namespace shardscope::widgets {

class DocumentState;

// Highlighting rules for MLIR with the sdy and stablehlo dialects.
class MlirHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit MlirHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression re;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
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

 public slots:
  // Move the cursor to `line` (1-based) and `col`, scroll it into view.
  void goToLine(int line, int col = 0);

 protected:
  void resizeEvent(QResizeEvent* e) override;
  bool event(QEvent* e) override;

 private:
  friend class LineNumberArea;
  void paintLineNumbers(QPaintEvent* e);
  void updateExtraSelections();
  void onDocumentChanged();

  DocumentState* state_;
  QWidget* lineArea_;
  MlirHighlighter* highlighter_;
  std::vector<ir::Diagnostic> diags_;
  int currentOpLine_ = 0;
};

}  // namespace shardscope::widgets
