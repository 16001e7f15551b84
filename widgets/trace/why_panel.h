// "Why is this sharded so?": pick a value and a dimension; the panel shows,
// for the state after the current step, where each axis of that dimension
// came from (explain::explainDimension), hop by hop back to its seed.
// With "follow steps" on, each new step selects the first value it updated.
// Above it, the collective selected in the Communication dock or on the
// graph's communication layer says why it is needed (showCollective).
//
// A chain can be long (a residual stream of a 100k-op transformer crosses
// some 200 adds): it shows the hops nearest the value and the ones nearest
// the seed, and "show all N hops" expands the middle. Stepping keeps the
// panel cheap: the text is laid out only when it differs from the one
// shown, and only while the panel is visible (a hidden panel catches up
// when shown). E.g. a chain of 200 hops shows hops 1-10, "... 186 more
// hops (steps 16533 to 10833), show all", hops 197-200.
#pragma once
#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTextBrowser;

namespace shardscope {
struct Mesh;
namespace explain {
class TraceIndex;
}
}  // namespace shardscope

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
  void showEvent(QShowEvent* e) override;

 public:
  // Hops shown of a long chain before and after the collapsed middle.
  static constexpr int kHeadHops = 10, kTailHops = 4;

 private:
  TraceState* state_;
  QComboBox* value_;
  QSpinBox* dim_;
  QCheckBox* follow_;
  QTextBrowser* text_;
  // The HTML shown (no re-layout when a step leaves it as it is).
  QString shownHtml_;
  // refresh() was skipped while hidden.
  bool stale_ = false;
  // The combo row of each value ("kind/op/region/index").
  QHash<QString, int> rowOfValue_;
  // "show all" was clicked for the value and dimension shown.
  bool allHops_ = false;
  // The mesh of the run's first value sharded at the input, found once per
  // run: a value without a sharding names its axes by it, and finding it
  // walks the sharded values (90 ms at 100k ops on every jump to the input).
  // Reset when the run changes.
  mutable const explain::TraceIndex* meshIndex_ = nullptr;
  mutable const Mesh* runMesh_ = nullptr;
  QLabel* collective_;
};

}  // namespace shardscope::widgets::trace
