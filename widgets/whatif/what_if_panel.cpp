#include "whatif/what_if_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "comm/communication_change_view.h"
#include "core/axis_style.h"
#include "core/document_state.h"
#include "whatif/what_if_edit.h"

namespace shardscope::widgets {

WhatIfPanel::WhatIfPanel(DocumentState* state, QWidget* parent)
    : QWidget(parent), state_(state), model_(new WhatIfDiffModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  auto* row = new QHBoxLayout;
  valueLabel_ = new QLabel(this);
  valueLabel_->setObjectName(QStringLiteral("whatIfValue"));
  row->addWidget(valueLabel_);
  resultPicker_ = new QComboBox(this);
  resultPicker_->setObjectName(QStringLiteral("whatIfResultPicker"));
  resultPicker_->setToolTip(tr("Which result of the function to edit"));
  resultPicker_->hide();
  row->addWidget(resultPicker_);
  edit_ = new QLineEdit(this);
  edit_->setObjectName(QStringLiteral("whatIfShardingEdit"));
  edit_->setPlaceholderText(tr("[{\"x\"}, {}]  or  #sdy.sharding<@mesh, [{\"x\"}, {}]>"));
  edit_->setToolTip(
      tr("The selected value's sharding (select a function's return to edit its result "
         "shardings). Edit it and press Return or Ctrl+Return: the source is rewritten and "
         "propagation re-runs; the values whose sharding changes are listed below."));
  // Ctrl+Return is also the window's "apply source edits" shortcut: here it
  // applies this field (see eventFilter).
  edit_->installEventFilter(this);
  QFont mono(QStringLiteral("DejaVu Sans Mono"));
  mono.setStyleHint(QFont::Monospace);
  edit_->setFont(mono);
  row->addWidget(edit_, 1);
  applyButton_ = new QPushButton(tr("Apply && Re-run"), this);
  applyButton_->setObjectName(QStringLiteral("whatIfApply"));
  row->addWidget(applyButton_);
  layout->addLayout(row);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("whatIfError"));
  error_->setStyleSheet(QStringLiteral("color:#c01c28"));
  error_->setWordWrap(true);
  error_->hide();
  layout->addWidget(error_);
  summary_ = new QLabel(tr("Edit a sharding (here or in the source, then Ctrl+Return) to see "
                           "what changes."),
                        this);
  summary_->setObjectName(QStringLiteral("whatIfSummary"));
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("whatIfDiffView"));
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  // Columns as wide as their text: a stretched "This run" set a value's
  // new sharding ~900 px from its old one in a wide dock.
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->setWordWrap(false);
  layout->addWidget(table_, 1);
  comm_ = new comm::CommunicationChangeView(this);
  comm_->setObjectName(QStringLiteral("whatIfCommunication"));
  layout->addWidget(comm_);

  connect(edit_, &QLineEdit::returnPressed, this, &WhatIfPanel::apply);
  connect(applyButton_, &QPushButton::clicked, this, &WhatIfPanel::apply);
  connect(edit_, &QLineEdit::textEdited, this, [this] {
    check(true);
  });
  auto activate = [this](const QModelIndex& i) {
    emit valueActivated(i.data(WhatIfDiffModel::KeyRole).toString());
  };
  connect(table_, &QTableView::clicked, this, activate);
  connect(table_, &QTableView::activated, this, activate);
  connect(resultPicker_, &QComboBox::activated, this, [this](int index) {
    resultIndex_ = static_cast<unsigned>(std::max(0, index));
    showTarget(false);
  });
  connect(state_, &DocumentState::selectionChanged, this, &WhatIfPanel::onSelectionChanged);
  // A new version of the document (a re-run, a propagation step) is always
  // followed by selectionChanged; what is edited keeps its kind across it.
  connect(state_, &DocumentState::documentChanged, this, [this] { documentReplaced_ = true; });
  onSelectionChanged();
}

QString WhatIfPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

