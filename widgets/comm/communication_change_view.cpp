#include "communication_change_view.h"

#include <QHeaderView>
#include <QEvent>
#include <QLabel>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace shardscope::widgets::comm {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString signedBytes(double v) {
  if (v == 0) return QStringLiteral("0");
  return (v < 0 ? QStringLiteral("−") : QStringLiteral("+")) + qs(api::bytesText(std::abs(v)));
}
QString signedSeconds(double v) {
  if (v == 0) return QStringLiteral("0");
  return (v < 0 ? QStringLiteral("−") : QStringLiteral("+")) + qs(api::secondsText(std::abs(v)));
}
QString arrow(const QString& a, const QString& b) { return a + QStringLiteral(" → ") + b; }

// Red when it costs more, green when it saves (readable on light and dark).
void tint(QTableWidgetItem* item, double delta) {
  if (delta == 0) return;
  item->setForeground(delta > 0 ? QColor(0xd3, 0x3a, 0x2c) : QColor(0x2e, 0x9d, 0x4f));
}

// Tall enough for every row (a handful of kinds), no taller; and for the
// horizontal scroll bar a panel `width` pixels wide needs (else it would
// take the total row's place and show a vertical one too).
void fitTableHeight(QTableWidget* table, int width) {
  if (table->rowCount() == 0) return;
  int height = table->horizontalHeader()->height() + 2 * table->frameWidth();
  for (int r = 0; r < table->rowCount(); ++r) height += table->rowHeight(r);
  // Counted against the width left beside a vertical bar: the bar may show
  // while the height is being fitted, and it takes from the width.
  const int bar = table->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, table);
  if (table->horizontalHeader()->length() > width - 2 * table->frameWidth() - bar) height += bar;
  if (table->minimumHeight() != height || table->maximumHeight() != height)
    table->setFixedHeight(height);
}

// The columns a panel `width` pixels wide shows: all of them when they fit;
// else the changes only (kind, count, Δ bytes, Δ time), the before → after
// amounts going to the rows' tooltips. In the explorer's Compare tab (~380
// px at 1280x800, ~470 at 1600x1000) the whole table asked ~600 px: its
// Δ columns, the answer, were cut off at the right.
// The width of every column sized to its text, measured with all shown
// (a hidden column's width reads 0).
constexpr const char* kWholeWidth = "shardscopeWholeWidth";

void fitColumns(QTableWidget* table, int width) {
  using C = CommunicationChangeView;
  const int all = table->property(kWholeWidth).toInt();
  const bool compact = all > width;
  for (int c : {C::BytesColumn, C::TimeColumn})
    if (table->isColumnHidden(c) != compact) table->setColumnHidden(c, compact);
}

// The columns and the height again whenever the panel is resized: the
// comparison is filled before its tab has its final width.
class RefitOnResize : public QObject {
 public:
  RefitOnResize(QWidget* panel, QTableWidget* table) : QObject(panel), table_(table) {
    panel->installEventFilter(this);
  }
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Resize) {
      const int width = static_cast<QWidget*>(o)->width();
      fitColumns(table_, width);
      fitTableHeight(table_, width);
    }
    return false;
  }

 private:
  QTableWidget* table_;
};
}  // namespace

CommunicationChangeView::CommunicationChangeView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(3);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("commChangeSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("commChangeTable"));
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  // Not stretched: a stretched Δ time sat ~400 px right of the other
  // numbers of its row in a wide dock.
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  layout->addWidget(table_);
  new RefitOnResize(this, table_);
  clear();
}

