#include "diagnostics/diagnostics_model.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QIcon>
#include <QStyle>

namespace shardscope::widgets {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDiagnostics(std::vector<ir::Diagnostic> diagnostics,
                                      QString errorName) {
  beginResetModel();
  diags_ = std::move(diagnostics);
  errorName_ = std::move(errorName);
  endResetModel();
}

int DiagnosticsModel::errorCount() const {
  int n = 0;
  for (const auto& d : diags_) n += d.severity == ir::Severity::Error;
  return n;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(diags_.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QString DiagnosticsModel::severityName(ir::Severity s) {
  switch (s) {
    case ir::Severity::Error:
      return tr("error");
    case ir::Severity::Warning:
      return tr("warning");
    case ir::Severity::Note:
      return tr("note");
    case ir::Severity::Remark:
      return tr("remark");
  }
  return {};
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const ir::Diagnostic& d = diags_[static_cast<size_t>(index.row())];
  switch (role) {
    case LineRole:
      return static_cast<int>(d.loc.line);
    case ColRole:
      return static_cast<int>(d.loc.col);
    case SeverityRole:
      return static_cast<int>(d.severity);
    case SortRole:
      switch (index.column()) {
        case SeverityColumn:
          return static_cast<int>(d.severity);
        case LineColumn:
          return static_cast<int>(d.loc.line);
        case ColumnColumn:
          return static_cast<int>(d.loc.col);
        default:
          return QString::fromStdString(d.message);
      }
    case Qt::ForegroundRole:
      if (index.column() == SeverityColumn)
        return QBrush(d.severity == ir::Severity::Error     ? QColor(0xc0, 0x1c, 0x28)
                      : d.severity == ir::Severity::Warning ? QColor(0xb3, 0x6b, 0x00)
                                                            : QColor(0x33, 0x66, 0x99));
      return {};
    case Qt::DecorationRole:
      if (index.column() == SeverityColumn &&
          qobject_cast<QApplication*>(QCoreApplication::instance())) {
        auto* style = QApplication::style();
        return style->standardIcon(d.severity == ir::Severity::Error ? QStyle::SP_MessageBoxCritical
                                   : d.severity == ir::Severity::Warning
                                       ? QStyle::SP_MessageBoxWarning
                                       : QStyle::SP_MessageBoxInformation);
      }
      return {};
    case Qt::ToolTipRole:
      return QString::fromStdString(d.format(""));
    case Qt::DisplayRole:
      switch (index.column()) {
        case SeverityColumn:
          return d.severity == ir::Severity::Error && !errorName_.isEmpty()
                     ? errorName_
                     : severityName(d.severity);
        case LineColumn:
          return d.loc.known() ? QVariant(static_cast<int>(d.loc.line))
                               : QVariant(QStringLiteral("—"));
        case ColumnColumn:
          return d.loc.col ? QVariant(static_cast<int>(d.loc.col)) : QVariant(QStringLiteral("—"));
        case MessageColumn:
          return QString::fromStdString(d.message);
      }
      return {};
  }
  return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case SeverityColumn:
      return tr("Severity");
    case LineColumn:
      return tr("Line");
    case ColumnColumn:
      return tr("Col");
    case MessageColumn:
      return tr("Message");
  }
  return {};
}

}  // namespace shardscope::widgets
