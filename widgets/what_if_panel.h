// The what-if panel: edit the selected value's sharding (a line edit,
// checked as you type, errors shown inline) and see the last re-run diffed
// against the previous run (the values whose sharding changed).
//
// It does not edit anything itself: Apply emits `shardingEdited` with the
// value and the parsed sharding; the main window rewrites the source text
// (what_if_edit.h) and re-runs, then hands the diff back with setChanges().
#pragma once
#include <QWidget>
#include <optional>
#include <vector>

#include "api/document.h"
#include "what_if_diff.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace shardscope::widgets {

class DocumentState;

class WhatIfPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WhatIfPanel(DocumentState* state, QWidget* parent = nullptr);

  WhatIfDiffModel* model() const { return model_; }
  QLineEdit* shardingEdit() const { return edit_; }
  // The inline error under the line edit ("" when the text is valid).
  QString errorText() const;
  // Show the diff of the last re-run; `summary` goes above the table.
  void setChanges(std::vector<WhatIfChange> changes, const QString& summary);
  // A status line (busy, failed re-run) above the table.
  void setStatus(const QString& text, bool error = false);

 public slots:
  // Check the line edit and, when valid, emit shardingEdited.
  void apply();

 signals:
  void shardingEdited(const shardscope::ir::Value* value, const shardscope::TensorSharding& sharding);
  // A row of the diff was activated: select that value (by key, "@main/%3").
  void valueActivated(const QString& key);

 private:
  void onSelectionChanged();
  std::optional<TensorSharding> check(bool showError);

  DocumentState* state_;
  const ir::Value* value_ = nullptr;
  QLabel* valueLabel_;
  QLineEdit* edit_;
  QPushButton* applyButton_;
  QLabel* error_;
  QLabel* summary_;
  QTableView* table_;
  WhatIfDiffModel* model_;
};

}  // namespace shardscope::widgets
