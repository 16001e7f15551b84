// Propagation: runs off the UI thread (Propagation > Propagate, the panels'
// buttons), a run shown on the one timeline, and what follows a step (the
// step's op selected, its line shown, its axes through the graph, the title).
#include "main_window.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/document_state.h"
#include "graph/graph_axis_animation.h"
#include "graph/graph_view.h"
#include "outline/op_tree_model.h"
#include "propagation/propagation_panel.h"
#include "source/source_view.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

void MainWindow::startPropagation(const propagation::PropagationOptions& options) {
  if (!original_ || !original_->module || original_->hasErrors()) return;
  const quint64 req = ++propagateRequest_;
  trace_->setBusy(tr("Propagating (%1)…").arg(QString::fromLatin1(api::levelName(options.level))));
  propagator_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  propagator_.setFuture(QtConcurrent::run([doc = original_, options] {
    return prepareRun(doc, api::propagateDocument(*doc, options));
  }));
}

MainWindow::PreparedRun MainWindow::prepareRun(const std::shared_ptr<const api::Document>& input,
                                               std::shared_ptr<const api::PropagationRun> run) {
  PreparedRun r;
  r.run = run;
  if (run && run->ok) {
    r.stepped = api::prepareSteppedRun(*input, run);
    if (r.stepped) OpTreeModel::prepare(r.stepped->doc);  // the tree's rows, here
  }
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  r.explorerRun = trace::traceRunFor(*input, run);
#endif
  return r;
}

void MainWindow::showRun(const PreparedRun& r, bool selectLastStep) {
  run_ = r.run;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  static_cast<trace::TracePanel*>(explorer_)->showRun(r.explorerRun);
#endif
  if (r.stepped) {
    // Laid out once here; steps then change shardings in place.
    treeModel_->setDocument(r.stepped->doc);
    state_->setSteppedRun(r.stepped);
    expandTree();
  } else {
    state_->setSteppedRun(nullptr);
  }
  trace_->setRun(run_);
  const int n = state_->stepCount();
  if (selectLastStep && n > 0) onStepChanged(n, n);
  else updateStepTitle();
}

void MainWindow::onStepChanged(int steps, int previous) {
  const api::ShardingTimeline* timeline = state_->timeline();
  const auto& run = state_->steppedRun() ? state_->steppedRun()->run : nullptr;
  if (!timeline || !run) return;
  double speed = 1000.0 / 900.0;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  auto* explorer = static_cast<trace::TracePanel*>(explorer_);
  if (explorer->state()->stepCount() == state_->stepCount()) {
    explorer->player()->scrubTo(steps - 1);  // no-op when it moved the timeline
    speed = explorer->player()->speed();
  }
#endif
  (void)previous;
  if (steps > 0) {
    const propagation::TraceStep& step = run->trace.steps[static_cast<size_t>(steps - 1)];
    if (const ir::Op* op = timeline->opAt(step.opIndex); op && !op->is("func.func"))
      state_->selectOp(op);
    if (step.line > 0) source_->goToLine(static_cast<int>(step.line));
  }
  // Stepping forward / playing: the step's axes travel through its op.
  graph_->showTraceStep(&run->trace, steps - 1, axisAnimationDuration(speed));
  updateStepTitle();
}

void MainWindow::updateStepTitle() {
  if (!run_) {
    updateTitle();
    return;
  }
  const int n = static_cast<int>(run_->trace.steps.size());
  const int steps = state_->steppedRun() ? state_->stepsApplied() : n;
  const QString level = QString::fromLatin1(api::levelName(run_->options.level));
  const QString start =
      run_->importPasses.empty() ? tr("input") : tr("after the import passes");
  updateTitle(steps == 0 ? start : tr("after step %1/%2 (%3)").arg(steps - 1).arg(n).arg(level));
}

}  // namespace shardscope::app
