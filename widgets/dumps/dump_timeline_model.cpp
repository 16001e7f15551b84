#include "dumps/dump_timeline_model.h"

#include <QLocale>

namespace shardscope::widgets {

void DumpTimelineModel::setFiles(std::vector<api::DumpFile> files) {
  beginResetModel();
  files_ = std::move(files);
  endResetModel();
}

const api::DumpFile* DumpTimelineModel::file(int row) const {
  return row >= 0 && row < static_cast<int>(files_.size()) ? &files_[static_cast<size_t>(row)]
                                                           : nullptr;
}

int DumpTimelineModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(files_.size());
}

int DumpTimelineModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant DumpTimelineModel::data(const QModelIndex& index, int role) const {
  const api::DumpFile* f = file(index.row());
  if (!f) return {};
  if (role == Qt::ToolTipRole) return QString::fromStdString(f->path);
  if (role == Qt::TextAlignmentRole && index.column() != Stage)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Step:
      // Dumps of one index were written in this order too: say which came first.
      return f->index >= 0 ? QString::number(index.row() + 1) + QStringLiteral(" (") +
                                 QStringLiteral("%1").arg(f->index, 2, 10, QLatin1Char('0')) +
                                 QStringLiteral(")")
                           : QString::number(index.row() + 1);
    case Stage:
      return QString::fromStdString(f->stage).replace(QLatin1Char('_'), QLatin1Char(' '));
    case Size:
      return QLocale().formattedDataSize(f->bytes);
  }
  return {};
}

QVariant DumpTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Step: return tr("Step (dump)");
    case Stage: return tr("Stage");
    case Size: return tr("Size");
  }
  return {};
}

}  // namespace shardscope::widgets
