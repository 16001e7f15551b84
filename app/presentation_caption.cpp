#include "presentation_caption.h"

#include <QEvent>
#include <QLabel>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace shardscope::app {

PresentationCaption::PresentationCaption(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("presentationCaption"));
  setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(12, 6, 12, 6);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("presentationStep"));
  caption_->setWordWrap(true);
  caption_->setTextFormat(Qt::PlainText);
  narration_ = new QTextBrowser(this);
  narration_->setObjectName(QStringLiteral("presentationNarration"));
  narration_->setFrameShape(QFrame::NoFrame);
  narration_->setOpenLinks(false);
  narration_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  narration_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The narration's background is the strip's.
  narration_->viewport()->setAutoFillBackground(false);
  layout->addWidget(caption_);
  layout->addWidget(narration_, 1);
  applyFonts();
}

void PresentationCaption::setStep(const QString& caption, const QString& narrationHtml) {
  caption_->setText(caption);
  narration_->setHtml(narrationHtml);
  fitNarration();
}

void PresentationCaption::resizeEvent(QResizeEvent* e) {
  QFrame::resizeEvent(e);
  fitNarration();
}

void PresentationCaption::fitNarration() {
  const int least = QFontMetrics(narration_->font()).lineSpacing() * 3 + 8;
  QTextDocument* doc = narration_->document();
  doc->setTextWidth(std::max(100, narration_->viewport()->width()));
  const int wanted = int(std::ceil(doc->size().height())) + 2 * narration_->frameWidth() + 4;
  const QWidget* window = this->window();
  const int most = std::max(least, window ? window->height() * 2 / 5 : wanted);
  const int height = std::clamp(wanted, least, most);
  if (narration_->maximumHeight() != height) narration_->setFixedHeight(height);
}

QString PresentationCaption::caption() const { return caption_->text(); }

QString PresentationCaption::narrationText() const { return narration_->toPlainText(); }

void PresentationCaption::changeEvent(QEvent* e) {
  QFrame::changeEvent(e);
  if (e->type() == QEvent::FontChange) applyFonts();
}

void PresentationCaption::applyFonts() {
  // Relative to the window's (already enlarged) font: the caption larger
  // still and bold, the narration a little larger. Never smaller.
  QFont big = font();
  big.setBold(true);
  if (big.pointSizeF() > 0)
    big.setPointSizeF(big.pointSizeF() * 1.3);
  else
    big.setPixelSize(qRound(big.pixelSize() * 1.3));
  caption_->setFont(big);
  QFont text = font();
  if (text.pointSizeF() > 0)
    text.setPointSizeF(text.pointSizeF() * 1.1);
  else
    text.setPixelSize(qRound(text.pixelSize() * 1.1));
  narration_->setFont(text);
  fitNarration();  // three lines of narration at least
}

}  // namespace shardscope::app
