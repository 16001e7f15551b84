#include "source/source_view.h"

#include <QAbstractTextDocumentLayout>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>
#include <mutex>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

QFont sourceFont(double scale = 1.0) {
  QFont f(QStringLiteral("DejaVu Sans Mono"));
  f.setStyleHint(QFont::Monospace);
  f.setPixelSize(qRound(13 * scale));
  return f;
}

bool darkPalette(const QPalette& p) { return p.color(QPalette::Base).lightness() < 128; }

QTextCharFormat fmt(const QColor& c, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(c);
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

QColor severityColor(ir::Severity s) {
  switch (s) {
    case ir::Severity::Error:
      return QColor(0xd0, 0x10, 0x20);
    case ir::Severity::Warning:
      return QColor(0xd0, 0x80, 0x00);
    default:
      return QColor(0x20, 0x60, 0xc0);
  }
}

}  // namespace

MlirHighlighter::MlirHighlighter(QTextDocument* doc, bool dark)
    : QSyntaxHighlighter(doc), dark_(dark) {
  buildRules();
}

void MlirHighlighter::setDark(bool dark) {
  if (dark == dark_) return;
  dark_ = dark;
  buildRules();
  rehighlight();
}

void MlirHighlighter::buildRules() {
  rules_.clear();
  // Light colours on a dark background, dark ones on a light one.
  auto c = [this](QRgb light, QRgb dark) { return QColor::fromRgb(dark_ ? dark : light); };
  auto add = [&](const char* pattern, const QTextCharFormat& f) {
    rules_.push_back({QRegularExpression(QLatin1String(pattern)), f});
  };
  add(R"(\b(func\.func|func\.return|return|module|private|cond|do|reducer|across|dimensions|init|in_shardings|out_shardings|manual_axes|group_id|allowed_direction|sharding|dims|contracting_dims|batching_dims)\b)",
      fmt(c(0x7b1fa2, 0xd7a6f0), true));
  add(R"(\b(tensor|mesh|i1|i8|i32|i64|f16|bf16|f32|f64|index)\b)", fmt(c(0x007070, 0x5fd4d4)));
  add(R"(\b(stablehlo|sdy|func|chlo|mhlo)\.[A-Za-z_][A-Za-z0-9_.]*)",
      fmt(c(0x1a4fa0, 0x82b4ff), true));
  add(R"(#sdy\.[A-Za-z_]+|#stablehlo(\.[A-Za-z_]+)?)", fmt(c(0xa05000, 0xf0a860)));
  add(R"(@[A-Za-z_][A-Za-z0-9_$.]*)", fmt(c(0x8a3a00, 0xf0b070), true));
  add(R"(%[A-Za-z0-9_$.#:]+)", fmt(c(0x2e6b2e, 0x8fd88f)));
  add(R"("[^"\\]*(\\.[^"\\]*)*")", fmt(c(0xb71c1c, 0xff8a80)));
  add(R"(\?)", fmt(c(0x808080, 0xa0a0a0), true));
  add(R"(\bp[0-9]+\b)", fmt(c(0xc2185b, 0xff80ab), true));
  comment_ = fmt(c(0x6a737d, 0x8b949e), false, true);
}

void MlirHighlighter::highlightBlock(const QString& text) {
  // Comments first (and stop rules inside them).
  qsizetype commentAt = -1;
  bool inString = false;
  for (qsizetype i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == u'"' && (i == 0 || text[i - 1] != u'\\')) inString = !inString;
    if (!inString && text[i] == u'/' && text[i + 1] == u'/') {
      commentAt = i;
      break;
    }
  }
  const QString code = commentAt >= 0 ? text.left(commentAt) : text;
  for (const Rule& r : rules_) {
    auto it = r.re.globalMatch(code);
    while (it.hasNext()) {
      auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()),
                r.format);
    }
  }
  if (commentAt >= 0)
    setFormat(static_cast<int>(commentAt), static_cast<int>(text.size() - commentAt), comment_);
}

