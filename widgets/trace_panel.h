// Placeholder for the propagation trace / animation panel.
//
// engine/propagation will provide a step trace (each step: the op, the
// factor, the values whose shardings changed, before/after). This panel will
// own a TraceModel (QAbstractItemModel: Columns Step, Op, Value, Before,
// After) and a step slider; selecting a step will call
// DocumentState::selectOp/selectValue so the graph and mesh views follow,
// and the graph view will tint the edges changed by that step. Until the
// trace API exists the panel explains what it will show.
#pragma once
#include <QWidget>

class QLabel;

namespace shardscope::widgets {

class DocumentState;

class TracePanel : public QWidget {
  Q_OBJECT
 public:
  explicit TracePanel(DocumentState* state, QWidget* parent = nullptr);

 private:
  DocumentState* state_;
  QLabel* label_;
};

}  // namespace shardscope::widgets
