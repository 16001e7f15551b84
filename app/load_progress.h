// The status bar's progress of a long job (opening a file: reading,
// parsing, verifying, preparing the views; a propagation: its reads and
// passes): a bar in per mille and Cancel. Hidden when nothing runs. Esc cancels too, but only while it is shown, so
// Esc keeps its other uses (leaving presentation mode, closing a search).
//
//   auto* p = new LoadProgress(window);
//   statusBar()->addPermanentWidget(p);
//   p->start(tr("Opening big.mlir"));             // shown, bar at 0
//   connect(&watcher, &QFutureWatcher<T>::progressValueChanged, p, &LoadProgress::setValue);
//   connect(p, &LoadProgress::cancelRequested, &watcher, &QFutureWatcher<T>::cancel);
//   p->stop();                                    // hidden again
#pragma once
#include <QWidget>

class QProgressBar;
class QPushButton;
class QShortcut;

namespace shardscope::app {

class LoadProgress : public QWidget {
  Q_OBJECT
 public:
  // Values of the bar: 0 .. kRange.
  static constexpr int kRange = 1000;
  explicit LoadProgress(QWidget* window);
  void start(const QString& what);
  void setValue(int value);
  void stop();
  bool isActive() const { return !isHidden(); }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  void cancelRequested();

 private:
  QProgressBar* bar_;
  QPushButton* cancel_;
  QShortcut* escape_;
};

}  // namespace shardscope::app
