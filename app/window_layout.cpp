#include "window_layout.h"

#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <utility>

namespace shardscope::app {

namespace {
const char* const kGeometryKey = "geometry";
const char* const kStateKey = "windowState";
// The largest default window: room for the graph, source and bottom docks
// without stretching a sample's few nodes over a wall-sized screen.
constexpr int kDefaultWidth = 1600, kDefaultHeight = 1000;
}  // namespace

WindowLayout::WindowLayout(QMainWindow* window, QTabWidget* tabs)
    : QObject(window), window_(window), tabs_(tabs) {
  connect(tabs_, &QTabWidget::currentChanged, this, &WindowLayout::onTabChanged);
}

QRect WindowLayout::fittedGeometry(const QRect& wanted, const QRect& available,
                                   const QSize& minimum) {
  if (available.isEmpty()) return wanted;
  QRect r = wanted.isValid() ? wanted : QRect(QPoint(), QSize(kDefaultWidth, kDefaultHeight));
  r.setWidth(
      std::max(std::min(r.width(), available.width()), std::min(r.width(), minimum.width())));
  r.setHeight(
      std::max(std::min(r.height(), available.height()), std::min(r.height(), minimum.height())));
  if (!wanted.isValid()) r.moveCenter(available.center());
  // Inside the available area (a geometry saved on another screen); the
  // top left corner first when it is larger.
  r.moveLeft(std::max(available.left(), std::min(r.left(), available.right() - r.width() + 1)));
  r.moveTop(std::max(available.top(), std::min(r.top(), available.bottom() - r.height() + 1)));
  return r;
}

WindowLayout::DockSizes WindowLayout::defaultDockSizes(const QSize& size) {
  // Bottom: ~40% of the height, so that the narration, the factor table and
  // the Why panel each show several lines (at 800 px: 300 px; at 1000: 390).
  const int bottom = std::clamp(size.height() * 2 / 5, 240, 520);
  const int left = std::clamp(size.width() * 3 / 20, 200, 320);
  const int right = std::clamp(size.width() / 4, 300, 520);
  return {left, right, bottom};
}

namespace {
// A dock in the bottom area has its title bar on its left side, vertical:
// that area is short and wide (a third of an 800-pixel window for the
// narration, the factor table and the Why panel side by side), and the
// title's 22 px of height were a line of narration or a factor-table row.
// The tabs under the area name the docks anyway. Elsewhere, and floating,
// the title is on top.
void orientTitleBar(QMainWindow* window, QDockWidget* dock) {
  const bool vertical = !dock->isFloating() && window->dockWidgetArea(dock) == Qt::BottomDockWidgetArea;
  if (dock->features().testFlag(QDockWidget::DockWidgetVerticalTitleBar) != vertical)
    dock->setFeatures(dock->features().setFlag(QDockWidget::DockWidgetVerticalTitleBar, vertical));
}
}  // namespace

void WindowLayout::captureDefault() {
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
    orientTitleBar(window_, dock);
    connect(dock, &QDockWidget::dockLocationChanged, dock, [this, dock] { orientTitleBar(window_, dock); });
    connect(dock, &QDockWidget::topLevelChanged, dock, [this, dock] { orientTitleBar(window_, dock); });
  }
  default_ = window_->saveState(kStateVersion);
  // A dock pulled out of the window becomes a window of its own, kept on
  // its screen: it floated at its docked size (the Communication dock as
  // wide as the whole window, its cause column past the screen's edge).
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
    connect(dock, &QDockWidget::topLevelChanged, dock, [dock](bool floating) {
      if (!floating) return;
      // After Qt has placed it (undocking sets the geometry after the signal).
      QTimer::singleShot(0, dock, [dock] {
        if (!dock->isFloating()) return;
        const QScreen* screen = dock->screen() ? dock->screen() : QGuiApplication::primaryScreen();
        if (!screen) return;
        const QRect available = screen->availableGeometry();
        const QSize least = dock->minimumSizeHint();
        QSize size(std::min(dock->width(), available.width() * 2 / 3),
                   std::clamp(dock->height(), std::min(360, available.height() / 2), available.height() * 2 / 3));
        size = size.expandedTo(least).boundedTo(available.size());
        // The frame (a window manager's title and border) inside the screen too.
        const QRect frame = dock->frameGeometry(), inner = dock->geometry();
        const QMargins m(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                         frame.bottom() - inner.bottom());
        const QRect fitted = fittedGeometry(QRect(frame.topLeft(), size.grownBy(m)), available, least.grownBy(m));
        dock->setGeometry(fitted.marginsRemoved(m));
      });
    });
  }
}

