#include "table_limits_model.h"

#include <QBrush>
#include <QColor>

#include "sparsecore/analysis.h"

namespace shardscope::scw {

TableLimitsModel::TableLimitsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableLimitsModel::setTables(const std::vector<TableSettings>& tables) {
  beginResetModel();
  tables_ = tables;
  derived_.assign(tables_.size(), Derived{});
  endResetModel();
}

void TableLimitsModel::setReport(const sc::AnalysisReport* report) {
  derived_.assign(tables_.size(), Derived{});
  if (report)
    for (size_t i = 0; i < tables_.size(); ++i)
      for (const sc::TableReport& t : report->tables) {
        const auto& members = t.stats.tables;
        if (std::find(members.begin(), members.end(), tables_[i].name) == members.end()) continue;
        Derived& d = derived_[i];
        d.stack = QString::fromStdString(t.stats.name);
        d.members = int(members.size());
        d.observedIds = t.stats.observedMaxIds();
        d.observedUnique = t.stats.observedMaxUniqueIds();
        d.suggestedIds = t.suggested.maxIdsPerPartition;
        d.suggestedUnique = t.suggested.maxUniqueIdsPerPartition;
      }
  if (!tables_.empty())
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int TableLimitsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(tables_.size());
}

int TableLimitsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant TableLimitsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const TableSettings& t = tables_[size_t(index.row())];
  const Derived& d = derived_[size_t(index.row())];
  const bool stacked = d.members > 1;
  const bool limitColumn = index.column() == MaxIdsColumn || index.column() == MaxUniqueIdsColumn;
  auto raw = [&]() -> QVariant {
    switch (index.column()) {
      case NameColumn: return QString::fromStdString(t.name);
      case StackColumn: return d.stack;
      case VocabColumn: return qint64(t.vocabSize);
      case WidthColumn: return t.width;
      case OptimizerColumn: return QString::fromStdString(t.optimizer);
      case MaxIdsColumn: return t.maxIdsPerPartition;
      case MaxUniqueIdsColumn: return t.maxUniqueIdsPerPartition;
      case ObservedIdsColumn: return d.observedIds;
      case ObservedUniqueIdsColumn: return d.observedUnique;
      case SuggestedColumn: return d.suggestedIds;
    }
    return {};
  };
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == SuggestedColumn)
        return d.suggestedIds < 0 ? QString()
                                  : QStringLiteral("%1 / %2").arg(d.suggestedIds).arg(d.suggestedUnique);
      if ((index.column() == ObservedIdsColumn || index.column() == ObservedUniqueIdsColumn) &&
          raw().toLongLong() < 0)
        return QString();
      return raw();
    case Qt::EditRole:
    case RawValueRole:
      return raw();
    case Qt::TextAlignmentRole:
      return index.column() == NameColumn || index.column() == StackColumn ||
                     index.column() == OptimizerColumn
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (limitColumn && stacked) return QBrush(QColor(0x99, 0x99, 0x99));
      if (index.column() == ObservedIdsColumn && d.observedIds > t.maxIdsPerPartition && !stacked)
        return QBrush(QColor(0xc0, 0x39, 0x2b));
      if (index.column() == ObservedUniqueIdsColumn && d.observedUnique > t.maxUniqueIdsPerPartition &&
          !stacked)
        return QBrush(QColor(0xc0, 0x39, 0x2b));
      return {};
    case Qt::ToolTipRole:
      if (limitColumn && stacked)
        return QStringLiteral("%1 is stacked into %2 with %3 other table(s): the stack's limits "
                              "(settings panel) apply, this one is ignored")
            .arg(QString::fromStdString(t.name), d.stack)
            .arg(d.members - 1);
      if (index.column() == SuggestedColumn)
        return QStringLiteral("smallest max_ids / max_unique_ids that process this batch without "
                              "dropping or mini-batching");
      return {};
  }
  return {};
}

QVariant TableLimitsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) {
    static const char* names[] = {"table",        "width",           "max ids",   "max unique",
                                  "observed ids", "observed unique", "suggested", "vocab",
                                  "optimizer",    "stack"};
    static_assert(sizeof(names) / sizeof(names[0]) == ColumnCount);
    return QString::fromLatin1(names[section]);
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case MaxIdsColumn: return QStringLiteral("max_ids_per_partition (compiled limit)");
      case MaxUniqueIdsColumn: return QStringLiteral("max_unique_ids_per_partition (compiled limit)");
      case WidthColumn: return QStringLiteral("embedding width in floats (padded to 8)");
      case ObservedIdsColumn: return QStringLiteral("max over partitions and sources of the stack");
      default: return {};
    }
  }
  return {};
}

Qt::ItemFlags TableLimitsModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  if (index.isValid() && (index.column() == WidthColumn || index.column() == MaxIdsColumn ||
                          index.column() == MaxUniqueIdsColumn))
    f |= Qt::ItemIsEditable;
  return f;
}

bool TableLimitsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole ||
      !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return false;
  bool ok = false;
  const int v = value.toInt(&ok);
  if (!ok || v < 1) return false;
  TableSettings& t = tables_[size_t(index.row())];
  int* field = nullptr;
  switch (index.column()) {
    case WidthColumn: field = &t.width; break;
    case MaxIdsColumn: field = &t.maxIdsPerPartition; break;
    case MaxUniqueIdsColumn: field = &t.maxUniqueIdsPerPartition; break;
    default: return false;
  }
  if (*field == v) return true;
  *field = v;
  const Derived& d = derived_[size_t(index.row())];
  lastEditNote_ = index.column() != WidthColumn && d.members > 1
                      ? tr("%1 is stacked into %2 with %3 other table(s), whose limits are the stack's "
                           "(stacked max ids / max unique in the settings panel)")
                            .arg(QString::fromStdString(t.name), d.stack)
                            .arg(d.members - 1)
                      : QString();
  emit dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole, RawValueRole});
  emit tablesEdited();
  return true;
}

}  // namespace shardscope::scw
