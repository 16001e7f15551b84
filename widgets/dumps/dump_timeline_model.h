// The files of a dump folder in timeline order (api::listDumpFolder), one
// row each: step, stage and size. Example row: "02  after_propagation  14 KB".
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "api/dump_folder.h"

namespace shardscope::widgets {

class DumpTimelineModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Step, Stage, Size, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  void setFiles(std::vector<api::DumpFile> files);
  const api::DumpFile* file(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<api::DumpFile> files_;
};

}  // namespace shardscope::widgets
