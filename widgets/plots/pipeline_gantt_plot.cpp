#include "pipeline_gantt_plot.h"

#include <qcustomplot.h>

#include "sparsecore/pipeline.h"

namespace shardscope::plots {

namespace {
QColor stageColor(const sc::ScheduledStage& s) {
  if (s.unit == sc::Unit::SparseCore)
    return s.phase == sc::Phase::Forward ? QColor(0x4e, 0x79, 0xa7) : QColor(0xa0, 0xcb, 0xe8);
  return s.phase == sc::Phase::Forward ? QColor(0xf2, 0x8e, 0x2b) : QColor(0xff, 0xbe, 0x7d);
}
}  // namespace

PipelineGanttPlot::PipelineGanttPlot(QWidget* parent) : SparseCorePlot(parent) {
  plot()->xAxis->setLabel(QStringLiteral("time"));
}

void PipelineGanttPlot::setComparison(const sc::PipelineComparison& c, int maxBatches) {
  reset();
  QCustomPlot* p = plot();
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  ticker->addTick(3, QStringLiteral("serial SC"));
  ticker->addTick(2, QStringLiteral("serial TC"));
  ticker->addTick(1, QStringLiteral("pipelined SC"));
  ticker->addTick(0, QStringLiteral("pipelined TC"));
  double end = 0;
  int drawn = 0;
  auto draw = [&](const sc::Schedule& s, double scRow, double tcRow) {
    for (const sc::ScheduledStage& st : s.stages) {
      if (st.batch >= maxBatches) continue;
      const double row = st.unit == sc::Unit::SparseCore ? scRow : tcRow;
      auto* box = new QCPItemRect(p);
      box->topLeft->setCoords(st.start, row + 0.35);
      box->bottomRight->setCoords(st.end, row - 0.35);
      box->setBrush(stageColor(st));
      box->setPen(QPen(Qt::white));
      if (st.end > st.start) {
        auto* text = new QCPItemText(p);
        text->position->setCoords((st.start + st.end) / 2, row);
        text->setText(QString::fromStdString(sc::stageLabel(st)));
        text->setFont(QFont(font().family(), 7));
        text->setClipToAxisRect(true);
      }
      end = std::max(end, st.end);
      ++drawn;
    }
  };
  draw(c.serial, 3, 2);
  draw(c.pipelined, 1, 0);
  p->yAxis->setTicker(ticker);
  p->yAxis->setRange(-0.6, 3.6);
  p->xAxis->setRange(0, end > 0 ? end * 1.02 : 1);
  setTitle(
      QStringLiteral("Pipelining: %1 vs %2 (%3x, %4 batches; SparseCore updates %5 steps stale)")
          .arg(c.serial.total)
          .arg(c.pipelined.total)
          .arg(c.speedup, 0, 'f', 2)
          .arg(c.batches)
          .arg(c.stalenessSteps));
  finish(drawn > 0);
}

}  // namespace shardscope::plots