class LineNumberArea : public QWidget {
 public:
  explicit LineNumberArea(SourceView* view) : QWidget(view), view_(view) {}
  QSize sizeHint() const override { return {view_->lineNumberAreaWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* e) override { view_->paintLineNumbers(e); }

 private:
  SourceView* view_;
};

SourceView::SourceView(DocumentState* state, QWidget* parent)
    : QPlainTextEdit(parent), state_(state), lineArea_(new LineNumberArea(this)) {
  setFont(sourceFont());
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabChangesFocus(false);
  highlighter_ = new MlirHighlighter(document(), darkPalette(palette()));
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, &SourceView::onCursorMoved);
  connect(this, &QPlainTextEdit::blockCountChanged, this,
          [this] { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
    if (dy)
      lineArea_->scroll(0, dy);
    else
      lineArea_->update(0, rect.y(), lineArea_->width(), rect.height());
  });
  setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
  if (state_) {
    connect(state_, &DocumentState::documentChanged, this, &SourceView::onDocumentChanged);
    connect(state_, &DocumentState::selectionChanged, this, [this] {
      const ir::Op* op = state_->selectedOp();
      const int line = op ? static_cast<int>(op->loc().line) : 0;
      if (line == currentOpLine_) return;
      currentOpLine_ = line;
      updateExtraSelections();
      // Scroll to it unless the cursor is already there (a click on the line).
      if (line > 0 && textCursor().blockNumber() != line - 1) goToLine(line);
    });
  }
}

// The text as the editor holds it: QPlainTextEdit keeps no '\r' at line
// ends and no byte order mark, so a file saved on Windows compared as it
// was read would count as edited the moment it opens (and Apply would
// re-read a text that differs only in them: the reader skips both).
QString SourceView::editorText(const std::string& fileText) {
  QString text = toQString(fileText);
  if (text.startsWith(QChar(0xFEFF))) text.remove(0, 1);
  if (text.contains(u'\r')) text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
  return text;
}

struct SourceView::Prepared {
  std::weak_ptr<const api::Document> doc;
  QString text;               // editorText(doc->text)
  qsizetype longestLine = 0;  // characters
  int lines = 0;              // as the line numbers count them
  qsizetype shownEnd = 0;     // where the editor stops (shownEnd())
  int filledBlocks = 0;       // editor blocks once filled in chunks (0: set at once)
};

namespace {
// A source larger than this goes into the editor by chunks from a timer.
constexpr qsizetype kFillLimit = 1024 * 1024;

// Editor blocks of `text` shown with lines longer than `maxShown` in pieces
// (when `split`) and lines over kElideLine elided with a note block, as
// shownText builds them: one per line, plus the extra pieces and notes.
int shownBlockCount(QStringView text, bool split, qsizetype maxShown) {
  int blocks = 1;
  for (qsizetype pos = 0; pos < text.size();) {
    qsizetype nl = text.indexOf(u'\n', pos);
    const bool newline = nl >= 0;
    if (!newline) nl = text.size();
    if (split) {
      const qsizetype len = nl - pos;
      const qsizetype shown = std::min(len, SourceView::kElideLine);
      blocks += int(std::max<qsizetype>(1, (shown + maxShown - 1) / maxShown)) - 1;
      blocks += len > shown ? 1 : 0;
    }
    blocks += newline ? 1 : 0;
    pos = nl + 1;
  }
  return blocks;
}
}  // namespace

qsizetype SourceView::shownEnd(QStringView text) {
  // What the editor holds of a line: at most kElideLine characters (then a
  // note), so a 50 MB line counts as 100,000.
  qsizetype shown = 0;
  for (qsizetype pos = 0; pos < text.size();) {
    qsizetype nl = text.indexOf(u'\n', pos);
    if (nl < 0) nl = text.size();
    shown += std::min(nl - pos, kElideLine) + 1;
    if (shown > kMaxEditorText && pos > 0) return pos;
    pos = nl + 1;
  }
  return text.size();
}

// The one text prepared off the UI thread.
PreparedForDocument<SourceView::Prepared>& SourceView::prepared() {
  static PreparedForDocument<Prepared> slot;
  return slot;
}

