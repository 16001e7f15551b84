// The propagation trace panel: run propagation (level chooser + Propagate),
// then step through the recorded steps with a slider, buttons or Play; the
// table lists every step (op, axes moved, new shardings). The panel only
// asks: the main window runs propagation off the UI thread and shows the
// module as it was after the chosen step; graph, tree and mesh views follow.
#pragma once
#include <QWidget>
#include <memory>

#include "api/propagate.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableView;
class QTimer;
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
  propagation::PropagationOptions options() const;

 public slots:
  void setStep(int stepsApplied);
  void play();

 signals:
  void propagateRequested(const shardscope::propagation::PropagationOptions& options);
  // Show the module after `stepsApplied` steps (step `stepsApplied - 1` is the one just done).
  void stepRequested(int stepsApplied);

 private:
  void updateLabel();

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
  QTimer* timer_;
};

}  // namespace shardscope::widgets
