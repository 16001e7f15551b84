// What-if: the edited source re-parsed and propagated off the UI thread,
// diffed against the previous run, and shown (or its errors, edits kept).
#include "main_window.h"
#include "core/work_pool.h"
#include "diagnostics_dock.h"

#include <QDockWidget>
#include <QStatusBar>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "diagnostics/diagnostics_model.h"
#include "outline/op_tree_model.h"
#include "propagation/propagation_panel.h"
#include "source/source_view.h"
#include "whatif/what_if_diff.h"
#include "whatif/what_if_panel.h"
#include "what_if_communication.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/trace_panel.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

void MainWindow::applySourceEdits() {
  if (!original_) return;
  if (source_->isFilling()) {  // nothing edited yet, and the editor text is partial
    showStatusMessage(tr("The source is still loading; nothing to apply yet."), 5000);
    return;
  }
  const quint64 req = ++whatIfRequest_;
  ++propagateRequest_;  // a propagation of the old text is stale now
  const propagation::PropagationOptions options = run_ ? run_->options : trace_->options();
  // The run to diff against: the last one shown, else a run of the applied
  // text (made in the same job).
  std::shared_ptr<const api::PropagationRun> previous =
      run_ && run_->ok && run_->result ? run_ : nullptr;
  whatIf_->setStatus(tr("Re-parsing and propagating (%1)…")
                         .arg(QString::fromLatin1(api::levelName(options.level))));
  whatIfWatcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  whatIfWatcher_.setFuture(QtConcurrent::run(
      widgets::workPool(),
      [text = source_->text().toStdString(), base = original_, previous, options] {
        WhatIfResult r;
        r.doc = api::parseDocument(text, base->name);
        r.doc->path = base->path;
        if (!r.doc->module || r.doc->hasErrors()) return r;
        r.baseline = previous;
        if (!r.baseline && base->module && !base->hasErrors())
          r.baseline = api::propagateDocument(*base, options);
        r.run = api::propagateDocument(*r.doc, options);
        r.prepared = prepareRun(r.doc, r.run);
        r.comm = whatIfCommunicationChange(r.baseline.get(), *r.run);
        return r;
      }));
}

void MainWindow::showWhatIf(const WhatIfResult& r) {
  if (!r.doc->module || r.doc->hasErrors()) {
    // Keep everything (the editor's text, the shown document); show why.
    diagModel_->setDiagnostics(r.doc->diagnostics, errorName(*r.doc));
    diagView_->resizeColumnsToContents();
    source_->setDiagnostics(r.doc->diagnostics);
    updateDiagnosticsDock(this, *diagModel_);
    const int errors = r.doc->errorCount();
    const QString msg =
        tr("The edited source has %n error(s); nothing was re-run and your edits are kept.", "",
           errors);
    whatIf_->setStatus(msg, true);
    showStatusMessage(msg, 8000);
    // Show the first error (the user's text is not touched).
    for (const auto& d : r.doc->diagnostics)
      if (d.severity == ir::Severity::Error && d.loc.known()) {
        source_->goToLine(static_cast<int>(d.loc.line), static_cast<int>(d.loc.col));
        break;
      }
    emit whatIfFinished(false);
    return;
  }
  original_ = r.doc;
  run_ = r.run;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  static_cast<trace::TracePanel*>(explorer_)->setModuleText(toQString(r.doc->text),
                                                            toQString(r.doc->name));
#endif
  diagModel_->setDiagnostics(r.doc->diagnostics, errorName(*r.doc));
  updateDiagnosticsDock(this, *diagModel_, "whatIfDock");  // the re-run's result is told there
  std::vector<WhatIfChange> changes;
  QString summary;
  const QString level = QString::fromLatin1(api::levelName(run_->options.level));
  if (!run_->ok || !run_->result) {
    summary = tr("Propagation (%1) failed on the edited source; see Diagnostics.").arg(level);
    for (const auto& d : run_->diagnostics)
      if (d.severity == ir::Severity::Error) {
        summary += u' ' + toQString(d.message);
        break;
      }
  } else if (!r.baseline || !r.baseline->result) {
    summary = tr("Propagated (%1). No run before this edit to compare with.").arg(level);
  } else {
    // Against the result of the run before the edit (its last step), not
    // the step that was shown: the Communication dock tells that change,
    // and says so.
    changes = diffDocuments(*r.baseline->result, *run_->result);
    summary = changes.empty()
                  ? tr("Propagated (%1): no value's sharding changed vs the result of the run "
                       "before this edit.").arg(level)
                  : tr("Propagated (%1): %n value(s) changed sharding vs the result of the run "
                       "before this edit (marked in the op tree and the graph).",
                       "", static_cast<int>(changes.size()))
                        .arg(level);
  }
  showWhatIfCommunication(whatIf_->communicationView(), r.comm);
  // Publish first, so views rebuilding on documentChanged see the set.
  state_->setChangedValues(changedKeys(changes));
  // The result with the user's selection kept (not the op of the last step),
  // on the timeline.
  if (r.prepared.stepped) {
    showRun(r.prepared, /*selectLastStep=*/false);
  } else {
    treeModel_->setDocument(original_);
    state_->setDocumentKeepingSelection(original_);
    trace_->setRun(run_);
  }
  updateTitle(run_->ok ? tr("what-if re-run (%1)").arg(level) : QString());
  expandTree();
  whatIf_->setChanges(std::move(changes), summary);
  whatIf_->setStatus(summary, !run_->ok);
  if (auto* d = findChild<QDockWidget*>(QStringLiteral("whatIfDock"))) {
    d->show();
    d->raise();
  }
  updateStatus();
  showStatusMessage(summary, 8000);
  emit whatIfFinished(true);
}

void MainWindow::clearWhatIfResults() {
  // Every what-if result goes with the document it was of: the changed
  // values (table and marks) and the change in collectives. That table
  // outlived a reopened file and a fresh propagation, answering for a run
  // no longer shown.
  state_->setChangedValues({});
  whatIf_->setChanges({}, tr("Edit a sharding (here or in the source, then Ctrl+Return) to see "
                             "what changes."));
  showWhatIfCommunication(whatIf_->communicationView(), std::nullopt);
}

}  // namespace shardscope::app
