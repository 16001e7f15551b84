#include "load_progress.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>

namespace shardscope::app {

LoadProgress::LoadProgress(QWidget* window) : QWidget(window) {
  setObjectName(QStringLiteral("loadProgress"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  bar_ = new QProgressBar(this);
  bar_->setObjectName(QStringLiteral("loadProgressBar"));
  bar_->setRange(0, kRange);
  bar_->setFixedWidth(220);
  // The percentage is in the bar; what runs is in its tooltip and in the
  // status text beside it.
  bar_->setFormat(QStringLiteral("%p%"));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName(QStringLiteral("loadCancel"));
  cancel_->setToolTip(tr("Stop it (Esc): what is shown stays as it is"));
  row->addWidget(bar_);
  row->addWidget(cancel_);
  // The window's shortcut, so Esc works wherever the focus is; enabled
  // only while loading.
  escape_ = new QShortcut(QKeySequence(Qt::Key_Escape), window, nullptr, nullptr,
                          Qt::WindowShortcut);
  escape_->setEnabled(false);
  connect(escape_, &QShortcut::activated, this, &LoadProgress::cancelRequested);
  connect(cancel_, &QPushButton::clicked, this, &LoadProgress::cancelRequested);
  hide();
}

void LoadProgress::start(const QString& what) {
  bar_->setValue(0);
  bar_->setToolTip(what);
  escape_->setEnabled(true);
  show();
}

void LoadProgress::setValue(int value) { bar_->setValue(value); }

void LoadProgress::stop() {
  escape_->setEnabled(false);
  hide();
}

}  // namespace shardscope::app
