// The per-table settings of a SparseCore job as an editable table: width,
// max_ids_per_partition and max_unique_ids_per_partition are edited here;
// the stack a table belongs to, the observed maxima and the suggested
// limits come from the last analysis. A table stacked with others has its
// own limits ignored (the stack's limits apply, as in the reference): those
// cells are greyed and say so in their tooltip.
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "job_settings.h"

namespace shardscope::sc {
struct AnalysisReport;
}

namespace shardscope::scw {

class TableLimitsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // Editable and most-looked-at columns first (stack names can be long).
  enum Columns {
    NameColumn,
    WidthColumn,
    MaxIdsColumn,
    MaxUniqueIdsColumn,
    ObservedIdsColumn,
    ObservedUniqueIdsColumn,
    SuggestedColumn,
    VocabColumn,
    OptimizerColumn,
    StackColumn,
    ColumnCount
  };
  enum Roles {
    RawValueRole = Qt::UserRole,  // the number (qint64) or name, for sorting
  };

  explicit TableLimitsModel(QObject* parent = nullptr);

  // New job: a model reset.
  void setTables(const std::vector<TableSettings>& tables);
  const std::vector<TableSettings>& tables() const { return tables_; }
  // New analysis: dataChanged on the derived columns (nullptr clears them).
  void setReport(const sc::AnalysisReport* report);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  // Why the last edit may change nothing ("" when it should matter): a
  // stacked table's own limits are ignored in favour of the stack's.
  QString lastEditNote() const { return lastEditNote_; }

 signals:
  // A width or limit was edited by the user (not by setTables).
  void tablesEdited();

 private:
  struct Derived {
    QString stack;
    int members = 1;
    qint64 observedIds = -1, observedUnique = -1, suggestedIds = -1, suggestedUnique = -1;
  };
  std::vector<TableSettings> tables_;
  std::vector<Derived> derived_;
  QString lastEditNote_;
};

}  // namespace shardscope::scw
