#include "help_dialogs.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace shardscope::app {

GuidedTour::GuidedTour(QList<TourStep> steps, QWidget* parent)
    : QDialog(parent), steps_(std::move(steps)) {
  setObjectName(QStringLiteral("guidedTour"));
  setWindowTitle(tr("Guided Tour"));
  setModal(false);
  auto* layout = new QVBoxLayout(this);
  heading_ = new QLabel(this);
  heading_->setObjectName(QStringLiteral("tourHeading"));
  QFont f = heading_->font();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() * 1.25);
  heading_->setFont(f);
  body_ = new QLabel(this);
  body_->setObjectName(QStringLiteral("tourBody"));
  body_->setWordWrap(true);
  body_->setTextFormat(Qt::RichText);
  body_->setMinimumWidth(420);
  body_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(heading_);
  layout->addWidget(body_, 1);
  auto* bar = new QHBoxLayout;
  act_ = new QPushButton(this);
  act_->setObjectName(QStringLiteral("tourAction"));
  back_ = new QPushButton(tr("Back"), this);
  next_ = new QPushButton(tr("Next"), this);
  next_->setDefault(true);
  auto* close = new QPushButton(tr("Close"), this);
  bar->addWidget(act_);
  bar->addStretch(1);
  bar->addWidget(back_);
  bar->addWidget(next_);
  bar->addWidget(close);
  layout->addLayout(bar);
  connect(act_, &QPushButton::clicked, this, &GuidedTour::runAction);
  connect(back_, &QPushButton::clicked, this, [this] { showStep(current_ - 1); });
  connect(next_, &QPushButton::clicked, this, [this] { showStep(current_ + 1); });
  connect(close, &QPushButton::clicked, this, &QDialog::close);
  showStep(0);
}

void GuidedTour::showStep(int index) {
  if (steps_.isEmpty()) return;
  current_ = std::clamp(index, 0, stepCount() - 1);
  const TourStep& s = steps_[current_];
  heading_->setText(tr("%1 of %2 · %3").arg(current_ + 1).arg(stepCount()).arg(s.title));
  body_->setText(s.html);
  act_->setText(s.actionLabel);
  act_->setVisible(static_cast<bool>(s.action));
  back_->setEnabled(current_ > 0);
  next_->setEnabled(current_ + 1 < stepCount());
}

void GuidedTour::runAction() {
  if (current_ < stepCount() && steps_[current_].action) steps_[current_].action();
}

namespace {

QString plainMenuText(QString text) {
  // "&Open…" -> "Open"; "Apply && Re-run" -> "Apply & Re-run".
  text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
  text.remove(u'&');
  text.replace(u'\x01', u'&');
  if (text.endsWith(QStringLiteral("…"))) text.chop(1);
  return text;
}

void collect(const QMenu* menu, const QString& path, QList<ShortcutRow>& rows) {
  for (QAction* a : menu->actions()) {
    if (a->isSeparator()) continue;
    if (a->menu()) {
      collect(a->menu(), path + QStringLiteral(" › ") + plainMenuText(a->menu()->title()), rows);
      continue;
    }
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    if (!keys.isEmpty())
      rows.append(ShortcutRow{path, plainMenuText(a->text()), keys.join(QObject::tr(" or "))});
  }
}

}  // namespace

QList<ShortcutRow> keyboardShortcuts(const QMenuBar* menuBar) {
  QList<ShortcutRow> rows;
  if (menuBar)
    for (QAction* a : menuBar->actions())
      if (a->menu()) collect(a->menu(), plainMenuText(a->menu()->title()), rows);
  // Keys of the views themselves (not on a menu).
  const QString graph = QObject::tr("Dataflow graph");
  rows.append(ShortcutRow{graph, QObject::tr("Zoom"), QObject::tr("Ctrl+Wheel")});
  rows.append(ShortcutRow{graph, QObject::tr("Go to the producer / a consumer of the selection"),
                          QObject::tr("Alt+Up / Alt+Down")});
  rows.append(ShortcutRow{graph, QObject::tr("Next / previous user of the selected value"),
                          QObject::tr("Tab / Shift+Tab")});
  rows.append(ShortcutRow{graph,
                          QObject::tr("Expand a group, open or close a region, expand a call"),
                          QObject::tr("Enter or double-click")});
  const QString whatIf = QObject::tr("What-if");
  rows.append(ShortcutRow{whatIf, QObject::tr("Apply the edited sharding and re-run"),
                          QObject::tr("Return or Ctrl+Return")});
  return rows;
}

QString keyboardShortcutsHtml(const QList<ShortcutRow>& rows) {
  QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
  QString menu;
  for (const ShortcutRow& r : rows) {
    if (r.menu != menu) {
      menu = r.menu;
      html +=
          QStringLiteral("<tr><td colspan='2'><br><b>%1</b></td></tr>").arg(menu.toHtmlEscaped());
    }
    html += QStringLiteral("<tr><td style='padding-right:16px'><tt>%1</tt></td><td>%2</td></tr>")
                .arg(r.keys.toHtmlEscaped(), r.action.toHtmlEscaped());
  }
  return html + QStringLiteral("</table>");
}

void showKeyboardShortcuts(QWidget* parent, const QMenuBar* menuBar) {
  auto* dialog = new QDialog(parent);
  dialog->setObjectName(QStringLiteral("keyboardShortcuts"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
  auto* layout = new QVBoxLayout(dialog);
  auto* text = new QTextBrowser(dialog);
  text->setHtml(keyboardShortcutsHtml(keyboardShortcuts(menuBar)));
  layout->addWidget(text);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  layout->addWidget(buttons);
  dialog->resize(560, 620);
  dialog->show();
}

}  // namespace shardscope::app
