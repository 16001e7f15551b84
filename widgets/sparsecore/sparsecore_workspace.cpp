#include "sparsecore_workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "fdo_history_plot.h"
#include "fdo_stats_view.h"
#include "hbm_usage_plot.h"
#include "middle_elided_label.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "sc_messages_model.h"
#include "sc_views.h"
#include "sparsecore/chip_spec.h"
#include "spmem_occupancy_plot.h"
#include "table_limits_model.h"

namespace shardscope::scw {

namespace {

// What one background run hands back.
// The summary without its warnings and notes: what the job computes. An edit
// whose analysis keeps this changed nothing (its own warning, e.g. "per-table
// limits are ignored", does not count as an effect).
QString outcomeOf(const QString& summary) {
  QStringList kept;
  for (const QString& line : summary.split(QLatin1Char('\n'))) {
    const QString t = line.trimmed();
    if (!t.startsWith(QLatin1String("warning:")) && !t.startsWith(QLatin1String("note:"))) kept << line;
  }
  return kept.join(QLatin1Char('\n'));
}

struct RunResult {
  std::shared_ptr<const ScDocument> doc;
  bool opened = false;  // a file was (re)loaded: the settings come from it
  QString loadError;
  ScAnalysis analysis;
};

QSpinBox* spin(int min, int max, QWidget* parent) {
  auto* s = new QSpinBox(parent);
  s->setRange(min, max);
  s->setKeyboardTracking(false);
  s->setAccelerated(true);
  return s;
}

}  // namespace

SparseCoreWorkspace::SparseCoreWorkspace(QWidget* parent) : QWidget(parent) {
  tableModel_ = new TableLimitsModel(this);
  messagesModel_ = new ScMessagesModel(this);
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(debounce_, &QTimer::timeout, this, &SparseCoreWorkspace::startAnalysis);
  buildUi();
  connect(tableModel_, &TableLimitsModel::tablesEdited, this, [this] {
    noteEdit(tableModel_->lastEditNote());
    settings_.tables = tableModel_->tables();
    scheduleAnalysis();
  });
}

SparseCoreWorkspace::~SparseCoreWorkspace() = default;

void SparseCoreWorkspace::buildUi() {
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(4, 4, 4, 4);

  // Top bar: open, path, status.
  auto* bar = new QHBoxLayout;
  auto* open = new QPushButton(tr("Open job..."), this);
  connect(open, &QPushButton::clicked, this, &SparseCoreWorkspace::openFileDialog);
  // Both elided in the middle when the bar is narrow (presentation mode's
  // larger font cut "up to date" at the window's edge): whole in the tooltip.
  pathLabel_ = new MiddleElidedLabel(tr("no job loaded"), this);
  pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statusLabel_ = new MiddleElidedLabel(QString(), this);
  statusLabel_->setObjectName(QStringLiteral("scStatus"));
  bar->addWidget(open);
  bar->addWidget(pathLabel_, 1);
  bar->addWidget(statusLabel_);
  root->addLayout(bar);

  errorBanner_ = new QLabel(this);
  errorBanner_->setWordWrap(true);
  errorBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  errorBanner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fdecea; color: #8b1a10; border: 1px solid #e6a59d; padding: 4px; }"));
  errorBanner_->hide();
  root->addWidget(errorBanner_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split_ = split;
  connect(split, &QSplitter::splitterMoved, this, [this] { splitSized_ = true; });
  root->addWidget(split, 1);

  // Settings panel, scrolling on its own when the window is too low for it
  // (presentation mode at 1280x800): the whole workspace scrolled, charts
  // included.
  auto* panelScroll = new QScrollArea(split);
  panelScroll->setObjectName(QStringLiteral("scSettingsScroll"));
  panelScroll->setWidgetResizable(true);
  panelScroll->setFrameShape(QFrame::NoFrame);
  auto* panel = new QWidget(panelScroll);
  auto* panelLayout = new QVBoxLayout(panel);
  panelLayout->setContentsMargins(0, 0, 0, 0);
  auto* hwBox = new QGroupBox(tr("Hardware and host"), panel);
  auto* form = new QFormLayout(hwBox);
  chip_ = new QComboBox(hwBox);
  for (const sc::ChipSpec& c : sc::knownChipSpecs()) chip_->addItem(QString::fromStdString(c.name));
  devices_ = spin(1, 4096, hwBox);
  coresPerDevice_ = spin(1, 64, hwBox);
  batchSize_ = spin(0, 1 << 30, hwBox);
  batchSize_->setSpecialValueText(tr("as the input"));
  dropping_ = new QCheckBox(tr("allow_id_dropping"), hwBox);
  stacking_ = new QCheckBox(tr("table stacking"), hwBox);
  minibatching_ = new QCheckBox(tr("enable_minibatching"), hwBox);
  stackedMaxIds_ = spin(1, 1 << 24, hwBox);
  stackedMaxUnique_ = spin(1, 1 << 24, hwBox);
  form->addRow(tr("chip preset"), chip_);
  form->addRow(tr("devices"), devices_);
  form->addRow(tr("SparseCores / device"), coresPerDevice_);
  form->addRow(tr("batch size"), batchSize_);
  form->addRow(dropping_);
  form->addRow(stacking_);
  form->addRow(minibatching_);
  form->addRow(tr("stacked max ids"), stackedMaxIds_);
  form->addRow(tr("stacked max unique"), stackedMaxUnique_);
  stackedMaxIds_->setToolTip(tr("max_ids_per_partition of stacks holding more than one table"));
  stackedMaxUnique_->setToolTip(tr("max_unique_ids_per_partition of stacks holding more than one table"));
  panelLayout->addWidget(hwBox);

  auto* pipeBox = new QGroupBox(tr("Pipeline stage times"), panel);
  auto* pipeForm = new QFormLayout(pipeBox);
  const QString stageNames[4] = {tr("SC forward"), tr("TC forward"), tr("TC backward"), tr("SC backward")};
  for (int i = 0; i < 4; ++i) {
    stage_[i] = new QDoubleSpinBox(pipeBox);
    stage_[i]->setRange(0, 1e6);
    stage_[i]->setDecimals(2);
    stage_[i]->setSingleStep(0.1);
    stage_[i]->setKeyboardTracking(false);
    pipeForm->addRow(stageNames[i], stage_[i]);
  }
  batches_ = spin(1, 100000, pipeBox);
  pipeForm->addRow(tr("batches"), batches_);
  panelLayout->addWidget(pipeBox);

  auto* tableBox = new QGroupBox(tr("Tables (double-click width or limits to edit)"), panel);
  auto* tableLayout = new QVBoxLayout(tableBox);
  tableView_ = new QTableView(tableBox);
  tableView_->setModel(tableModel_);
  tableView_->verticalHeader()->hide();
  tableView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  tableView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tableView_->horizontalHeader()->setSectionResizeMode(TableLimitsModel::StackColumn, QHeaderView::Interactive);
  tableView_->horizontalHeader()->setStretchLastSection(true);
  tableView_->setTextElideMode(Qt::ElideMiddle);
  tableView_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::AnyKeyPressed);
  tableView_->setAlternatingRowColors(true);
  tableLayout->addWidget(tableView_);
  panelLayout->addWidget(tableBox, 1);
  panelScroll->setWidget(panel);

  split->addWidget(panelScroll);

  // Views, messages, summary.
  auto* right = new QSplitter(Qt::Vertical, split);
  viewsAndMessages_ = right;
  connect(right, &QSplitter::splitterMoved, this, [this] { messagesSizedByUser_ = true; });
  tabs_ = new QTabWidget(right);
  auto* loadPage = new QWidget(tabs_);
  auto* loadLayout = new QVBoxLayout(loadPage);
  loadLayout->setContentsMargins(2, 2, 2, 2);
  auto* stackRow = new QHBoxLayout;
  stackChoice_ = new QComboBox(loadPage);
  stackChoice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  stackChoice_->setMinimumContentsLength(28);
  stackRow->addWidget(new QLabel(tr("stack"), loadPage));
  stackRow->addWidget(stackChoice_);
  stackRow->addStretch(1);
  loadLayout->addLayout(stackRow);
  loadPlot_ = new plots::PartitionLoadPlot(loadPage);
  loadLayout->addWidget(loadPlot_, 1);
  spmemPlot_ = new plots::SpmemOccupancyPlot(tabs_);
  hbmPlot_ = new plots::HbmUsagePlot(tabs_);
  pipelinePlot_ = new plots::PipelineGanttPlot(tabs_);
  idsPlot_ = new plots::IdDistributionPlot(tabs_);
  tabs_->addTab(loadPage, tr("Partition load"));
  tabs_->addTab(spmemPlot_, tr("SPMEM"));
  tabs_->addTab(hbmPlot_, tr("HBM"));
  tabs_->addTab(pipelinePlot_, tr("Pipeline"));
  tabs_->addTab(idsPlot_, tr("Id distribution"));
  statsView_ = new FdoStatsView(tabs_);
  tabs_->addTab(statsView_, tr("FDO statistics"));
  auto* bottom = new QSplitter(Qt::Horizontal, right);
  messagesView_ = new QListView(bottom);
  messagesView_->setModel(messagesModel_);
  messagesView_->setWordWrap(true);
  messagesView_->setTextElideMode(Qt::ElideNone);
  messagesView_->setUniformItemSizes(false);
  summary_ = new QPlainTextEdit(bottom);
  summary_->setReadOnly(true);
  summary_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(font().pointSizeF() * 0.9);
  summary_->setFont(mono);
  bottom->addWidget(messagesView_);
  bottom->addWidget(summary_);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 1);
  right->addWidget(tabs_);
  right->addWidget(bottom);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 1);
  split->addWidget(right);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  split->setSizes({520, 980});

  // Edits.
  connect(chip_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    // A preset brings its SparseCore count along (still editable).
    if (auto spec = sc::chipSpecByName(name.toStdString()); spec && name.toStdString() != settings_.chip) {
      QSignalBlocker block(coresPerDevice_);
      coresPerDevice_->setValue(spec->sparseCoresPerChip);
    }
    settingsEdited();
  });
  for (QSpinBox* s : {devices_, coresPerDevice_, batchSize_, stackedMaxIds_, stackedMaxUnique_, batches_})
    connect(s, &QSpinBox::valueChanged, this, &SparseCoreWorkspace::settingsEdited);
  for (QCheckBox* c : {dropping_, stacking_, minibatching_})
    connect(c, &QCheckBox::toggled, this, &SparseCoreWorkspace::settingsEdited);
  for (QDoubleSpinBox* s : stage_)
    connect(s, &QDoubleSpinBox::valueChanged, this, &SparseCoreWorkspace::settingsEdited);
  connect(stackChoice_, &QComboBox::currentIndexChanged, this, [this] { updateLoadPlot(); });
  showSettings();
  fitToFont();
}

