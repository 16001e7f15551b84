#include "pipeline_gantt_plot.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <map>

#include "plot_text.h"
#include "sparsecore/pipeline.h"

namespace shardscope::plots {

namespace {
QColor stageColor(sc::Unit unit, sc::Phase phase) {
  if (unit == sc::Unit::SparseCore)
    return phase == sc::Phase::Forward ? QColor(0x4e, 0x79, 0xa7) : QColor(0x9e, 0xc5, 0xe6);
  return phase == sc::Phase::Forward ? QColor(0xe3, 0x7b, 0x1c) : QColor(0xfd, 0xbf, 0x80);
}
}  // namespace

PipelineGanttPlot::PipelineGanttPlot(QWidget* parent) : SparseCorePlot(parent) {
  QCustomPlot* p = plot();
  // What the arrows mean, under the title: in the plot the note sat in the
  // arrows' lane, crossed by the arrows of the next batches and the step
  // lines, on the time axis.
  p->plotLayout()->insertRow(1);
  caption_ = new QCPTextElement(p, QString(), QFont(font().family(), 9));
  caption_->setTextColor(QColor(0xc0, 0x39, 0x2b));
  p->plotLayout()->addElement(1, 0, caption_);
  p->xAxis->setLabel(QStringLiteral("time (stage time units)"));
  p->axisRect()->setRangeDrag(Qt::Horizontal);
  p->axisRect()->setRangeZoom(Qt::Horizontal);
  // Legend below the timeline, in one row.
  moveLegendToRow(p->plotLayout()->rowCount(), 6);
  connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this](const QCPRange&) { updateLabelVisibility(); });
  // The plot's size changes the boxes' widths too: checked again after each
  // layout (before the drawing that follows it).
  connect(p, &QCustomPlot::afterLayout, this, &PipelineGanttPlot::updateLabelVisibility);
}

PipelineGanttPlot::~PipelineGanttPlot() = default;

QString PipelineGanttPlot::captionText() const { return caption_->text(); }

void PipelineGanttPlot::updateLabelVisibility() {
  const QCPAxis* x = plot()->xAxis;
  // Widths measured again when the labels' font changed (presentation
  // mode's larger text).
  const auto first = std::find_if(labels_.begin(), labels_.end(), [](const Label& l) { return !l.text.isNull(); });
  if (first != labels_.end() && first->text->font() != widthFont_) {
    widthFont_ = first->text->font();
    const QFontMetricsF fm(widthFont_);
    for (Label& l : labels_)
      if (l.text) l.textWidth = fm.horizontalAdvance(l.text->text());
  }
  for (const Label& l : labels_)
    if (l.text) l.text->setVisible(std::abs(x->coordToPixel(l.end) - x->coordToPixel(l.start)) >=
                       l.textWidth + 4);
  std::vector<QPolygonF> arrows;
  for (const auto& curve : arrowItems_)
    if (curve) {
      QPainterPath path(curve->start->pixelPosition());
      path.cubicTo(curve->startDir->pixelPosition(), curve->endDir->pixelPosition(), curve->end->pixelPosition());
      arrows.push_back(path.toFillPolygon());
    }
  for (const auto& label : stepLabels_) {
    if (!label) continue;
    const QRectF r = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    const bool crossed = std::any_of(arrows.begin(), arrows.end(), [&](const QPolygonF& arrow) {
      return std::any_of(arrow.begin(), arrow.end(), [&](const QPointF& p) { return r.contains(p); });
    });
    label->setVisible(!crossed);
  }
}

