// "Why is this sharded so?": pick a value and a dimension; the panel shows,
// for the state after the current step, where each axis of that dimension
// came from (explain::explainDimension), hop by hop back to its seed.
// With "follow steps" on, each new step selects the first value it updated.
// Above it, the collective selected in the Communication dock or on the
// graph's communication layer says why it is needed (showCollective).
#pragma once
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTextBrowser;

namespace shardscope::widgets::trace {

class TraceState;

class WhyPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WhyPanel(TraceState* state, QWidget* parent = nullptr);
  // The text shown (plain), for tests.
  QString plainText() const;
  // The HTML of an explanation for `value`/`dim` in the state's run after the current step.
  QString explanationHtml() const;
  // A collective and its cause (rich text), shown above the explanation
  // until another one or an empty text replaces it.
  void showCollective(const QString& html);
  // The collective shown (plain text), for tests.
  QString collectiveText() const;

 private:
  void rebuildValues();
  void refresh();

  TraceState* state_;
  QComboBox* value_;
  QSpinBox* dim_;
  QCheckBox* follow_;
  QTextBrowser* text_;
  QLabel* collective_;
};

}  // namespace shardscope::widgets::trace
