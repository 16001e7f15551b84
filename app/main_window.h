// The Shardscope main window: op tree (left), graph and mesh tabs (centre),
// source (right, editable), diagnostics, the propagation trace and the
// what-if diff (bottom). Files and edited text are parsed off the UI thread;
// request counters drop stale loads and re-runs. The implementation is split
// by concern over main_window*.cpp (see the list in main_window.cpp).
#pragma once
#include <QFont>
#include <QFutureWatcher>
#include <QHash>
#include <QMainWindow>
#include <QStringList>
#include <QTimer>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "api/communication_diff.h"
#include "api/document.h"
#include "api/propagate.h"
#include "api/sharding_timeline.h"
#include "core/theme_palette.h"

class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace shardscope::widgets {
class DiagnosticsModel;
class DocumentState;
class GraphView;
class MeshView;
class OpTreeModel;
class SourceView;
class PropagationPanel;
class WhatIfPanel;
class DumpFolderView;
}  // namespace shardscope::widgets
namespace shardscope::widgets::trace {
struct TraceRun;
}  // namespace shardscope::widgets::trace
namespace shardscope::widgets::comm {
class CommunicationPanel;
}  // namespace shardscope::widgets::comm
namespace shardscope::scw {
class SparseCoreWorkspace;
}  // namespace shardscope::scw

namespace shardscope::app {

class LoadProgress;
class PresentationCaption;
class WindowLayout;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QString sampleDir, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Open `path` (asynchronously, progress and Cancel in the status bar);
  // `loaded` is emitted when it is shown, `loadCancelled` when Cancel or Esc
  // stopped it (the document shown before stays).
  void openFile(const QString& path);
  // A file is being read / a propagation runs (Propagate, Ctrl+P): the
  // status bar shows its progress and Cancel.
  bool isLoading() const { return busy_ == Busy::Loading; }
  bool isPropagating() const { return busy_ == Busy::Propagating; }
  // Stop the file being read or the propagation running (Cancel, Esc);
  // nothing when neither is.
  void cancelLoading();
  LoadProgress* loadProgress() const { return loadProgress_; }
  widgets::DocumentState* state() const { return state_; }
  widgets::GraphView* graphView() const { return graph_; }
  // After the next load (and graph layout), grab the window to `path` and quit.
  void screenshotAndQuit(const QString& path, const QString& tab = {});
  // Propagate every loaded document right away (and step to the end).
  void setAutoPropagate(const propagation::PropagationOptions& options) {
    autoPropagate_ = options;
  }

  widgets::SourceView* sourceView() const { return source_; }
  // The Communication dock's panel.
  widgets::comm::CommunicationPanel* communicationPanel() const { return commPanel_; }
  // A document is being shown: stages deferred to later event-loop turns
  // (so that none blocks the UI thread for long) are still pending.
  bool isOpening() const { return !openStages_.empty(); }
  widgets::WhatIfPanel* whatIfPanel() const { return whatIf_; }

  // What-if: apply the source view's text. It is re-parsed off the UI
  // thread; with errors the diagnostics are shown and the text is kept
  // (whatIfFinished(false)); otherwise it is propagated (the previous run's
  // options, else the panel's level), diffed against the previous run and
  // the changed values are published in DocumentState (whatIfFinished(true)).
  void applySourceEdits();
  // Write the source view's text to `path` with QSaveFile. On failure the
  // buffer is kept and `error` says why. Does not ask anything.
  bool saveSourceTo(const QString& path, QString* error = nullptr);
  // The source view holds text not yet saved.
  bool isSourceModified() const;

  // Presentation mode (View > Presentation Mode, F11): docks hidden, fonts
  // 1.6x (never smaller), full screen, the step's caption and narration
  // large under the graph; leaving restores the layout.
  void setPresentationMode(bool on);
  bool isPresentationMode() const { return presentation_; }
  // View > Reset Layout: every dock where it starts, default sizes for the
  // window's size (the bottom docks ~40% of the height).
  void resetLayout();
  // The status bar's text (the file, its ops, its errors).
  QString statusText() const;
  // Show `message` in the status bar for `ms` milliseconds, in place of
  // the file's status (never on top of it).
  void showStatusMessage(const QString& message, int ms);
  // Light or dark palette for the application (View > Theme), kept in QSettings.
  void setTheme(widgets::Theme theme);
  widgets::Theme theme() const { return theme_; }