void WindowLayout::restore(const QSettings& settings) {
  const QScreen* screen = window_->screen() ? window_->screen() : QGuiApplication::primaryScreen();
  const QRect available = screen ? screen->availableGeometry() : QRect();
  const QByteArray geometry = settings.value(QLatin1String(kGeometryKey)).toByteArray();
  const QByteArray state = settings.value(QLatin1String(kStateKey)).toByteArray();
  QRect wanted;
  if (!geometry.isEmpty() && window_->restoreGeometry(geometry)) wanted = window_->geometry();
  window_->setGeometry(fittedGeometry(wanted, available, window_->minimumSizeHint()));
  // The docks now (which are shown, where), their sizes again once the
  // window is shown: before, the main window's layout has no size yet and
  // gives the bottom docks what the centre does not take.
  if (!state.isEmpty() && window_->restoreState(state, kStateVersion))
    pendingState_ = state;
  else
    pendingDefaultSizes_ = true;
  window_->installEventFilter(this);
}

bool WindowLayout::eventFilter(QObject* watched, QEvent* e) {
  if (watched == window_ && e->type() == QEvent::Show) {
    window_->removeEventFilter(this);
    const QByteArray state = std::exchange(pendingState_, {});
    const bool defaults = std::exchange(pendingDefaultSizes_, false);
    if (!state.isEmpty())
      QTimer::singleShot(0, this, [this, state] { window_->restoreState(state, kStateVersion); });
    else if (defaults)
      QTimer::singleShot(0, this, &WindowLayout::applyDefaultSizes);
  }
  return QObject::eventFilter(watched, e);
}

void WindowLayout::save(QSettings& settings, const QByteArray& normalState) const {
  settings.setValue(QLatin1String(kGeometryKey), window_->saveGeometry());
  settings.setValue(QLatin1String(kStateKey), normalState.isEmpty() ? mlirState() : normalState);
}

QByteArray WindowLayout::mlirState() const {
  return isFullWindowPageCurrent() && !hiddenState_.isEmpty() ? hiddenState_
                                                              : window_->saveState(kStateVersion);
}

void WindowLayout::reset() {
  hiddenState_.clear();
  hiddenDocks_.clear();
  if (!default_.isEmpty()) window_->restoreState(default_, kStateVersion);
  if (isFullWindowPageCurrent()) onTabChanged();
  applyDefaultSizes();
}

void WindowLayout::applyDefaultSizes() {
  const DockSizes s = defaultDockSizes(window_->size());
  QList<QDockWidget*> left, right, bottom;
  for (QDockWidget* d : window_->findChildren<QDockWidget*>()) {
    if (d->isHidden() || d->isFloating()) continue;
    switch (window_->dockWidgetArea(d)) {
      case Qt::LeftDockWidgetArea:
        left << d;
        break;
      case Qt::RightDockWidgetArea:
        right << d;
        break;
      case Qt::BottomDockWidgetArea:
        bottom << d;
        break;
      default:
        break;
    }
  }
  // One size per area is enough: tabified docks share it.
  QList<QDockWidget*> horizontal;
  QList<int> widths;
  if (!left.isEmpty()) horizontal << left.front(), widths << s.left;
  if (!right.isEmpty()) horizontal << right.front(), widths << s.right;
  if (!horizontal.isEmpty()) window_->resizeDocks(horizontal, widths, Qt::Horizontal);
  if (!bottom.isEmpty()) window_->resizeDocks({bottom.front()}, {s.bottom}, Qt::Vertical);
}

void WindowLayout::setFullWindowPage(QWidget* page) {
  if (!page || fullPages_.contains(page)) return;
  fullPages_ << page;
  onTabChanged();
}

bool WindowLayout::isFullWindowPageCurrent() const {
  QWidget* current = tabs_->currentWidget();
  return current && fullPages_.contains(current);
}

void WindowLayout::onTabChanged() {
  if (isFullWindowPageCurrent()) {
    if (!hiddenDocks_.isEmpty()) return;  // already hidden
    hiddenState_ = window_->saveState(kStateVersion);
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
      if (d->isVisible() && !d->isFloating()) {
        hiddenDocks_ << d;
        d->hide();
      }
    return;
  }
  if (hiddenDocks_.isEmpty() && hiddenState_.isEmpty()) return;
  for (const QPointer<QDockWidget>& d : hiddenDocks_)
    if (d) d->show();
  hiddenDocks_.clear();
  if (!hiddenState_.isEmpty()) window_->restoreState(hiddenState_, kStateVersion);
  hiddenState_.clear();
}

}  // namespace shardscope::app
