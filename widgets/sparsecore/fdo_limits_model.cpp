#include "fdo_limits_model.h"

#include <QBrush>
#include <QColor>

namespace shardscope::scw {

FdoLimitsModel::FdoLimitsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FdoLimitsModel::setSuggestions(const std::vector<sc::LimitSuggestion>& suggestions) {
  beginResetModel();
  rows_.clear();
  for (const sc::LimitSuggestion& s : suggestions) {
    const QString table = QString::fromStdString(s.table);
    auto addChoices = [&](const char* setting, const std::vector<sc::LimitChoice>& choices) {
      for (const sc::LimitChoice& c : choices)
        rows_.push_back({table, QLatin1String(setting), QString::fromStdString(c.label), c.limit, c.droppedIdsAtLeast,
                         c.batchesOverLimit, s.batches});
    };
    addChoices("max_ids_per_partition", s.maxIdsChoices);
    addChoices("max_unique_ids_per_partition", s.maxUniqueIdsChoices);
    if (s.cooBufferSizePerDevice)
      rows_.push_back({table, QStringLiteral("suggested_coo_buffer_size_per_device"), QStringLiteral("max"),
                       *s.cooBufferSizePerDevice, -1, 0, s.batches});
  }
  endResetModel();
}

int FdoLimitsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FdoLimitsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FdoLimitsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& r = rows_[static_cast<size_t>(index.row())];
  const bool applicable = r.over >= 0;
  if (role == Qt::DisplayRole || role == SortRole) {
    const bool sort = role == SortRole;
    switch (index.column()) {
      case TableColumn: return r.table;
      case SettingColumn: return r.setting;
      case ChoiceColumn: return r.choice;
      case ValueColumn: return sort ? QVariant(r.value) : QVariant(QString::number(r.value));
      case OverColumn:
        if (!applicable) return sort ? QVariant(qint64(-1)) : QVariant();
        return sort ? QVariant(r.over) : QVariant(QString::number(r.over));
      case BatchesColumn:
        if (!applicable) return sort ? QVariant(qint64(-1)) : QVariant();
        return sort ? QVariant(qint64(r.batchesOver))
                    : QVariant(QStringLiteral("%1 of %2").arg(r.batchesOver).arg(r.batches));
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() >= ValueColumn)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && applicable && r.over > 0 && index.column() == OverColumn)
    return QBrush(QColor(0xd6, 0x27, 0x28));
  if (role == Qt::ToolTipRole) {
    if (r.choice == QLatin1String("max"))
      return tr("The value update_preprocessing_parameters would set: the maximum over every recorded batch.");
    if (applicable)
      return tr("The %1 of the per-batch maxima. The files keep each partition's maximum over source "
                "SparseCores, so at least %2 ids would be over this limit.")
          .arg(r.choice)
          .arg(r.over);
  }
  return {};
}

QVariant FdoLimitsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case TableColumn: return tr("table");
    case SettingColumn: return tr("setting");
    case ChoiceColumn: return tr("choice");
    case ValueColumn: return tr("value");
    case OverColumn: return tr("ids over (>=)");
    case BatchesColumn: return tr("batches over");
  }
  return {};
}

}  // namespace shardscope::scw
