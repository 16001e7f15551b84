#include "communication_panel.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "api/communication_diff.h"
#include "communication_model.h"
#include "core/document_state.h"

namespace shardscope::widgets::comm {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString shapeText(const std::vector<int64_t>& shape) {
  QStringList dims;
  for (int64_t d : shape) dims << QString::number(d);
  return dims.join(QLatin1Char('x'));
}
}  // namespace

CommunicationPanel::CommunicationPanel(DocumentState* state, QWidget* parent)
    : QWidget(parent),
      state_(state),
      model_(new CommunicationModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView(this)),
      totals_(new QLabel(this)),
      detail_(new QLabel(this)),
      change_(new QLabel(this)),
      chips_(new QComboBox(this)),
      debounce_(new QTimer(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CommunicationModel::SortRole);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(CommunicationModel::LineColumn, Qt::AscendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setObjectName(QStringLiteral("communicationTable"));

  for (const std::string& name : api::communicationChips()) chips_->addItem(qs(name));
  chips_->setCurrentText(QStringLiteral("tpu-v5p"));
  chips_->setToolTip(QStringLiteral("Chip whose interconnect the times are estimated for"));
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setMinimumHeight(detail_->fontMetrics().height() * 3);
  detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  detail_->setObjectName(QStringLiteral("communicationCause"));

  auto* top = new QHBoxLayout;
  top->addWidget(totals_, 1);
  top->addWidget(new QLabel(QStringLiteral("Chip:"), this));
  top->addWidget(chips_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  change_->setObjectName(QStringLiteral("communicationChange"));
  change_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  change_->hide();
  layout->addWidget(change_);
  layout->addWidget(view_, 1);
  layout->addWidget(detail_);

  // Steps of a propagation replace the document quickly one after another:
  // compute once they pause.
  debounce_->setSingleShot(true);
  debounce_->setInterval(120);
  connect(debounce_, &QTimer::timeout, this, &CommunicationPanel::refresh);
  connect(chips_, &QComboBox::currentTextChanged, this, &CommunicationPanel::refresh);
  connect(view_, &QTableView::clicked, this, &CommunicationPanel::rowActivated);
  connect(view_, &QTableView::activated, this, &CommunicationPanel::rowActivated);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            showDetail(model_->entry(proxy_->mapToSource(current).row()));
          });
  if (state_) {
    connect(state_, &DocumentState::documentChanged, this, &CommunicationPanel::scheduleRefresh);
    connect(state_, &DocumentState::selectionChanged, this, &CommunicationPanel::followSelection);
  }
  showReport(nullptr);
  if (state_ && state_->document()) refresh();
}

QString CommunicationPanel::totalsText() const { return totals_->text(); }
QString CommunicationPanel::detailText() const { return detail_->text(); }
QString CommunicationPanel::changeText() const { return change_->text(); }
QString CommunicationPanel::chip() const { return chips_->currentText(); }
void CommunicationPanel::setChip(const QString& name) { chips_->setCurrentText(name); }

void CommunicationPanel::scheduleRefresh() { debounce_->start(); }

void CommunicationPanel::refresh() {
  debounce_->stop();
  const quint64 request = ++request_;
  std::shared_ptr<const api::Document> doc = state_ ? state_->document() : nullptr;
  if (!doc) {
    showReport(nullptr);
    return;
  }
  totals_->setText(QStringLiteral("Computing communication…"));
  api::CommunicationOptions options;
  options.chip = chips_->currentText().toStdString();
  auto* watcher = new QFutureWatcher<api::CommunicationReport>(this);
  const QString file = QString::fromStdString(doc->path.empty() ? doc->name : doc->path);
  connect(watcher, &QFutureWatcher<api::CommunicationReport>::finished, this,
          [this, watcher, request, file] {
            watcher->deleteLater();
            if (request != request_) return;  // a newer document or chip is on its way
            showReport(std::make_shared<const api::CommunicationReport>(watcher->result()), file);
          });
  // The document is shared read-only with the worker; it analyses a copy.
  watcher->setFuture(
      QtConcurrent::run([doc, options] { return api::analyzeCommunication(*doc, options); }));
}

void CommunicationPanel::showReport(std::shared_ptr<const api::CommunicationReport> report,
                                    const QString& file) {
  // The change since the last report of the same file on the same chip; a
  // report equal to the last one keeps the change shown (a re-run of the
  // same propagation, a step replay).
  const bool comparable = report && report->ok && shown_ && shown_->ok && !file.isEmpty() &&
                          shownFile_ == file && shown_->chip == report->chip;
  const std::string words =
      comparable ? api::describeCommunicationChange(*shown_, *report) : std::string();
  if (!comparable || words != "no change in collectives") {
    change_->setText(comparable ? QStringLiteral("Since the last run: ") + qs(words) : QString());
    change_->setVisible(comparable);
  }
  if (report && report->ok) {
    shown_ = report;
    shownFile_ = file;
  }
  model_->setReport(report);
  totals_->setText(model_->totalsText());
  view_->resizeColumnsToContents();
  if (view_->columnWidth(CommunicationModel::CauseColumn) > 600)
    view_->setColumnWidth(CommunicationModel::CauseColumn, 600);
  showDetail(nullptr);
  followSelection();
  emit reportReady();
}

void CommunicationPanel::showDetail(const api::CollectiveEntry* e) {
  if (!e) {
    detail_->setText(model_->rowCount()
                         ? QStringLiteral("Click a collective to see why it is there.")
                         : QString());
    return;
  }
  detail_->setText(QStringLiteral("<b>%1</b> on %2 (group of %3), %7: %4 → %5 %6 per device<br>%8")
                       .arg(qs(e->kind).toHtmlEscaped(), qs(e->axes).toHtmlEscaped())
                       .arg(e->groupSize)
                       .arg(shapeText(e->inShape), shapeText(e->outShape), qs(e->elementType),
                            CommunicationModel::opText(*e).toHtmlEscaped(),
                            qs(e->cause).toHtmlEscaped()));
}

void CommunicationPanel::rowActivated(const QModelIndex& proxyIndex) {
  const api::CollectiveEntry* e = model_->entry(proxy_->mapToSource(proxyIndex).row());
  showDetail(e);
  if (!e || !state_ || !state_->module()) return;
  const ir::Op* op = api::opAtLocation(*state_->module(), e->line, e->column);
  if (!op) return;
  selecting_ = true;
  state_->selectOp(op);
  selecting_ = false;
}

void CommunicationPanel::followSelection() {
  if (selecting_ || !state_ || !state_->module()) return;
  const ir::Op* op = state_->selectedOp();
  if (!op) return;
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const QModelIndex index = proxy_->index(row, 0);
    const int line = index.data(CommunicationModel::LineRole).toInt();
    const int column = index.data(CommunicationModel::ColumnRole).toInt();
    if (op->loc().line != static_cast<uint32_t>(line)) continue;
    if (api::opAtLocation(*state_->module(), line, column) != op) continue;
    view_->setCurrentIndex(index);
    view_->scrollTo(index);
    return;
  }
}

}  // namespace shardscope::widgets::comm