std::unique_ptr<SourceView::Prepared> SourceView::prepareText(
    const std::shared_ptr<const api::Document>& doc, QString converted) {
  auto p = std::make_unique<Prepared>();
  p->doc = doc;
  if (!doc) return p;
  p->text = converted.isNull() ? editorText(doc->text) : std::move(converted);
  for (qsizetype pos = 0; pos < p->text.size();) {
    qsizetype nl = p->text.indexOf(u'\n', pos);
    if (nl < 0) nl = p->text.size();
    p->longestLine = std::max(p->longestLine, nl - pos);
    ++p->lines;
    pos = nl + 1;
  }
  p->shownEnd = shownEnd(p->text);
  if (p->text.size() > kFillLimit) {
    // The gutter is as wide as the final line count needs from the first
    // chunk on: widening it as the count passes 10,000 or 100,000 lays out
    // every block filled so far again (220 ms at 100,000 lines).
    const bool split = p->longestLine > kMaxShownLineLarge || p->shownEnd < p->text.size();
    p->filledBlocks = shownBlockCount(QStringView(p->text).left(p->shownEnd), split, kMaxShownLineLarge);
  }
  return p;
}

void SourceView::prepare(const std::shared_ptr<const api::Document>& doc) {
  prepared().put(prepareText(doc));
}

QString SourceView::convert(const api::Document& doc) { return editorText(doc.text); }

void SourceView::prepare(const std::shared_ptr<const api::Document>& doc, QString converted) {
  prepared().put(prepareText(doc, std::move(converted)));
}

QString SourceView::capNote(int firstHiddenLine, int lastLine, qsizetype hiddenChars) {
  const QLocale en(QLocale::English);
  return QStringLiteral("\u22EF lines %1\u2013%2 (%3 more characters) are not shown: the "
                        "editor holds the first %4 MB of a source (the file is kept whole: "
                        "Save writes it, Apply re-reads it)")
      .arg(en.toString(firstHiddenLine), en.toString(lastLine), en.toString(hiddenChars))
      .arg(kMaxEditorText / (1024 * 1024));
}

void SourceView::onDocumentChanged() {
  const auto& doc = state_->document();
  currentOpLine_ = 0;
  // The text converted and measured on the loader's thread when it was
  // prepared, else here.
  std::unique_ptr<Prepared> prepared = SourceView::prepared().take(doc.get());
  if (!prepared) prepared = prepareText(doc);
  const QString text = std::move(prepared->text);
  sourceLines_ = prepared->lines;
  // Same text as before (a propagation step): keep the editor as it is, with
  // any unapplied edits. Text just applied (equal to the editor's): keep the
  // scroll position and the undo history. Otherwise a new file.
  const bool filling = isFilling();
  const bool sameAsShown = text == appliedText_ || (!capped_ && text == this->text());
  if (filling) {
    // A new document while the previous one is still going in.
    fillTimer_->stop();
    fillPos_ = -1;
    setReadOnly(false);
    document()->setUndoRedoEnabled(true);
  }
  if (filling || !sameAsShown) {
    movingCursor_ = true;
    // Long lines: shown in pieces, the editor read-only (see the header).
    // A source over kMaxEditorText: its first lines only, read-only too.
    elided_ = false;
    maxShownLine_ = text.size() > kFillLimit ? kMaxShownLineLarge : kMaxShownLine;
    fillEnd_ = prepared->shownEnd;
    capped_ = fillEnd_ < text.size();
    split_ = prepared->longestLine > maxShownLine_ || capped_;
    splitSource_ = split_ ? text : QString();
    lineStart_.clear();
    shownBlocks_ = 0;
    setReadOnly(split_);
    // Highlighting a multi-megabyte export line by line blocks the UI thread
    // for seconds: large sources are shown plain.
    constexpr qsizetype kHighlightLimit = 2 * 1024 * 1024;
    if (highlighter_) highlighter_->setDocument(text.size() > kHighlightLimit ? nullptr : document());
    // Setting megabytes at once blocks the UI thread for seconds too: a large
    // text goes in by chunks from a timer, read-only until complete.
    pendingLine_ = pendingCol_ = 0;
    if (text.size() > kFillLimit) {
      const bool modified = document()->isModified();
      setPlainText(QString());
      document()->setModified(modified);
      document()->setUndoRedoEnabled(false);
      setReadOnly(true);
      fillPos_ = 0;
      filledBlocks_ = prepared->filledBlocks;
      setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
      if (!fillTimer_) {
        fillTimer_ = new QTimer(this);
        fillTimer_->setInterval(0);
        connect(fillTimer_, &QTimer::timeout, this, &SourceView::fillChunk);
      }
      fillTimer_->start();
    } else {
      setPlainText(shownText(text));
    }
    movingCursor_ = false;
    cursorLine_ = 0;
  }
  appliedText_ = text;
  setDiagnostics(doc ? doc->diagnostics : std::vector<ir::Diagnostic>{});
}