void SparseCoreWorkspace::openFileDialog() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open SparseCore job"), path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath(),
      tr("SparseCore jobs (*.json);;All files (*)"));
  if (!path.isEmpty()) openJob(path);
}

void SparseCoreWorkspace::openStats(const QStringList& inputs) {
  tabs_->setCurrentWidget(statsView_);
  statsView_->openStats(inputs);
}

void SparseCoreWorkspace::setDebounceMs(int ms) { debounce_->setInterval(std::max(0, ms)); }

bool SparseCoreWorkspace::isBusy() const { return debounce_->isActive() || applied_ != request_; }

void SparseCoreWorkspace::openJob(const QString& path) {
  debounce_->stop();
  pinnedStack_.clear();  // a new file starts on its hottest stack
  editPending_ = false;
  path_ = path;
  pathLabel_->setFullText(QDir::toNativeSeparators(path));
  pathLabel_->setToolTip(QDir::toNativeSeparators(path));
  const int id = ++request_;
  ++running_;
  statusLabel_->setFullText(tr("loading..."));
  auto* watcher = new QFutureWatcher<RunResult>(this);
  connect(watcher, &QFutureWatcher<RunResult>::finished, this, [this, watcher, id] {
    --running_;
    watcher->deleteLater();
    if (id != request_) return;  // a newer request is under way
    applied_ = id;
    RunResult r = watcher->result();
    if (!r.loadError.isEmpty()) {
      showLoadError(r.loadError);
      return;
    }
    doc_ = r.doc;
    settings_ = doc_->settings;
    tableModel_->setTables(settings_.tables);
    showSettings();
    applyAnalysis(r.analysis);
  });
  watcher->setFuture(QtConcurrent::run([path]() {
    RunResult r;
    r.opened = true;
    try {
      auto doc = std::make_shared<ScDocument>(loadScDocument(path));
      r.analysis = runScAnalysis(*doc, doc->settings);
      r.doc = std::move(doc);
    } catch (const std::bad_alloc&) {
      r.loadError = path + QStringLiteral(": out of memory while reading the job");
    } catch (const std::exception& e) {
      r.loadError = QString::fromStdString(e.what());
    }
    return r;
  }));
}

