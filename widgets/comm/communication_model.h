// The collectives of a communication report as a table (Communication dock,
// exported picture): kind, op, line, function, axes, bytes per device, time,
// cause. Sorting is the proxy's job: SortRole gives numbers for the numeric
// columns.
//
// Example: the Megatron MLP after propagation gives one row
//   all-reduce | %5 = sdy.all_reduce | 26 | @main | "model" | 3.00 KiB | 5.12 ns | all-reduce on
//   ...
// and totalsText() "1 collective, 3.00 KiB per device, 5.12 ns on tpu-v5p".
#pragma once
#include <QAbstractTableModel>
#include <memory>

#include "api/communication.h"

namespace shardscope::widgets::comm {

class CommunicationModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    KindColumn,
    OpColumn,
    LineColumn,
    FunctionColumn,
    AxesColumn,
    BytesColumn,
    TimeColumn,
    CauseColumn,
    NumColumns
  };
  enum Roles {
    SortRole = Qt::UserRole,  // number for bytes/time/line, text otherwise
    LineRole,                 // int: the entry's line in the document
    ColumnRole,               // int: its column
    EntryRole,                // int: index into report()->collectives
    CostShareRole,            // double in [0, 1]: time / the largest time
  };

  explicit CommunicationModel(QObject* parent = nullptr);
  // Model reset. `report` may be null (no document).
  void setReport(std::shared_ptr<const api::CommunicationReport> report);
  const std::shared_ptr<const api::CommunicationReport>& report() const { return report_; }
  const api::CollectiveEntry* entry(int row) const;

  // "3 collectives, 48.0 MiB per device, 1.2 ms on tpu-v5p" (and "(with the
  // explicit reshards this sharding needs)" when the analysis added them);
  // the error, or "No collectives" when there are none.
  QString totalsText() const;
  static QString totalsText(const api::CommunicationReport& report);
  // The op column's text: "%5 = sdy.all_reduce", "%3 = sdy.reshard
  // (planned)"; one the analysis inserted "sdy.reshard of %arg1 (planned)".
  static QString opText(const api::CollectiveEntry& e);
  // The collective in one paragraph (rich text): kind, axes, group, op,
  // per-device shapes, then its cause and what kept each axis from the
  // tensor lacking it. Example:
  //   <b>all-gather</b> on "x" (group of 4), sdy.reshard of %0 (planned):
  //   2x8 → 8x8 f32 per device, 192 B, 0.32 ns<br>all-gather on "x" before ...
  //   <br>&nbsp;&nbsp;why not "x" on @main result 0 dimension 0: closed: ...
  static QString detailHtml(const api::CollectiveEntry& e);
  // The "why not" lines alone (each after a <br>), empty when none.
  static QString blockedHtml(const api::CollectiveEntry& e);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const api::CommunicationReport> report_;
  double maxSeconds_ = 0;
};

}  // namespace shardscope::widgets::comm
