// The what-if panel: edit the selected value's sharding (a line edit,
// checked as you type, errors shown inline) and see the last re-run diffed
// against the previous run (the values whose sharding changed). Selecting a
// function's `return` edits the function's result shardings instead (a
// picker chooses the result when there are several).
//
// It does not edit anything itself: Apply (Return or Ctrl+Return in the
// line edit, or the button) emits `shardingEdited` with the value and the
// parsed sharding (`functionResultEdited` for a function result); the main
// window rewrites the source text (what_if_edit.h) and re-runs, then hands
// the diff back with setChanges().
#pragma once
#include <QWidget>
#include <optional>
#include <vector>

#include "api/document.h"
#include "whatif/what_if_diff.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace shardscope::widgets::comm {
class CommunicationChangeView;
}

namespace shardscope::widgets {

class DocumentState;

class WhatIfPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WhatIfPanel(DocumentState* state, QWidget* parent = nullptr);

  WhatIfDiffModel* model() const { return model_; }
  QLineEdit* shardingEdit() const { return edit_; }
  // The function whose result is edited (nullptr when a value is), and which.
  const ir::Op* editedFunction() const { return func_; }
  unsigned editedResult() const { return resultIndex_; }
  // The inline error under the line edit ("" when the text is valid).
  QString errorText() const;
  // Show the diff of the last re-run; `summary` goes above the table.
  void setChanges(std::vector<WhatIfChange> changes, const QString& summary);
  // The change in collectives of the last re-run (below the table).
  comm::CommunicationChangeView* communicationView() const { return comm_; }
  // A status line (busy, failed re-run) above the table.
  void setStatus(const QString& text, bool error = false);

 public slots:
  // Check the line edit and, when valid, emit shardingEdited.
  void apply();

 signals:
  void shardingEdited(const shardscope::ir::Value* value, const shardscope::TensorSharding& sharding);
  void functionResultEdited(const shardscope::ir::Op* func, unsigned index,
                            const shardscope::TensorSharding& sharding);
  // A row of the diff was activated: select that value (by key, "@main/%3").
  void valueActivated(const QString& key);

 private:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void onSelectionChanged();
  // Show the current target (value_ or func_/resultIndex_) in the line edit.
  void showTarget(bool keepTyping);
  std::optional<TensorSharding> check(bool showError);

  DocumentState* state_;
  // What is edited: a value, or (func_ set) result resultIndex_ of func_.
  const ir::Value* value_ = nullptr;
  const ir::Op* func_ = nullptr;
  unsigned resultIndex_ = 0;
  const ir::Op* returnOp_ = nullptr;  // with func_: its return (the results' types)
  // The state's selection at the last change, to tell what was selected.
  const ir::Op* lastOp_ = nullptr;
  const ir::Value* lastValue_ = nullptr;
  bool documentReplaced_ = false;  // a new version of the document came in
  QLabel* valueLabel_;
  QComboBox* resultPicker_;
  QLineEdit* edit_;
  QPushButton* applyButton_;
  QLabel* error_;
  QLabel* summary_;
  comm::CommunicationChangeView* comm_;
  QTableView* table_;
  WhatIfDiffModel* model_;
};

}  // namespace shardscope::widgets