void SourceView::fillChunk() {
  if (!isFilling()) return;
  constexpr qsizetype kChunk = 64 * 1024;
  const qsizetype size = fillEnd_;
  qsizetype end = std::min(size, fillPos_ + kChunk);
  if (end < size) {
    // End the chunk after a newline so no line is split between two appends.
    const qsizetype nl = appliedText_.indexOf(u'\n', end);
    end = nl < 0 ? size : std::min(size, nl + 1);
  }
  const bool modified = document()->isModified();
  movingCursor_ = true;
  QTextCursor c(document());
  c.movePosition(QTextCursor::End);
  c.insertText(shownText(QStringView(appliedText_).mid(fillPos_, end - fillPos_)));
  movingCursor_ = false;
  document()->setModified(modified);
  fillPos_ = end;
  if (fillPos_ >= size) finishFill();
}

void SourceView::finishFill() {
  fillTimer_->stop();
  fillPos_ = -1;
  if (capped_) {
    // The note, in the editor's last (empty) block: it has no line number.
    const qsizetype hidden = appliedText_.size() - fillEnd_;
    QTextCursor c(document());
    c.movePosition(QTextCursor::End);
    c.insertText(capNote(shownLines() + 1, sourceLines_, hidden));
    document()->setModified(false);
  }
  document()->setUndoRedoEnabled(true);
  setReadOnly(split_);
  movingCursor_ = true;
  setTextCursor(QTextCursor(document()));
  movingCursor_ = false;
  cursorLine_ = 0;
  updateExtraSelections();
  lineArea_->update();
  if (pendingLine_ > 0) goToLine(pendingLine_, pendingCol_);
  pendingLine_ = pendingCol_ = 0;
}

const ir::Op* SourceView::opAtLine(int line) const {
  const ir::Module* m = state_ ? state_->module() : nullptr;
  if (!m || line <= 0) return nullptr;
  const ir::Op* found = nullptr;
  for (const auto& top : m->body().ops())
    top->walk([&](ir::Op& op) {
      if (!found && static_cast<int>(op.loc().line) == line && !op.is("sdy.mesh")) found = &op;
    });
  return found;
}

void SourceView::onCursorMoved() {
  const int line = lineOfBlock(textCursor().blockNumber());
  if (line == cursorLine_) return;
  cursorLine_ = line;
  if (movingCursor_ || !state_ || !state_->document()) return;
  // Line numbers only match the document while no line was added or removed
  // (a split source is read-only: they always do).
  if (!split_ && appliedText_.count(u'\n') + 1 != blockCount()) return;
  const ir::Op* op = opAtLine(line);
  if (op && op != state_->selectedOp()) state_->selectOp(op);
}

