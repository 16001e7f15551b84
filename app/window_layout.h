// The main window's size and dock layout.
//
// - The window fits the screen's available area (at most 1600x1000 on a
//   larger screen), also when a saved geometry came from a larger screen.
// - The default layout gives the bottom docks (narration, factor table, Why
//   panel, what-if) about 40% of the height and the source dock a readable
//   width; View > Reset Layout goes back to it.
// - The dock layout is saved on close and restored at start (QSettings,
//   versioned: layouts saved by older versions are ignored).
// - A "full-window" tab (SparseCore, the dump folder) hides the MLIR docks while it is
//   current and brings them back, as they were, when another tab is chosen.
#pragma once
#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>

class QDockWidget;
class QMainWindow;
class QSettings;
class QTabWidget;

namespace shardscope::app {

class WindowLayout : public QObject {
  Q_OBJECT
 public:
  // `window` with its docks already added; `tabs` is its central tab widget.
  WindowLayout(QMainWindow* window, QTabWidget* tabs);

  // The window's rectangle: `wanted` (a saved geometry, or empty for the
  // default size) moved and shrunk into `available`, but not below
  // `minimum` (what the docks need; then it only moves).
  static QRect fittedGeometry(const QRect& wanted, const QRect& available,
                              const QSize& minimum = {});
  // Default dock extents for a window of `size`: left, right widths and
  // bottom height.
  struct DockSizes {
    int left, right, bottom;
  };
  static DockSizes defaultDockSizes(const QSize& size);

  // Record the window's layout as built (before restore) as the default.
  void captureDefault();
  // Size the window to its screen, then restore the saved geometry and dock
  // state (if any, of this layout version); else apply the default sizes
  // once the window is shown.
  void restore(const QSettings& settings);
  // Save geometry and the MLIR dock layout (also while a full-window tab or
  // presentation mode hides the docks: `normalState` is then the layout to keep).
  void save(QSettings& settings, const QByteArray& normalState = {}) const;
  // View > Reset Layout: every dock back where it starts, default sizes.
  void reset();
  // Apply the default dock sizes for the window's current size.
  void applyDefaultSizes();

  // While `page` is current in the tabs, the MLIR docks are hidden (the
  // SparseCore tab, the dump folder); several pages may be so.
  void setFullWindowPage(QWidget* page);
  bool isFullWindowPageCurrent() const;
  // The dock layout to keep: the current one, or the one a full-window page hid.
  QByteArray mlirState() const;

  static constexpr int kStateVersion = 2;

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void onTabChanged();
  QMainWindow* window_;
  QTabWidget* tabs_;
  QByteArray default_;
  QByteArray pendingState_;  // restored again once the window is shown
  bool pendingDefaultSizes_ = false;
  QList<QPointer<QWidget>> fullPages_;
  QByteArray hiddenState_;  // the layout while the full page is shown
  QList<QPointer<QDockWidget>> hiddenDocks_;
};

}  // namespace shardscope::app
