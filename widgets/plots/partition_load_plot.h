// Partition load bars: merged ids per destination partition, stacked by
// member table (summed over source SparseCores), with the per-partition
// maximum over sources (what the limit is checked against) as markers and
// the max_ids / max_unique_ids limits as horizontal lines.
#pragma once
#include "sparsecore_plot.h"

namespace shardscope::sc {
struct StackStats;
}

namespace shardscope::plots {

class PartitionLoadPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  enum class Measure {
    TotalPerTable,  // bars: ids per partition summed over sources, by table
    MaxPerSource,   // bars: max over sources (max_ids_per_partition)
  };
  explicit PartitionLoadPlot(QWidget* parent = nullptr);
  void setStats(const sc::StackStats& stats, Measure measure = Measure::MaxPerSource);
  void clear();
};

}  // namespace shardscope::plots
