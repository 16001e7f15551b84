// FDO statistics over batches for one stacked table: per recorded batch, the
// maximum over partitions of max ids and of max unique ids, with the limits
// update_preprocessing_parameters would set (the maxima) and a cheaper
// choice (the median batch's maximum) as dashed lines, labelled with the ids
// each would leave over the limit.
// Example: user_item, 6 batches: max ids 15 40 15 14 14 15 — one spike;
// "max 40" drops nothing, "p50 15: >= 25 ids over, 1 of 6 batches".
#pragma once
#include "sparsecore_plot.h"

namespace shardscope::sc {
struct TableStats;
struct LimitSuggestion;
}  // namespace shardscope::sc

namespace shardscope::plots {

class FdoHistoryPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit FdoHistoryPlot(QWidget* parent = nullptr);
  ~FdoHistoryPlot() override;
  void setTable(const sc::TableStats& table, const sc::LimitSuggestion& suggestion);
  void clear();
};

}  // namespace shardscope::plots
