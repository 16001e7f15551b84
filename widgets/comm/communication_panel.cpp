#include "communication_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "api/communication_diff.h"
#include "communication_feed.h"
#include "communication_model.h"
#include "core/document_state.h"
#include "core/timeline_caption.h"

namespace shardscope::widgets::comm {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

QString CommunicationPanel::changeLine(const QString& shownBefore, const QString& words) {
  if (shownBefore.isEmpty()) return QStringLiteral("Since the collectives shown before: ") + words;
  return QStringLiteral("Since the state shown before (%1): %2").arg(shownBefore, words);
}

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
      feed_(new CommunicationFeed(state, this)) {
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
  // The totals and the change since the last run wrap: unwrapped, their
  // text was the panel's minimum width (about 800 px), and the dock pulled
  // out of the window could not be narrower than that.
  totals_->setWordWrap(true);
  change_->setWordWrap(true);
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

  connect(chips_, &QComboBox::currentTextChanged, feed_, &CommunicationFeed::setChip);
  connect(feed_, &CommunicationFeed::computing, this,
          [this] { totals_->setText(QStringLiteral("Computing communication…")); });
  connect(feed_, &CommunicationFeed::reportReady, this,
          [this] { showReport(feed_->report(), feed_->reportFile()); });
  connect(view_, &QTableView::clicked, this, &CommunicationPanel::rowActivated);
  connect(view_, &QTableView::activated, this, &CommunicationPanel::rowActivated);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            showDetail(model_->entry(proxy_->mapToSource(current).row()));
          });
  if (state_)
    connect(state_, &DocumentState::selectionChanged, this, &CommunicationPanel::followSelection);
  showReport(nullptr);
}

QString CommunicationPanel::totalsText() const { return totals_->text(); }
QString CommunicationPanel::detailText() const { return detail_->text(); }
QString CommunicationPanel::changeText() const { return change_->text(); }
QString CommunicationPanel::chip() const { return chips_->currentText(); }
void CommunicationPanel::setChip(const QString& name) { chips_->setCurrentText(name); }

void CommunicationPanel::refresh() { feed_->refresh(); }

void CommunicationPanel::showReport(std::shared_ptr<const api::CommunicationReport> report,
                                    const QString& file) {
  // The change since the last report of the same file on the same chip; a
  // report equal to the last one keeps the change shown (a re-run of the
  // same propagation, a step replay).
  const bool comparable = report && report->ok && shown_ && shown_->ok && !file.isEmpty() &&
                          shownFile_ == file && shown_->chip == report->chip;
  const std::string words =
      comparable ? api::describeCommunicationChange(*shown_, *report) : std::string();
  // The state this report is of, in the words of the window's title: the
  // line names the state it compares with. "Since the last run" read as the
  // What-if panel's question (this run against the result of the run before
  // the edit) while it compared with the step shown before, and the two
  // answered the same edit differently.
  const QString caption = state_ ? timelineCaption(*state_) : QString();
  if (!comparable || words != "no change in collectives") {
    change_->setText(comparable ? changeLine(shownCaption_, qs(words)) : QString());
    change_->setVisible(comparable);
  }
  if (report && report->ok) {
    shown_ = report;
    shownFile_ = file;
    shownCaption_ = caption;
  }
  model_->setReport(report);
  totals_->setText(model_->totalsText());
  // Columns fit the first rows of a document; the reports of its timeline
  // steps keep those widths (measuring every row of every report held the
  // UI thread 10-20 ms on a 25k-op module).
  const void* doc = feed_->reportDocument().get();
  if (doc != sizedFor_ || !sizedWithRows_) {
    view_->resizeColumnsToContents();
    // The cause, last, takes the width the others leave (stretched) and is
    // elided there; the whole cause is shown below the table. Sized to its
    // text (up to 600 px) it pushed its own header out of a floating
    // window, which then scrolled sideways to show it.
    const int causeHeader = view_->horizontalHeader()->sectionSizeHint(CommunicationModel::CauseColumn);
    view_->setColumnWidth(CommunicationModel::CauseColumn,
                          std::min(view_->columnWidth(CommunicationModel::CauseColumn), causeHeader + 60));
    sizedFor_ = doc;
    sizedWithRows_ = model_->rowCount() > 0;
  }
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
  detail_->setText(CommunicationModel::detailHtml(*e));
}

const ir::Op* CommunicationPanel::opOfEntry(int entry) const {
  const api::CollectiveEntry* e = model_->entry(entry);
  if (!e || !state_ || !state_->module()) return nullptr;
  // The report's own document (the shown one, or an earlier step of the
  // same run): its entries name ops by their place in the module.
  if (feed_->report() == model_->report() && feed_->reportDocument() == state_->document()) {
    api::CommunicationReport one;
    one.ok = true;
    one.collectives.push_back(*e);
    const std::vector<api::CollectiveSite> sites = api::locateCollectives(*state_->module(), one);
    if (!sites.empty() && sites.front().op) return sites.front().op;
  }
  return api::opAtLocation(*state_->module(), e->line, e->column);
}

void CommunicationPanel::rowActivated(const QModelIndex& proxyIndex) {
  const int entry = proxy_->mapToSource(proxyIndex).row();
  const api::CollectiveEntry* e = model_->entry(entry);
  showDetail(e);
  if (!e) return;
  if (const ir::Op* op = opOfEntry(entry); op && state_) {
    selecting_ = true;
    state_->selectOp(op);
    selecting_ = false;
  }
  emit collectiveActivated(entry);
}

void CommunicationPanel::activateEntry(int entry) {
  const QModelIndex index = proxy_->mapFromSource(model_->index(entry, 0));
  if (!index.isValid()) return;
  selecting_ = true;  // the row follows the entry, not the op's first entry
  view_->setCurrentIndex(index);
  view_->scrollTo(index);
  selecting_ = false;
  rowActivated(index);
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
    // The op the entry belongs to, or a written collective itself.
    if (api::opAtLocation(*state_->module(), line, column) != op &&
        op->loc().col != static_cast<uint32_t>(column))
      continue;
    view_->setCurrentIndex(index);
    view_->scrollTo(index);
    return;
  }
}

}  // namespace shardscope::widgets::comm
