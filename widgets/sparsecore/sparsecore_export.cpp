#include "sparsecore_export.h"

#include <exception>

#include "fdo_stats_view.h"
#include "sc_document.h"
#include "sc_views.h"

namespace shardscope::scw {

namespace {

// The FDO statistics pictures read statistics files, not a job.
bool isStatsView(const QString& base) {
  return base == QLatin1String("sc-stats") || base == QLatin1String("sc-stats-heatmap") ||
         base == QLatin1String("sc-stats-tables");
}

}  // namespace

bool isSparseCoreView(const QString& view) {
  const QString base = view.section(QLatin1Char(':'), 0, 0);
  return sparseCoreViewNames().contains(base) || isStatsView(base);
}

bool exportSparseCoreView(const QString& jobPath, const QString& view, const QString& outPath,
                          QSize size, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  const QString base = view.section(QLatin1Char(':'), 0, 0);
  const QString stackName = view.section(QLatin1Char(':'), 1);
  if (isStatsView(base)) return exportFdoStatsView({jobPath}, base, stackName, outPath, size, error);
  std::unique_ptr<plots::SparseCorePlot> plot = createSparseCorePlot(base);
  if (!plot)
    return fail(QStringLiteral("unknown SparseCore view '%1' (use %2)")
                    .arg(view, sparseCoreViewNames().join(QStringLiteral(", "))));
  ScDocument doc;
  try {
    doc = loadScDocument(jobPath);
  } catch (const std::exception& e) {
    return fail(QString::fromStdString(e.what()));
  }
  const ScAnalysis analysis = runScAnalysis(doc, doc.settings);
  ViewOptions options;
  if (!stackName.isEmpty()) {
    if (base != QLatin1String("sc-load"))
      return fail(QStringLiteral("%1: only sc-load takes a stack name").arg(view));
    options.loadStack = stackIndexByName(analysis, stackName);
    if (options.loadStack < 0)
      return fail(QStringLiteral("%1: no stack '%2' in %3").arg(view, stackName, jobPath));
  }
  QString why;
  if (!fillSparseCorePlot(plot.get(), base, analysis, options, &why))
    return fail(QStringLiteral("%1: %2").arg(jobPath, why));
  if (size.isEmpty()) size = QSize(1000, 560);
  plot->resize(size);
  return plot->exportTo(outPath, size, error);
}

}  // namespace shardscope::scw
