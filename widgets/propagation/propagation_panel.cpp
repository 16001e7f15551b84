#include "propagation/propagation_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/document_state.h"
#include "core/step_words.h"
#include "propagation/propagation_step_model.h"

namespace shardscope::widgets {

PropagationPanel::PropagationPanel(DocumentState* state, QWidget* parent)
    : QWidget(parent),
      state_(state),
      model_(new PropagationStepModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Level:"), this));
  level_ = new QComboBox(this);
  level_->setObjectName(QStringLiteral("propagationLevel"));
  // The command line's level names (shardscope --propagate LEVEL); the
  // first, the whole -sdy-propagation-pipeline, is the default.
  for (propagation::PropagationLevel l : api::propagationLevels())
    level_->addItem(QString::fromLatin1(api::levelName(l)), int(l));
  level_->setItemData(0,
                      tr("What shardscope-opt -sdy-propagation-pipeline does: import passes "
                         "(data-flow edges, calls), user-priority propagation, export passes"),
                      Qt::ToolTipRole);
  level_->setCurrentIndex(0);
  top->addWidget(level_);
  propagate_ = new QPushButton(tr("Propagate"), this);
  propagate_->setToolTip(tr("Run sharding propagation and record every step (Ctrl+P)"));
  top->addWidget(propagate_);
  status_ = new QLabel(this);
  top->addWidget(status_, 1);
  layout->addLayout(top);

  auto* steps = new QHBoxLayout;
  auto button = [&](const QString& text, const QString& tip,
                    QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    if (icon != QStyle::SP_CustomBase) b->setIcon(style()->standardIcon(icon));
    steps->addWidget(b);
    return b;
  };
  first_ =
      button(tr("First"), tr("Before the first step (the input)"), QStyle::SP_MediaSkipBackward);
  prev_ = button(tr("Back"), tr("Previous step (Alt+Left)"), QStyle::SP_MediaSeekBackward);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  steps->addWidget(slider_, 1);
  next_ = button(tr("Next"), tr("Next step (Alt+Right)"), QStyle::SP_MediaSeekForward);
  last_ = button(tr("Last"), tr("After the last step (the result)"), QStyle::SP_MediaSkipForward);
  play_ = button(tr("Play"), tr("Replay the steps one by one (the trace explorer's speed)"),
                 QStyle::SP_MediaPlay);
  play_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  play_->setCheckable(true);
  stepLabel_ = new QLabel(this);
  stepLabel_->setMinimumWidth(160);
  steps->addWidget(stepLabel_);
  layout->addLayout(steps);

  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_, 1);

  connect(propagate_, &QPushButton::clicked, this, [this] { emit propagateRequested(options()); });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    state_->setStepsApplied(v);
    showStep(state_->stepsApplied());  // also when the state has no such step
  });
  connect(table_, &QTableView::clicked, this,
          [this](const QModelIndex& i) { setStep(i.row() + 1); });
  connect(first_, &QToolButton::clicked, this, [this] { setStep(0); });
  connect(prev_, &QToolButton::clicked, this, [this] { setStep(slider_->value() - 1); });
  connect(next_, &QToolButton::clicked, this, [this] { setStep(slider_->value() + 1); });
  connect(last_, &QToolButton::clicked, this, [this] { setStep(slider_->maximum()); });
  connect(play_, &QToolButton::clicked, this, [this](bool on) { emit playToggled(on); });
  connect(state_, &DocumentState::stepChanged, this, &PropagationPanel::showStep);
  connect(state_, &DocumentState::documentChanged, this, [this] {
    // A freshly loaded document (not a step of the current run) clears the run.
    const auto& run = model_->run();
    if (!run) propagate_->setEnabled(state_->module() && !state_->document()->hasErrors());
  });
  setRun(nullptr);
}

propagation::PropagationOptions PropagationPanel::options() const {
  propagation::PropagationOptions o;
  o.level = static_cast<propagation::PropagationLevel>(level_->currentData().toInt());
  return o;
}

void PropagationPanel::setRun(std::shared_ptr<const api::PropagationRun> run) {
  setPlaying(false);
  model_->setRun(run);
  const int n = run ? static_cast<int>(run->trace.steps.size()) : 0;
  for (QWidget* w :
       {static_cast<QWidget*>(slider_), static_cast<QWidget*>(first_), static_cast<QWidget*>(prev_),
        static_cast<QWidget*>(next_), static_cast<QWidget*>(last_), static_cast<QWidget*>(play_)})
    w->setEnabled(n > 0);
  const auto& doc = state_->document();
  const bool canPropagate = state_->module() && doc && !doc->hasErrors();
  propagate_->setEnabled(canPropagate);
  level_->setEnabled(true);
  if (run) level_->setCurrentIndex(level_->findData(int(run->options.level)));
  if (!run) {
    // The hint never offers what the disabled button cannot do.
    if (canPropagate)
      status_->setText(tr("Propagate to record a trace, then step through it."));
    else if (doc && doc->hasErrors())
      status_->setText(tr("Cannot propagate: fix the %n error(s) listed under Diagnostics first.",
                          "", doc->errorCount()));
    else
      status_->setText(tr("Open a module to propagate it."));
  } else if (!run->ok) {
    QStringList msgs;
    for (const auto& d : run->diagnostics) msgs << QString::fromStdString(d.message);
    status_->setText(tr("<span style='color:#c01c28'>Propagation failed:</span> %1")
                         .arg(msgs.join(QStringLiteral("; ")).toHtmlEscaped()));
  } else {
    status_->setText(tr("%1 propagation: %2 step(s)")
                         .arg(QString::fromLatin1(api::levelName(run->options.level)))
                         .arg(n));
  }
  {
    QSignalBlocker block(slider_);
    slider_->setRange(0, n);
  }
  // The step the window's timeline is at when it shows this run, else the end.
  const api::SteppedRun* shown = state_->steppedRun();
  showStep(shown && shown->run == run ? state_->stepsApplied() : n);
  table_->resizeColumnsToContents();
}

void PropagationPanel::showStep(int v) {
  {
    QSignalBlocker block(slider_);
    slider_->setValue(v);
  }
  if (v > 0) {
    // Not with the selection model's signals blocked: the view repaints the
    // rows that leave the selection on them (else, while playing, the old
    // rows kept their highlight until something else repainted them). Only
    // a click moves the timeline, so this selection does not loop back.
    table_->selectRow(v - 1);
    table_->scrollTo(model_->index(v - 1, 0));
  } else {
    table_->clearSelection();
  }
  updateLabel();
}

void PropagationPanel::setPlaying(bool on) {
  QSignalBlocker block(play_);
  play_->setChecked(on);
}

void PropagationPanel::setBusy(const QString& message) {
  propagate_->setEnabled(false);
  level_->setEnabled(false);
  status_->setText(message);
}

int PropagationPanel::currentStep() const { return slider_->value(); }

void PropagationPanel::setStep(int stepsApplied) {
  slider_->setValue(std::clamp(stepsApplied, 0, slider_->maximum()));
}

void PropagationPanel::updateLabel() {
  const int n = slider_->maximum();
  const int v = slider_->value();
  if (!model_->run())
    stepLabel_->clear();
  else if (v == 0 && !model_->run()->importPasses.empty())
    stepLabel_->setText(tr("%1, after the import passes").arg(stepPlace(v, n)));
  else
    stepLabel_->setText(stepPlace(v, n));
}

}  // namespace shardscope::widgets
