// The SparseCore workspace: open a job file, edit the settings (chip
// preset, devices, SparseCores per device, id dropping, stacking,
// mini-batching, batch size, stacked and per-table limits and widths,
// pipeline stage times) and see all five views, the warnings/errors and a
// text summary update together.
//
// Every edit restarts a ~150 ms debounce; then sc::analyze runs off the UI
// thread (QtConcurrent::run + QFutureWatcher). Each run carries a request
// number and only the newest result is shown, so quick edits never show a
// stale picture. A bad file shows the engine's message (file, field or
// line:column, cause) in the error banner and the message list.
#pragma once
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

#include "job_settings.h"
#include "sc_document.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTimer;

namespace shardscope::plots {
class SparseCorePlot;
class HbmUsagePlot;
class IdDistributionPlot;
class PartitionLoadPlot;
class PipelineGanttPlot;
class SpmemOccupancyPlot;
}  // namespace shardscope::plots

namespace shardscope::scw {

class FdoStatsView;
class MiddleElidedLabel;
class ScMessagesModel;
class TableLimitsModel;

class SparseCoreWorkspace : public QWidget {
  Q_OBJECT
 public:
  explicit SparseCoreWorkspace(QWidget* parent = nullptr);
  ~SparseCoreWorkspace() override;

  // Loads `path` off the UI thread and analyses it; the result (or the
  // load error) arrives with analysisUpdated().
  void openJob(const QString& path);
  QString jobPath() const { return path_; }

  // The current settings; setSettings applies new ones (debounced run).
  const JobSettings& settings() const { return settings_; }
  void setSettings(const JobSettings& settings);

  // Debounce before a run (default 150 ms; tests may set 0).
  void setDebounceMs(int ms);
  // True until the result of the newest edit or open is shown.
  bool isBusy() const;

  // The last applied result (null before the first one).
  const ScAnalysis* analysis() const { return analysis_ ? &*analysis_ : nullptr; }
  QString errorText() const;  // load error or the analysis error ("" when fine)
  QString summaryText() const;

  TableLimitsModel* tableModel() const { return tableModel_; }
  ScMessagesModel* messagesModel() const { return messagesModel_; }
  plots::PartitionLoadPlot* loadPlot() const { return loadPlot_; }
  plots::SpmemOccupancyPlot* spmemPlot() const { return spmemPlot_; }
  plots::HbmUsagePlot* hbmPlot() const { return hbmPlot_; }
  plots::PipelineGanttPlot* pipelinePlot() const { return pipelinePlot_; }
  plots::IdDistributionPlot* idsPlot() const { return idsPlot_; }
  // The FDO statistics page (its own files, independent of the job).
  FdoStatsView* statsView() const { return statsView_; }
  // The view tab on screen, the stack the load plot shows (the chooser's
  // text) and the status line, for tests.
  QWidget* currentView() const;
  QString shownStack() const;
  QString statusText() const;
  // Opens statistics files or folders on the statistics page and shows it.
  void openStats(const QStringList& inputs);

  // Writes the workspace's current picture of `view` (sc-load, ...).
  bool exportView(const QString& view, const QString& path, QSize size, QString* error) const;
  // The view on screen by its export name: sc-load, sc-spmem, sc-hbm,
  // sc-pipeline, sc-ids or sc-stats.
  QString currentViewName() const;
  // The title `view`'s picture carries ("" for an unknown view).
  QString viewTitle(const QString& view) const;

  // Presentation mode: the charts' texts at `scale` times their size (the
  // widgets follow the window's font), the settings panel and the messages
  // folded away (their splitter handles bring them back); 1 gives
  // everything back. With
  // the larger font the workspace still fits the window: the settings
  // panel scrolls on its own, the path and status shrink (elided, whole in
  // the tooltip), table rows grow with their text.
  void setTextScale(double scale);
  double textScale() const { return textScale_; }

 signals:
  // A result (or a load error) was applied to every view.
  void analysisUpdated();

 protected:
  void changeEvent(QEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void buildUi();
  // Sizes that follow the font: table rows, the summary's monospace font.
  void fitToFont();
  // The messages pane as tall as its lines (at most a third of the
  // views' column) until the user drags the splitter: its last line was
  // cut in half at 1280x800.
  void fitMessagesPane();
  void openFileDialog();
  void scheduleAnalysis();
  void startAnalysis();
  void settingsEdited();  // widgets -> settings_, then schedule
  void showSettings();    // settings_ -> widgets (signals blocked)
  void applyAnalysis(const ScAnalysis& analysis);
  void showLoadError(const QString& error);
  void updateLoadPlot();
  const plots::SparseCorePlot* plotFor(const QString& view) const;

  QString path_;
  std::shared_ptr<const ScDocument> doc_;
  JobSettings settings_;
  std::optional<ScAnalysis> analysis_;
  QString loadError_;
  int request_ = 0;   // number of the newest request
  int applied_ = 0;   // number of the request shown
  int running_ = 0;   // runs not yet finished (stale ones included)
  QTimer* debounce_ = nullptr;

  TableLimitsModel* tableModel_ = nullptr;
  ScMessagesModel* messagesModel_ = nullptr;
  MiddleElidedLabel* pathLabel_ = nullptr;
  MiddleElidedLabel* statusLabel_ = nullptr;
  QSplitter* viewsAndMessages_ = nullptr;
  QSplitter* split_ = nullptr;   // settings | views
  QList<int> splitSizes_, messagesSizes_;  // before presentation mode folded the panes
  bool messagesSizedByUser_ = false;
  bool splitSized_ = false;  // the settings' width dragged by the user
  double textScale_ = 1.0;
  QLabel* errorBanner_ = nullptr;
  QComboBox* chip_ = nullptr;
  QSpinBox* devices_ = nullptr;
  QSpinBox* coresPerDevice_ = nullptr;
  QSpinBox* batchSize_ = nullptr;
  QCheckBox* dropping_ = nullptr;
  QCheckBox* stacking_ = nullptr;
  QCheckBox* minibatching_ = nullptr;
  QSpinBox* stackedMaxIds_ = nullptr;
  QSpinBox* stackedMaxUnique_ = nullptr;
  QDoubleSpinBox* stage_[4] = {};
  QSpinBox* batches_ = nullptr;
  QTableView* tableView_ = nullptr;
  QComboBox* stackChoice_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QListView* messagesView_ = nullptr;
  QPlainTextEdit* summary_ = nullptr;
  plots::PartitionLoadPlot* loadPlot_ = nullptr;
  plots::SpmemOccupancyPlot* spmemPlot_ = nullptr;
  plots::HbmUsagePlot* hbmPlot_ = nullptr;
  plots::PipelineGanttPlot* pipelinePlot_ = nullptr;
  plots::IdDistributionPlot* idsPlot_ = nullptr;
  FdoStatsView* statsView_ = nullptr;
  // An edit keeps the stack on screen: the name shown when it was made
  // (even when the chooser said "hottest stack", which may move).
  QString pinnedStack_;
  // The summary before the last edit and why that edit may change nothing,
  // to say so when the new analysis is the same.
  QString summaryBeforeEdit_, editNote_;
  bool editPending_ = false;
  void noteEdit(const QString& note);
};

}  // namespace shardscope::scw
