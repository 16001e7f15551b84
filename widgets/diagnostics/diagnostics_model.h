// Table of a document's diagnostics: severity, line, column, message.
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "ir/diagnostics.h"

namespace shardscope::widgets {

class DiagnosticsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns { SeverityColumn, LineColumn, ColumnColumn, MessageColumn, NumColumns };
  enum Roles {
    LineRole = Qt::UserRole,  // int, 1-based (0 unknown)
    ColRole,                  // int, 1-based (0 unknown)
    SeverityRole,             // int (ir::Severity)
    SortRole,                 // numeric sort key for the column
  };

  explicit DiagnosticsModel(QObject* parent = nullptr);
  // Model reset.
  // `errorName`: what the Severity column calls an error ("parse error",
  // "verifier error", "file error": api::loadStageName); empty: "error".
  void setDiagnostics(std::vector<ir::Diagnostic> diagnostics, QString errorName = {});
  const std::vector<ir::Diagnostic>& diagnostics() const { return diags_; }
  int errorCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  static QString severityName(ir::Severity s);

 private:
  std::vector<ir::Diagnostic> diags_;
  QString errorName_;
};

}  // namespace shardscope::widgets
