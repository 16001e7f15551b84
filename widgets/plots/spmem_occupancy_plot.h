// SPMEM occupancy per tile, one row per stacked table: horizontal bars
// stacked by buffer (ids staging and unique rows, both sized from the
// limits; the gather operand, batch x width) against the TileSpmem capacity.
// Buffers are sized statically, so every SparseCore and every tile carries
// the same allocation. What passes the capacity is drawn in red and the
// compiler-style error ("Fixed size allocations ... do not fit in
// TileSpmem", "Gather operand too large") is printed under the title.
#pragma once
#include <QString>

#include "sparsecore_plot.h"

class QCPTextElement;

namespace shardscope::sc {
struct AnalysisReport;
}

namespace shardscope::plots {

class SpmemOccupancyPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit SpmemOccupancyPlot(QWidget* parent = nullptr);
  ~SpmemOccupancyPlot() override;
  void setReport(const sc::AnalysisReport& report);

  // Stacks whose allocation passes the capacity, and the errors shown.
  int overflowCount() const { return overflowCount_; }
  QString errorText() const { return errorText_; }

 private:
  QCPTextElement* caption_ = nullptr;
  int overflowCount_ = 0;
  QString errorText_;
};

}  // namespace shardscope::plots