void SparseCoreWorkspace::setSettings(const JobSettings& settings) {
  settings_ = settings;
  if (tableModel_->tables() != settings_.tables) tableModel_->setTables(settings_.tables);
  showSettings();
  scheduleAnalysis();
}

void SparseCoreWorkspace::noteEdit(const QString& note) {
  if (!editPending_) summaryBeforeEdit_ = outcomeOf(summary_->toPlainText());
  editPending_ = true;
  editNote_ = note;
  // Keep showing the stack on screen, also when the chooser follows the
  // hottest stack: the edit may make another one hottest.
  if (stackChoice_->currentIndex() > 0)
    pinnedStack_ = stackChoice_->currentText();
  else if (analysis_ && analysis_->report && !analysis_->report->tables.empty())
    pinnedStack_ = QString::fromStdString(
        analysis_->report->tables[size_t(plots::PartitionLoadPlot::hottestStack(*analysis_->report))].stats.name);
}

void SparseCoreWorkspace::settingsEdited() {
  noteEdit(QString());
  settings_.chip = chip_->currentText().toStdString();
  settings_.devices = devices_->value();
  settings_.sparseCoresPerDevice = coresPerDevice_->value();
  settings_.batchSize = batchSize_->value();
  settings_.allowIdDropping = dropping_->isChecked();
  settings_.tableStacking = stacking_->isChecked();
  settings_.enableMinibatching = minibatching_->isChecked();
  settings_.stackedMaxIdsPerPartition = stackedMaxIds_->value();
  settings_.stackedMaxUniqueIdsPerPartition = stackedMaxUnique_->value();
  settings_.stages = {stage_[0]->value(), stage_[1]->value(), stage_[2]->value(), stage_[3]->value()};
  settings_.batches = batches_->value();
  scheduleAnalysis();
}

