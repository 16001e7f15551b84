#include "what_if_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "axis_style.h"
#include "document_state.h"
#include "what_if_edit.h"

namespace shardscope::widgets {

WhatIfPanel::WhatIfPanel(DocumentState* state, QWidget* parent)
    : QWidget(parent), state_(state), model_(new WhatIfDiffModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  auto* row = new QHBoxLayout;
  valueLabel_ = new QLabel(this);
  valueLabel_->setObjectName(QStringLiteral("whatIfValue"));
  row->addWidget(valueLabel_);
  edit_ = new QLineEdit(this);
  edit_->setObjectName(QStringLiteral("whatIfShardingEdit"));
  edit_->setPlaceholderText(tr("[{\"x\"}, {}]  or  #sdy.sharding<@mesh, [{\"x\"}, {}]>"));
  edit_->setToolTip(
      tr("The selected value's sharding. Edit it and press Return: the source is rewritten and "
         "propagation re-runs; the values whose sharding changes are listed below."));
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
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  layout->addWidget(table_, 1);

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
  connect(state_, &DocumentState::selectionChanged, this, &WhatIfPanel::onSelectionChanged);
  connect(state_, &DocumentState::documentChanged, this, &WhatIfPanel::onSelectionChanged);
  onSelectionChanged();
}

QString WhatIfPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void WhatIfPanel::onSelectionChanged() {
  const ir::Value* v = state_->selectedValue();
  const bool same = v == value_;
  value_ = v;
  const bool editable = v && state_->module() && v->type.isRankedTensor();
  edit_->setEnabled(editable);
  applyButton_->setEnabled(editable);
  if (!editable) {
    valueLabel_->setText(tr("No value selected:"));
    edit_->clear();
    error_->hide();
    return;
  }
  valueLabel_->setText(
      tr("<b>%1</b> : %2").arg(toQString(api::valueName(*v)), toQString(api::shortType(v->type))));
  if (same && edit_->isModified()) return;  // keep what the user is typing
  const auto s = api::valueSharding(*v);
  edit_->setText(s ? toQString(s->str()) : QString());
  edit_->setModified(false);
  error_->hide();
}

std::optional<TensorSharding> WhatIfPanel::check(bool showError) {
  if (!value_ || !state_->module()) return std::nullopt;
  QString error;
  auto s = parseShardingForValue(edit_->text(), *state_->module(), *value_, &error);
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
    if (!value_) {
      error_->setText(tr("Select a value first (a graph chip, a tree row)."));
      error_->show();
    }
    return;
  }
  edit_->setModified(false);
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
