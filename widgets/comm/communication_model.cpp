#include "communication_model.h"

#include <QColor>
#include <QGuiApplication>
#include <QHash>
#include <QPainter>
#include <QPalette>
#include <QPixmap>

#include "comm/comm_glyphs.h"

namespace shardscope::widgets::comm {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

// The icon of a collective kind in the palette's text colour (comm_glyphs.h).
QPixmap kindIcon(const QString& kind) {
  const QColor ink = QGuiApplication::palette().color(QPalette::Text);
  static QHash<QString, QPixmap> cache;
  const QString key = kind + u'/' + ink.name();
  auto it = cache.constFind(key);
  if (it != cache.constEnd()) return *it;
  QPixmap icon(16, 14);
  icon.fill(Qt::transparent);
  QPainter p(&icon);
  widgets::paintCommKindIcon(p, QRectF(1, 1, 14, 12), kind, ink);
  p.end();
  cache.insert(key, icon);
  return icon;
}
}  // namespace

CommunicationModel::CommunicationModel(QObject* parent) : QAbstractTableModel(parent) {}

void CommunicationModel::setReport(std::shared_ptr<const api::CommunicationReport> report) {
  beginResetModel();
  report_ = std::move(report);
  maxSeconds_ = 0;
  if (report_)
    for (const api::CollectiveEntry& e : report_->collectives)
      maxSeconds_ = std::max(maxSeconds_, e.seconds);
  endResetModel();
}

const api::CollectiveEntry* CommunicationModel::entry(int row) const {
  if (!report_ || row < 0 || row >= static_cast<int>(report_->collectives.size())) return nullptr;
  return &report_->collectives[static_cast<size_t>(row)];
}

QString CommunicationModel::totalsText(const api::CommunicationReport& report) {
  if (!report.ok) return QStringLiteral("No report: %1").arg(qs(report.error));
  const QString chip = qs(report.chip);
  if (report.total.count == 0) return QStringLiteral("No collectives (on %1)").arg(chip);
  QString text = QStringLiteral("%1 %2, %3 per device, %4 on %5")
                     .arg(report.total.count)
                     .arg(report.total.count == 1 ? QStringLiteral("collective")
                                                  : QStringLiteral("collectives"),
                          qs(api::bytesText(report.total.bytesPerDevice)),
                          qs(api::secondsText(report.total.seconds)), chip);
  if (report.reshardsInserted)
    text += QStringLiteral(" (with the explicit reshards this sharding needs)");
  return text;
}

QString CommunicationModel::totalsText() const {
  return report_ ? totalsText(*report_) : QStringLiteral("No document");
}

QString CommunicationModel::opText(const api::CollectiveEntry& e) {
  // One the analysis inserted is not in the document: named by the value it
  // works on, as the document names it.
  if (e.inserted) return qs(e.op) + QStringLiteral(" of ") + qs(e.value) + QStringLiteral(" (planned)");
  QString text = qs(e.value) + QStringLiteral(" = ") + qs(e.op);
  if (e.planned) text += QStringLiteral(" (planned)");
  return text;
}

QString CommunicationModel::detailHtml(const api::CollectiveEntry& e) {
  auto shape = [](const std::vector<int64_t>& dims) {
    QStringList parts;
    for (int64_t d : dims) parts << QString::number(d);
    return parts.join(QLatin1Char('x'));
  };
  // One arg() call: the texts put in (value names such as %5) must not be
  // taken for placeholders by a later call.
  return QStringLiteral("<b>%1</b> on %2 (group of %3), %4: %5 → %6 %7 per device, %8, %9")
             .arg(qs(e.kind).toHtmlEscaped(), qs(e.axes).toHtmlEscaped(),
                  QString::number(e.groupSize), opText(e).toHtmlEscaped(), shape(e.inShape),
                  shape(e.outShape), qs(e.elementType).toHtmlEscaped(),
                  qs(api::bytesText(e.bytesPerDevice)), qs(api::secondsText(e.seconds))) +
         QStringLiteral("<br>") + qs(e.cause).toHtmlEscaped() + blockedHtml(e);
}

QString CommunicationModel::blockedHtml(const api::CollectiveEntry& e) {
  QString html;
  for (const std::string& note : e.blocked)
    html += QStringLiteral("<br>&nbsp;&nbsp;") + qs(note).toHtmlEscaped();
  return html;
}

int CommunicationModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->collectives.size());
}

int CommunicationModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QVariant CommunicationModel::data(const QModelIndex& index, int role) const {
  const api::CollectiveEntry* e = index.isValid() ? entry(index.row()) : nullptr;
  if (!e) return {};
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case KindColumn:
          return qs(e->kind);
        case OpColumn:
          return opText(*e);
        case LineColumn:
          return static_cast<int>(e->line);
        case FunctionColumn:
          return qs(e->function);
        case AxesColumn:
          return qs(e->axes);
        case BytesColumn:
          return qs(api::bytesText(e->bytesPerDevice));
        case TimeColumn:
          return qs(api::secondsText(e->seconds));
        case CauseColumn:
          return qs(e->cause);
      }
      return {};
    case SortRole:
      switch (index.column()) {
        case LineColumn:
          return static_cast<int>(e->line);
        case BytesColumn:
          return e->bytesPerDevice;
        case TimeColumn:
          return e->seconds;
        default:
          return data(index, Qt::DisplayRole);
      }
    case Qt::ToolTipRole:
      if (index.column() == CauseColumn || index.column() == OpColumn) return qs(e->cause);
      if (index.column() == BytesColumn)
        return QStringLiteral("%1 bytes received per device (group of %2)")
            .arg(e->bytesPerDevice, 0, 'f', 0)
            .arg(e->groupSize);
      return {};
    case Qt::DecorationRole:
      // The kind's icon, as the graph's communication layer draws it.
      if (index.column() == KindColumn) return kindIcon(qs(e->kind));
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == BytesColumn || index.column() == TimeColumn ||
          index.column() == LineColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::BackgroundRole:
      // The expensive ones stand out: the time cell tinted by its share of
      // the largest time.
      if (index.column() == TimeColumn && maxSeconds_ > 0) {
        QColor c(0xe0, 0x5a, 0x2b);
        c.setAlphaF(0.08 + 0.45 * e->seconds / maxSeconds_);
        return c;
      }
      return {};
    case LineRole:
      return static_cast<int>(e->line);
    case ColumnRole:
      return static_cast<int>(e->column);
    case EntryRole:
      return index.row();
    case CostShareRole:
      return maxSeconds_ > 0 ? e->seconds / maxSeconds_ : 0.0;
  }
  return {};
}

QVariant CommunicationModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case KindColumn:
      return QStringLiteral("Kind");
    case OpColumn:
      return QStringLiteral("Op");
    case LineColumn:
      return QStringLiteral("Line");
    case FunctionColumn:
      return QStringLiteral("Function");
    case AxesColumn:
      return QStringLiteral("Axes");
    case BytesColumn:
      return QStringLiteral("Bytes / device");
    case TimeColumn:
      return QStringLiteral("Time");
    case CauseColumn:
      return QStringLiteral("Cause");
  }
  return {};
}

}  // namespace shardscope::widgets::comm
