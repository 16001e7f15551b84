#include "trace_state.h"

#include <algorithm>

namespace shardscope::widgets::trace {

TraceState::TraceState(QObject* parent) : QObject(parent) {}

int TraceState::stepCount() const { return run_ ? static_cast<int>(run_->trace.steps.size()) : 0; }

const propagation::TraceStep* TraceState::currentTraceStep() const {
  if (!run_ || step_ < 0 || step_ >= stepCount()) return nullptr;
  return &run_->trace.steps[static_cast<size_t>(step_)];
}

void TraceState::setRun(std::shared_ptr<const TraceRun> run) {
  run_ = std::move(run);
  step_ = stepCount() - 1;
  value_.reset();
  dim_ = 0;
  op_ = -1;
  emit runChanged();
  emit currentStepChanged(step_);
  emit valueSelectionChanged();
}

void TraceState::setCurrentStep(int step) {
  step = std::clamp(step, -1, stepCount() - 1);
  if (step == step_) return;
  step_ = step;
  emit currentStepChanged(step_);
}

void TraceState::setShowBefore(bool before) {
  if (before == showBefore_) return;
  showBefore_ = before;
  emit viewOptionsChanged();
}

void TraceState::setDimensionView(bool on) {
  if (on == dimensionView_) return;
  dimensionView_ = on;
  emit viewOptionsChanged();
}

void TraceState::selectValue(const std::optional<propagation::TraceValueRef>& value, int dim) {
  if (value == value_ && dim == dim_) return;
  value_ = value;
  dim_ = std::max(0, dim);
  emit valueSelectionChanged();
}

void TraceState::selectOp(int opIndex) {
  if (opIndex == op_) return;
  op_ = opIndex;
  emit opSelectionChanged();
}

}  // namespace shardscope::widgets::trace