void SourceView::replaceText(const QString& text) {
  if (split_) {
    // Read-only pieces: show the new text as a whole, keep the scroll position.
    if (text == splitSource_) return;
    const int h = horizontalScrollBar()->value(), v = verticalScrollBar()->value();
    splitSource_ = text;
    lineStart_.clear();
    shownBlocks_ = 0;
    elided_ = false;
    movingCursor_ = true;
    if (capped_) {
      const qsizetype end = shownEnd(text);
      const int lines = static_cast<int>(text.count(u'\n')) + (text.endsWith(u'\n') ? 0 : 1);
      QString shown = shownText(QStringView(text).left(end));
      setPlainText(shown + capNote(shownLines() + 1, lines, text.size() - end));
    } else {
      setPlainText(shownText(text));
    }
    movingCursor_ = false;
    document()->setModified(text != appliedText_);
    updateExtraSelections();
    horizontalScrollBar()->setValue(h);
    verticalScrollBar()->setValue(v);
    return;
  }
  const QString old = toPlainText();
  if (old == text) return;
  qsizetype prefix = 0;
  const qsizetype n = std::min(old.size(), text.size());
  while (prefix < n && old[prefix] == text[prefix]) ++prefix;
  qsizetype suffix = 0;
  while (suffix < n - prefix && old[old.size() - 1 - suffix] == text[text.size() - 1 - suffix])
    ++suffix;
  QTextCursor c(document());
  c.setPosition(static_cast<int>(prefix));
  c.setPosition(static_cast<int>(old.size() - suffix), QTextCursor::KeepAnchor);
  const int h = horizontalScrollBar()->value(), v = verticalScrollBar()->value();
  c.insertText(text.mid(prefix, text.size() - suffix - prefix));
  horizontalScrollBar()->setValue(h);
  verticalScrollBar()->setValue(v);
}

void SourceView::setFontScale(double scale) {
  fontScale_ = scale;
  setFont(sourceFont(scale));
  setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
  const QRect cr = contentsRect();
  lineArea_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void SourceView::changeEvent(QEvent* e) {
  QPlainTextEdit::changeEvent(e);
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
    highlighter_->setDark(darkPalette(palette()));
    updateExtraSelections();
    lineArea_->update();
  }
}

int SourceView::lineNumberAreaWidth() const {
  int digits = 1;
  const int blocks = isFilling() ? std::max(blockCount(), filledBlocks_) : blockCount();
  for (int max = std::max(1, blocks); max >= 10; max /= 10) ++digits;
  return 14 + fontMetrics().horizontalAdvance(u'9') * std::max(3, digits);
}