void CommunicationChangeView::setDiff(const api::CommunicationDiff& diff, const QString& before,
                                      const QString& after) {
  summary_->setText(
      tr("<b>Collectives</b> (%1 → %2): %3")
          .arg(before.toHtmlEscaped(), after.toHtmlEscaped(), qs(diff.summary).toHtmlEscaped()));
  summary_->setToolTip(
      tr("Bytes each device receives and the estimated time on %1; a run without "
         "reshards is counted with the explicit reshards the partitioner would insert")
          .arg(qs(diff.chip)));
  // The two sides are named once, in the line above: as the count's header
  // ("basic → user-priority") they made the table wider than its pane.
  table_->setHorizontalHeaderLabels({tr("kind"), tr("count"), tr("bytes / device"),
                                     tr("Δ bytes / device"), tr("time"), tr("Δ time")});
  table_->setRowCount(static_cast<int>(diff.kinds.size()) + 1);
  auto put = [this](int row, int column, const QString& text, double delta = 0, bool bold = false) {
    auto* item = new QTableWidgetItem(text);
    if (column != KindColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    tint(item, delta);
    if (bold) {
      QFont f = item->font();
      f.setBold(true);
      item->setFont(f);
    }
    table_->setItem(row, column, item);
  };
  int row = 0;
  for (const api::CollectiveKindChange& k : diff.kinds) {
    put(row, KindColumn, qs(k.kind));
    put(row, CountColumn, arrow(QString::number(k.countBefore), QString::number(k.countAfter)),
        k.countDelta());
    put(row, BytesColumn,
        arrow(qs(api::bytesText(k.bytesBefore)), qs(api::bytesText(k.bytesAfter))));
    put(row, BytesDeltaColumn, signedBytes(k.bytesDelta()), k.bytesDelta());
    put(row, TimeColumn,
        arrow(qs(api::secondsText(k.secondsBefore)), qs(api::secondsText(k.secondsAfter))));
    put(row, TimeDeltaColumn, signedSeconds(k.secondsDelta()), k.secondsDelta());
    ++row;
  }
  const double bytes = diff.bytesDelta();
  const double seconds = diff.secondsDelta();
  put(row, KindColumn, tr("total"), 0, true);
  put(row, CountColumn,
      arrow(QString::number(diff.before.count), QString::number(diff.after.count)),
      static_cast<double>(diff.after.count - diff.before.count), true);
  put(row, BytesColumn,
      arrow(qs(api::bytesText(diff.before.bytesPerDevice)),
            qs(api::bytesText(diff.after.bytesPerDevice))),
      0, true);
  put(row, BytesDeltaColumn, signedBytes(bytes), bytes, true);
  put(row, TimeColumn,
      arrow(qs(api::secondsText(diff.before.seconds)), qs(api::secondsText(diff.after.seconds))), 0,
      true);
  put(row, TimeDeltaColumn, signedSeconds(seconds), seconds, true);
  // Each row's amounts whole in its tooltip (the narrow table shows only
  // the changes).
  for (int r = 0; r < table_->rowCount(); ++r) {
    const QString tip = tr("%1: %2 (%3 → %4); bytes / device %5; time %6")
                            .arg(table_->item(r, KindColumn)->text(), table_->item(r, CountColumn)->text(),
                                 before, after, table_->item(r, BytesColumn)->text(),
                                 table_->item(r, TimeColumn)->text());
    for (int c = 0; c < ColumnCount; ++c) table_->item(r, c)->setToolTip(tip);
  }
  for (int c = 0; c < ColumnCount; ++c) table_->setColumnHidden(c, false);
  table_->resizeColumnsToContents();
  table_->resizeRowsToContents();
  int whole = 2 * table_->frameWidth();
  for (int c = 0; c < ColumnCount; ++c) whole += table_->columnWidth(c);
  table_->setProperty(kWholeWidth, whole);
  fitColumns(table_, width());
  fitTableHeight(table_, width());
  table_->show();
  fitTableHeight(table_, width());  // the header's length once shown
}

void CommunicationChangeView::setMessage(const QString& text) {
  summary_->setText(text);
  summary_->setToolTip({});
  table_->setRowCount(0);
  table_->hide();
}

void CommunicationChangeView::clear() { setMessage({}); }

QString CommunicationChangeView::summaryText() const { return summary_->text(); }

}  // namespace shardscope::widgets::comm
