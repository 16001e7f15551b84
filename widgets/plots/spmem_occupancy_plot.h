// SPMEM occupancy per stacked table: per-tile fixed allocations (ids
// staging + unique rows, from the limits) and the gather operand, as
// horizontal stacked bars against the TileSpmem capacity line.
#pragma once
#include "sparsecore_plot.h"

namespace shardscope::sc {
struct AnalysisReport;
}

namespace shardscope::plots {

class SpmemOccupancyPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit SpmemOccupancyPlot(QWidget* parent = nullptr);
  void setReport(const sc::AnalysisReport& report);
};

}  // namespace shardscope::plots