void SourceView::resizeEvent(QResizeEvent* e) {
  QPlainTextEdit::resizeEvent(e);
  const QRect cr = contentsRect();
  lineArea_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void SourceView::paintLineNumbers(QPaintEvent* e) {
  QPainter p(lineArea_);
  const bool dark = darkPalette(palette());
  p.fillRect(e->rect(), dark ? palette().color(QPalette::Window) : QColor(0xf3, 0xf3, 0xf3));
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  p.setFont(font());
  while (block.isValid() && top <= e->rect().bottom()) {
    const int number = lineOfBlock(block.blockNumber());
    const bool continuation = blockOfLine(number) != block.blockNumber();
    if (block.isVisible() && bottom >= e->rect().top() && number > 0) {
      auto diag = std::find_if(diags_.begin(), diags_.end(), [&](const ir::Diagnostic& d) {
        return static_cast<int>(d.loc.line) == number;
      });
      if (diag != diags_.end()) {
        // The number in a shade of the band's hue that reads on it (4.5:1):
        // the plain severity colour was red on dark red in the dark theme
        // (~2:1) and red on pink in the light one (~3:1).
        const QColor c = severityColor(diag->severity);
        p.fillRect(QRect(0, top, lineArea_->width(), bottom - top), dark ? c.darker(250) : c.lighter(185));
        p.setPen(dark ? readableOn(c, true).lighter(115) : c.darker(170));
      } else {
        p.setPen(number == currentOpLine_ ? palette().color(QPalette::Text)
                                          : QColor(dark ? 0x70 : 0x99, dark ? 0x70 : 0x99,
                                                   dark ? 0x70 : 0x99));
      }
      p.drawText(0, top, lineArea_->width() - 6, fontMetrics().height(), Qt::AlignRight,
                 continuation ? QStringLiteral("\u21aa") : QString::number(number));
    }
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
  }
}

void SourceView::setDiagnostics(const std::vector<ir::Diagnostic>& diags) {
  diags_ = diags;
  updateExtraSelections();
  lineArea_->update();
}

namespace {
// The range a diagnostic underlines: from its column to the end of the
// token (or the rest of the line when the column is unknown).
// `at` is the diagnostic's position in the editor (its block and column).
QTextCursor diagnosticCursor(const QTextCursor& at, const ir::Diagnostic& d) {
  const QTextBlock block = at.block();
  if (at.isNull() || !block.isValid()) return {};
  QTextCursor c(block);
  const QString text = block.text();
  int start = d.loc.col > 0 ? at.positionInBlock() : 0;
  if (d.loc.col == 0)
    while (start < text.size() && text[start].isSpace()) ++start;
  int end = start;
  if (d.loc.col > 0) {
    while (end < text.size() && !text[end].isSpace() && text[end] != u',' && text[end] != u')')
      ++end;
    if (end == start) end = std::min(static_cast<int>(text.size()), start + 1);
  } else {
    end = static_cast<int>(text.size());
  }
  if (end == start && start > 0) --start;  // at end of line: underline the last char
  c.setPosition(block.position() + start);
  c.setPosition(block.position() + std::max(end, start), QTextCursor::KeepAnchor);
  return c;
}

// The same in a document shown as it is (no pieces).
QTextCursor diagnosticCursor(QTextDocument* doc, const ir::Diagnostic& d) {
  const QTextBlock b = doc->findBlockByNumber(static_cast<int>(d.loc.line) - 1);
  if (!b.isValid()) return {};
  QTextCursor at(b);
  if (d.loc.col > 0) at.setPosition(b.position() + std::min(static_cast<int>(d.loc.col) - 1, b.length() - 1));
  return diagnosticCursor(at, d);
}
}  // namespace

void SourceView::updateExtraSelections() {
  if (isFilling()) {  // lines still missing: set when the text is complete
    setExtraSelections({});
    return;
  }
  QList<QTextEdit::ExtraSelection> sels;
  if (currentOpLine_ > 0) {
    QTextEdit::ExtraSelection s;
    s.format.setBackground(darkPalette(palette()) ? QColor(0x4a, 0x44, 0x20)
                                                  : QColor(0xff, 0xf8, 0xc5));
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.cursor = QTextCursor(document()->findBlockByNumber(blockOfLine(currentOpLine_)));
    sels << s;
  }
  for (const ir::Diagnostic& d : diags_) {
    if (!d.loc.known()) continue;
    QTextEdit::ExtraSelection s;
    s.cursor = diagnosticCursor(cursorAt(static_cast<int>(d.loc.line), static_cast<int>(d.loc.col)), d);
    if (s.cursor.isNull()) continue;
    s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    s.format.setUnderlineColor(severityColor(d.severity));
    s.format.setToolTip(toQString(d.message));
    sels << s;
  }
  setExtraSelections(sels);
}

bool SourceView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const QPoint vp = viewport()->mapFrom(this, he->pos());
    const int line = lineOfBlock(cursorForPosition(vp).blockNumber());
    QStringList msgs;
    for (const ir::Diagnostic& d : diags_)
      if (static_cast<int>(d.loc.line) == line) msgs << toQString(d.format(""));
    if (!msgs.isEmpty()) {
      QToolTip::showText(he->globalPos(), msgs.join(u'\n'), this);
      return true;
    }
    QToolTip::hideText();
    e->ignore();
    return true;
  }
  return QPlainTextEdit::event(e);
}

void SourceView::goToLine(int line, int col) {
  if (isFilling()) {  // after the last chunk
    pendingLine_ = line;
    pendingCol_ = col;
    return;
  }
  const QTextCursor c = cursorAt(line, col);
  if (c.isNull()) return;
  movingCursor_ = true;
  setTextCursor(c);
  movingCursor_ = false;
  centerCursor();
}

Picture SourceView::picture(int firstLine, int lastLine) const {
  return sourcePicture(text(), diags_, firstLine, lastLine);
}

QString SourceView::text() const {
  if (isFilling()) return appliedText_;
  return split_ ? splitSource_ : toPlainText();
}

