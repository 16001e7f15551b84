// Pipeline timeline (Gantt): four rows, SparseCores and TensorCores without
// pipelining and with it; each stage is a box labelled SC/F3, TC/B2, ...
// Forward and backward, SparseCore and TensorCore have their own colours.
#pragma once
#include "sparsecore_plot.h"

namespace shardscope::sc {
struct PipelineComparison;
}

namespace shardscope::plots {

class PipelineGanttPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit PipelineGanttPlot(QWidget* parent = nullptr);
  // Draws at most `maxBatches` batches of each schedule (readability).
  void setComparison(const sc::PipelineComparison& comparison, int maxBatches = 12);
};

}  // namespace shardscope::plots
