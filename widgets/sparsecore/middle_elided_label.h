// A one-line label that elides its text in the middle to its width, so that
// a file name keeps its start and its extension in a narrow tool bar:
//
//   MiddleElidedLabel label;
//   label.setFullText("fdo_stats_host0_20240611_120000.csv");
//   // 160 px wide: "fdo_stats_h…120000.csv"; fullText() is unchanged
//
// The text is never wrapped. Its size hint is the whole text, its minimum
// a few characters: a layout gives it its width when there is room and
// elides it rather than widen the page past the window (presentation
// mode's larger font at 1280x800).
#pragma once
#include <QLabel>

namespace shardscope::scw {

class MiddleElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit MiddleElidedLabel(const QString& text = {}, QWidget* parent = nullptr);
  void setFullText(const QString& text);
  QString fullText() const { return full_; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void elide();
  QString full_;
};

}  // namespace shardscope::scw
