// The communication report of the document the window shows, kept current
// off the UI thread for every view that draws it (the Communication dock,
// the graph's communication layer).
//
// It follows the shared DocumentState: a new document (a file opened, a
// what-if re-run) and every move of the propagation timeline (a step
// changes shardings in place) ask for a new report. Requests are throttled:
// at most one analysis runs at a time, and one more follows when something
// changed meanwhile, so the last state is always analysed. Steps wait for
// the timeline to rest (kStepRestMs without a step): while a run plays or
// Alt+Right is held, no analysis competes with the steps for the CPU, no
// step waits for a snapshot and no report rebuilds the views between two
// steps; the report of the step shown follows when the player stops (e.g.
// playing at 10 steps/s, the report of the last step shown arrives 0.3 s
// plus the analysis time after Pause). isCurrent() is false meanwhile. An
// analysis that started at a rest and ends once steps have come again (a
// loaded machine, a pause just over kStepRestMs) is dropped unseen: only a
// resting timeline gets reports, and the old report is freed off the UI
// thread.
//
// The analysis reads the module only while it takes a snapshot
// (api::snapshotForCommunication, on a worker); a timeline step about to
// change the module waits for that snapshot, never for the analysis.
#pragma once
#include <QFuture>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

#include "api/communication.h"

namespace shardscope::widgets {
class DocumentState;
}

namespace shardscope::widgets::comm {

class CommunicationFeed : public QObject {
  Q_OBJECT
 public:
  explicit CommunicationFeed(DocumentState* state, QObject* parent = nullptr);
  ~CommunicationFeed() override;

  // The last report delivered (null: no document), the document it was
  // made for and that document's file.
  const std::shared_ptr<const api::CommunicationReport>& report() const { return report_; }
  const std::shared_ptr<const api::Document>& reportDocument() const { return reportDoc_; }
  QString reportFile() const { return reportFile_; }
  bool isComputing() const { return running_; }
  // report() is of the state shown now: made for the state's document with
  // no step, edit or chip change since (none waiting, none computing).
  bool isCurrent() const;

  // The chip times are estimated for ("tpu-v5p"); a change recomputes.
  QString chip() const { return chip_; }
  void setChip(const QString& name);

  // While held, an analysis due (a document change) waits; release() starts
  // it. The main window holds it while the graph lays out the first frame of
  // a large module: both share the same cores, and at 1M ops the analysis
  // (~3 s of CPU) would delay that frame. A hold ends by itself after
  // kHoldMaxMs, so nothing waits on a layout that never reports.
  //   feed->hold();                 // the graph starts grouping
  //   ... graph: layoutFinished ->  feed->release();
  void hold();
  void release();
  bool isHeld() const { return held_; }
  static constexpr int kHoldMaxMs = 20000;

 public slots:
  // Recompute now for the state's current document.
  void refresh();

 signals:
  // An analysis started (the views may say so).
  void computing();
  // A report (or its absence) was delivered: report() holds it.
  void reportReady();

 public:
  // A document change starts an analysis after kBurstMs (later changes of
  // the burst do not push it back); a step after kStepRestMs without one.
  static constexpr int kBurstMs = 120, kStepRestMs = 300;

 private:
  void schedule();
  void scheduleAfterSteps();
  void start();
  void waitForSnapshot();
  // Frees a report on a worker thread when this holds the last reference.
  static void dropOffTheUiThread(std::shared_ptr<const api::CommunicationReport> report);

  DocumentState* state_;
  QString chip_ = QStringLiteral("tpu-v5p");
  QTimer throttle_;
  bool running_ = false;
  bool dirty_ = false;  // something changed while an analysis ran
  bool stepsMoving_ = false;  // steps came and the timeline has not rested since
  bool held_ = false;
  bool dueWhileHeld_ = false;  // an analysis came due during the hold
  QTimer holdLimit_;
  quint64 request_ = 0;
  QFuture<std::shared_ptr<const api::CommunicationSnapshot>> snapshot_;
  std::shared_ptr<const api::CommunicationReport> report_;
  std::shared_ptr<const api::Document> reportDoc_;
  QString reportFile_;
};

}  // namespace shardscope::widgets::comm
