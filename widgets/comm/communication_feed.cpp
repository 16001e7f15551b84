#include "communication_feed.h"
#include "core/work_pool.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

#include "core/document_state.h"

namespace shardscope::widgets::comm {

CommunicationFeed::CommunicationFeed(DocumentState* state, QObject* parent)
    : QObject(parent), state_(state) {
  // Documents and steps come in bursts (opening, playing a run): the first
  // change of a burst starts the clock, later ones do not push it back.
  throttle_.setSingleShot(true);
  throttle_.setInterval(kBurstMs);
  holdLimit_.setSingleShot(true);
  holdLimit_.setInterval(kHoldMaxMs);
  connect(&holdLimit_, &QTimer::timeout, this, &CommunicationFeed::release);
  connect(&throttle_, &QTimer::timeout, this, [this] {
    throttle_.setInterval(kBurstMs);
    stepsMoving_ = false;  // the timeline rests
    if (held_)
      dueWhileHeld_ = true;  // on release
    else if (running_)
      dirty_ = true;  // once the running analysis is done
    else
      start();
  });
  if (state_) {
    connect(state_, &DocumentState::documentChanged, this, &CommunicationFeed::schedule);
    connect(state_, &DocumentState::shardingsChanged, this, &CommunicationFeed::scheduleAfterSteps);
    connect(state_, &DocumentState::shardingsAboutToChange, this,
            &CommunicationFeed::waitForSnapshot);
  }
  if (state_ && state_->document()) schedule();
}

CommunicationFeed::~CommunicationFeed() {
  // The snapshot reads the shown module; it must be done before the module
  // can go (the analysis after it holds only its own copy).
  waitForSnapshot();
}

void CommunicationFeed::setChip(const QString& name) {
  if (name == chip_) return;
  chip_ = name;
  refresh();
}

bool CommunicationFeed::isCurrent() const {
  return report_ && state_ && reportDoc_ == state_->document() && !running_ && !dirty_ &&
         !throttle_.isActive() && !dueWhileHeld_;
}

void CommunicationFeed::schedule() {
  if (!throttle_.isActive()) throttle_.start();
}

void CommunicationFeed::scheduleAfterSteps() {
  // Every step pushes the analysis back: it starts once the timeline rests.
  stepsMoving_ = true;
  throttle_.start(kStepRestMs);
}

void CommunicationFeed::dropOffTheUiThread(std::shared_ptr<const api::CommunicationReport> report) {
  if (!report || report.use_count() > 1) return;  // someone else frees it
  (void)QtConcurrent::run(workPool(), [r = std::move(report)]() mutable { r.reset(); });
}

void CommunicationFeed::refresh() { start(); }

void CommunicationFeed::hold() {
  held_ = true;
  holdLimit_.start();
}

void CommunicationFeed::release() {
  if (!held_) return;
  held_ = false;
  holdLimit_.stop();
  if (!std::exchange(dueWhileHeld_, false)) return;  // still to come: the throttle runs
  if (running_)
    dirty_ = true;
  else
    start();
}

void CommunicationFeed::waitForSnapshot() {
  if (snapshot_.isValid() && !snapshot_.isFinished()) snapshot_.waitForFinished();
}

void CommunicationFeed::start() {
  throttle_.stop();
  stepsMoving_ = false;
  throttle_.setInterval(kBurstMs);
  dirty_ = false;
  const quint64 request = ++request_;
  std::shared_ptr<const api::Document> doc = state_ ? state_->document() : nullptr;
  if (!doc) {
    running_ = false;
    report_.reset();
    reportDoc_.reset();
    reportFile_.clear();
    emit reportReady();
    return;
  }
  running_ = true;
  emit computing();
  api::CommunicationOptions options;
  options.chip = chip_.toStdString();
  const QString file = QString::fromStdString(doc->path.empty() ? doc->name : doc->path);
  // Two stages on the thread pool: the snapshot reads the module (a step
  // about to change it waits for this one), the analysis reads the snapshot.
  snapshot_ = QtConcurrent::run(workPool(), [doc] {
    return std::make_shared<const api::CommunicationSnapshot>(api::snapshotForCommunication(*doc));
  });
  QFuture<api::CommunicationReport> analysis = snapshot_.then(
      workPool(),
      [options](std::shared_ptr<const api::CommunicationSnapshot> snapshot) {
        return api::analyzeCommunication(*snapshot, options);
      });
  auto* watcher = new QFutureWatcher<api::CommunicationReport>(this);
  connect(watcher, &QFutureWatcher<api::CommunicationReport>::finished, this,
          [this, watcher, request, doc, file] {
            watcher->deleteLater();
            if (request != request_) return;  // a newer request is on its way
            running_ = false;
            // The report moves out of the future (a copy of every entry,
            // then freeing the future's own, cost the UI thread ~100 ms at
            // 100k ops).
            auto report = std::make_shared<const api::CommunicationReport>(
                watcher->future().takeResult());
            // The timeline moved on since this analysis started (a step
            // that came more than kStepRestMs after the last one, then more
            // steps): the report is of a step already left, and showing it
            // would rebuild the dock and the graph's glyphs between two
            // steps. The analysis of the step the timeline rests at follows
            // (the throttle is running).
            if (stepsMoving_) {
              dropOffTheUiThread(std::move(report));
              return;
            }
            const bool sameDocument = state_ && state_->document() == doc;
            // A report of a document no longer shown is not worth showing;
            // one of an earlier step of the shown run is, while the next one
            // is computed.
            if (sameDocument || !dirty_) {
              std::shared_ptr<const api::CommunicationReport> old = std::move(report_);
              report_ = std::move(report);
              reportDoc_ = doc;
              reportFile_ = file;
              emit reportReady();
              // The views hold the new one now: the old one is freed on a
              // worker (tens of ms for a large module's).
              dropOffTheUiThread(std::move(old));
            } else {
              dropOffTheUiThread(std::move(report));
            }
            if (dirty_) start();
          });
  watcher->setFuture(analysis);
}

}  // namespace shardscope::widgets::comm