bool WhatIfPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == edit_ &&
      (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
        key->modifiers().testFlag(Qt::ControlModifier)) {
      // Accepting the override keeps the window shortcut from taking the key.
      event->accept();
      if (event->type() == QEvent::KeyPress) apply();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void WhatIfPanel::onSelectionChanged() {
  const ir::Op* op = state_->selectedOp();
  const ir::Value* v = state_->selectedValue();
  const bool opChanged = op != lastOp_;
  const bool valueChanged = v != lastValue_;
  lastOp_ = op;
  lastValue_ = v;
  const bool replaced = std::exchange(documentReplaced_, false);
  // A function's return selected: its results are edited, until a value is.
  const ir::Op* func = op && op->is("func.return") ? op->parentOp() : nullptr;
  if (func && !func->is("func.func")) func = nullptr;
  bool resultMode = false;
  if (func && func->numRegions() > 0 && op->numOperands() > 0) {
    if (replaced)
      resultMode = func_ != nullptr;
    else if (opChanged)
      resultMode = true;
    else
      resultMode = !valueChanged && func_ != nullptr;
  }
  const bool same = resultMode ? func == func_ : v == value_ && !func_;
  if (resultMode) {
    if (!func_ || resultIndex_ >= op->numOperands()) resultIndex_ = 0;
    func_ = func;
    returnOp_ = op;
    value_ = nullptr;
  } else {
    func_ = nullptr;
    returnOp_ = nullptr;
    value_ = v;
  }
  showTarget(same);
}

void WhatIfPanel::showTarget(bool keepTyping) {
  const ir::Type* type = func_    ? &*returnOp_->operand(resultIndex_)->type
                         : value_ ? &*value_->type
                                  : nullptr;
  const bool editable = type && state_->module() && type->isRankedTensor();
  edit_->setEnabled(editable);
  applyButton_->setEnabled(editable);
  resultPicker_->setVisible(func_ && returnOp_->numOperands() > 1);
  if (func_) {
    QSignalBlocker block(resultPicker_);
    resultPicker_->clear();
    for (unsigned i = 0; i < returnOp_->numOperands(); ++i)
      resultPicker_->addItem(tr("result #%1").arg(i));
    resultPicker_->setCurrentIndex(static_cast<int>(resultIndex_));
  }
  if (!editable) {
    valueLabel_->setText(func_ || value_ ? tr("Not a ranked tensor:") : tr("No value selected:"));
    edit_->clear();
    error_->hide();
    return;
  }
  if (func_)
    valueLabel_->setText(tr("<b>@%1</b> result%2 : %3")
                             .arg(toQString(api::symbolName(*func_)))
                             .arg(returnOp_->numOperands() > 1 ? QString() : QStringLiteral(" #0"))
                             .arg(toQString(api::shortType(*type))));
  else
    valueLabel_->setText(
        tr("<b>%1</b> : %2")
            .arg(toQString(api::valueName(*value_)), toQString(api::shortType(*type))));
  if (keepTyping && edit_->isModified()) return;  // keep what the user is typing
  const auto s =
      func_ ? api::functionResultSharding(*func_, resultIndex_) : api::valueSharding(*value_);
  edit_->setText(s ? toQString(s->str()) : QString());
  edit_->setModified(false);
  error_->hide();
}

std::optional<TensorSharding> WhatIfPanel::check(bool showError) {
  if ((!value_ && !func_) || !state_->module()) return std::nullopt;
  QString error;
  auto s = func_ ? parseShardingForFunctionResult(edit_->text(), *state_->module(), *func_,
                                                  resultIndex_, &error)
                 : parseShardingForValue(edit_->text(), *state_->module(), *value_, &error);
  if (!s && showError) {
    error_->setText(error);
    error_->show();
  } else {
    error_->hide();
  }
  return s;
}

void WhatIfPanel::apply() {
  const auto s = check(true);
  if (!s) {
    if (!value_ && !func_) {
      error_->setText(tr("Select a value first (a graph chip, a tree row)."));
      error_->show();
    }
    return;
  }
  edit_->setModified(false);
  if (func_)
    emit functionResultEdited(func_, resultIndex_, *s);
  else
    emit shardingEdited(value_, *s);
}

void WhatIfPanel::setChanges(std::vector<WhatIfChange> changes, const QString& summary) {
  model_->setChanges(std::move(changes));
  table_->resizeColumnsToContents();
  setStatus(summary);
}

void WhatIfPanel::setStatus(const QString& text, bool error) {
  summary_->setText(text);
  summary_->setStyleSheet(error ? QStringLiteral("color:#c01c28") : QString());
}

}  // namespace shardscope::widgets