QString SourceView::shownText(QStringView text) {
  if (!split_) return text.toString();
  QString out;
  out.reserve(text.size() + text.size() / maxShownLine_ + 1);
  for (qsizetype pos = 0; pos < text.size();) {
    qsizetype nl = text.indexOf(u'\n', pos);
    const bool newline = nl >= 0;
    if (!newline) nl = text.size();
    lineStart_.push_back(shownBlocks_);
    const qsizetype len = nl - pos;
    const qsizetype shown = std::min(len, kElideLine);
    const qsizetype pieces = std::max<qsizetype>(1, (shown + maxShownLine_ - 1) / maxShownLine_);
    for (qsizetype k = 0; k < pieces; ++k) {
      if (k) out += u'\n';
      out += text.mid(pos + k * maxShownLine_, std::min(maxShownLine_, shown - k * maxShownLine_));
    }
    // A line too long to lay out: a note block instead of the rest.
    const bool elide = len > shown;
    if (elide) {
      out += u'\n';
      out += elisionNote(len - shown);
      elided_ = true;
    }
    if (newline) out += u'\n';
    // Where the next line starts (past the text's end when it has no newline).
    shownBlocks_ += static_cast<int>(pieces) + (elide ? 1 : 0);
    pos = nl + 1;
  }
  return out;
}

int SourceView::blockOfLine(int line) const {
  if (!split_) return line - 1;
  const size_t i = static_cast<size_t>(std::max(line, 1) - 1);
  if (i < lineStart_.size()) return lineStart_[i];
  if (capped_) return shownBlocks_;  // a line not shown: the note
  return shownBlocks_ + static_cast<int>(i - lineStart_.size());  // the empty line after a final newline
}

int SourceView::lastBlockOfLine(int line) const {
  const size_t next = static_cast<size_t>(std::max(line, 1));  // 0-based index of the next line
  if (next < lineStart_.size()) return lineStart_[next] - 1;
  return next == lineStart_.size() ? shownBlocks_ - 1 : blockOfLine(line);
}

QString SourceView::elisionNote(qsizetype hidden) {
  return QStringLiteral("\u22EF %1 more characters of this line are not shown "
                        "(the file is kept whole: Save writes them)")
      .arg(QLocale(QLocale::English).toString(hidden));
}

int SourceView::lineOfBlock(int block) const {
  if (!split_) return block + 1;
  if (capped_ && block >= shownBlocks_) return 0;  // the note: no line
  if (block >= shownBlocks_) return static_cast<int>(lineStart_.size()) + 1 + (block - shownBlocks_);
  return static_cast<int>(std::upper_bound(lineStart_.begin(), lineStart_.end(), block) - lineStart_.begin());
}

QTextCursor SourceView::cursorAt(int line, int col) const {
  int block = blockOfLine(line);
  int inBlock = col > 0 ? col - 1 : 0;
  if (split_) {
    // A column in the elided end of a line: the note after its last piece.
    const int last = lastBlockOfLine(line);
    const qsizetype piece = inBlock / maxShownLine_;
    if (inBlock >= kElideLine || block + piece > last) {
      block = last;
      inBlock = 0;
    } else {
      block += static_cast<int>(piece);
      inBlock %= static_cast<int>(maxShownLine_);
    }
  }
  const QTextBlock b = document()->findBlockByNumber(block);
  if (!b.isValid()) return {};
  QTextCursor c(b);
  c.setPosition(b.position() + std::min(inBlock, b.length() - 1));
  return c;
}