  // --- Export (main_window_export.cpp) ------------------------------------
  // Views by their `shardscope --export --view` names: graph, mesh, source,
  // comm, factors, trace, why, sc-load, sc-spmem, sc-hbm, sc-pipeline,
  // sc-ids, sc-stats; and compare (the Compare Strategies result, GUI only).
  // The one Ctrl+E exports: the centre tab shown, or the source, the
  // Communication dock or the trace explorer's factor table / Why tab /
  // strategy comparison / trace when the keyboard focus went there since.
  QString currentExportView() const;
  // Write `view` as shown now to `path` (.png/.svg/.pdf). False with `error`.
  bool exportViewTo(const QString& view, const QString& path, QString* error,
                    QString* title = nullptr);
  // Asks where to save (caption, suggested path; "" cancels). Default: a
  // file dialog; tests answer without one.
  using SavePathChooser = std::function<QString(const QString&, const QString&)>;
  void setSavePathChooser(SavePathChooser chooser);

  // File > Open Dump Folder (main_window_dumps.cpp): the folder's module
  // dumps as a timeline in the "Dump folder" tab, with the diff between
  // neighbours; "Open this dump" opens one here. False with `error` (shown
  // in the status bar too) when the folder holds no dumps.
  bool openDumpFolder(const QString& folder, QString* error = nullptr);
  widgets::DumpFolderView* dumpFolderView() const { return dumpView_; }

 signals:
  void loaded(bool ok);
  void loadCancelled(const QString& path);
  // A propagation was stopped by Cancel or Esc: the previous run (if any) stays.
  void propagationCancelled();
  // A what-if re-run finished: false when the edited text has errors.
  void whatIfFinished(bool ok);
  // A view was exported from the GUI to `path`, with this title.
  void viewExported(const QString& view, const QString& path, const QString& title);
  void exportFailed(const QString& view, const QString& error);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  // The views and docks (main_window_docks.cpp): the centre tabs, then the
  // op tree (left), the source (right), the bottom docks; each returns its
  // dock (the bottom one: diagnostics) for the first sizes.
  void createCentre();
  QDockWidget* createOpTreeDock();
  QDockWidget* createSourceDock();
  QDockWidget* createBottomDocks();
  void createActions();
  // Geometry, dock layout and theme from QSettings (closeEvent saves them).
  void restoreSettings();
  void showDocument(std::shared_ptr<const api::Document> doc);
  void onLoaderFinished();
  void onPropagatorFinished();
  // "113 MB", "4 kB": a file's size in the status bar.
  static QString fileSizeText(qint64 bytes);
  // Run `stage` in a later event-loop turn, after the stages queued before
  // it, one per turn (see showDocument); dropped by the next showDocument.
  void queueOpenStage(const char* name, std::function<void()> stage);
  void runOpenStage();
  // The op tree: functions expanded, column widths, current row following
  // the selection.
  void expandTree();
  void fitTreeColumns();
  void syncTreeToSelection();
  void openDialog();
  void openDumpFolderDialog();
  // File > Export Picture and Export View.
  void createExportActions(QMenu* file);
  // Ask where, then export `view` ("" : currentExportView()).
  void exportDialog(const QString& view);
  void saveSource();
  bool saveSourceAs();
  // Ask about unsaved edits: false when the user cancels.
  bool maybeDiscardEdits();
  // A finished run and what the views need to show it, made off the UI
  // thread: the timeline's private document and the explorer's view of it.
  struct PreparedRun {
    std::shared_ptr<const api::PropagationRun> run;
    std::shared_ptr<api::SteppedRun> stepped;  // null when the run failed
    std::shared_ptr<const widgets::trace::TraceRun> explorerRun;
  };
  static PreparedRun prepareRun(const std::shared_ptr<const api::Document>& input,
                                std::shared_ptr<const api::PropagationRun> run);
  // Show a run on the one timeline (at its last step). `selectLastStep`:
  // select the op of the last step (a what-if re-run keeps the selection).
  void showRun(const PreparedRun& prepared, bool selectLastStep);
  struct WhatIfResult {
    std::shared_ptr<api::Document> doc;                      // the edited text, parsed
    std::shared_ptr<const api::PropagationRun> baseline, run;  // previous run, re-run
    PreparedRun prepared;                                     // the re-run, to show
    std::optional<api::CommunicationDiff> comm;               // collectives, previous -> re-run
  };
  void showWhatIf(const WhatIfResult& result);
  // Forget the last what-if re-run (its changed values, their marks and its
  // change in collectives): the document or the run it was of is gone.
  void clearWhatIfResults();
  void selectValueByKey(const QString& key);
  void selectOpByPreOrder(int opIndex);
  void updateTitle(const QString& suffix = {});
  void reload();
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void rebuildSampleMenu();
  // Help > Guided Tour (help_dialogs.h): a short walk that can act.
  void showGuidedTour();
  void updateStatus();
  // What `doc`'s errors are called ("parse error", ...: api::loadStageName).
  static QString errorName(const api::Document& doc);
  void onTreeActivated(const QModelIndex& index);
  void onDiagnosticActivated(const QModelIndex& index);
  void fillValueCombo();
  void startPropagation(const propagation::PropagationOptions& options);
  // The timeline moved: the step's op selected, its line shown, its axes
  // sent through the graph, the title.
  void onStepChanged(int stepsApplied, int previous);
  void updateStepTitle();
  // The presentation caption: the timeline's place and the step's narration.
  void updatePresentationCaption();
  // The document can be propagated (a module without errors); the
  // Propagation menu's actions and the hints follow it.
  bool canPropagate() const;
  void updatePropagationActions();
  // Combo entries of values whose sharding changed.
  void updateComboTexts(const api::TimelineChanges& changes);
  // The combo shows `value`: its entry, or a transient one when the list
  // stops before it.
  void showValueInCombo(const ir::Value* value);

