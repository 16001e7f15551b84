// Pipeline timeline (Gantt): the schedule without pipelining (top section)
// and with it (bottom section). Each section has a TensorCore row and one
// row per SparseCore (the SparseCores of a device run the same stages in
// lockstep on their slices). Boxes are labelled SC/F3, TC/B2, ...; forward
// and backward, SparseCore and TensorCore have their own colours. Dotted
// lines mark step boundaries; curved arrows go from a batch's SparseCore
// forward to its backward (the update lands 2 steps later when pipelined:
// the staleness), said in words in the caption under the title ("arrows:
// ... pipelined, the update of batch 0 lands 2 steps later (stale)"),
// where no arrow or step line crosses it. Drag and wheel pan and zoom the
// time axis only.
#pragma once
#include <vector>

#include <QPointer>

#include "sparsecore_plot.h"

class QCPItemCurve;
class QCPItemText;
class QCPTextElement;

namespace shardscope::sc {
struct PipelineComparison;
}

namespace shardscope::plots {

class PipelineGanttPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit PipelineGanttPlot(QWidget* parent = nullptr);
  ~PipelineGanttPlot() override;
  // Draws at most `maxBatches` batches of each schedule and
  // `sparseCoreRows` SparseCore rows per section (1..8). The initial time
  // range shows the first `visibleBatches` serial batches (0: all); the
  // rest is reached by panning.
  void setComparison(const sc::PipelineComparison& comparison, int maxBatches = 12,
                     int sparseCoreRows = 1, int visibleBatches = 0);

  // For tests: stage boxes, step boundary lines and staleness arrows drawn.
  int stageBoxCount() const { return boxes_; }
  int stepBoundaryCount() const { return boundaries_; }
  int stalenessArrowCount() const { return arrows_; }
  // The caption under the title (what the arrows say), for tests.
  QString captionText() const;

 private:
  // A box's label shows only when it fits the box as drawn now (its width
  // in pixels at this zoom and plot size): labels overflowed their boxes
  // at 1280x800, when this went by the share of the time span.
  void updateLabelVisibility();
  // The plot owns the texts: clearPlot (through reset) deletes them without
  // telling this class, so a label holds a guarded pointer.
  struct Label {
    QPointer<QCPItemText> text;
    double start, end;  // the box, in time
    double textWidth;   // pixels, in widthFont_
  };
  std::vector<Label> labels_;
  // Step numbers above each section, and the arrows: a number an arrow of
  // the section above would cross (large text in a low chart) is hidden.
  std::vector<QPointer<QCPItemText>> stepLabels_;
  std::vector<QPointer<QCPItemCurve>> arrowItems_;
  QFont widthFont_;  // the labels' font when textWidth was measured (it grows in presentation mode)
  QCPTextElement* caption_ = nullptr;
  int boxes_ = 0, boundaries_ = 0, arrows_ = 0;
};

}  // namespace shardscope::plots
