// A one-line label that elides its text in the middle to its width, so that
// a file name keeps its start and its extension in a narrow tool bar:
//
//   MiddleElidedLabel label;
//   label.setFullText("fdo_stats_host0_20240611_120000.csv");
//   // 160 px wide: "fdo_stats_h…120000.csv"; fullText() is unchanged
//
// The text is never wrapped; its size hint asks for no more than its
// minimum width, so a long name cannot widen the page past the window.
#pragma once
#include <QLabel>

namespace shardscope::scw {

class MiddleElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit MiddleElidedLabel(const QString& text = {}, QWidget* parent = nullptr);
  void setFullText(const QString& text);
  QString fullText() const { return full_; }

 protected:
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void elide();
  QString full_;
};

}  // namespace shardscope::scw
