#include "middle_elided_label.h"

#include <QEvent>
#include <QFontMetrics>
#include <algorithm>

namespace shardscope::scw {

MiddleElidedLabel::MiddleElidedLabel(const QString& text, QWidget* parent) : QLabel(parent) {
  setTextFormat(Qt::PlainText);
  setWordWrap(false);
  setFullText(text);
}

void MiddleElidedLabel::setFullText(const QString& text) {
  full_ = text;
  elide();
  updateGeometry();  // the size hint is the whole text
}

QSize MiddleElidedLabel::sizeHint() const {
  const QMargins m = contentsMargins();
  const int extra = m.left() + m.right() + 2 * margin() + 2 * std::max(0, indent());
  return {fontMetrics().horizontalAdvance(full_) + extra + 2, QLabel::sizeHint().height()};
}

QSize MiddleElidedLabel::minimumSizeHint() const {
  const QSize whole = sizeHint();
  return {std::min(whole.width(), fontMetrics().horizontalAdvance(QStringLiteral("abc\u2026xyz"))),
          QLabel::minimumSizeHint().height()};
}

void MiddleElidedLabel::resizeEvent(QResizeEvent* e) {
  QLabel::resizeEvent(e);
  elide();
}

void MiddleElidedLabel::changeEvent(QEvent* e) {
  QLabel::changeEvent(e);
  // A larger font (presentation mode) needs a shorter text.
  if (e->type() == QEvent::FontChange) elide();
}

void MiddleElidedLabel::elide() {
  const int width = contentsRect().width() - 2 * margin() - 2 * std::max(0, indent());
  QLabel::setText(fontMetrics().elidedText(full_, Qt::ElideMiddle, std::max(0, width)));
}

}  // namespace shardscope::scw
