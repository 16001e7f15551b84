// Errors, warnings and notes of the last SparseCore analysis (or the load
// error of a bad file) as a flat list; errors first, red.
#pragma once
#include <QAbstractListModel>
#include <vector>

#include "sc_document.h"

namespace shardscope::scw {

class ScMessagesModel : public QAbstractListModel {
  Q_OBJECT
 public:
  enum Roles {
    SeverityRole = Qt::UserRole,  // int(Severity)
  };
  explicit ScMessagesModel(QObject* parent = nullptr);
  void setMessages(const std::vector<ScMessage>& messages);  // a model reset
  const std::vector<ScMessage>& messages() const { return messages_; }
  int errorCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 private:
  std::vector<ScMessage> messages_;
};

}  // namespace shardscope::scw
