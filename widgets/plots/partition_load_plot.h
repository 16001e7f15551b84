// Partition load: ids per destination partition (= destination SparseCore,
// col_id mod N).
//
// The overview (default) has two panels sharing the partition axis:
//  - top: merged ids per partition summed over all source SparseCores,
//    stacked by member table, with the skew (hottest / mean partition);
//  - bottom: the maximum over source SparseCores (what the compiled limit is
//    checked against) with max_unique markers, the max_ids /
//    max_unique_ids limit lines, and the part above the limit in red:
//    dropped ids (allow_id_dropping), split into mini-batches, or the
//    reference's failure.
// Example: zipf_dropping.json, partition 0 sees 895 ids against 256: the bar
// is blue up to 256 and red above, the caption reads "14406 ids dropped".
#pragma once
#include <QString>
#include <cstdint>

#include "sparsecore_plot.h"

class QCPAxisRect;
class QCPTextElement;

namespace shardscope::sc {
struct StackStats;
struct AnalysisReport;
}  // namespace shardscope::sc

namespace shardscope::plots {

// What the plot shows as figures (also for tests and the workspace summary).
struct LoadFigures {
  int64_t maxIdsLimit = 0;
  int64_t maxUniqueIdsLimit = 0;
  int64_t observedMaxIds = 0;
  int64_t observedMaxUniqueIds = 0;
  int64_t droppedIds = 0;
  int64_t idsAfterMerge = 0;
  int minibatches = 1;
  int overLimitPartitions = 0;  // partitions whose max (or unique max) passes a limit
  double skew = 0;              // hottest partition / mean partition (sums over sources)
  int hottestPartition = -1;
  bool operator==(const LoadFigures&) const = default;
};

// Context of the stack that StackStats alone does not carry.
struct LoadContext {
  bool allowIdDropping = false;
  bool minibatching = false;  // enable_minibatching
  int minibatches = 1;
};

class PartitionLoadPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  enum class Measure {
    Overview,       // both panels (the workspace and the export use this)
    TotalPerTable,  // top panel only: sums over sources, by table
    MaxPerSource,   // bottom panel only: max over sources against the limits
  };
  explicit PartitionLoadPlot(QWidget* parent = nullptr);
  ~PartitionLoadPlot() override;
  void setStats(const sc::StackStats& stats, Measure measure = Measure::Overview,
                const LoadContext& context = {});
  // Stack `stackIndex` of `report` (overview), with the report's dropping
  // and mini-batching context.
  void setStack(const sc::AnalysisReport& report, int stackIndex);
  // Nothing drawn, no axes; `title` says why (e.g. a pipeline-only file).
  void clear(const QString& title = {});

  const LoadFigures& figures() const { return figures_; }
  // The figures line shown under the title ("skew 3.41 (partition 0) ...").
  QString figuresText() const { return figuresText_; }

  // The stack whose observed / limit ratio is highest (the one to look at).
  static int hottestStack(const sc::AnalysisReport& report);

 private:
  QCPAxisRect* lower_ = nullptr;
  QCPTextElement* caption_ = nullptr;
  LoadFigures figures_;
  QString figuresText_;
};

}  // namespace shardscope::plots