void SparseCoreWorkspace::showSettings() {
  const JobSettings& s = settings_;
  QList<QWidget*> all = {chip_, devices_, coresPerDevice_, batchSize_, dropping_, stacking_,
                         minibatching_, stackedMaxIds_, stackedMaxUnique_, batches_};
  for (QDoubleSpinBox* d : stage_) all << d;
  std::vector<std::unique_ptr<QSignalBlocker>> blockers;
  for (QWidget* w : all) blockers.push_back(std::make_unique<QSignalBlocker>(w));
  const QString chip = QString::fromStdString(s.chip);
  if (chip_->findText(chip) < 0) chip_->addItem(chip);
  chip_->setCurrentText(chip);
  devices_->setValue(s.devices);
  coresPerDevice_->setValue(s.sparseCoresPerDevice);
  batchSize_->setValue(int(std::min<int64_t>(s.batchSize, batchSize_->maximum())));
  dropping_->setChecked(s.allowIdDropping);
  stacking_->setChecked(s.tableStacking);
  minibatching_->setChecked(s.enableMinibatching);
  stackedMaxIds_->setValue(s.stackedMaxIdsPerPartition);
  stackedMaxUnique_->setValue(s.stackedMaxUniqueIdsPerPartition);
  stage_[0]->setValue(s.stages.scForward);
  stage_[1]->setValue(s.stages.tcForward);
  stage_[2]->setValue(s.stages.tcBackward);
  stage_[3]->setValue(s.stages.scBackward);
  batches_->setValue(s.batches);
  const bool hasJob = doc_ && doc_->job;
  for (QWidget* w : {static_cast<QWidget*>(chip_), static_cast<QWidget*>(devices_),
                     static_cast<QWidget*>(coresPerDevice_), static_cast<QWidget*>(batchSize_),
                     static_cast<QWidget*>(dropping_), static_cast<QWidget*>(stacking_),
                     static_cast<QWidget*>(minibatching_), static_cast<QWidget*>(stackedMaxIds_),
                     static_cast<QWidget*>(stackedMaxUnique_), static_cast<QWidget*>(tableView_)})
    w->setEnabled(hasJob);
}

