// The trace explorer panel: run propagation with a strategy (off the UI
// thread), then play / step / scrub through the recorded steps; each step
// is told in plain words, its factor table is shown before or after the
// step (per factor or per dimension), and the "Why" tab explains where a
// value's dimension got its axes. A "Compare" tab runs two strategies and
// lists the values whose sharding differs.
//
// Not the core widgets' TracePanel (widgets/trace_panel.h): this one lives
// in namespace shardscope::widgets::trace and owns its runner.
#pragma once
#include <QIcon>
#include <QStyle>
#include <QWidget>
#include <memory>

#include "propagation_runner.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace shardscope::widgets::trace {

class FactorTableModel;
class FactorTableView;
class StrategyCompareWidget;
class TracePlayer;
class TraceState;
class TraceStepModel;
class WhyPanel;

class TracePanel : public QWidget {
  Q_OBJECT
 public:
  explicit TracePanel(QWidget* parent = nullptr);

  TraceState* state() const { return state_; }
  TracePlayer* player() const { return player_; }
  PropagationRunner* runner() const { return runner_; }
  TraceStepModel* stepModel() const { return stepModel_; }
  FactorTableModel* factorModel() const { return factorModel_; }
  WhyPanel* whyPanel() const { return why_; }
  // The factor table's view (export names it "factors" when it has the focus).
  QWidget* factorTableWidget() const;
  StrategyCompareWidget* compareWidget() const { return compare_; }

  // The module to propagate (its text; a fresh parse is propagated).
  // Clears the current run.
  void setModuleText(const QString& text, const QString& fileName);
  Strategy strategy() const;
  void setStrategy(Strategy s);
  // The narration shown for the current step (plain text; as HTML, with
  // the theme's colours and no font of its own).
  QString narrationText() const;
  QString narrationHtml() const { return narrationHtml_; }
  // The same without its headline (the presentation caption shows it).
  QString narrationBodyHtml() const { return narrationBodyHtml_; }
  // The colour of the narration's secondary lines (context, rule) for a
  // palette: dimmer than the text, 4.5:1 at least on its base and window
  // colours. contrast() is WCAG's ratio of two colours (1 to 21).
  static QColor dimText(const QPalette& palette);
  static double contrast(const QColor& a, const QColor& b);
  // The current step in a few words ("tanh %3 (line 25)"), "" at the input.
  QString stepHeadline() const;
  // Whether the module can be propagated (no errors): Run and the hint follow.
  void setCanRun(bool can);
  // Runs are made elsewhere (the main window's one Propagate): Run asks for
  // one with runRequested instead of starting the panel's own runner.
  void setRunsElsewhere(bool on);

 public slots:
  // Run propagation with the chosen strategy (cancels a running one).
  void runPropagation();
  // Show a run computed elsewhere.
  void showRun(std::shared_ptr<const shardscope::widgets::trace::TraceRun> run);
  // Inspect op `opIndex` (pre-order in the run's input module) with its
  // shardings before the first step; the player moves to "input".
  void inspectOp(int opIndex);

 signals:
  // The current step changed: its op (pre-order index) and source line (0 unknown); step -1: the input.
  void stepSelected(int step, int opIndex, int line);
  void runFinished(std::shared_ptr<const shardscope::widgets::trace::TraceRun> run);
  // Run pressed with setRunsElsewhere(true).
  void runRequested(const shardscope::propagation::PropagationOptions& options);

 protected:
  void changeEvent(QEvent* e) override;
  // A standard media icon in the palette's button text colour.
  QIcon mediaIcon(QStyle::StandardPixmap which) const;
  void resizeEvent(QResizeEvent* e) override;

 private:
  // bodyHtml: the narration without its headline (null: html has none).
  void setNarration(const QString& html, const QString& bodyHtml = QString());
  // The narration pane as tall as its text (readable without dragging: it
  // had a fixed 2/5 of the column, about 4 lines at 1280x800), the factor
  // table keeping its rows up to four, down to two when the text needs the
  // height; moved only when the difference is half a line or more.
  void fitNarration();
  void updateControls();
  void updateNarration();
  void updateFactorTable();

  QString text_, fileName_;
  QString narrationHtml_, narrationBodyHtml_;
  bool canRun_ = true;
  bool runsElsewhere_ = false;
  TraceState* state_;
  TracePlayer* player_;
  PropagationRunner* runner_;
  TraceStepModel* stepModel_;
  FactorTableModel* factorModel_;

  QComboBox* strategy_;
  QPushButton* run_;
  QPushButton* cancel_;
  QLabel* status_;
  QToolButton* first_;
  QToolButton* prevRound_;
  QToolButton* prevStage_;
  QToolButton* back_;
  QToolButton* play_;
  QToolButton* forward_;
  QToolButton* nextStage_;
  QToolButton* nextRound_;
  QToolButton* last_;
  QSlider* slider_;
  QComboBox* speed_;
  QLabel* stepLabel_;
  QTableView* steps_;
  QTextBrowser* narration_;
  QToolButton* beforeAfter_;
  QToolButton* dims_;
  QLabel* tableTitle_;
  FactorTableView* table_;
  QTabWidget* tabs_;
  WhyPanel* why_;
  StrategyCompareWidget* compare_;
};

}  // namespace shardscope::widgets::trace
