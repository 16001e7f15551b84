// The factor table of one op as a Qt table model: rows T0.. (operands, then
// results), columns: the tensor, its value, one per factor (F0.. with
// name, size and kind) or, in the dimension view, one per tensor
// dimension, and last the explicitly replicated axes.
//
// Cells expose their axes and flags through roles so that the delegate
// (factor_table_view.h) can draw coloured axis chips; DisplayRole gives the
// plain text (`{"a", ?}`, `—` where the tensor lacks the factor).
#pragma once
#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>

#include "explain/factor_table.h"

namespace shardscope::widgets::trace {

class FactorTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // Fixed leading columns; factor (or dimension) columns follow, then the
  // replicated column (replicatedColumn()).
  enum Columns { TensorColumn, ValueColumn, NumLeadingColumns };
  enum Roles {
    CellKindRole = Qt::UserRole,  // CellKind
    AxesRole,                     // QStringList: `"a"`, `"b":(1)2`
    AxisColorsRole,               // QVariantList of QColor, one per axis
    OverflowAxesRole,             // QStringList
    OpenRole,                     // bool: the factor/dimension may still take axes
    MappedRole,                   // bool: false where the tensor lacks the factor
    ConflictRole,                 // bool: cell (or, on headers, factor) in conflict
    CompatiblePrefixRole,         // int: leading axes equal to the compatible major-most axes
    ChangedRole,                  // bool: differs from before the step
    FactorRole,                   // int: factor index (factor columns), -1 otherwise
    DimensionRole,                // int: tensor dimension of the cell, -1 otherwise
    KindRole,                     // QString: "contracting, reduction" (factor columns, headers too)
    IsResultRole,                 // bool: the row is a result
  };
  enum class CellKind { Tensor, Value, Factor, Dimension, Replicated };

  explicit FactorTableModel(QObject* parent = nullptr);

  // Model reset with a new table.
  void setTable(explain::FactorTable table);
  const explain::FactorTable& table() const { return table_; }
  // Toggle the dimension view (a model reset).
  void setDimensionView(bool on);
  bool dimensionView() const { return dimensionView_; }

  int replicatedColumn() const;
  // The colour of mesh axis `name` (the mesh's order when known, else the
  // order of first appearance in the table).
  QColor axisColor(const QString& name) const;
  // Mesh axes in colour order (for legends): (name, size or -1).
  QList<QPair<QString, qint64>> legendAxes() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  int dynamicColumns() const;
  QStringList axisNames() const;

  explain::FactorTable table_;
  bool dimensionView_ = false;
  QStringList axisOrder_;
};

}  // namespace shardscope::widgets::trace