void PipelineGanttPlot::setComparison(const sc::PipelineComparison& c, int maxBatches,
                                      int sparseCoreRows, int visibleBatches) {
  reset();
  labels_.clear();
  stepLabels_.clear();
  arrowItems_.clear();
  boxes_ = boundaries_ = arrows_ = 0;
  QCustomPlot* p = plot();
  sparseCoreRows = std::clamp(sparseCoreRows, 1, 8);
  const QFont small(font().family(), 7);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();

  // Sections, top to bottom: serial, pipelined. In each: the TC row, the
  // SparseCore rows, then a lane for the staleness arrows.
  const double lane = 1.1;
  const double sectionHeight = lane + sparseCoreRows + 1;
  const double pipelinedTop = lane + sparseCoreRows;  // y of the pipelined TC row
  const double serialTop = pipelinedTop + sectionHeight + 0.2;
  auto rowsOf = [&](double top, const QString& section) {
    ticker->addTick(top, section + QStringLiteral(" TC"));
    for (int k = 0; k < sparseCoreRows; ++k)
      ticker->addTick(top - 1 - k, sparseCoreRows == 1 ? section + QStringLiteral(" SC")
                                                       : section + QStringLiteral(" SC %1").arg(k));
  };
  rowsOf(serialTop, QStringLiteral("serial"));
  rowsOf(pipelinedTop, QStringLiteral("pipelined"));
  double fullEnd = 0;
  for (const sc::Schedule* sched : {&c.serial, &c.pipelined})
    for (const sc::ScheduledStage& st : sched->stages)
      if (st.batch < maxBatches) fullEnd = std::max(fullEnd, st.end);

  double end = 0, visibleEnd = 0;
  auto draw = [&](const sc::Schedule& s, double top, bool pipelined) {
    std::map<int, double> stepStart;
    std::map<int, std::pair<double, double>> forwardEnd, backwardStart;  // batch -> (time, row)
    for (const sc::ScheduledStage& st : s.stages) {
      if (st.batch >= maxBatches) continue;
      auto [it, inserted] = stepStart.emplace(st.step, st.start);
      if (!inserted) it->second = std::min(it->second, st.start);
      const bool sc = st.unit == sc::Unit::SparseCore;
      const int rows = sc ? sparseCoreRows : 1;
      for (int k = 0; k < rows; ++k) {
        const double row = sc ? top - 1 - k : top;
        auto* box = new QCPItemRect(p);
        box->topLeft->setCoords(st.start, row + 0.36);
        box->bottomRight->setCoords(st.end, row - 0.36);
        box->setBrush(stageColor(st.unit, st.phase));
        box->setPen(QPen(Qt::white, 1));
        ++boxes_;
        if (st.end > st.start) {
          auto* text = new QCPItemText(p);
          text->position->setCoords((st.start + st.end) / 2, row);
          text->setText(QString::fromStdString(sc::stageLabel(st)));
          text->setFont(small);
          text->setColor(st.phase == sc::Phase::Forward ? Qt::white : QColor(0x22, 0x22, 0x22));
          text->setClipToAxisRect(true);
          text->setProperty(kKeepColorsProperty, true);  // on its box, whatever the theme
          labels_.push_back({text, st.start, st.end,
                             QFontMetricsF(small).horizontalAdvance(text->text())});
        }
      }
      if (sc && st.phase == sc::Phase::Forward) forwardEnd[st.batch] = {st.end, top - sparseCoreRows};
      if (sc && st.phase == sc::Phase::Backward)
        backwardStart[st.batch] = {st.start, top - sparseCoreRows};
      end = std::max(end, st.end);
      if (!pipelined && (visibleBatches <= 0 || st.batch < visibleBatches))
        visibleEnd = std::max(visibleEnd, st.end);
    }
    // Step boundaries across the section.
    const double yTop = top + 0.5, yBottom = top - sparseCoreRows - 0.5;
    const double shownSpan = visibleBatches > 0 ? fullEnd * std::min(1.0, double(visibleBatches) / std::max(1, c.batches)) : fullEnd;
    for (auto it = stepStart.begin(); it != stepStart.end(); ++it) {
      const auto& [step, start] = *it;
      auto next = std::next(it);
      const double stepEnd = next != stepStart.end() ? next->second : s.total;
      auto* line = new QCPItemLine(p);
      line->start->setCoords(start, yTop);
      line->end->setCoords(start, yBottom);
      line->setPen(QPen(QColor(0x66, 0x66, 0x66), 1, Qt::DotLine));
      ++boundaries_;
      if (stepStart.size() <= 60 || step % 5 == 0) {
        auto* label = new QCPItemText(p);
        label->position->setCoords((start + stepEnd) / 2, yTop);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        const bool wide = (stepEnd - start) >= std::max(1e-9, shownSpan) / 22.0;
        label->setText(wide ? QStringLiteral("step %1").arg(step) : QString::number(step));
        label->setFont(small);
        label->setColor(QColor(0x55, 0x55, 0x55));
        label->setClipToAxisRect(true);
        stepLabels_.push_back(label);
      }
    }
    // Staleness arrows, SparseCore forward(b) -> backward(b), first batches.
    const int arrows = pipelined ? 3 : 1;
    for (int b = 0; b < arrows; ++b) {
      auto f = forwardEnd.find(b);
      auto g = backwardStart.find(b);
      if (f == forwardEnd.end() || g == backwardStart.end()) continue;
      const double y = f->second.second - 0.36;  // bottom edge of the last SparseCore row
      auto* curve = new QCPItemCurve(p);
      const double mid = (f->second.first + g->second.first) / 2;
      curve->start->setCoords(f->second.first, y);
      curve->startDir->setCoords(mid, y - 0.75);
      curve->endDir->setCoords(mid, y - 0.75);
      curve->end->setCoords(g->second.first, y);
      curve->setHead(QCPLineEnding::esSpikeArrow);
      curve->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.4));
      curve->setClipToAxisRect(true);
      arrowItems_.push_back(curve);
      ++arrows_;
    }
  };
  draw(c.serial, serialTop, false);
  draw(c.pipelined, pipelinedTop, true);

  // Legend entries for the four stage kinds, the boundaries and the arrows.
  const std::pair<const char*, QColor> kinds[] = {
      {"SparseCore forward", stageColor(sc::Unit::SparseCore, sc::Phase::Forward)},
      {"TensorCore forward", stageColor(sc::Unit::TensorCore, sc::Phase::Forward)},
      {"TensorCore backward", stageColor(sc::Unit::TensorCore, sc::Phase::Backward)},
      {"SparseCore backward", stageColor(sc::Unit::SparseCore, sc::Phase::Backward)}};
  for (const auto& [name, color] : kinds) {
    auto* bars = new QCPBars(p->xAxis, p->yAxis);
    bars->setName(QString::fromLatin1(name));
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
  }
  auto* steps = p->addGraph();
  steps->setName(QStringLiteral("step boundary"));
  steps->setPen(QPen(QColor(0x66, 0x66, 0x66), 1, Qt::DotLine));
  auto* stale = p->addGraph();
  stale->setName(QStringLiteral("forward \u2192 update (staleness)"));
  stale->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.4));
  p->legend->setVisible(true);

  p->yAxis->setTicker(ticker);
  p->yAxis->setRange(-0.15, serialTop + 0.9);
  p->yAxis->grid()->setVisible(false);
  p->xAxis->grid()->setVisible(false);
  const double shown = visibleBatches > 0 && visibleEnd > 0 ? visibleEnd : end;
  p->xAxis->setRange(0, shown > 0 ? shown * 1.02 : 1);
  widthFont_ = small;
  updateLabelVisibility();
  setWrappedText(caption_, QStringLiteral("red arrows: a batch's SparseCore forward \u2192 its update; serial, the "
                                          "update lands in the same step; pipelined, the update of batch 0 lands "
                                          "%1 later (stale)")
                               .arg(countOf(c.stalenessSteps, "step")));
  const QString drawn = maxBatches < c.batches ? QStringLiteral(", first %1 drawn").arg(maxBatches) : QString();
  setTitle(QStringLiteral("Pipelining: %1 \u2192 %2 (%3x, %4 batches%8, %5 vs %6 steps; SparseCore "
                          "updates %7 steps stale)")
               .arg(c.serial.total)
               .arg(c.pipelined.total)
               .arg(c.speedup, 0, 'f', 2)
               .arg(c.batches)
               .arg(c.serial.steps)
               .arg(c.pipelined.steps)
               .arg(c.stalenessSteps)
               .arg(drawn));
  finish(boxes_ > 0);
}

}  // namespace shardscope::plots
