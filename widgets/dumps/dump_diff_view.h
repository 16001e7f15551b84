// A line diff (api::LineDiff) shown read-only: removed lines red with "-",
// added green with "+", unchanged context grey, skipped runs folded into
// one line. Colours follow the light/dark palette.
#pragma once
#include <QPlainTextEdit>

#include "api/dump_folder.h"

namespace shardscope::widgets {

class DumpDiffView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit DumpDiffView(QWidget* parent = nullptr);
  // `title` heads the text ("01.before_propagation -> 02.after_propagation").
  void showDiff(const QString& title, const api::LineDiff& diff);
  void showMessage(const QString& message);

 protected:
  // The theme changed: draw the diff again in its colours.
  void changeEvent(QEvent* event) override;

 private:
  void render();
  QString title_;
  api::LineDiff diff_;
  bool hasDiff_ = false;
};

}  // namespace shardscope::widgets
