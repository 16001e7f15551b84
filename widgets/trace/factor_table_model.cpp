#include "factor_table_model.h"

#include "core/axis_style.h"

namespace shardscope::widgets::trace {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QStringList axisStrings(const AxisRefList& axes) {
  QStringList out;
  for (const AxisRef& a : axes) out << qs(a.str());
  return out;
}
}  // namespace

FactorTableModel::FactorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FactorTableModel::setTable(explain::FactorTable table) {
  beginResetModel();
  table_ = std::move(table);
  axisOrder_.clear();
  if (table_.mesh)
    for (const MeshAxis& a : table_.mesh->axes) axisOrder_ << qs(a.name);
  auto note = [this](const AxisRefList& axes) {
    for (const AxisRef& a : axes)
      if (!axisOrder_.contains(qs(a.name))) axisOrder_ << qs(a.name);
  };
  for (const auto& row : table_.rows) {
    for (const auto& c : row.cells) {
      note(c.axes);
      note(c.overflowAxes);
    }
    note(row.replicated);
  }
  endResetModel();
}

void FactorTableModel::setDimensionView(bool on) {
  if (on == dimensionView_) return;
  beginResetModel();
  dimensionView_ = on;
  endResetModel();
}

int FactorTableModel::dynamicColumns() const {
  return dimensionView_ ? static_cast<int>(table_.maxRank()) : static_cast<int>(table_.columns.size());
}

int FactorTableModel::replicatedColumn() const { return NumLeadingColumns + dynamicColumns(); }

QColor FactorTableModel::axisColor(const QString& name) const {
  if (table_.mesh && table_.mesh->hasAxis(name.toStdString())) return widgets::axisColor(&*table_.mesh, name);
  return widgets::axisColor(static_cast<int>(axisOrder_.indexOf(name)));
}

QList<QPair<QString, qint64>> FactorTableModel::legendAxes() const {
  QList<QPair<QString, qint64>> out;
  for (const QString& n : axisOrder_)
    out << qMakePair(n, table_.mesh ? qint64(table_.mesh->axisSize(n.toStdString())) : qint64(-1));
  return out;
}

int FactorTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int FactorTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || (table_.rows.empty() && table_.columns.empty())) return 0;
  return NumLeadingColumns + dynamicColumns() + 1;
}