Picture sourcePicture(const QString& sourceText, const std::vector<ir::Diagnostic>& diags_,
                      int firstLine, int lastLine) {
  // Render a fresh document (laid out as a whole, independent of the
  // viewport) with the same highlighter; diagnostics become permanent
  // underline formats.
  auto doc = std::make_shared<QTextDocument>();
  doc->setDefaultFont(sourceFont());
  doc->setDocumentMargin(0);
  QString text = sourceText;
  if (text.endsWith(u'\n')) text.chop(1);
  const QStringList all = text.split(u'\n');
  const int first = firstLine > 0 ? std::min<int>(firstLine, static_cast<int>(all.size())) : 1;
  const int last = lastLine > 0 ? std::min<int>(lastLine, static_cast<int>(all.size()))
                                : static_cast<int>(all.size());
  QStringList shown = all.mid(first - 1, last - first + 1);
  // A picture is one image: a line of megabytes would make it minutes to lay
  // out and too wide to draw, so long lines end with the elision note.
  for (QString& line : shown)
    if (line.size() > SourceView::kPictureLine)
      line = line.left(SourceView::kPictureLine) + QStringLiteral("  ") +
             SourceView::elisionNote(line.size() - SourceView::kPictureLine);
  text = shown.join(u'\n');
  doc->setPlainText(text);
  QTextOption opt;
  opt.setWrapMode(QTextOption::NoWrap);
  doc->setDefaultTextOption(opt);
  auto* highlighter = new MlirHighlighter(doc.get());  // owned by doc
  highlighter->rehighlight();                          // now: no event loop is needed
  for (ir::Diagnostic d : diags_) {
    if (!d.loc.known() || static_cast<int>(d.loc.line) < first ||
        static_cast<int>(d.loc.line) > last)
      continue;
    d.loc.line -= static_cast<uint32_t>(first - 1);
    QTextCursor c = diagnosticCursor(doc.get(), d);
    if (c.isNull()) continue;
    QTextCharFormat f;
    f.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    f.setUnderlineColor(severityColor(d.severity));
    f.setBackground(severityColor(d.severity).lighter(190));
    c.mergeCharFormat(f);
  }
  doc->adjustSize();
  const QFontMetricsF fm(sourceFont());
  int digits = 1;
  for (int m = std::max(1, last); m >= 10; m /= 10) ++digits;
  const qreal gutter = 14 + fm.horizontalAdvance(u'9') * std::max(3, digits);
  // Diagnostics listed below the code.
  QStringList diagLines;
  for (const ir::Diagnostic& d : diags_)
    if (!d.loc.known() ||
        (static_cast<int>(d.loc.line) >= first && static_cast<int>(d.loc.line) <= last))
      diagLines << QStringLiteral("%1:%2: %3: %4")
                       .arg(d.loc.line)
                       .arg(d.loc.col)
                       .arg(d.severity == ir::Severity::Error ? QStringLiteral("error")
                                                              : QStringLiteral("note"),
                            toQString(d.message));
  const qreal diagH = diagLines.isEmpty() ? 0 : 16 + diagLines.size() * (fm.height() + 2);
  qreal diagW = 0;
  for (const QString& l : diagLines) diagW = std::max(diagW, fm.horizontalAdvance(l));
  Picture pic;
  pic.size =
      QSizeF(std::max(gutter + doc->size().width() + 8, diagW + 8), doc->size().height() + diagH);
  const std::vector<ir::Diagnostic> diags = diags_;
  pic.paint = [doc, gutter, first, fm, diagLines, diags](QPainter& p) {
    p.save();
    // Gutter with line numbers.
    p.fillRect(QRectF(0, 0, gutter - 4, doc->size().height()), QColor(0xf3, 0xf3, 0xf3));
    p.setFont(doc->defaultFont());
    QTextBlock b = doc->begin();
    int n = first;
    for (; b.isValid(); b = b.next(), ++n) {
      const QRectF r = doc->documentLayout()->blockBoundingRect(b);
      const bool bad = std::any_of(diags.begin(), diags.end(), [&](const ir::Diagnostic& d) {
        return static_cast<int>(d.loc.line) == n && d.severity == ir::Severity::Error;
      });
      p.setPen(bad ? QColor(0xd0, 0x10, 0x20) : QColor(0x99, 0x99, 0x99));
      p.drawText(QRectF(0, r.top(), gutter - 10, r.height()), Qt::AlignRight | Qt::AlignVCenter,
                 QString::number(n));
    }
    p.translate(gutter, 0);
    // Always light (exports keep light colours whatever the theme).
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette.setColor(QPalette::Text, Qt::black);
    doc->documentLayout()->draw(&p, ctx);
    p.translate(-gutter, doc->size().height() + 12);
    for (const QString& l : diagLines) {
      p.setPen(QColor(0xd0, 0x10, 0x20));
      p.drawText(QPointF(0, fm.ascent()), l);
      p.translate(0, fm.height() + 2);
    }
    p.restore();
  };
  return pic;
}

}  // namespace shardscope::widgets
