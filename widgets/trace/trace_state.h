// The one small shared state of the trace explorer (hotspot style): the
// run shown, the current step, the factor-table options, the value and
// dimension the "Why" panel explains, the op the inspector shows when no
// step is selected. Views set and observe it; they never call each other.
#pragma once
#include <QObject>
#include <memory>
#include <optional>

#include "propagation/propagation_trace.h"
#include "propagation_runner.h"

namespace shardscope::widgets::trace {

class TraceState : public QObject {
  Q_OBJECT
 public:
  explicit TraceState(QObject* parent = nullptr);

  const std::shared_ptr<const TraceRun>& run() const { return run_; }
  int stepCount() const;
  // The step shown (0-based), or -1 (no run, or the op inspector mode).
  int currentStep() const { return step_; }
  const propagation::TraceStep* currentTraceStep() const;
  // Factor table: the table before the step instead of after it.
  bool showBefore() const { return showBefore_; }
  // Factor table: one column per tensor dimension instead of per factor.
  bool dimensionView() const { return dimensionView_; }
  // The value (and dimension) the Why panel explains.
  const std::optional<propagation::TraceValueRef>& selectedValue() const { return value_; }
  int selectedDimension() const { return dim_; }
  // The op (pre-order index in the run's module) the inspector shows when no step is selected.
  int selectedOp() const { return op_; }

 public slots:
  // A new run (nullptr clears); moves to its last step.
  void setRun(std::shared_ptr<const shardscope::widgets::trace::TraceRun> run);
  void setCurrentStep(int step);
  void setShowBefore(bool before);
  void setDimensionView(bool on);
  void selectValue(const std::optional<shardscope::propagation::TraceValueRef>& value, int dim);
  void selectOp(int opIndex);

 signals:
  void runChanged();
  void currentStepChanged(int step);
  void viewOptionsChanged();
  void valueSelectionChanged();
  void opSelectionChanged();

 private:
  std::shared_ptr<const TraceRun> run_;
  int step_ = -1;
  bool showBefore_ = false;
  bool dimensionView_ = false;
  std::optional<propagation::TraceValueRef> value_;
  int dim_ = 0;
  int op_ = -1;
};

}  // namespace shardscope::widgets::trace
