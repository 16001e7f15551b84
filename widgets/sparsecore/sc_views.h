// The five SparseCore views by name, filled from one analysis. Shared by
// the workspace (which keeps one widget per view) and the headless export.
//   sc-load      partition load of one stack (PartitionLoadPlot, overview)
//   sc-spmem     SPMEM occupancy per tile (SpmemOccupancyPlot)
//   sc-hbm       HBM use per chip (HbmUsagePlot)
//   sc-pipeline  pipeline timeline (PipelineGanttPlot)
//   sc-ids       id rank / frequency, log-log (IdDistributionPlot)
#pragma once
#include <QString>
#include <QStringList>
#include <memory>

#include "sc_document.h"
#include "sparsecore_plot.h"

namespace shardscope::scw {

QStringList sparseCoreViewNames();

struct ViewOptions {
  int loadStack = -1;       // sc-load: stack index; -1: the hottest stack
  int maxBatches = 12;      // sc-pipeline: batches drawn
  int visibleBatches = 0;   // sc-pipeline: batches in the initial range (0: all)
  int sparseCoreRows = -1;  // sc-pipeline: SparseCore rows; -1: SparseCores per device (max 8)
};

// A new, empty plot for `view` (nullptr when the name is unknown).
std::unique_ptr<plots::SparseCorePlot> createSparseCorePlot(const QString& view);

// Fills `plot` (made by createSparseCorePlot for the same view). False, with
// the reason in `why`, when the analysis has nothing for this view (a
// pipeline-only file has no tables; invalid settings have no report).
bool fillSparseCorePlot(plots::SparseCorePlot* plot, const QString& view, const ScAnalysis& analysis,
                        const ViewOptions& options = {}, QString* why = nullptr);

// Index of the stack called `name` in the analysis (-1 if none).
int stackIndexByName(const ScAnalysis& analysis, const QString& name);

}  // namespace shardscope::scw
