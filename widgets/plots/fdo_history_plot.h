// FDO statistics over batches for one stacked table: per recorded batch, the
// maximum over partitions of max ids and of max unique ids, with the limits
// update_preprocessing_parameters would set (the maxima) and a cheaper
// choice (the median batch's maximum) as dashed lines, labelled with the ids
// each would leave over the limit.
// Example: user_item, 6 batches: max ids 15 40 15 14 14 15 — one spike;
// "max 40" drops nothing, "p50 15: >= 25 ids over, 1 of 6 batches".
//
// Each limit's label is placed at every layout (any size, the export's too)
// where it covers no series line or point, no other limit line and no other
// label: at either end of its line, above or below it, else slid along it,
// and on two lines when one is wider than the plot.
#pragma once
#include <QPolygonF>
#include <QRectF>
#include <vector>

#include "sparsecore_plot.h"

class QCPItemText;

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

  // A limit line's label as last drawn: its text, its box and its line's
  // height, in the plot's pixels (for tests of the placement).
  struct LimitLabel {
    QString text;
    QRectF box;
    double lineY = 0;
  };
  std::vector<LimitLabel> limitLabels() const;
  // The series as last drawn, as pixel polylines through their points.
  std::vector<QPolygonF> seriesInPixels() const;
  // The area inside the axes, in the same pixels.
  QRectF axisRectInPixels() const;

 private:
  // Moves each label to its free place for the layout just computed.
  void placeLabels();
  struct Label {
    QCPItemText* item = nullptr;
    double value = 0;       // the limit (plot coordinates)
    bool rightSide = true;  // the end of the line it prefers
    QString text;           // its words on one line
  };
  std::vector<Label> labels_;
};

}  // namespace shardscope::plots
