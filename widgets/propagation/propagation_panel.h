// The propagation trace panel: run propagation (level chooser + Propagate),
// then step through the recorded steps with a slider, buttons or Play; the
// table lists every step (op, axes moved, new shardings). The panel is a
// view of the window's one timeline (DocumentState::stepsApplied): its
// controls move it, and it follows it when anything else moves it. The
// main window runs propagation off the UI thread and owns the one player
// (Play asks it, setPlaying shows its state).
#pragma once
#include <QWidget>
#include <memory>

#include "api/propagate.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableView;
class QToolButton;

namespace shardscope::widgets {

class DocumentState;
class PropagationStepModel;

class PropagationPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PropagationPanel(DocumentState* state, QWidget* parent = nullptr);

  PropagationStepModel* model() const { return model_; }
  // Show a finished run (nullptr clears) and move to its last step.
  void setRun(std::shared_ptr<const api::PropagationRun> run);
  // While propagation runs: disable the controls and say so.
  void setBusy(const QString& message);
  // Steps applied in the current view (0..steps).
  int currentStep() const;
  // Show whether the window's player is playing (no signal).
  void setPlaying(bool on);
  propagation::PropagationOptions options() const;

 public slots:
  // Move the timeline to `stepsApplied` (step `stepsApplied - 1` is the one just done).
  void setStep(int stepsApplied);

 signals:
  void propagateRequested(const shardscope::propagation::PropagationOptions& options);
  // The Play button: start or pause the window's player.
  void playToggled(bool play);

 private:
  void updateLabel();
  void showStep(int stepsApplied);

  DocumentState* state_;
  PropagationStepModel* model_;
  QComboBox* level_;
  QPushButton* propagate_;
  QLabel* status_;
  QSlider* slider_;
  QToolButton* first_;
  QToolButton* prev_;
  QToolButton* next_;
  QToolButton* last_;
  QToolButton* play_;
  QLabel* stepLabel_;
  QTableView* table_;
};

}  // namespace shardscope::widgets
