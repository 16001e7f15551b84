// What-if: the values whose sharding differs between two versions of a
// module (the previous propagation run and the re-run after an edit), and
// a table model of them. Values are matched by function and name
// (DocumentState::valueKey), so an edited module (other text, other line
// numbers) still lines up with the previous run.
//
// Not widgets/trace's ShardingDiffModel: that one compares two strategies
// on the *same* text (it needs TraceRuns with equal input); here the texts
// differ by design.
#pragma once
#include <QAbstractTableModel>
#include <QSet>
#include <QString>
#include <optional>
#include <vector>

#include "api/document.h"

namespace shardscope::widgets {

struct WhatIfChange {
  QString key;       // "@main/%3" (DocumentState::valueKey)
  QString function;  // "main"
  QString name;      // "%3"
  int line = 0;      // in the new version (0 unknown)
  std::optional<TensorSharding> before, after;
  bool added = false;    // only in the new version
  bool removed = false;  // only in the previous version
  bool operator==(const WhatIfChange&) const = default;
};

// Every ranked-tensor value (function arguments, op results) whose sharding
// differs between `before` and `after`, in the order of `after` (values
// gone from `after` last). Example: matmul_chain with %arg1's sharding
// edited from [{}, {"y"}] to [{}, {}] gives %arg1, %0, %1 ... after basic
// propagation.
std::vector<WhatIfChange> diffDocuments(const api::Document& before, const api::Document& after);
QSet<QString> changedKeys(const std::vector<WhatIfChange>& changes);

class WhatIfDiffModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns { ValueColumn, LineColumn, BeforeColumn, AfterColumn, NumColumns };
  enum Roles {
    KeyRole = Qt::UserRole,  // QString valueKey
    LineRole,                // int
    NameRole,                // QString "%3"
  };
  explicit WhatIfDiffModel(QObject* parent = nullptr);
  // Model reset.
  void setChanges(std::vector<WhatIfChange> changes);
  const std::vector<WhatIfChange>& changes() const { return changes_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<WhatIfChange> changes_;
};

}  // namespace shardscope::widgets
