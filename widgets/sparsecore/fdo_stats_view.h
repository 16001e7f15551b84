// The FDO statistics page of the SparseCore workspace: open the statistics
// files a training run wrote (NPZ or CSV, one or many, or a folder whose
// newest file per process is read, as the reference's load does), pick a
// stacked table, and see
//  - its max ids and max unique ids over batches with the suggested limits,
//  - a partition-by-batch heatmap of one statistic,
//  - the limits to set and what cheaper choices would drop (a sortable table),
//  - the text report `shardscope-sc stats` prints.
// Files are read off the UI thread (QtConcurrent + QFutureWatcher); a request
// counter drops stale results; a bad file shows the engine's message (file,
// entry or line, cause) in a banner and keeps the last good result.
#pragma once
#include <QSize>
#include <QStringList>
#include <QWidget>
#include <memory>

#include "sparsecore/fdo_stats_format.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

namespace shardscope::plots {
class FdoHistoryPlot;
class PartitionHeatmapPlot;
}  // namespace shardscope::plots

namespace shardscope::scw {

class FdoLimitsModel;
class MiddleElidedLabel;

class FdoStatsView : public QWidget {
  Q_OBJECT
 public:
  explicit FdoStatsView(QWidget* parent = nullptr);
  ~FdoStatsView() override;

  // Reads `inputs` (files or folders) off the UI thread; statsLoaded() or
  // loadFailed() follows. `scPerDevice` 0: from the recorded buffer sizes.
  void openStats(const QStringList& inputs, int scPerDevice = 0);
  bool isBusy() const { return applied_ != request_; }

  // The last good report (null before one) and the last error ("" if none).
  const sc::FdoStatsReport* report() const { return report_.get(); }
  QString errorText() const { return error_; }
  QString currentTable() const;
  void setCurrentTable(const QString& table);
  // Which statistic the heatmap shows; or the max ids of every table, the
  // maximum over batches (the overview).
  void setHeatmapStat(sc::StatKind kind);
  void setHeatmapAllTables();

  plots::FdoHistoryPlot* historyPlot() const { return history_; }
  plots::PartitionHeatmapPlot* heatmapPlot() const { return heatmap_; }
  FdoLimitsModel* limitsModel() const { return limits_; }
  QTableView* limitsView() const { return limitsView_; }
  // The path label's text ("no statistics file" before one is read).
  QString pathText() const;
  // Presentation mode: the two charts' texts at `scale` (see
  // SparseCorePlot::setTextScale).
  void setTextScale(double scale);

 protected:
  void changeEvent(QEvent* e) override;

 signals:
  void statsLoaded();
  void loadFailed(const QString& message);

 private:
  void openFilesDialog();
  void openFolderDialog();
  void apply(std::shared_ptr<const sc::FdoStatsReport> report);
  void showTable();
  void fitToFont();  // table rows and the report's monospace font follow the font

  MiddleElidedLabel* pathLabel_ = nullptr;
  QLabel* banner_ = nullptr;
  QComboBox* tableChoice_ = nullptr;
  QComboBox* statChoice_ = nullptr;
  plots::FdoHistoryPlot* history_ = nullptr;
  plots::PartitionHeatmapPlot* heatmap_ = nullptr;
  FdoLimitsModel* limits_ = nullptr;
  QSortFilterProxyModel* sorted_ = nullptr;
  QTableView* limitsView_ = nullptr;
  QPlainTextEdit* text_ = nullptr;
  std::shared_ptr<const sc::FdoStatsReport> report_;
  QString error_;
  QString lastFolder_;
  int request_ = 0, applied_ = 0;
};

// Headless: reads `inputs` and writes the history ("sc-stats") or heatmap
// ("sc-stats-heatmap") picture of `table` (empty: the first table), or the
// all-tables overview ("sc-stats-tables"), to `outPath`. Returns false with a
// message for a bad file or table.
bool exportFdoStatsView(const QStringList& inputs, const QString& view, const QString& table,
                        const QString& outPath, QSize size, QString* error);

}  // namespace shardscope::scw