QVariant FactorTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& row = table_.rows[static_cast<size_t>(index.row())];
  const int col = index.column();
  const int dyn = col - NumLeadingColumns;
  CellKind kind = CellKind::Replicated;
  if (col == TensorColumn) kind = CellKind::Tensor;
  else if (col == ValueColumn) kind = CellKind::Value;
  else if (col < replicatedColumn()) kind = dimensionView_ ? CellKind::Dimension : CellKind::Factor;

  if (role == CellKindRole) return static_cast<int>(kind);
  if (role == IsResultRole) return row.isResult;
  auto colors = [this](const AxisRefList& axes) {
    QVariantList out;
    for (const AxisRef& a : axes) out << axisColor(qs(a.name));
    return out;
  };

  switch (kind) {
    case CellKind::Tensor:
      if (role == Qt::DisplayRole) return qs(row.shortLabel(static_cast<size_t>(index.row())));
      if (role == Qt::ToolTipRole) return qs(row.tensor);
      return {};
    case CellKind::Value:
      if (role == Qt::DisplayRole) return row.value.empty() ? qs(row.tensor) : qs(row.value);
      if (role == Qt::ToolTipRole) return qs(row.tensor);
      return {};
    case CellKind::Replicated:
      switch (role) {
        case Qt::DisplayRole: return row.replicated.empty() ? QString() : qs(strAxisList(row.replicated));
        case AxesRole: return axisStrings(row.replicated);
        case AxisColorsRole: return colors(row.replicated);
        case MappedRole: return true;
        case OpenRole: return false;
        case Qt::ToolTipRole:
          return row.replicated.empty() ? QVariant()
                                        : QVariant(tr("explicitly replicated: no factor of this tensor may use %1")
                                                       .arg(qs(strAxisList(row.replicated))));
      }
      return {};
    case CellKind::Factor: {
      const auto& cell = row.cells[static_cast<size_t>(dyn)];
      const auto& column = table_.columns[static_cast<size_t>(dyn)];
      switch (role) {
        case Qt::DisplayRole: return qs(cell.text());
        case AxesRole: return axisStrings(cell.axes);
        case AxisColorsRole: return colors(cell.axes);
        case OverflowAxesRole: return axisStrings(cell.overflowAxes);
        case OpenRole: return cell.mapped && !cell.closed;
        case MappedRole: return cell.mapped;
        case ConflictRole: return cell.conflict;
        case CompatiblePrefixRole: return static_cast<int>(cell.compatiblePrefix);
        case ChangedRole: return cell.changed;
        case FactorRole: return static_cast<int>(column.factor);
        case DimensionRole: return static_cast<int>(cell.dim);
        case KindRole: return qs(column.kindsText());
        case Qt::ToolTipRole: {
          if (!cell.mapped) return tr("%1 does not have factor %2").arg(qs(row.tensor), qs(column.name));
          QString t = tr("factor %1 (%2) of %3, dimension %4: %5")
                          .arg(qs(column.name), qs(column.kindsText()), qs(row.tensor))
                          .arg(cell.dim)
                          .arg(qs(cell.text()));
          if (cell.closed) t += tr("; closed");
          if (cell.minorMost) t += tr("; minor-most");
          if (cell.conflict) t += u'\n' + tr("conflict: %1").arg(qs(column.conflictReason));
          if (cell.changed) t += u'\n' + tr("changed by this step");
          return t;
        }
      }
      return {};
    }
    case CellKind::Dimension: {
      if (static_cast<size_t>(dyn) >= row.dims.size()) {
        if (role == MappedRole) return false;
        return {};
      }
      const auto& d = row.dims[static_cast<size_t>(dyn)];
      switch (role) {
        case Qt::DisplayRole: return qs(d.text());
        case AxesRole: return axisStrings(d.sharding.axes);
        case AxisColorsRole: return colors(d.sharding.axes);
        case OpenRole: return !d.sharding.closed;
        case MappedRole: return true;
        case ChangedRole: return d.changed;
        case DimensionRole: return dyn;
        case FactorRole: return -1;
        case Qt::ToolTipRole: {
          QStringList fs;
          for (int64_t f : d.factors) fs << qs(OpShardingRule::factorName(f));
          return tr("dimension %1 (size %2) = factors %3: %4")
              .arg(dyn)
              .arg(d.size)
              .arg(fs.join(QStringLiteral(", ")), qs(d.text()));
        }
      }
      return {};
    }
  }
  return {};
}

QVariant FactorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) {
    if (role == Qt::DisplayRole && section >= 0 && section < rowCount()) return section;
    return {};
  }
  if (section < 0 || section >= columnCount()) return {};
  if (section == TensorColumn) return role == Qt::DisplayRole ? QVariant(tr("T")) : QVariant();
  if (section == ValueColumn) return role == Qt::DisplayRole ? QVariant(tr("tensor")) : QVariant();
  if (section == replicatedColumn()) {
    if (role == Qt::DisplayRole) return tr("replicated");
    if (role == Qt::ToolTipRole) return tr("axes the tensor is explicitly replicated on");
    return {};
  }
  const int dyn = section - NumLeadingColumns;
  if (dimensionView_) {
    if (role == Qt::DisplayRole) return tr("d%1").arg(dyn);
    if (role == DimensionRole) return dyn;
    return {};
  }
  const auto& c = table_.columns[static_cast<size_t>(dyn)];
  switch (role) {
    case Qt::DisplayRole:
    {
      // Second line: the role, then the kind unless it is plain pass-through.
      QString kinds = qs(c.role);
      if (c.role.empty() || c.kind != "pass-through")
        kinds += (kinds.isEmpty() ? QString() : QStringLiteral(", ")) + qs(c.kind);
      if (c.blocked) kinds += QStringLiteral(", blocked");
      return QStringLiteral("F%1 %2\n%3").arg(dyn).arg(qs(c.title()), kinds);
    }
    case Qt::ToolTipRole: {
      QString t = tr("factor %1, size %2: %3").arg(qs(c.name)).arg(c.size).arg(qs(c.kindsText()));
      if (!c.direction.empty()) t += u'\n' + tr("direction: %1").arg(qs(c.direction));
      if (!c.compatibleAxes.empty()) t += u'\n' + tr("compatible major-most axes: %1").arg(qs(strAxisList(c.compatibleAxes)));
      if (c.conflict) t += u'\n' + tr("conflict: %1").arg(qs(c.conflictReason));
      return t;
    }
    case ConflictRole: return c.conflict;
    case FactorRole: return static_cast<int>(c.factor);
    case KindRole: return qs(c.kindsText());
  }
  return {};
}

}  // namespace shardscope::widgets::trace
