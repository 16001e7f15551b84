// HBM use per chip, two panels:
//  - left: per table (in stack order), the bytes of its rows and the bytes
//    lost to padding (width to 8 floats = 32 B, vocabulary to 8 x N rows),
//    optimizer slots included, stacked on a linear scale, each bar labelled
//    with its share of padding (a width-1 table: "87% padding"), so a tiny
//    table's waste is named without being drawn as large as a big table;
//  - right: the chip total, stacked (padded tables, SparseCore HBM stack,
//    prefetch heap), against the chip's HBM capacity line.
#pragma once
#include "sparsecore_plot.h"

class QCPAxisRect;
class QCPTextElement;

namespace shardscope::sc {
struct AnalysisReport;
}

namespace shardscope::plots {

class HbmUsagePlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit HbmUsagePlot(QWidget* parent = nullptr);
  ~HbmUsagePlot() override;
  void setReport(const sc::AnalysisReport& report);

 private:
  QCPAxisRect* total_ = nullptr;
  QCPTextElement* caption_ = nullptr;
};

}  // namespace shardscope::plots
