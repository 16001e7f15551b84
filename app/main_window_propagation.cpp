// Propagation: runs off the UI thread (Propagation > Propagate, the panels'
// buttons), a run shown on the one timeline, and what follows a step (the
// step's op selected, its line shown, its axes through the graph, the title).
#include "main_window.h"
#include "core/work_pool.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QAction>
#include <QDockWidget>

#include "load_progress.h"

#include "core/document_state.h"
#include "core/step_words.h"
#include "presentation_caption.h"
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

bool MainWindow::canPropagate() const {
  return original_ && original_->module && !original_->hasErrors();
}

void MainWindow::updatePropagationActions() {
  // Nothing offers what cannot run: Propagate needs a module without
  // errors, stepping needs a run (the panels' hints say the same).
  const bool can = canPropagate();
  if (propagateAction_) {
    propagateAction_->setEnabled(can);
    propagateAction_->setToolTip(
        can ? tr("Propagate the module and record every step")
            : tr("Cannot propagate: the module has errors (see Diagnostics)"));
  }
  for (QAction* a : stepActions_) a->setEnabled(state_->stepCount() > 0);
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  static_cast<trace::TracePanel*>(explorer_)->setCanRun(can);
#endif
}

void MainWindow::startPropagation(const propagation::PropagationOptions& options) {
  // While a file loads, the document shown is about to go (and the status
  // bar's Cancel belongs to the load).
  if (!canPropagate() || isLoading()) return;
  const quint64 req = ++propagateRequest_;
  propagator_.cancel();  // an earlier run still going is of no use now
  const QString what =
      tr("Propagating (%1)…").arg(QString::fromLatin1(api::levelName(options.level)));
  trace_->setBusy(what);
  // Progress and Cancel (Esc) in the status bar, as for opening a file.
  busy_ = Busy::Propagating;
  loadProgress_->start(what);
  propagator_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  propagator_.setFuture(QtConcurrent::run(widgets::workPool(), [doc = original_, options](QPromise<PreparedRun>& promise) {
    promise.setProgressRange(0, LoadProgress::kRange);
    // The run's share of the bar; preparing the timeline is the rest.
    constexpr double kRunShare = 0.9;
    const api::LoadProgress progress{
        [&](double f) { promise.setProgressValue(int(f * kRunShare * LoadProgress::kRange)); },
        [&] { return promise.isCanceled(); }};
    auto run = api::propagateDocument(*doc, options, &progress);
    if (run->cancelled || promise.isCanceled()) return;  // no result: nothing changes
    PreparedRun prepared = prepareRun(doc, std::move(run));
    if (promise.isCanceled()) return;
    promise.setProgressValue(LoadProgress::kRange);
    promise.addResult(std::move(prepared));
  }));
}

void MainWindow::onPropagatorFinished() {
  const quint64 req = propagator_.property("request").toULongLong();
  if (req != propagateRequest_) return;  // stale
  if (busy_ == Busy::Propagating) {
    busy_ = Busy::None;
    loadProgress_->stop();
  }
  if (propagator_.isCanceled() || propagator_.future().resultCount() == 0) {
    trace_->setRun(run_);  // the panel as it was before (the previous run, if any)
    updatePropagationActions();
    showStatusMessage(tr("Propagation cancelled"), 5000);
    emit propagationCancelled();
    return;
  }
  // A new run of the document: the last what-if re-run is no longer shown.
  clearWhatIfResults();
  showRun(propagator_.result(), /*selectLastStep=*/true);
  // The explorer tells the steps (narration, factor table, Why).
  const char* dock = explorer_ ? "traceExplorerDock" : "traceDock";
  if (auto* d = findChild<QDockWidget*>(QLatin1String(dock))) {
    d->show();
    d->raise();
  }
  showStatusMessage(run_->ok ? tr("Propagated: %1 step(s)").arg(run_->trace.steps.size())
                             : tr("Propagation failed"),
                    5000);
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
  updatePropagationActions();
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
    updatePresentationCaption();
    return;
  }
  const int n = static_cast<int>(run_->trace.steps.size());
  const int steps = state_->steppedRun() ? state_->stepsApplied() : n;
  const QString level = QString::fromLatin1(api::levelName(run_->options.level));
  // The same words as the trace dock and the explorer (core/step_words.h).
  QString place = stepPlace(steps, n);
  if (steps == 0 && !run_->importPasses.empty()) place += tr(", after the import passes");
  // The export passes change ops, not only shardings: the timeline ends
  // before them (what --export OUT.mlir --propagate pipeline writes is after).
  if (steps == n && n > 0 && !run_->exportPasses.empty()) place += tr(", before the export passes");
  updateTitle(tr("%1, %2").arg(place, level));
  updatePresentationCaption();
}

void MainWindow::updatePresentationCaption() {
  if (!caption_ || !presentation_) return;
  // A SparseCore job is not the module stepped: under its tab the caption
  // was an empty band taking a sixth of the window.
  const bool sparseCore = scPage_ && tabs_->currentWidget() == scPage_;
  caption_->setVisible(!sparseCore);
  if (sparseCore) return;
  QString caption, narration;
  const int n = state_->stepCount();
  if (!run_ || n == 0) {
    caption = original_ ? toQString(original_->name) : QString();
    narration = canPropagate()
                    ? tr("<p>Propagate (Ctrl+P), then step with Alt+Left / Alt+Right.</p>")
                    : QString();
  } else {
    const int steps = state_->stepsApplied();
    caption = stepPlace(steps, n);
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
    auto* explorer = static_cast<trace::TracePanel*>(explorer_);
    if (steps > 0) caption += QStringLiteral(" · ") + explorer->stepHeadline();
    // The caption carries the step's headline: the narration under it
    // starts at the step's context (the headline once, not twice).
    narration = steps > 0 ? explorer->narrationBodyHtml() : explorer->narrationHtml();
#endif
  }
  caption_->setStep(caption, narration);
}

}  // namespace shardscope::app
