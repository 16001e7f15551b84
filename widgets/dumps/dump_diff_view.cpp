#include "dumps/dump_diff_view.h"

#include <QEvent>
#include <QFontDatabase>
#include <QTextBlock>
#include <QTextCharFormat>

#include "core/theme_palette.h"

namespace shardscope::widgets {

DumpDiffView::DumpDiffView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setObjectName(QStringLiteral("dumpDiffView"));
}

void DumpDiffView::showMessage(const QString& message) {
  hasDiff_ = false;
  setPlainText(message);
}

void DumpDiffView::showDiff(const QString& title, const api::LineDiff& diff) {
  title_ = title;
  diff_ = diff;
  hasDiff_ = true;
  render();
}

void DumpDiffView::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && hasDiff_) render();
}

void DumpDiffView::render() {
  const QString& title = title_;
  const api::LineDiff& diff = diff_;
  clear();
  const bool dark = isDark(palette());
  QTextCharFormat head, same, removed, added, skipped;
  head.setFontWeight(QFont::Bold);
  same.setForeground(palette().color(QPalette::Text));
  removed.setForeground(dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x1c, 0x1c));
  removed.setBackground(dark ? QColor(0x4a, 0x1f, 0x1f) : QColor(0xfd, 0xe7, 0xe7));
  added.setForeground(dark ? QColor(0x9c, 0xe0, 0x9c) : QColor(0x1b, 0x6e, 0x1b));
  added.setBackground(dark ? QColor(0x1c, 0x3d, 0x1c) : QColor(0xe6, 0xf6, 0xe6));
  skipped.setForeground(palette().color(QPalette::PlaceholderText));
  skipped.setFontItalic(true);

  QTextCursor cursor(document());
  cursor.beginEditBlock();
  cursor.insertText(title + QStringLiteral("\n"), head);
  QString summary = tr("%n line(s) removed, ", nullptr, diff.removed) +
                    tr("%n line(s) added", nullptr, diff.added);
  if (diff.removed == 0 && diff.added == 0) summary = tr("no change");
  if (diff.truncated) summary += tr(" (too many changes to align: shown as one block)");
  cursor.insertText(summary + QStringLiteral("\n\n"), skipped);
  for (const api::DiffLine& line : diff.lines) {
    const QString text = QString::fromStdString(line.text);
    switch (line.kind) {
      case api::DiffLine::Kind::Same:
        cursor.insertText(QStringLiteral("  ") + text + QStringLiteral("\n"), same);
        break;
      case api::DiffLine::Kind::Removed:
        cursor.insertText(QStringLiteral("- ") + text + QStringLiteral("\n"), removed);
        break;
      case api::DiffLine::Kind::Added:
        cursor.insertText(QStringLiteral("+ ") + text + QStringLiteral("\n"), added);
        break;
      case api::DiffLine::Kind::Skipped:
        cursor.insertText(QStringLiteral("  ") + text + QStringLiteral("\n"), skipped);
        break;
    }
  }
  cursor.endEditBlock();
  moveCursor(QTextCursor::Start);
}

}  // namespace shardscope::widgets
