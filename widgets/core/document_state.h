// The one small shared state the views listen to (hotspot style): the open
// document, the function shown, the selected op and the selected value, and
// the propagation run being stepped through with its current step (one
// timeline for the whole window: every view shows the state after the same
// step). Views never call each other; they set and observe this object.
#pragma once
#include <QObject>
#include <QSet>
#include <QString>
#include <memory>

#include "api/document.h"
#include "api/sharding_timeline.h"

namespace shardscope::widgets {

class DocumentState : public QObject {
  Q_OBJECT
 public:
  explicit DocumentState(QObject* parent = nullptr);

  const std::shared_ptr<const api::Document>& document() const { return doc_; }
  const ir::Module* module() const { return doc_ ? doc_->module.get() : nullptr; }
  QString fileName() const;

  // The function shown by the graph (a `func.func` op), or nullptr.
  const ir::Op* function() const { return function_; }
  const ir::Op* selectedOp() const { return op_; }
  const ir::Value* selectedValue() const { return value_; }

  // The function a newly set document shows: @main, else its first one
  // (nullptr: none). Also asked off the UI thread (graph/prepared_grouping.h).
  static const ir::Op* firstShownFunction(const ir::Module& module);
  // Every function of the module in order.
  std::vector<const ir::Op*> functions() const;
  // Find a function by symbol name ("main" or "@main").
  const ir::Op* findFunction(const QString& name) const;
  // Find a value by its printed name (`%arg0`, `%3`, `%1#0`), preferring
  // the current function.
  const ir::Value* findValue(const QString& name) const;
  // Find an op: a value name (its defining op), an op name
  // ("stablehlo.dot_general", first in the current function) or a function.
  const ir::Op* findOp(const QString& name) const;
  // A good value to show first in the mesh view: the first sharded function
  // argument or result of the current function.
  const ir::Value* defaultValue() const;

  // --- What-if: values whose sharding changed in the last re-run ----------
  // A value's key, stable across versions of the same module (propagation
  // steps, a re-parse of edited text): "@main/%3", "@main/%arg0".
  static QString valueKey(const ir::Value& value);
  // Keys of the values whose final sharding differs between the last two
  // runs (empty before the first what-if re-run; cleared by setDocument).
  const QSet<QString>& changedValues() const { return changed_; }
  // True when `value` (of any version of the module) is in changedValues().
  bool isValueChanged(const ir::Value* value) const;

  // --- The propagation timeline ---------------------------------------------
  // The run being stepped through (nullptr: none). While there is one, the
  // document shown is its private copy, which moves from step to step in
  // place: its ops stay the same objects, only shardings change
  // (shardingsChanged says which), so views update what changed instead
  // of rebuilding.
  const api::SteppedRun* steppedRun() const { return run_.get(); }
  const api::ShardingTimeline* timeline() const {
    return run_ ? run_->timeline.get() : nullptr;
  }
  // Steps applied: 0 (the input) .. stepCount() (the result).
  int stepsApplied() const;
  int stepCount() const;

 public slots:
  // Replace the document; selects the first function (or `main`).
  void setDocument(std::shared_ptr<const api::Document> doc);
  // Replace the document by another version of the same module (e.g. after
  // a propagation step): the function, op and value at the same positions
  // stay selected.
  void setDocumentKeepingSelection(std::shared_ptr<const api::Document> doc);
  void setFunction(const ir::Op* func);
  // Selecting an op also selects its first result (and its function).
  // Also makes the op's function the current one, unless `keepFunction`
  // (a view that shows the op inside the current function's picture, e.g.
  // the graph with a call expanded into its callee's body).
  void selectOp(const ir::Op* op, bool keepFunction = false);
  void selectValue(const ir::Value* value);
  // Publish the changed-value set (emits changedValuesChanged when it differs).
  // Set it before setDocumentKeepingSelection so views rebuilding on
  // documentChanged already see it.
  void setChangedValues(QSet<QString> keys);
  // Show a run: its document replaces the shown one (the function, op and
  // value at the same positions stay selected) at the step its timeline is
  // at. nullptr drops the run (the document stays).
  void setSteppedRun(std::shared_ptr<api::SteppedRun> run);
  // Move the timeline (clamped); emits shardingsAboutToChange,
  // shardingsChanged and stepChanged when it moves.
  void setStepsApplied(int steps);

 signals:
  void documentChanged();
  void functionChanged();
  void selectionChanged();
  // changedValues() changed (after a what-if re-run, or cleared).
  void changedValuesChanged();
  // A run was set or dropped (then also documentChanged when its document
  // replaced the shown one).
  void steppedRunChanged();
  // The timeline is about to change the shown module's shardings: a view
  // reading the module off the UI thread must stop doing so now.
  void shardingsAboutToChange();
  // The shardings of these values (and results of these functions) changed.
  void shardingsChanged(const shardscope::api::TimelineChanges& changes);
  void stepChanged(int stepsApplied, int previous);

 private:
  void replaceKeepingSelection(std::shared_ptr<const api::Document> doc);

  std::shared_ptr<const api::Document> doc_;
  const ir::Op* function_ = nullptr;
  const ir::Op* op_ = nullptr;
  const ir::Value* value_ = nullptr;
  QSet<QString> changed_;
  std::shared_ptr<api::SteppedRun> run_;
};

// The enclosing `func.func` of an op (or the op itself), or nullptr.
const ir::Op* enclosingFunction(const ir::Op* op);

}  // namespace shardscope::widgets
