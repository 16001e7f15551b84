#include "sc_messages_model.h"

#include <QBrush>
#include <QColor>

namespace shardscope::scw {

ScMessagesModel::ScMessagesModel(QObject* parent) : QAbstractListModel(parent) {}

void ScMessagesModel::setMessages(const std::vector<ScMessage>& messages) {
  beginResetModel();
  messages_ = messages;
  endResetModel();
}

int ScMessagesModel::errorCount() const {
  return int(std::count_if(messages_.begin(), messages_.end(),
                           [](const ScMessage& m) { return m.severity == Severity::Error; }));
}

int ScMessagesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(messages_.size());
}

QVariant ScMessagesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const ScMessage& m = messages_[size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole: {
      static const char* prefix[] = {"note: ", "warning: ", "error: "};
      return QString(QString::fromLatin1(prefix[int(m.severity)]) + m.text);
    }
    case Qt::ToolTipRole: return m.text;
    case Qt::ForegroundRole:
      if (m.severity == Severity::Error) return QBrush(QColor(0xc0, 0x39, 0x2b));
      if (m.severity == Severity::Warning) return QBrush(QColor(0x9a, 0x5b, 0x00));
      return {};
    case SeverityRole: return int(m.severity);
  }
  return {};
}

}  // namespace shardscope::scw
