// Help > Guided Tour and Help > Keyboard Shortcuts.
//
// The tour is a short, non-modal walk through the window: each step says
// where to look and what to try, and can do it ("Show me": open a sample,
// propagate, raise a dock). The shortcuts list is read from the menu bar's
// actions (never out of date) plus the keys of the views themselves.
#pragma once
#include <QDialog>
#include <QList>
#include <QString>
#include <functional>

class QLabel;
class QMenuBar;
class QPushButton;

namespace shardscope::app {

struct TourStep {
  QString title;
  QString html;                  // what to look at and try
  QString actionLabel;           // "Open the sample", empty: no action
  std::function<void()> action;  // run by the step's action button
};

class GuidedTour : public QDialog {
  Q_OBJECT
 public:
  GuidedTour(QList<TourStep> steps, QWidget* parent = nullptr);
  int currentStep() const { return current_; }
  int stepCount() const { return static_cast<int>(steps_.size()); }
  void showStep(int index);
  // The step's action (what its "Show me" button does).
  void runAction();

 private:
  QList<TourStep> steps_;
  int current_ = 0;
  QLabel* heading_;
  QLabel* body_;
  QPushButton* back_;
  QPushButton* next_;
  QPushButton* act_;
};

// Rows of (keys, what they do): the menu bar's actions with shortcuts, in
// menu order ("File", "Open…", "Ctrl+O"), then the views' own keys.
struct ShortcutRow {
  QString menu, action, keys;
};
QList<ShortcutRow> keyboardShortcuts(const QMenuBar* menuBar);
// The rows as an HTML table (the dialog's text, also for tests).
QString keyboardShortcutsHtml(const QList<ShortcutRow>& rows);
// A dialog listing keyboardShortcuts(menuBar).
void showKeyboardShortcuts(QWidget* parent, const QMenuBar* menuBar);

}  // namespace shardscope::app