void SparseCoreWorkspace::scheduleAnalysis() {
  if (!doc_) return;
  ++request_;  // anything still running is stale from now on
  debounce_->start();
}

void SparseCoreWorkspace::startAnalysis() {
  if (!doc_) return;
  const int id = ++request_;
  ++running_;
  statusLabel_->setFullText(tr("analysing..."));
  auto* watcher = new QFutureWatcher<RunResult>(this);
  connect(watcher, &QFutureWatcher<RunResult>::finished, this, [this, watcher, id] {
    --running_;
    watcher->deleteLater();
    if (id != request_) return;
    applied_ = id;
    applyAnalysis(watcher->result().analysis);
  });
  watcher->setFuture(QtConcurrent::run([doc = doc_, settings = settings_]() {
    RunResult r;
    r.doc = doc;
    r.analysis = runScAnalysis(*doc, settings);
    return r;
  }));
}

void SparseCoreWorkspace::showLoadError(const QString& error) {
  loadError_ = error;
  doc_.reset();
  analysis_.reset();
  settings_ = JobSettings{};
  tableModel_->setTables({});
  showSettings();
  errorBanner_->setText(error);
  errorBanner_->show();
  messagesModel_->setMessages({{Severity::Error, error}});
  summary_->setPlainText(QString());
  statusLabel_->setFullText(tr("cannot open the job"));
  fitMessagesPane();
  stackChoice_->clear();
  loadPlot_->clear();
  for (plots::SparseCorePlot* p : std::initializer_list<plots::SparseCorePlot*>{
           spmemPlot_, hbmPlot_, pipelinePlot_, idsPlot_})
    p->clearPlot(QString());
  emit analysisUpdated();
}

