#include "dumps/dump_folder_view.h"
#include "core/work_pool.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "dumps/dump_diff_view.h"
#include "dumps/dump_timeline_model.h"

namespace shardscope::widgets {

namespace {

// Dumps are modules of a few MB at most; a larger file is refused rather
// than diffed on the worker's memory.
constexpr qint64 kMaxDumpBytes = qint64{256} << 20;

bool readDump(const QString& path, std::string& out, QString& error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    error = QObject::tr("%1: %2").arg(path, file.errorString());
    return false;
  }
  if (file.size() > kMaxDumpBytes) {
    error = QObject::tr("%1: larger than 256 MiB, not compared").arg(path);
    return false;
  }
  const QByteArray bytes = file.readAll();
  out.assign(bytes.constData(), static_cast<size_t>(bytes.size()));
  return true;
}

}  // namespace

DumpFolderView::DumpFolderView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("dumpFolderView"));
  header_ = new QLabel(this);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  model_ = new DumpTimelineModel(this);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("dumpTimeline"));
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->horizontalHeader()->setSectionResizeMode(DumpTimelineModel::Stage, QHeaderView::Stretch);
  diff_ = new DumpDiffView(this);
  open_ = new QPushButton(tr("Open this dump"), this);
  open_->setObjectName(QStringLiteral("openDumpButton"));
  open_->setEnabled(false);
  open_->setToolTip(tr("Open the selected dump in the explorer (graph, shardings, propagation)"));

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(diff_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addWidget(split, 1);
  layout->addWidget(open_, 0, Qt::AlignRight);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this] { showSelected(); });
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    if (const api::DumpFile* f = model_->file(index.row()))
      emit openDumpRequested(QString::fromStdString(f->path));
  });
  connect(open_, &QPushButton::clicked, this, [this] {
    if (const api::DumpFile* f = model_->file(table_->currentIndex().row()))
      emit openDumpRequested(QString::fromStdString(f->path));
  });
  connect(&watcher_, &QFutureWatcher<DiffResult>::finished, this, [this] {
    const DiffResult r = watcher_.result();
    if (r.request != request_) return;  // a later selection is being compared
    if (!r.error.isEmpty())
      diff_->showMessage(r.error);
    else
      diff_->showDiff(r.title, r.diff);
    emit diffShown(r.row);
  });
}

DumpFolderView::~DumpFolderView() { watcher_.waitForFinished(); }

bool DumpFolderView::setFolder(const QString& folder, QString* error) {
  std::vector<api::DumpFile> files;
  std::string why;
  if (!api::listDumpFolder(folder.toStdString(), files, why)) {
    if (error) *error = QString::fromStdString(why);
    return false;
  }
  folder_ = folder;
  const int count = static_cast<int>(files.size());
  model_->setFiles(std::move(files));
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setSectionResizeMode(DumpTimelineModel::Stage, QHeaderView::Stretch);
  header_->setText(tr("<b>%1</b>: %n dump(s), in the order they were written. Select one to see "
                      "what changed since the one before; double-click to open it.",
                      nullptr, count)
                       .arg(folder.toHtmlEscaped()));
  selectDump(count > 1 ? 1 : 0);
  return true;
}

int DumpFolderView::dumpCount() const { return model_->rowCount(); }

void DumpFolderView::selectDump(int row) {
  const bool same = table_->currentIndex().row() == row;
  table_->setCurrentIndex(model_->index(row, DumpTimelineModel::Stage));
  table_->selectRow(row);
  // A new row is shown through currentRowChanged; the same row (a new
  // folder) is compared again here.
  if (same) showSelected();
}

void DumpFolderView::showSelected() {
  const int row = table_->currentIndex().row();
  const api::DumpFile* f = model_->file(row);
  open_->setEnabled(f != nullptr);
  if (!f) return;
  const unsigned request = ++request_;
  const QString path = QString::fromStdString(f->path);
  const QString name = QString::fromStdString(f->fileName);
  const api::DumpFile* prev = model_->file(row - 1);
  const QString prevPath = prev ? QString::fromStdString(prev->path) : QString();
  const QString prevName = prev ? QString::fromStdString(prev->fileName) : QString();
  diff_->showMessage(tr("Comparing..."));
  // Reading and diffing two dumps of a large module takes longer than a
  // frame: a worker does it, and only the latest request is shown.
  watcher_.setFuture(QtConcurrent::run(workPool(), [=]() {
    DiffResult r;
    r.row = row;
    r.request = request;
    std::string before, after;
    QString error;
    if (!readDump(path, after, error) || (!prevPath.isEmpty() && !readDump(prevPath, before, error))) {
      r.error = error;
      return r;
    }
    r.title = prevPath.isEmpty() ? tr("%1 (the first dump: all of it)").arg(name)
                                 : tr("%1  ->  %2").arg(prevName, name);
    r.diff = api::diffLines(before, after, prevPath.isEmpty() ? 1 << 30 : 3);
    return r;
  }));
}

}  // namespace shardscope::widgets
