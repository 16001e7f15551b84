#include "fdo_stats_view.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "fdo_history_plot.h"
#include "fdo_limits_model.h"
#include "middle_elided_label.h"
#include "partition_heatmap_plot.h"

namespace shardscope::scw {

namespace {

struct LoadResult {
  std::shared_ptr<const sc::FdoStatsReport> report;
  QString error;
};

LoadResult load(const QStringList& inputs, int scPerDevice) {
  LoadResult r;
  try {
    std::vector<std::string> paths;
    for (const QString& in : inputs) paths.push_back(in.toStdString());
    r.report = std::make_shared<const sc::FdoStatsReport>(sc::loadFdoStatsReport(paths, scPerDevice));
  } catch (const std::bad_alloc&) {
    r.error = QStringLiteral("out of memory reading the statistics");
  } catch (const std::exception& e) {
    r.error = QString::fromStdString(e.what());
  }
  return r;
}

const sc::TableStats* tableNamed(const sc::FdoStatsReport& report, const QString& name, size_t* index) {
  for (size_t i = 0; i < report.history.size(); ++i)
    if (QString::fromStdString(report.history[i].table) == name) {
      *index = i;
      return &report.history[i];
    }
  return nullptr;
}

QString heatmapTitle(const sc::TableStats& t, sc::StatKind kind) {
  return QStringLiteral("%1: %2 by batch").arg(QString::fromStdString(t.table), QLatin1String(sc::statTitle(kind)));
}

// The heatmap choice "max ids of every table" (not a StatKind).
constexpr int kAllTables = -1;
// What the path label names for the statistics shown (the file name, or how
// many files): said again, with "kept", when a newer file could not be read.
const char* const kShownNameProperty = "shownName";

QString rowName(sc::StatKind kind) {
  return kind == sc::StatKind::RequiredBufferSize ? QStringLiteral("source SparseCore")
                                                  : QStringLiteral("partition (destination SparseCore)");
}

}  // namespace

FdoStatsView::FdoStatsView(QWidget* parent) : QWidget(parent) {
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  auto* openFiles = new QPushButton(tr("Open statistics..."), this);
  openFiles->setToolTip(tr("fdo_stats_<process>_<time>.npz or .csv files written by the FDO file clients"));
  auto* openFolder = new QPushButton(tr("Open folder..."), this);
  openFolder->setToolTip(tr("A folder of statistics files: the newest file of each process is read"));
  connect(openFiles, &QPushButton::clicked, this, &FdoStatsView::openFilesDialog);
  connect(openFolder, &QPushButton::clicked, this, &FdoStatsView::openFolderDialog);
  // The file's name elided in the middle (its start and extension show in
  // a narrow bar; it was cut at its end at 1280x800). A long path must not
  // widen the page past the window: the label shrinks, its tooltip has the
  // whole path; before a file it says so in full.
  pathLabel_ = new MiddleElidedLabel(tr("no statistics file"), this);
  pathLabel_->setObjectName(QStringLiteral("fdoPathLabel"));
  pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  pathLabel_->setToolTip(tr("No statistics file read yet: Open statistics... or Open folder..."));
  tableChoice_ = new QComboBox(this);
  tableChoice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  tableChoice_->setMinimumContentsLength(18);
  statChoice_ = new QComboBox(this);
  for (sc::StatKind k : {sc::StatKind::MaxIds, sc::StatKind::MaxUniqueIds, sc::StatKind::RequiredBufferSize})
    statChoice_->addItem(QLatin1String(sc::statTitle(k)), static_cast<int>(k));
  statChoice_->addItem(tr("max ids, all tables"), kAllTables);
  statChoice_->setToolTip(tr("What the heatmap shows: one statistic of this table by batch, or the max ids of "
                             "every table (the maximum over batches) to find the hot ones"));
  bar->addWidget(openFiles);
  bar->addWidget(openFolder);
  bar->addWidget(pathLabel_, 1);
  root->addLayout(bar);
  // Each chooser above the chart it drives (in one bar with the buttons
  // they made the page wider than the window in presentation mode).
  statChoice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  statChoice_->setMinimumContentsLength(14);
  statChoice_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  auto chartWithChooser = [](QWidget* parent, const QString& label, QComboBox* chooser, QWidget* chart) {
    auto* page = new QWidget(parent);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(label, page));
    row->addWidget(chooser, 1);
    layout->addLayout(row);
    layout->addWidget(chart, 1);
    return page;
  };

  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fdecea; color: #8b1a10; border: 1px solid #e6a59d; padding: 4px; }"));
  banner_->hide();
  root->addWidget(banner_);

