// A partition-by-batch heatmap of one FDO statistic: x = recorded batch,
// y = partition (or SparseCore), colour = the count, with a colour scale.
// One QCPColorMap cell per (batch, partition), so 512 partitions x 100
// batches redraw in milliseconds; a hot partition reads as a bright row.
#pragma once
#include <QString>

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
  // `rowName`: what a column of the matrix is ("partition", "SparseCore").
  void setMatrix(const QString& title, const sc::StatMatrix& m, const QString& rowName);
  void clear();

 private:
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
};

}  // namespace shardscope::plots
