// HBM use per chip: one stacked bar per table (useful rows, then padding
// from the 32-byte width and 8 x N vocabulary rounding, optimizer slots
// included), and one bar for the chip total (tables, SparseCore stack,
// prefetch heap) against the chip's HBM capacity.
#pragma once
#include "sparsecore_plot.h"

namespace shardscope::sc {
struct AnalysisReport;
}

namespace shardscope::plots {

class HbmUsagePlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit HbmUsagePlot(QWidget* parent = nullptr);
  void setReport(const sc::AnalysisReport& report);
};

}  // namespace shardscope::plots
