// The change in collectives between two runs, for the what-if panel and
// Compare Strategies: a sentence ("removes 2 all-gathers; -48.00 MiB,
// -80 us per device") above a small table with one row per collective kind
// (count before and after, bytes per device before -> after and the change,
// time before -> after and the change) and a total row. Changes that cost
// more are tinted red, savings green.
//
// It only shows an api::CommunicationDiff (api/communication_diff.h); the
// caller computes the reports (off the UI thread).
#pragma once
#include <QWidget>

#include "api/communication_diff.h"

class QLabel;
class QTableWidget;

namespace shardscope::widgets::comm {

class CommunicationChangeView : public QWidget {
  Q_OBJECT
 public:
  enum Column {
    KindColumn,
    CountColumn,
    BytesColumn,
    BytesDeltaColumn,
    TimeColumn,
    TimeDeltaColumn,
    ColumnCount
  };

  explicit CommunicationChangeView(QWidget* parent = nullptr);
  // `before`/`after` name the two sides in the headers ("before", "basic").
  void setDiff(const api::CommunicationDiff& diff, const QString& before, const QString& after);
  // A line instead of a diff (computing, no report, an error); no table.
  void setMessage(const QString& text);
  void clear();

  QString summaryText() const;
  QTableWidget* table() const { return table_; }

 private:
  QLabel* summary_;
  QTableWidget* table_;
};

}  // namespace shardscope::widgets::comm