void SparseCoreWorkspace::applyAnalysis(const ScAnalysis& a) {
  loadError_.clear();
  analysis_ = a;
  tableModel_->setReport(a.report ? &*a.report : nullptr);
  messagesModel_->setMessages(a.messages);
  summary_->setPlainText(a.summary);
  if (!a.error.isEmpty()) {
    errorBanner_->setText(a.error);
    errorBanner_->show();
  } else {
    errorBanner_->hide();
  }
  statusLabel_->setFullText(a.error.isEmpty() ? tr("up to date") : tr("the job would fail"));
  if (editPending_ && outcomeOf(a.summary) == summaryBeforeEdit_)
    statusLabel_->setFullText(editNote_.isEmpty() ? tr("this edit changes nothing in the analysis")
                                                  : tr("this edit changes nothing: %1").arg(editNote_));
  statusLabel_->setToolTip(statusLabel_->fullText());
  fitMessagesPane();
  editPending_ = false;

  // Stack chooser: keep the chosen stack (or the one an edit was made on)
  // when it still exists.
  const QString previous = !pinnedStack_.isEmpty()             ? pinnedStack_
                           : stackChoice_->currentIndex() > 0 ? stackChoice_->currentText()
                                                              : QString();
  pinnedStack_.clear();
  {
    QSignalBlocker block(stackChoice_);
    stackChoice_->clear();
    stackChoice_->addItem(tr("hottest stack"));
    if (a.report)
      for (const sc::TableReport& t : a.report->tables)
        stackChoice_->addItem(QString::fromStdString(t.stats.name));
    const int keep = previous.isEmpty() ? 0 : stackChoice_->findText(previous);
    stackChoice_->setCurrentIndex(std::max(0, keep));
  }
  updateLoadPlot();

  const bool pipelineOnly = !a.report && doc_ && !doc_->job;
  const QString none = a.report ? QString() : (pipelineOnly ? tr("(pipeline-only file: no tables)")
                                                             : tr("(no analysis: see the errors)"));
  if (!a.report) loadPlot_->clear(tr("Partition load %1").arg(none));
  // A pipeline-only file has only the pipeline view: show it rather than an
  // empty table view.
  if (pipelineOnly && tabs_->currentWidget() != pipelinePlot_ && tabs_->currentWidget() != statsView_)
    tabs_->setCurrentWidget(pipelinePlot_);
  QString why;
  if (!fillSparseCorePlot(spmemPlot_, QStringLiteral("sc-spmem"), a, {}, &why)) spmemPlot_->clearPlot(none);
  if (!fillSparseCorePlot(hbmPlot_, QStringLiteral("sc-hbm"), a, {}, &why)) hbmPlot_->clearPlot(none);
  if (!fillSparseCorePlot(idsPlot_, QStringLiteral("sc-ids"), a, {}, &why)) idsPlot_->clearPlot(none);
  ViewOptions pipe;
  pipe.maxBatches = std::min(a.pipeline.batches, 40);
  pipe.visibleBatches = 12;
  if (!fillSparseCorePlot(pipelinePlot_, QStringLiteral("sc-pipeline"), a, pipe, &why))
    pipelinePlot_->clearPlot(why);
  emit analysisUpdated();
}

void SparseCoreWorkspace::updateLoadPlot() {
  if (!analysis_ || !analysis_->report) return;  // applyAnalysis says why
  ViewOptions o;
  o.loadStack = stackChoice_->currentIndex() - 1;  // 0 = hottest
  QString why;
  if (!fillSparseCorePlot(loadPlot_, QStringLiteral("sc-load"), *analysis_, o, &why)) loadPlot_->clear();
}

QWidget* SparseCoreWorkspace::currentView() const { return tabs_->currentWidget(); }

QString SparseCoreWorkspace::shownStack() const { return stackChoice_->currentText(); }

QString SparseCoreWorkspace::statusText() const { return statusLabel_->fullText(); }

void SparseCoreWorkspace::setTextScale(double scale) {
  // Presentation mode shows the charts: the settings panel folds away (its
  // splitter handle brings it back) and comes back as it was after.
  // So do the messages and the summary under the charts (a chart with its
  // 1.6x legend and titles needs the height).
  if (scale > 1.0 && textScale_ <= 1.0) {
    splitSizes_ = split_->sizes();
    messagesSizes_ = viewsAndMessages_->sizes();
    split_->setSizes({0, split_->width()});
    QSignalBlocker block(viewsAndMessages_);
    viewsAndMessages_->setSizes({viewsAndMessages_->height(), 0});
  } else if (scale <= 1.0 && textScale_ > 1.0 && !splitSizes_.isEmpty()) {
    split_->setSizes(splitSizes_);
    QSignalBlocker block(viewsAndMessages_);
    viewsAndMessages_->setSizes(messagesSizes_);
  }
  textScale_ = scale;
  for (plots::SparseCorePlot* p : std::initializer_list<plots::SparseCorePlot*>{
           loadPlot_, spmemPlot_, hbmPlot_, pipelinePlot_, idsPlot_})
    p->setTextScale(scale);
  statsView_->setTextScale(scale);
}

