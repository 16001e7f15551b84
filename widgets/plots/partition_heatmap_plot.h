// A partition heatmap of FDO statistics, with a colour scale from zero:
//  - one table: x = recorded batch, y = partition (or SparseCore);
//  - all tables: x = table, y = partition, the maximum over batches (the
//    overview of which table and partition run hot).
// One QCPColorMap cell per (column, partition), so 512 partitions x 100
// tables redraw in milliseconds (tests/bench/heatmap_bench); a hot partition
// reads as a bright row.
#pragma once
#include <QString>
#include <QStringList>

#include "sparsecore_plot.h"

class QCPColorMap;
class QCPColorScale;

namespace shardscope::sc {
struct StatMatrix;
}

namespace shardscope::plots {

class PartitionHeatmapPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit PartitionHeatmapPlot(QWidget* parent = nullptr);
  ~PartitionHeatmapPlot() override;
  // `m`'s rows are the x columns (batches), its columns the y rows;
  // `rowName`: what those are ("partition", "SparseCore"). `xNames`, when
  // given, label the x columns (table names) instead of numbers.
  void setMatrix(const QString& title, const sc::StatMatrix& m, const QString& rowName,
                 const QString& xLabel = QStringLiteral("recorded batch"), const QStringList& xNames = {});
  void clear();

 private:
  // The colour scale in its column right of the map, or out of the layout
  // (an empty chart kept its ~80 px column, blank at the right).
  void showScale(bool show);
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
};

}  // namespace shardscope::plots
