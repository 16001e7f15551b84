// The MLIR source with line numbers, syntax highlighting, wavy underlines
// at diagnostics (tooltips show the message) and the selected op's line
// highlighted. Editable (what-if): the main window re-parses the text on
// Apply; the editor keeps unapplied edits while other versions of the same
// module (propagation steps) are shown. Clicking a line selects its op.
//
// Lines longer than kMaxShownLine characters (kMaxShownLineLarge in sources
// over a megabyte; a function signature of an exported model can be
// 600,000) are shown in pieces, as Kate does with its
// line length limit: the text engine lays out and shapes a line as a whole,
// so one such line costs ~100 ms of the UI thread per layout and tens of ms
// per repaint. A continuation piece has "↪" instead of a line number, line
// and column positions (diagnostics, op lines, goToLine) are mapped onto the
// pieces, and the editor is read-only (edit shardings in the what-if panel;
// `text()` is the source as it really is). A line longer than kElideLine (a
// 50 MB dense literal on one line) shows its first kElideLine characters and
// then a note saying how many more there are: laying out the rest would take
// minutes and gigabytes for text nobody reads; Save and Apply still use all of it.
// A source whose shown text would pass kMaxEditorText (a million-op module
// is 100-200 MB) is shown up to the last line that fits, then a note saying which lines are
// not shown; a line past it (goToLine, a diagnostic) goes to the note. The
// editor is read-only then, and `text()` is still the whole source.
// prepare(doc) converts a document's text for the editor and finds its
// longest line on any thread (the loader's), so that showing it does not
// scan 100 MB on the UI thread.
#pragma once
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTimer>
#include <memory>
#include <string>
#include <vector>

#include "api/document.h"
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "core/picture_export.h"
#include "core/prepared_for_document.h"

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

  // Longest line shown whole; longer ones are shown in pieces of this length.
  // Large sources (filled in chunks) use the shorter limit: every visible
  // line is shaped as a whole at each repaint, so 40 visible pieces of
  // 10,000 characters (an exported signature) cost ~35 ms per frame.
  static constexpr qsizetype kMaxShownLine = 10000;
  static constexpr qsizetype kMaxShownLineLarge = 1000;
  // Characters of one line shown at most; the rest is elided with a note.
  static constexpr qsizetype kElideLine = 100000;
  // Characters of one line in a picture of the source (sourcePicture).
  static constexpr qsizetype kPictureLine = 1000;
  // The note shown after a line's first kElideLine characters.
  static QString elisionNote(qsizetype hidden);
  // The limit for the source shown now.
  qsizetype maxShownLine() const { return maxShownLine_; }
  // Characters of a source the editor holds at most (whole lines, then the
  // note saying what is not shown).
  static constexpr qsizetype kMaxEditorText = 16 * 1024 * 1024;
  // The source is longer than kMaxEditorText: the editor shows its first
  // lines only (up to shownLines()).
  bool isCapped() const { return capped_; }
  int shownLines() const { return static_cast<int>(lineStart_.size()); }
  // Where the editor stops showing `text`: the start of the first line that
  // would take it past kMaxEditorText (a line counts as the at most
  // kElideLine characters shown of it), else its end.
  static qsizetype shownEnd(QStringView text);
  // The note after the last line shown of a capped source.
  static QString capNote(int firstHiddenLine, int lastLine, qsizetype hiddenChars);
  // Converts `doc`'s text for the editor (editorText) and measures its
  // lines, on any thread, for the next document shown that is `doc`. One
  // document is kept; a newer prepare() replaces it.
  static void prepare(const std::shared_ptr<const api::Document>& doc);
  // `doc`'s text converted for the editor (editorText), on any thread. The
  // main window starts it as soon as the file's text is read
  // (api::AfterParse::read), on the other core beside the parse (converting
  // a 143 MB source takes ~1 s of one core):
  //   after.read = [&](const auto& doc) {
  //     converted = QtConcurrent::run(pool, [doc] { return SourceView::convert(*doc); });
  //   };
  //   auto doc = api::loadDocument(path, &progress, after);
  //   SourceView::prepare(doc, converted.takeResult());
  static QString convert(const api::Document& doc);
  // As prepare(doc), with `converted` = convert(*doc) (the text is not
  // converted again).
  static void prepare(const std::shared_ptr<const api::Document>& doc, QString converted);

  // The source text as it is (also while filling and with long lines split
  // in the editor): what Save writes and Apply re-parses.
  QString text() const;
  // Some line was longer than kMaxShownLine: shown in pieces, read-only.
  bool hasSplitLines() const { return split_; }
  // Some line was longer than kElideLine: its end is not shown.
  bool hasElidedLines() const { return elided_; }

  // A large text is put into the editor in chunks (the UI stays responsive);
  // true until the last chunk is in.
  bool isFilling() const { return fillPos_ >= 0; }

  // The text of the document last shown (what Apply last succeeded with,
  // or the file as loaded).
  const QString& appliedText() const { return appliedText_; }
  // A document's text as the editor shows it: without a byte order mark,
  // CRLF line ends as LF.
  static QString editorText(const std::string& fileText);
  // The editor holds text not yet applied (re-parsed) successfully.
  bool hasUnappliedEdits() const { return !isFilling() && text() != appliedText_; }
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
  // `text` as the editor shows it (long lines in pieces when split_); the
  // next part of the source after what was shown so far: records where each
  // of its lines starts.
  QString shownText(QStringView text);
  // Editor block (0-based) of source line `line` (1-based), and back.
  int blockOfLine(int line) const;
  int lineOfBlock(int block) const;
  // The last editor block of source line `line` (split_ only).
  int lastBlockOfLine(int line) const;
  // Cursor at source `line`, `col` (1-based; 0: line start).
  QTextCursor cursorAt(int line, int col) const;

  struct Prepared;
  static PreparedForDocument<Prepared>& prepared();
  // `converted` (when not null) is editorText(doc->text), made ahead.
  static std::unique_ptr<Prepared> prepareText(const std::shared_ptr<const api::Document>& doc,
                                               QString converted = {});

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
  qsizetype fillEnd_ = 0;      // where filling stops (the text's size unless capped_)
  bool capped_ = false;        // only the text up to fillEnd_ is shown (kMaxEditorText)
  int sourceLines_ = 0;        // lines of appliedText_ (counted when prepared)
  int filledBlocks_ = 0;       // editor blocks when the fill under way is complete
  QTimer* fillTimer_ = nullptr;
  int pendingLine_ = 0, pendingCol_ = 0;  // goToLine asked for while filling
  // Long lines shown in pieces: the source text (edited through replaceText)
  // and the first editor block of every source line.
  bool split_ = false;
  bool elided_ = false;
  qsizetype maxShownLine_ = kMaxShownLine;
  QString splitSource_;
  std::vector<int> lineStart_;
  int shownBlocks_ = 0;  // editor blocks started so far (split_ only)
};

}  // namespace shardscope::widgets
