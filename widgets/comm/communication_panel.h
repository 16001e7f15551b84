// The Communication dock's widget: the collectives the current document's
// shardings need (communication_model.h) in a sortable table, the totals
// above it and the selected collective's cause below it.
//
// The report is computed off the UI thread (QtConcurrent::run, one
// QFutureWatcher per request, a request counter drops stale results) each
// time the shared DocumentState gets a new document: when a file opens and
// when propagation (or a step of it) replaces the document; the change
// since the previous report of the same file is shown. Clicking a row
// selects the op the collective belongs to in the DocumentState, so the
// graph and the source follow; selecting an op elsewhere selects its row.
#pragma once
#include <QWidget>
#include <memory>

#include "api/communication.h"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace shardscope::widgets {
class DocumentState;
}

namespace shardscope::widgets::comm {

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
  // (a what-if re-run, propagation): "Since the last run: removes 2
  // all-gathers; -48.00 MiB, -80 us per device"; empty when nothing to compare.
  QString changeText() const;
  // The chip the times are estimated for ("tpu-v5p").
  QString chip() const;
  void setChip(const QString& name);

 public slots:
  // Recompute for the state's current document (normally automatic).
  void refresh();

 signals:
  // A report (or its absence) was delivered to the model.
  void reportReady();

 private:
  void scheduleRefresh();
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
  QComboBox* chips_;
  QTimer* debounce_;
  quint64 request_ = 0;
  bool selecting_ = false;  // we are the ones changing the state's selection
};

}  // namespace shardscope::widgets::comm
