// The limits FDO statistics suggest, one row per choice: for each stacked
// table the reference's setting (the maximum seen) and cheaper percentile
// choices with the ids they would leave over the limit, then the COO buffer.
//
//   table      setting                               choice  value  ids over (>=)  batches over
//   user_item  max_ids_per_partition                 max        40              0             0
//   user_item  max_ids_per_partition                 p50        15             25        1 of 6
//   user_item  suggested_coo_buffer_size_per_device  max       240
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "sparsecore/fdo_stats.h"

namespace shardscope::scw {

class FdoLimitsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns { TableColumn, SettingColumn, ChoiceColumn, ValueColumn, OverColumn, BatchesColumn, ColumnCount };
  enum Roles { SortRole = Qt::UserRole };

  explicit FdoLimitsModel(QObject* parent = nullptr);
  void setSuggestions(const std::vector<sc::LimitSuggestion>& suggestions);  // a model reset

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString table, setting, choice;
    qint64 value = 0;
    qint64 over = -1;  // -1: not applicable
    size_t batchesOver = 0, batches = 0;
  };
  std::vector<Row> rows_;
};

}  // namespace shardscope::scw
