#include "strategy_compare_widget.h"
#include "core/work_pool.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "api/document.h"
#include "comm/communication_change_view.h"
#include "sharding_diff_model.h"

namespace shardscope::widgets::trace {

namespace {
void fillStrategies(QComboBox* box) {
  for (Strategy s : {Strategy::Basic, Strategy::Aggressive, Strategy::OpPriority, Strategy::UserPriority})
    box->addItem(strategyName(s), static_cast<int>(s));
}
}  // namespace

StrategyCompareWidget::StrategyCompareWidget(QWidget* parent)
    : QWidget(parent),
      model_(new ShardingDiffModel(this)),
      runnerA_(new PropagationRunner(this)),
      runnerB_(new PropagationRunner(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Compare"), this));
  a_ = new QComboBox(this);
  fillStrategies(a_);
  a_->setCurrentIndex(0);
  top->addWidget(a_);
  top->addWidget(new QLabel(tr("with"), this));
  b_ = new QComboBox(this);
  fillStrategies(b_);
  b_->setCurrentIndex(3);
  top->addWidget(b_);
  top->addStretch(1);
  layout->addLayout(top);
  // Run and its status on a row of their own: on one row with the
  // strategies the tab asked about 490 px, more than the explorer's third
  // pane has at 1280 px (the whole explorer then scrolled sideways).
  auto* second = new QHBoxLayout;
  run_ = new QPushButton(tr("Run both"), this);
  run_->setToolTip(tr("Propagate the module with both strategies and list the values whose sharding differs"));
  second->addWidget(run_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setMinimumWidth(80);
  second->addWidget(status_, 1);
  layout->addLayout(second);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setObjectName(QStringLiteral("compareDiffTable"));
  // Shown only with rows: empty, it kept ~100 px of a short tab (the
  // collectives below were cut), and the status line already says the
  // shardings are the same.
  table_->hide();
  layout->addWidget(table_, 1);
  comm_ = new comm::CommunicationChangeView(this);
  comm_->setObjectName(QStringLiteral("compareCommunication"));
  // Its own height, no more: the room left goes below it (it spread its
  // sentence and its table apart in a tall tab).
  comm_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  layout->addWidget(comm_);
  layout->addStretch(0);

  connect(run_, &QPushButton::clicked, this, &StrategyCompareWidget::compare);
  connect(runnerA_, &PropagationRunner::finished, this, [this](std::shared_ptr<const TraceRun> r) {
    resultA_ = std::move(r);
    maybeFinish();
  });
  connect(runnerB_, &PropagationRunner::finished, this, [this](std::shared_ptr<const TraceRun> r) {
    resultB_ = std::move(r);
    maybeFinish();
  });
  connect(table_, &QTableView::activated, this, [this](const QModelIndex& i) {
    emit valueActivated(i.data(ShardingDiffModel::OpIndexRole).toInt(), i.data(ShardingDiffModel::LineRole).toInt());
  });
  connect(&commWatcher_, &QFutureWatcher<api::CommunicationDiff>::finished, this, [this] {
    if (commWatcher_.property("request").toULongLong() != commRequest_ || commWatcher_.future().resultCount() == 0)
      return;  // a newer comparison is on its way
    const api::CommunicationDiff diff = commWatcher_.result();
    if (diff.summary.empty())
      comm_->setMessage(tr("Collectives: no report (a result could not be analysed)"));
    else
      comm_->setDiff(diff, a_->currentText(), b_->currentText());
    emit communicationCompared();
  });
  run_->setEnabled(false);
}

void StrategyCompareWidget::setModuleText(const QString& text, const QString& fileName) {
  text_ = text;
  fileName_ = fileName;
  run_->setEnabled(!text_.isEmpty());
  model_->setRuns(nullptr, nullptr);
  table_->hide();
  status_->clear();
  ++commRequest_;
  comm_->clear();
}

QString StrategyCompareWidget::statusText() const { return status_->text(); }

QString StrategyCompareWidget::failure() const {
  if (!hasResult()) return {};
  if (!resultA_->ok()) return resultA_->summary();
  if (!resultB_->ok()) return resultB_->summary();
  return {};
}

void StrategyCompareWidget::setStrategies(Strategy a, Strategy b) {
  a_->setCurrentIndex(a_->findData(static_cast<int>(a)));
  b_->setCurrentIndex(b_->findData(static_cast<int>(b)));
}

void StrategyCompareWidget::compare() {
  if (text_.isEmpty()) return;
  resultA_.reset();
  resultB_.reset();
  status_->setText(tr("running…"));
  ++commRequest_;
  comm_->clear();
  runnerA_->start(text_, fileName_, static_cast<Strategy>(a_->currentData().toInt()));
  runnerB_->start(text_, fileName_, static_cast<Strategy>(b_->currentData().toInt()));
}

void StrategyCompareWidget::maybeFinish() {
  if (!resultA_ || !resultB_) return;
  if (!resultA_->ok() || !resultB_->ok()) {
    status_->setText(!resultA_->ok() ? resultA_->summary() : resultB_->summary());
    model_->setRuns(nullptr, nullptr);
    table_->hide();
    emit compared(0);
    return;
  }
  model_->setRuns(resultA_, resultB_);
  table_->resizeColumnsToContents();
  const int n = model_->rowCount();
  table_->setVisible(n > 0);
  status_->setText(n == 0 ? tr("same shardings, no value differs (%1 vs %2 steps)")
                                .arg(resultA_->trace.steps.size())
                                .arg(resultB_->trace.steps.size())
                          : tr("%n value(s) differ", nullptr, n));
  emit compared(n);
  compareCommunication();
}

void StrategyCompareWidget::compareCommunication() {
  const quint64 request = ++commRequest_;
  comm_->setMessage(tr("Collectives: computing…"));
  commWatcher_.setProperty("request", QVariant::fromValue<qulonglong>(request));
  // Both propagated modules, read back from their printed text, as the
  // Communication dock reads a document.
  commWatcher_.setFuture(QtConcurrent::run(workPool(), [a = resultA_, b = resultB_]() {
    auto report = [](const TraceRun& run) {
      auto doc = api::parseDocument(run.outputText, run.fileName);
      return api::analyzeCommunication(*doc);
    };
    const api::CommunicationReport ra = report(*a), rb = report(*b);
    if (!ra.ok || !rb.ok) return api::CommunicationDiff{};
    return api::diffCommunication(ra, rb);
  }));
}

}  // namespace shardscope::widgets::trace