void SparseCoreWorkspace::fitToFont() {
  // Rows as tall as their text (they kept the old height in presentation
  // mode: "cat_00" read "cat 00", digits cut).
  tableView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(font().pointSizeF() * 0.9);
  summary_->setFont(mono);
}

void SparseCoreWorkspace::fitMessagesPane() {
  if (messagesSizedByUser_ || textScale_ > 1.0 || !viewsAndMessages_ || messagesModel_->rowCount() == 0) return;
  const int total = viewsAndMessages_->height();
  if (total <= 0) return;
  // Each message wrapped at the list's width (the view's own row hints
  // are one line each).
  const QFontMetrics fm(messagesView_->font());
  const int width = std::max(40, messagesView_->viewport()->width() - 8);
  int lines = 2 * messagesView_->frameWidth() + 6;
  for (int r = 0; r < messagesModel_->rowCount(); ++r) {
    const QString text = messagesModel_->index(r, 0).data().toString();
    lines += fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text).height() + 2;
  }
  // Side by side with the summary, whose sideways scroll bar takes a line.
  lines = std::max(lines, 5 * QFontMetrics(summary_->font()).lineSpacing());
  const int bottom = std::min(lines, total / 3);
  const int handle = viewsAndMessages_->handleWidth();
  QSignalBlocker block(viewsAndMessages_);
  viewsAndMessages_->setSizes({total - bottom - handle, bottom});
}

void SparseCoreWorkspace::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) {
    fitToFont();
    QTimer::singleShot(0, this, &SparseCoreWorkspace::fitMessagesPane);  // after the new layout
  }
}

void SparseCoreWorkspace::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  // A third of the width for the settings until their handle is dragged
  // (the splitter would follow their scroll area's size hint, the whole
  // panel's width).
  if (!splitSized_ && split_->width() > 0 && textScale_ <= 1.0) {
    const int settings = split_->width() / 3;
    split_->setSizes({settings, split_->width() - settings});
  }
  QTimer::singleShot(0, this, &SparseCoreWorkspace::fitMessagesPane);
}

QString SparseCoreWorkspace::errorText() const {
  if (!loadError_.isEmpty()) return loadError_;
  return analysis_ ? analysis_->error : QString();
}

QString SparseCoreWorkspace::summaryText() const { return summary_->toPlainText(); }

const plots::SparseCorePlot* SparseCoreWorkspace::plotFor(const QString& view) const {
  if (view == QLatin1String("sc-load")) return loadPlot_;
  if (view == QLatin1String("sc-spmem")) return spmemPlot_;
  if (view == QLatin1String("sc-hbm")) return hbmPlot_;
  if (view == QLatin1String("sc-pipeline")) return pipelinePlot_;
  if (view == QLatin1String("sc-ids")) return idsPlot_;
  if (view == QLatin1String("sc-stats")) return statsView_->historyPlot();
  return nullptr;
}

QString SparseCoreWorkspace::currentViewName() const {
  const QWidget* w = tabs_->currentWidget();
  if (w == spmemPlot_) return QStringLiteral("sc-spmem");
  if (w == hbmPlot_) return QStringLiteral("sc-hbm");
  if (w == pipelinePlot_) return QStringLiteral("sc-pipeline");
  if (w == idsPlot_) return QStringLiteral("sc-ids");
  if (w == statsView_) return QStringLiteral("sc-stats");
  return QStringLiteral("sc-load");  // the partition load page (plot and stack chooser)
}

QString SparseCoreWorkspace::viewTitle(const QString& view) const {
  const plots::SparseCorePlot* plot = plotFor(view);
  return plot ? plot->title() : QString();
}

bool SparseCoreWorkspace::exportView(const QString& view, const QString& path, QSize size,
                                     QString* error) const {
  const plots::SparseCorePlot* plot = plotFor(view);
  if (!plot) {
    if (error) *error = QStringLiteral("unknown SparseCore view '%1'").arg(view);
    return false;
  }
  return plot->exportTo(path, size, error);
}

}  // namespace shardscope::scw
