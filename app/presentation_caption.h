// Presentation mode's caption: a strip under the centre views that tells the
// room where the timeline is, large enough to read from the back. The first
// line is the step ("after step 3 (steps 0–6) · tanh %3 (line 25)"), below
// it the step's narration (the trace explorer's words), then a hint of the
// keys that move the timeline. Hidden outside presentation mode.
#pragma once
#include <QFrame>

class QLabel;
class QTextBrowser;

namespace shardscope::app {

class PresentationCaption : public QFrame {
  Q_OBJECT
 public:
  explicit PresentationCaption(QWidget* parent = nullptr);
  // `caption`: plain text; `narrationHtml`: the explorer's narration.
  void setStep(const QString& caption, const QString& narrationHtml);
  QString caption() const;
  QString narrationText() const;

 protected:
  void changeEvent(QEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void applyFonts();
  // The narration as tall as its text, up to two fifths of the window
  // above the strip (it scrolled at 6 lines in a 1600x1000 window), never
  // under three lines.
  void fitNarration();
  QLabel* caption_;
  QTextBrowser* narration_;
};

}  // namespace shardscope::app