  QString sampleDir_;
  widgets::DumpFolderView* dumpView_ = nullptr;
  widgets::DocumentState* state_;
  widgets::OpTreeModel* treeModel_;
  QSortFilterProxyModel* treeProxy_;
  widgets::DiagnosticsModel* diagModel_;
  QSortFilterProxyModel* diagProxy_;
  QTreeView* tree_;
  QLineEdit* treeFilter_;
  QTableView* diagView_;
  QTabWidget* tabs_;
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  scw::SparseCoreWorkspace* scWorkspace_ = nullptr;
  QWidget* scPage_ = nullptr;  // its tab: the workspace in a scroll area
#endif
  widgets::GraphView* graph_;
  widgets::MeshView* mesh_;
  widgets::SourceView* source_;
  widgets::PropagationPanel* trace_;
  widgets::WhatIfPanel* whatIf_;
  widgets::comm::CommunicationPanel* commPanel_ = nullptr;
  QFutureWatcher<WhatIfResult> whatIfWatcher_;
  quint64 whatIfRequest_ = 0;
  bool presentation_ = false;
  QByteArray normalState_;
  Qt::WindowStates normalWindowState_;
  widgets::Theme theme_ = widgets::Theme::Light;
  QAction* presentationAction_ = nullptr;
  QAction* propagateAction_ = nullptr;
  QList<QAction*> stepActions_;  // need a run: step, replay
  WindowLayout* layout_ = nullptr;
  PresentationCaption* caption_ = nullptr;
  QWidget* explorer_ = nullptr;  // widgets/trace TracePanel when built with it
  QLabel* statusLabel_;
  // The selected op's Python line and name scope (api/op_source.h), at the
  // right of the status bar; empty when the op has no location.
  QLabel* opSourceLabel_;
  void updateOpSource();
  QTimer statusMessageTimer_;  // while running, statusLabel_ shows a message
  QComboBox* valueCombo_;
  QHash<const ir::Value*, int> comboRows_;  // the values listed, by row
  int comboTransientRow_ = -1;             // a selected value past the list's end
  QMenu* recentMenu_ = nullptr;
  QMenu* sampleMenu_ = nullptr;
  // A document read off the UI thread, with its op count (the status bar's).
  struct Loaded {
    std::shared_ptr<api::Document> doc;
    int ops = 0;
  };
  QFutureWatcher<Loaded> loader_;
  // The ops (in functions) of the module the status bar counted last:
  // counting a million ops is not done on the UI thread for every message.
  // (Held weakly: a freed document's address may come back for another.)
  mutable std::weak_ptr<const api::Document> countedDoc_;
  mutable int countedOps_ = 0;
  // The ops in `module`'s functions.
  static int functionOpCount(const ir::Module& module);
  LoadProgress* loadProgress_ = nullptr;
  // What the status bar's progress follows.
  enum class Busy { None, Loading, Propagating };
  Busy busy_ = Busy::None;
  QFutureWatcher<PreparedRun> propagator_;
  quint64 propagateRequest_ = 0;
  // The document as loaded (propagation steps are shown as other versions).
  std::shared_ptr<const api::Document> original_;
  std::shared_ptr<const api::PropagationRun> run_;
  quint64 loadRequest_ = 0;
  // Deferred stages of showDocument, run one per event-loop turn.
  struct OpenStage {
    const char* name;
    std::function<void()> run;
  };
  std::deque<OpenStage> openStages_;
  QTimer openStageTimer_;
  QString loadingPath_;
  std::optional<propagation::PropagationOptions> autoPropagate_;
  // Where the keyboard focus went last, for Ctrl+E.
  enum class ExportFocus { Centre, Source, Explorer, Communication };
  ExportFocus exportFocus_ = ExportFocus::Centre;
  SavePathChooser savePathChooser_;
  QString screenshotPath_;
  QString screenshotTab_;
};

// The directory of the bundled samples next to the executable
// (../../sample_models in the build tree, ../share/shardscope/sample_models
// when installed), else the source tree's.
QString findSampleDir();

}  // namespace shardscope::app