  auto* vertical = new QSplitter(Qt::Vertical, this);
  auto* plots = new QSplitter(Qt::Horizontal, vertical);
  history_ = new plots::FdoHistoryPlot(plots);
  heatmap_ = new plots::PartitionHeatmapPlot(plots);
  tableChoice_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  plots->addWidget(chartWithChooser(plots, tr("table"), tableChoice_, history_));
  plots->addWidget(chartWithChooser(plots, tr("heatmap"), statChoice_, heatmap_));
  // Half each: the heatmap's larger size hint would leave the history a
  // sliver (its title wrapped word by word) in a 1280-pixel window.
  plots->setChildrenCollapsible(false);
  plots->setStretchFactor(0, 1);
  plots->setStretchFactor(1, 1);
  history_->setMinimumWidth(260);
  heatmap_->setMinimumWidth(260);
  plots->setSizes({1, 1});
  auto* bottom = new QSplitter(Qt::Horizontal, vertical);
  limits_ = new FdoLimitsModel(this);
  sorted_ = new QSortFilterProxyModel(this);
  sorted_->setSourceModel(limits_);
  sorted_->setSortRole(FdoLimitsModel::SortRole);
  limitsView_ = new QTableView(bottom);
  limitsView_->setModel(sorted_);
  limitsView_->setSortingEnabled(true);
  limitsView_->sortByColumn(-1, Qt::AscendingOrder);  // the model's order until a header is clicked
  limitsView_->verticalHeader()->hide();
  limitsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  limitsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  limitsView_->horizontalHeader()->setStretchLastSection(true);
  limitsView_->setAlternatingRowColors(true);
  limitsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  text_ = new QPlainTextEdit(bottom);
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(font().pointSizeF() * 0.9);
  text_->setFont(mono);
  bottom->addWidget(limitsView_);
  bottom->addWidget(text_);
  vertical->addWidget(plots);
  vertical->addWidget(bottom);
  vertical->setStretchFactor(0, 3);
  vertical->setStretchFactor(1, 2);
  root->addWidget(vertical, 1);

  connect(tableChoice_, &QComboBox::currentIndexChanged, this, [this] { showTable(); });
  connect(statChoice_, &QComboBox::currentIndexChanged, this, [this] { showTable(); });
  // A click on a row shows its table.
  connect(limitsView_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    setCurrentTable(sorted_->data(sorted_->index(index.row(), FdoLimitsModel::TableColumn)).toString());
  });
}

FdoStatsView::~FdoStatsView() = default;

QString FdoStatsView::pathText() const { return pathLabel_->fullText(); }

void FdoStatsView::setTextScale(double scale) {
  history_->setTextScale(scale);
  heatmap_->setTextScale(scale);
}

void FdoStatsView::fitToFont() {
  limitsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(font().pointSizeF() * 0.9);
  text_->setFont(mono);
}

void FdoStatsView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) fitToFont();
}

void FdoStatsView::openFilesDialog() {
  const QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Open FDO statistics"), lastFolder_, tr("FDO statistics (*.npz *.csv);;All files (*)"));
  if (files.isEmpty()) return;
  lastFolder_ = QFileInfo(files.front()).absolutePath();
  openStats(files);
}

void FdoStatsView::openFolderDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of FDO statistics"), lastFolder_);
  if (dir.isEmpty()) return;
  lastFolder_ = dir;
  openStats({dir});
}

void FdoStatsView::openStats(const QStringList& inputs, int scPerDevice) {
  const int id = ++request_;
  pathLabel_->setFullText(tr("reading %1...").arg(inputs.join(QStringLiteral(", "))));
  auto* watcher = new QFutureWatcher<LoadResult>(this);
  connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, id, inputs] {
    watcher->deleteLater();
    if (id != request_) return;  // a newer request is under way
    applied_ = id;
    LoadResult r = watcher->result();
    if (!r.error.isEmpty()) {
      error_ = r.error;
      banner_->setText(r.error);
      banner_->show();
      pathLabel_->setFullText(report_ ? tr("%1 (kept: the new file could not be read)")
                                        .arg(pathLabel_->property(kShownNameProperty).toString())
                                  : tr("no statistics file"));
      emit loadFailed(r.error);
      return;
    }
    error_.clear();
    banner_->hide();
    QStringList shown;
    for (const std::string& f : r.report->files) shown << QDir::toNativeSeparators(QString::fromStdString(f));
    pathLabel_->setToolTip(shown.join(QLatin1Char('\n')));
    // The file's name, which a narrow label still shows (the whole path
    // was cut to its first folders at 1280x800); the paths in the tooltip.
    pathLabel_->setProperty(kShownNameProperty,
                            shown.size() == 1 ? QFileInfo(shown.front()).fileName()
                                              : tr("%1 files (batch by batch, the maximum over files)").arg(shown.size()));
    pathLabel_->setFullText(pathLabel_->property(kShownNameProperty).toString());
    apply(r.report);
    emit statsLoaded();
  });
  watcher->setFuture(QtConcurrent::run(load, inputs, scPerDevice));
}

