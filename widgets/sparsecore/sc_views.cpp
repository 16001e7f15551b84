#include "sc_views.h"

#include "hbm_usage_plot.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "spmem_occupancy_plot.h"

namespace shardscope::scw {

QStringList sparseCoreViewNames() {
  return {QStringLiteral("sc-load"), QStringLiteral("sc-spmem"), QStringLiteral("sc-hbm"),
          QStringLiteral("sc-pipeline"), QStringLiteral("sc-ids")};
}

std::unique_ptr<plots::SparseCorePlot> createSparseCorePlot(const QString& view) {
  if (view == QLatin1String("sc-load")) return std::make_unique<plots::PartitionLoadPlot>();
  if (view == QLatin1String("sc-spmem")) return std::make_unique<plots::SpmemOccupancyPlot>();
  if (view == QLatin1String("sc-hbm")) return std::make_unique<plots::HbmUsagePlot>();
  if (view == QLatin1String("sc-pipeline")) return std::make_unique<plots::PipelineGanttPlot>();
  if (view == QLatin1String("sc-ids")) return std::make_unique<plots::IdDistributionPlot>();
  return nullptr;
}

int stackIndexByName(const ScAnalysis& analysis, const QString& name) {
  if (!analysis.report) return -1;
  for (size_t i = 0; i < analysis.report->tables.size(); ++i)
    if (QString::fromStdString(analysis.report->tables[i].stats.name) == name) return int(i);
  return -1;
}

bool fillSparseCorePlot(plots::SparseCorePlot* plot, const QString& view, const ScAnalysis& a,
                        const ViewOptions& o, QString* why) {
  auto fail = [&](const QString& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!plot) return fail(QStringLiteral("no plot"));
  if (view == QLatin1String("sc-pipeline")) {
    auto* gantt = qobject_cast<plots::PipelineGanttPlot*>(plot);
    if (!gantt) return fail(QStringLiteral("wrong plot for %1").arg(view));
    int rows = o.sparseCoreRows;
    if (rows < 0) rows = a.job ? std::min(8, a.job->sparseCoresPerDevice) : 1;
    gantt->setComparison(a.pipeline, o.maxBatches, rows, o.visibleBatches);
    return gantt->hasData() ? true : fail(QStringLiteral("the pipeline has no stages"));
  }
  if (!a.report || a.report->tables.empty())
    return fail(a.job || !a.error.isEmpty()
                    ? (a.error.isEmpty() ? QStringLiteral("the job has no tables") : a.error)
                    : QStringLiteral("this file has no tables (pipeline only): only sc-pipeline "
                                     "can be drawn"));
  const sc::AnalysisReport& r = *a.report;
  if (auto* load = qobject_cast<plots::PartitionLoadPlot*>(plot); load && view == QLatin1String("sc-load")) {
    const int stack = o.loadStack >= 0 && o.loadStack < int(r.tables.size())
                          ? o.loadStack
                          : plots::PartitionLoadPlot::hottestStack(r);
    load->setStack(r, stack);
  } else if (auto* spmem = qobject_cast<plots::SpmemOccupancyPlot*>(plot);
             spmem && view == QLatin1String("sc-spmem")) {
    spmem->setReport(r);
  } else if (auto* hbm = qobject_cast<plots::HbmUsagePlot*>(plot); hbm && view == QLatin1String("sc-hbm")) {
    hbm->setReport(r);
  } else if (auto* ids = qobject_cast<plots::IdDistributionPlot*>(plot); ids && view == QLatin1String("sc-ids")) {
    ids->setDistribution(a.ids);
  } else {
    return fail(QStringLiteral("unknown view '%1' (use %2)")
                    .arg(view, sparseCoreViewNames().join(QStringLiteral(", "))));
  }
  return plot->hasData() ? true : fail(QStringLiteral("%1: nothing to draw").arg(view));
}

}  // namespace shardscope::scw
