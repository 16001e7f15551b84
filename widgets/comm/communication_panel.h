// The Communication dock's widget: the collectives the current document's
// shardings need (communication_model.h) in a sortable table, the totals
// above it and the selected collective's cause below it.
//
// The report comes from a CommunicationFeed (communication_feed.h: off the
// UI thread, for every new document and every step of the timeline), which
// the graph's communication layer shares; the change since the previous
// report of the same file is shown. Clicking a row selects the op the
// collective belongs to in the DocumentState, so the graph and the source
// follow, and emits collectiveActivated; selecting an op elsewhere selects
// its row.
#pragma once
#include <QWidget>
#include <memory>

#include "api/communication.h"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace shardscope::widgets {
class DocumentState;
}

namespace shardscope::widgets::comm {

class CommunicationFeed;
class CommunicationModel;

class CommunicationPanel : public QWidget {
  Q_OBJECT
 public:
  explicit CommunicationPanel(DocumentState* state, QWidget* parent = nullptr);

  CommunicationModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* view() const { return view_; }
  QString totalsText() const;
  QString detailText() const;
  // What changed since the previous report of the same file on the same chip
  // (a what-if re-run, a propagation, a step), naming the state that report
  // was of: "Since the state shown before (after step 2 of 3 (user-priority)):
  // removes 2 all-gathers; -48.00 MiB, -80 us per device"; empty when
  // nothing to compare. (The What-if panel compares a re-run with the
  // result of the run before the edit: another question, other words.)
  QString changeText() const;
  // That line from the earlier state's caption (core/timeline_caption.h)
  // and the change in words.
  static QString changeLine(const QString& shownBefore, const QString& words);
  // The chip the times are estimated for ("tpu-v5p").
  QString chip() const;
  void setChip(const QString& name);
  // Where the reports come from (shared with the graph's layer).
  CommunicationFeed* feed() const { return feed_; }
  // The op of `doc`'s module that report entry `entry` belongs to.
  const ir::Op* opOfEntry(int entry) const;

 public slots:
  // Recompute for the state's current document (normally automatic).
  void refresh();
  // Do what a click on the row of report entry `entry` does (e.g. for a
  // click on its glyph in the graph).
  void activateEntry(int entry);

 signals:
  // A report (or its absence) was delivered to the model.
  void reportReady();
  // A row was clicked (or activateEntry called): report entry `entry`.
  void collectiveActivated(int entry);

 private:
  void showReport(std::shared_ptr<const api::CommunicationReport> report, const QString& file = {});
  void rowActivated(const QModelIndex& proxyIndex);
  void followSelection();
  void showDetail(const api::CollectiveEntry* e);

  DocumentState* state_;
  CommunicationModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLabel* totals_;
  QLabel* detail_;
  QLabel* change_;
  std::shared_ptr<const api::CommunicationReport> shown_;  // the last report shown
  QString shownFile_;                                      // its document's file
  QString shownCaption_;                                   // its state, in the title's words
  QComboBox* chips_;
  CommunicationFeed* feed_;
  bool selecting_ = false;
  // The document the columns were sized for, and whether it had rows then.
  const void* sizedFor_ = nullptr;
  bool sizedWithRows_ = false;  // we are the ones changing the state's selection
};

}  // namespace shardscope::widgets::comm