void FdoStatsView::apply(std::shared_ptr<const sc::FdoStatsReport> report) {
  const QString keep = currentTable();
  report_ = std::move(report);
  {
    QSignalBlocker block(tableChoice_);
    tableChoice_->clear();
    for (const sc::TableStats& t : report_->history) tableChoice_->addItem(QString::fromStdString(t.table));
    const int again = tableChoice_->findText(keep);
    tableChoice_->setCurrentIndex(again >= 0 ? again : 0);
  }
  limits_->setSuggestions(report_->suggestions);
  text_->setPlainText(QString::fromStdString(sc::fdoStatsToText(*report_)));
  showTable();
}

QString FdoStatsView::currentTable() const { return tableChoice_->currentText(); }

void FdoStatsView::setCurrentTable(const QString& table) {
  const int i = tableChoice_->findText(table);
  if (i >= 0) tableChoice_->setCurrentIndex(i);
}

void FdoStatsView::setHeatmapStat(sc::StatKind kind) {
  const int i = statChoice_->findData(static_cast<int>(kind));
  if (i >= 0) statChoice_->setCurrentIndex(i);
}

void FdoStatsView::setHeatmapAllTables() { statChoice_->setCurrentIndex(statChoice_->findData(kAllTables)); }

void FdoStatsView::showTable() {
  if (!report_) return;
  size_t index = 0;
  const sc::TableStats* t = tableNamed(*report_, currentTable(), &index);
  if (!t) {
    history_->clear();
    heatmap_->clear();
    return;
  }
  history_->setTable(*t, report_->suggestions[index]);
  if (statChoice_->currentData().toInt() == kAllTables) {
    std::vector<std::string> names;
    const sc::StatMatrix all = sc::maximaOverBatches(report_->history, sc::StatKind::MaxIds, &names);
    QStringList xNames;
    for (const std::string& n : names) xNames << QString::fromStdString(n);
    heatmap_->setMatrix(tr("max ids per partition of every table (maximum over batches)"), all,
                        rowName(sc::StatKind::MaxIds), tr("stacked table"), xNames);
    return;
  }
  const auto kind = static_cast<sc::StatKind>(statChoice_->currentData().toInt());
  if (const auto& m = t->of(kind))
    heatmap_->setMatrix(heatmapTitle(*t, kind), *m, rowName(kind));
  else
    heatmap_->clearPlot(tr("%1: no %2 recorded").arg(QString::fromStdString(t->table), QLatin1String(sc::statTitle(kind))));
}

bool exportFdoStatsView(const QStringList& inputs, const QString& view, const QString& table, const QString& outPath,
                        QSize size, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  LoadResult r = load(inputs, 0);
  if (!r.error.isEmpty()) return fail(r.error);
  size_t index = 0;
  const sc::TableStats* t = table.isEmpty() ? (r.report->history.empty() ? nullptr : &r.report->history.front())
                                            : tableNamed(*r.report, table, &index);
  if (!t) return fail(QStringLiteral("%1: no table '%2' in the statistics").arg(view, table));
  if (size.isEmpty()) size = QSize(1000, 560);
  if (view == QLatin1String("sc-stats")) {
    plots::FdoHistoryPlot plot;
    plot.setTable(*t, r.report->suggestions[index]);
    plot.resize(size);
    return plot.exportTo(outPath, size, error);
  }
  if (view == QLatin1String("sc-stats-heatmap")) {
    plots::PartitionHeatmapPlot plot;
    const auto& m = t->of(sc::StatKind::MaxIds);
    if (!m) return fail(QStringLiteral("%1: table '%2' has no max ids").arg(view, QString::fromStdString(t->table)));
    plot.setMatrix(heatmapTitle(*t, sc::StatKind::MaxIds), *m, rowName(sc::StatKind::MaxIds));
    plot.resize(size);
    return plot.exportTo(outPath, size, error);
  }
  if (view == QLatin1String("sc-stats-tables")) {
    plots::PartitionHeatmapPlot plot;
    std::vector<std::string> names;
    const sc::StatMatrix all = sc::maximaOverBatches(r.report->history, sc::StatKind::MaxIds, &names);
    QStringList xNames;
    for (const std::string& n : names) xNames << QString::fromStdString(n);
    plot.setMatrix(QStringLiteral("max ids per partition of every table (maximum over batches)"), all,
                   rowName(sc::StatKind::MaxIds), QStringLiteral("stacked table"), xNames);
    plot.resize(size);
    return plot.exportTo(outPath, size, error);
  }
  return fail(QStringLiteral("unknown statistics view '%1' (use sc-stats, sc-stats-heatmap or sc-stats-tables)")
                  .arg(view));
}

}  // namespace shardscope::scw
