// A dump folder as a timeline (File > Open Dump Folder): the dumps in the
// order they were written on top, and below what changed from the previous
// dump to the selected one (a line diff computed off the UI thread). "Open
// this dump" asks the main window to open the selected file.
#pragma once
#include <QFutureWatcher>
#include <QWidget>

#include "api/dump_folder.h"

class QLabel;
class QPushButton;
class QTableView;

namespace shardscope::widgets {

class DumpDiffView;
class DumpTimelineModel;

class DumpFolderView : public QWidget {
  Q_OBJECT
 public:
  explicit DumpFolderView(QWidget* parent = nullptr);
  ~DumpFolderView() override;

  // Lists `folder`; false with `error` (and nothing changed) when it holds
  // no dumps. Selects the second dump so its diff shows.
  bool setFolder(const QString& folder, QString* error);
  QString folder() const { return folder_; }
  int dumpCount() const;
  void selectDump(int row);
  DumpTimelineModel* model() const { return model_; }
  DumpDiffView* diffView() const { return diff_; }

 signals:
  void openDumpRequested(const QString& path);
  // Emitted when the diff of the selected dump is shown (tests wait on it).
  void diffShown(int row);

 private:
  struct DiffResult {
    int row = -1;
    unsigned request = 0;
    QString title;
    api::LineDiff diff;
    QString error;
  };
  void showSelected();

  QString folder_;
  QLabel* header_ = nullptr;
  QTableView* table_ = nullptr;
  DumpTimelineModel* model_ = nullptr;
  DumpDiffView* diff_ = nullptr;
  QPushButton* open_ = nullptr;
  QFutureWatcher<DiffResult> watcher_;
  unsigned request_ = 0;
};

}  // namespace shardscope::widgets
