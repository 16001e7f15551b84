#include "trace_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

#include "explain/factor_info.h"
#include "explain/factor_table.h"
#include "explain/narration.h"
#include "explain/trace_index.h"
#include "factor_table_model.h"
#include "factor_table_view.h"
#include "strategy_compare_widget.h"
#include "trace_player.h"
#include "trace_state.h"
#include "trace_step_model.h"
#include "why_panel.h"
#include "core/step_words.h"

namespace shardscope::widgets::trace {

namespace {
// The step list's columns up to Line sized to their text (Op at most a
// few words wide, elided after) and its pane at least as wide as they are,
// so that the line of each step is never cut off.
// "What moved", the last column, ends at the pane's edge and is elided
// there (its tooltip is the step's narration): sized to its text it ran
// past the pane and the list scrolled sideways. Qt's stretched last section
// kept 100 px at least, more than a narrow pane leaves it.
void fitWhatColumn(QTableView* steps) {
  const int what = TraceStepModel::SummaryColumn;
  if (!steps->model() || steps->model()->columnCount() <= what) return;
  int others = 0;
  for (int c = 0; c < what; ++c) others += steps->columnWidth(c);
  // In the narrowest pane (1280x800) the column is left out rather than
  // shown as an ellipsis under a header cut to "m": the Line column comes
  // first, and the row's tooltip and the narration tell the step whole. It
  // shows when its header fits.
  const int width = steps->viewport()->width() - others;
  const int least = steps->horizontalHeader()->fontMetrics().horizontalAdvance(
                        steps->model()->headerData(what, Qt::Horizontal).toString()) +
                    2 * steps->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, steps) + 4;
  const bool shown = width >= least;
  if (steps->isColumnHidden(what) == shown) steps->setColumnHidden(what, !shown);
  if (shown && steps->columnWidth(what) != width) steps->setColumnWidth(what, width);
}

void fitStepColumns(QTableView* steps) {
  steps->resizeColumnsToContents();
  const QFontMetrics fm(steps->font());
  // "dot_general %12" reads; a longer name is elided.
  const int opMax = fm.horizontalAdvance(QStringLiteral("dot_general %100"));
  if (steps->columnWidth(TraceStepModel::OpColumn) > opMax)
    steps->setColumnWidth(TraceStepModel::OpColumn, opMax);
  int width = 2 * steps->frameWidth() +
              steps->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, steps) + 4;
  for (int c = 0; c <= TraceStepModel::LineColumn; ++c) width += steps->columnWidth(c);
  // Never more than a quarter of a 1280-pixel window: the narration and the
  // Why / Compare tabs need the rest, side by side.
  steps->parentWidget()->setMinimumWidth(std::min(width, 330));
  fitWhatColumn(steps);
}

// Fits the narration and the factor table again when their splitter is
// resized (a dock resized after the step was shown: under load the resize
// came after the panel's own and the narration kept a stale height).
class RefitOnResize : public QObject {
 public:
  RefitOnResize(QWidget* watched, std::function<void()> fit) : QObject(watched), fit_(std::move(fit)) {
    watched->installEventFilter(this);
  }
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Resize) fit_();
    return QObject::eventFilter(o, e);
  }

 private:
  std::function<void()> fit_;
};

// Keeps "What moved" at the pane's width left after the other columns
// (fitWhatColumn) whenever the list's viewport changes size.
class FitWhatOnResize : public QObject {
 public:
  explicit FitWhatOnResize(QTableView* steps) : QObject(steps), steps_(steps) {}
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Resize) fitWhatColumn(steps_);
    return QObject::eventFilter(o, e);
  }

 private:
  QTableView* steps_;
};
}  // namespace

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

double luminance(const QColor& c) {
  auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}
}  // namespace

double TracePanel::contrast(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor TracePanel::dimText(const QPalette& pal) {
  // The secondary lines (the step's context, its rule) a shade of the text
  // towards the background, but never under 4.5:1 on the text's background
  // or on the window's (the presentation strip draws the narration on the
  // window colour; there the grey was ~2.6:1, faint on a projector).
  const QColor text = pal.color(QPalette::Text);
  const QColor base = pal.color(QPalette::Base), window = pal.color(QPalette::Window);
  for (double k = 0.4; k > 0; k -= 0.05) {
    const QColor c = QColor::fromRgbF(text.redF() * (1 - k) + base.redF() * k, text.greenF() * (1 - k) + base.greenF() * k,
                                      text.blueF() * (1 - k) + base.blueF() * k);
    if (contrast(c, base) >= 4.6 && contrast(c, window) >= 4.6) return c;
  }
  return text;
}

namespace {
// The player buttons' standard icon (a property, to tint it again when the
// theme changes).
constexpr const char* kStandardIconProperty = "shardscopeStandardIcon";
}  // namespace

QIcon TracePanel::mediaIcon(QStyle::StandardPixmap which) const {
  // Fusion draws the media glyphs near black whatever the palette: on the
  // dark theme's toolbar they read as disabled (contrast ~1.2:1). Each size
  // is recoloured to the palette's button text, and the disabled state to
  // its disabled button text, as the text buttons beside them are (Qt's
  // own greying of a recoloured pixmap left a disabled button looking
  // enabled in the light theme).
  const QIcon source = style()->standardIcon(which);
  QIcon tinted;
  for (const auto& [mode, group] : {std::pair{QIcon::Normal, QPalette::Active}, std::pair{QIcon::Disabled, QPalette::Disabled}}) {
    const QColor ink = palette().color(group, QPalette::ButtonText);
    for (int side : {16, 24, 32}) {
      QPixmap pm = source.pixmap(QSize(side, side));
      if (pm.isNull()) continue;
      QPainter p(&pm);
      p.setCompositionMode(QPainter::CompositionMode_SourceIn);
      p.fillRect(pm.rect(), ink);
      p.end();
      tinted.addPixmap(pm, mode);
    }
  }
  return tinted.isNull() ? source : tinted;
}

TracePanel::TracePanel(QWidget* parent)
    : QWidget(parent),
      state_(new TraceState(this)),
      player_(new TracePlayer(this)),
      runner_(new PropagationRunner(this)),
      stepModel_(new TraceStepModel(this)),
      factorModel_(new FactorTableModel(this)) {
  auto* layout = new QVBoxLayout(this);
  // Tight: at 1280x800 each pixel of height is narration or factor table.
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(2);

  // One row of controls: run (strategy, Run, Cancel), then the player; the
  // run's status stands above the steps it lists.
  auto* top = new QHBoxLayout;
  auto* bar = top;
  top->addWidget(new QLabel(tr("Strategy:"), this));
  strategy_ = new QComboBox(this);
  for (Strategy s : {Strategy::Basic, Strategy::Aggressive, Strategy::OpPriority, Strategy::UserPriority})
    strategy_->addItem(strategyName(s), static_cast<int>(s));
  strategy_->setCurrentIndex(3);
  strategy_->setToolTip(tr("basic / aggressive: one fixed point; op-priority: five stages; user-priority: the full hierarchy"));
  top->addWidget(strategy_);
  run_ = new QPushButton(tr("Run"), this);
  run_->setToolTip(tr("Propagate a copy of the module and record every step"));
  top->addWidget(run_);
  cancel_ = new QPushButton(tr("Cancel"), this);
  top->addWidget(cancel_);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("traceStatus"));
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setWordWrap(true);
  top->addSpacing(8);
  auto button = [&](QStyle::StandardPixmap icon, const QString& text, const QString& tip) {
    auto* b = new QToolButton(this);
    if (icon != QStyle::SP_CustomBase) {
      b->setProperty(kStandardIconProperty, static_cast<int>(icon));
      b->setIcon(mediaIcon(icon));
    }
    if (!text.isEmpty()) b->setText(text);
    b->setToolButtonStyle(icon != QStyle::SP_CustomBase ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextOnly);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    bar->addWidget(b);
    return b;
  };
  first_ = button(QStyle::SP_MediaSkipBackward, {}, tr("The input (before the first step)"));
  prevRound_ = button(QStyle::SP_CustomBase, tr("◀ round"), tr("Start of the user-priority round (or the previous one)"));
  prevStage_ = button(QStyle::SP_CustomBase, tr("◀ stage"), tr("Start of the op-priority stage / fixed point (or the previous one)"));
  back_ = button(QStyle::SP_MediaSeekBackward, {}, tr("Previous step"));
  play_ = button(QStyle::SP_MediaPlay, {}, tr("Play / pause"));
  forward_ = button(QStyle::SP_MediaSeekForward, {}, tr("Next step"));
  nextStage_ = button(QStyle::SP_CustomBase, tr("stage ▶"), tr("Next op-priority stage / fixed point"));
  nextRound_ = button(QStyle::SP_CustomBase, tr("round ▶"), tr("Next user-priority round"));
  last_ = button(QStyle::SP_MediaSkipForward, {}, tr("The result (after the last step)"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  slider_->setToolTip(tr("Scrub through the steps (left end: the input)"));
  bar->addWidget(slider_, 1);
  speed_ = new QComboBox(this);
  for (double s : {0.5, 1.0, 2.0, 4.0, 8.0, 16.0}) speed_->addItem(tr("%1 steps/s").arg(s), s);
  speed_->setCurrentIndex(2);
  speed_->setToolTip(tr("Playback speed"));
  bar->addWidget(speed_);
  stepLabel_ = new QLabel(this);
  stepLabel_->setObjectName(QStringLiteral("traceStepLabel"));
  stepLabel_->setMinimumWidth(120);
  bar->addWidget(stepLabel_);
  layout->addLayout(top);

  // Steps | narration over the factor table | Why / Compare: side by side,
  // so that a bottom dock of a third of the window shows each of them
  // readable at once (issue 13: nothing to drag at 1280x800).
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setObjectName(QStringLiteral("explorerSplit"));
  split->setChildrenCollapsible(false);
  auto* left = new QWidget(split);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->setSpacing(2);
  status_->setParent(left);
  leftLayout->addWidget(status_);
  steps_ = new QTableView(left);
  leftLayout->addWidget(steps_, 1);
  steps_->setObjectName(QStringLiteral("traceSteps"));
  steps_->setModel(stepModel_);
  steps_->setSelectionBehavior(QAbstractItemView::SelectRows);
  steps_->setSelectionMode(QAbstractItemView::SingleSelection);
  steps_->verticalHeader()->hide();
  // "What moved" takes the pane's width left, elided (fitWhatColumn); the
  // style's least section (~80 px) is more than a narrow pane leaves it.
  steps_->horizontalHeader()->setMinimumSectionSize(4);
  steps_->viewport()->installEventFilter(new FitWhatOnResize(steps_));
  steps_->setTextElideMode(Qt::ElideRight);
  steps_->setWordWrap(false);
  auto* middle = new QSplitter(Qt::Vertical, split);
  middle->setChildrenCollapsible(false);
  middle->setHandleWidth(4);
  narration_ = new QTextBrowser(middle);
  narration_->setObjectName(QStringLiteral("narration"));
  narration_->setOpenLinks(false);
  narration_->setMinimumHeight(48);
  // Little margin and a short list indent: every pixel of the pane is text
  // (the defaults, 4 px around and 40 px per indent, cost a line at 1280x800).
  narration_->document()->setDocumentMargin(2);
  narration_->document()->setIndentWidth(18);
  auto* tableBox = new QWidget(middle);
  auto* tableLayout = new QVBoxLayout(tableBox);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->setSpacing(2);
  auto* tableBar = new QHBoxLayout;
  tableTitle_ = new QLabel(tableBox);
  tableTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tableBar->addWidget(tableTitle_, 1);
  beforeAfter_ = new QToolButton(tableBox);
  beforeAfter_->setCheckable(true);
  beforeAfter_->setText(tr("Before"));
  beforeAfter_->setToolTip(tr("Show the factor table before the step (unchecked: after)"));
  tableBar->addWidget(beforeAfter_);
  dims_ = new QToolButton(tableBox);
  dims_->setCheckable(true);
  dims_->setText(tr("Dimensions"));
  dims_->setToolTip(tr("One column per tensor dimension instead of per factor"));
  tableBar->addWidget(dims_);
  tableLayout->addLayout(tableBar);
  table_ = new FactorTableView(tableBox);
  table_->setObjectName(QStringLiteral("factorTable"));
  table_->setModel(factorModel_);
  table_->setMinimumHeight(60);
  tableLayout->addWidget(table_, 1);
  tabs_ = new QTabWidget(split);
  tabs_->setObjectName(QStringLiteral("whyCompareTabs"));
  why_ = new WhyPanel(state_, tabs_);
  compare_ = new StrategyCompareWidget(tabs_);
  tabs_->addTab(why_, tr("Why"));
  tabs_->addTab(compare_, tr("Compare strategies"));
  middle->setStretchFactor(0, 2);
  middle->setStretchFactor(1, 3);
  // The narration's column the widest: the narrower it is, the more lines
  // its text wraps to (the Why panel's chain reads in less width).
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 5);
  split->setStretchFactor(2, 3);
  layout->addWidget(split, 1);

  new RefitOnResize(middle, [this] { fitNarration(); });
  // A step's table with fewer rows leaves the narration more height.
  connect(factorModel_, &QAbstractItemModel::modelReset, this, &TracePanel::fitNarration);

  // Wiring: controls -> runner / player / state; state -> views.
  connect(run_, &QPushButton::clicked, this, &TracePanel::runPropagation);
  connect(cancel_, &QPushButton::clicked, runner_, &PropagationRunner::cancel);
  connect(runner_, &PropagationRunner::progress, this, [this](int, int steps) {
    status_->setText(tr("propagating… %1 step(s)").arg(steps));
  });
  connect(runner_, &PropagationRunner::finished, this, [this](std::shared_ptr<const TraceRun> run) {
    showRun(run);
    emit runFinished(run);
  });
  connect(first_, &QToolButton::clicked, player_, &TracePlayer::first);
  connect(last_, &QToolButton::clicked, player_, &TracePlayer::last);
  connect(back_, &QToolButton::clicked, player_, &TracePlayer::stepBack);
  connect(forward_, &QToolButton::clicked, player_, &TracePlayer::stepForward);
  connect(play_, &QToolButton::clicked, player_, &TracePlayer::togglePlay);
  connect(prevRound_, &QToolButton::clicked, player_, &TracePlayer::previousRound);
  connect(nextRound_, &QToolButton::clicked, player_, &TracePlayer::nextRound);
  connect(prevStage_, &QToolButton::clicked, player_, &TracePlayer::previousStage);
  connect(nextStage_, &QToolButton::clicked, player_, &TracePlayer::nextStage);
  connect(speed_, &QComboBox::currentIndexChanged, this, [this] { player_->setSpeed(speed_->currentData().toDouble()); });
  connect(slider_, &QSlider::valueChanged, player_, [this](int v) { player_->scrubTo(v - 1); });
  connect(player_, &TracePlayer::playingChanged, this, [this](bool on) {
    const QStyle::StandardPixmap icon = on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay;
    play_->setProperty(kStandardIconProperty, static_cast<int>(icon));
    play_->setIcon(mediaIcon(icon));
  });
  connect(player_, &TracePlayer::currentStepChanged, state_, &TraceState::setCurrentStep);
  connect(steps_, &QTableView::clicked, this, [this](const QModelIndex& i) { player_->scrubTo(i.row()); });
  // Clicking a tensor of the factor table asks the Why tab about it (the
  // clicked cell's dimension, else dimension 0).
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
    const auto& run = state_->run();
    const int step = state_->currentStep();
    if (!run || !run->index || step < 0) return;
    const auto& rows = run->index->rowValues(static_cast<size_t>(step));
    if (i.row() < 0 || static_cast<size_t>(i.row()) >= rows.size() || !rows[static_cast<size_t>(i.row())]) return;
    const int dim = std::max(0, i.data(FactorTableModel::DimensionRole).toInt());
    state_->selectValue(rows[static_cast<size_t>(i.row())], dim);
    tabs_->setCurrentWidget(why_);
  });
  connect(beforeAfter_, &QToolButton::toggled, state_, &TraceState::setShowBefore);
  connect(dims_, &QToolButton::toggled, state_, &TraceState::setDimensionView);
  connect(state_, &TraceState::currentStepChanged, this, [this](int step) {
    {
      QSignalBlocker b(slider_);
      slider_->setValue(step + 1);
    }
    if (step >= 0) {
      // Not with the selection model's signals blocked: the view repaints
      // the rows that leave the selection on them (blocked, the old row kept
      // its highlight beside the new one). A click, not the selection,
      // moves the player, so this does not loop back.
      steps_->selectRow(step);
      steps_->scrollTo(stepModel_->index(step, 0));
    } else {
      steps_->clearSelection();
    }
    updateControls();
    updateNarration();
    updateFactorTable();
    const propagation::TraceStep* s = state_->currentTraceStep();
    emit stepSelected(step, s ? static_cast<int>(s->opIndex) : state_->selectedOp(), s ? static_cast<int>(s->line) : 0);
  });
  connect(state_, &TraceState::viewOptionsChanged, this, &TracePanel::updateFactorTable);
  connect(state_, &TraceState::opSelectionChanged, this, &TracePanel::updateFactorTable);
  connect(state_, &TraceState::runChanged, this, [this] {
    stepModel_->setRun(state_->run());
    fitStepColumns(steps_);
    player_->setTrace(state_->run() ? &state_->run()->trace : nullptr);
  });
  updateControls();
  updateNarration();
}

Strategy TracePanel::strategy() const { return static_cast<Strategy>(strategy_->currentData().toInt()); }

void TracePanel::setStrategy(Strategy s) { strategy_->setCurrentIndex(strategy_->findData(static_cast<int>(s))); }

void TracePanel::setModuleText(const QString& text, const QString& fileName) {
  text_ = text;
  fileName_ = fileName;
  compare_->setModuleText(text, fileName);
  state_->setRun(nullptr);
  status_->setText(text.isEmpty()      ? tr("No module.")
                   : !canRun_         ? tr("Cannot propagate: the module has errors (see Diagnostics).")
                   : runsElsewhere_ ? tr("Propagate (Ctrl+P or Run) to record a trace.")
                                    : tr("Run propagation to record a trace."));
  updateControls();
}

void TracePanel::setRunsElsewhere(bool on) {
  runsElsewhere_ = on;
  run_->setToolTip(on ? tr("Propagate the module with this strategy (as Ctrl+P does) and record "
                           "every step")
                      : tr("Propagate a copy of the module and record every step"));
  if (!state_->run() && !text_.isEmpty() && canRun_)
    status_->setText(on ? tr("Propagate (Ctrl+P or Run) to record a trace.")
                        : tr("Run propagation to record a trace."));
}

void TracePanel::runPropagation() {
  if (text_.isEmpty() || !canRun_) return;
  player_->pause();
  if (runsElsewhere_) {
    status_->setText(tr("propagating (%1)…").arg(strategyName(strategy())));
    emit runRequested(optionsFor(strategy()));
    return;
  }
  runner_->start(text_, fileName_, strategy());
  status_->setText(tr("propagating (%1)…").arg(strategyName(strategy())));
  updateControls();
}

void TracePanel::showRun(std::shared_ptr<const TraceRun> run) {
  if (run) setStrategy(run->strategy());
  state_->setRun(run);
  status_->setText(run ? run->summary() : QString());
  if (run && !run->ok()) status_->setStyleSheet(QStringLiteral("color:#b02a1e"));
  else status_->setStyleSheet({});
  updateControls();
}

void TracePanel::inspectOp(int opIndex) {
  player_->pause();
  player_->scrubTo(-1);
  state_->selectOp(opIndex);
}

void TracePanel::updateControls() {
  const int n = state_->stepCount();
  const int cur = state_->currentStep();
  const bool busy = runner_->isRunning();
  cancel_->setEnabled(busy);
  strategy_->setEnabled(!busy);
  for (QWidget* w : {static_cast<QWidget*>(first_), static_cast<QWidget*>(back_), static_cast<QWidget*>(prevRound_),
                     static_cast<QWidget*>(prevStage_)})
    w->setEnabled(n > 0 && cur >= 0);
  for (QWidget* w : {static_cast<QWidget*>(forward_), static_cast<QWidget*>(last_), static_cast<QWidget*>(nextRound_),
                     static_cast<QWidget*>(nextStage_)})
    w->setEnabled(n > 0 && cur < n - 1);
  play_->setEnabled(n > 0);
  slider_->setEnabled(n > 0);
  {
    QSignalBlocker b(slider_);
    slider_->setRange(0, n);
    slider_->setValue(cur + 1);
  }
  // The same words as the trace dock and the window title (core/step_words.h).
  if (!state_->run()) stepLabel_->clear();
  else stepLabel_->setText(stepPlace(cur + 1, n));
  run_->setEnabled(canRun_ && !text_.isEmpty() && !busy);
}

QString TracePanel::narrationText() const { return narration_->toPlainText(); }

QString TracePanel::stepHeadline() const {
  const propagation::TraceStep* s = state_->currentTraceStep();
  return s ? qs(explain::stepHeadline(*s)) : QString();
}

void TracePanel::setCanRun(bool can) {
  canRun_ = can;
  if (!state_->run() && !text_.isEmpty())
    status_->setText(!can             ? tr("Cannot propagate: the module has errors (see Diagnostics).")
                     : runsElsewhere_ ? tr("Propagate (Ctrl+P or Run) to record a trace.")
                                      : tr("Run propagation to record a trace."));
  updateControls();
}

void TracePanel::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  // The narration's colours are the palette's: told again in the new theme.
  if (e->type() == QEvent::PaletteChange) {
    updateNarration();
    // The style's media glyphs are drawn dark: tinted again for the theme.
    for (QToolButton* b : findChildren<QToolButton*>()) {
      const QVariant icon = b->property(kStandardIconProperty);
      if (icon.isValid()) b->setIcon(mediaIcon(static_cast<QStyle::StandardPixmap>(icon.toInt())));
    }
  }
}

void TracePanel::setNarration(const QString& html, const QString& bodyHtml) {
  narrationHtml_ = html;
  narrationBodyHtml_ = bodyHtml.isNull() ? html : bodyHtml;
  narration_->setHtml(html);
  fitNarration();
}

void TracePanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitNarration();
}

void TracePanel::fitNarration() {
  auto* middle = qobject_cast<QSplitter*>(narration_->parentWidget());
  if (!middle || !isVisible() || middle->count() != 2) return;
  const QList<int> sizes = middle->sizes();
  const int total = sizes[0] + sizes[1];
  if (total <= 0) return;
  QTextDocument* doc = narration_->document();
  doc->setTextWidth(narration_->viewport()->width());
  const int wanted = int(std::ceil(doc->size().height())) + 2 * narration_->frameWidth() + 2;
  // The table's height with its title, header and first `rows` rows.
  auto tableHeight = [&](int rows) {
    // The title's row is as tall as its buttons (the label alone is less).
    const int title = std::max({tableTitle_->sizeHint().height(), beforeAfter_->sizeHint().height(),
                                dims_->sizeHint().height()});
    int h = title + 2 + table_->horizontalHeader()->height() + 2 * table_->frameWidth() + 2;
    for (int r = 0; r < rows; ++r)
      h += r < factorModel_->rowCount() ? table_->rowHeight(r) : table_->verticalHeader()->defaultSectionSize();
    if (table_->horizontalScrollBar()->isVisible()) h += table_->horizontalScrollBar()->height();
    return h;
  };
  // The narration is read first: it gets its whole text when the table
  // can still show its rows up to four (the rows it has: a two-tensor op
  // needs two); when not, the table gives up rows down to two (the rest
  // scroll in the table), and only then does the narration scroll.
  const int rows = std::clamp(factorModel_->rowCount(), 1, 4);
  const int room = total - middle->handleWidth();
  int tableLeast = tableHeight(rows);
  for (int r = rows - 1; r >= std::min(rows, 2) && wanted > room - tableLeast; --r) tableLeast = tableHeight(r);
  const int least = narration_->minimumHeight();
  const int height = std::clamp(wanted, least, std::max(least, room - tableLeast));
  if (std::abs(height - sizes[0]) < narration_->fontMetrics().height() / 2 &&
      (height >= wanted) == (sizes[0] >= wanted))
    return;
  middle->setSizes({height, total - height});
}

void TracePanel::updateNarration() {
  const auto& run = state_->run();
  const propagation::TraceStep* s = state_->currentTraceStep();
  // Colours from the palette, so that the text reads in the dark theme too.
  const QPalette pal = palette();
  const bool dark = pal.color(QPalette::Base).lightness() < 128;
  const QString dim = dimText(pal).name();
  const QString warn = dark ? QStringLiteral("#f0a860") : QStringLiteral("#a05000");
  const QString conflict = dark ? QStringLiteral("#ff8a7a") : QStringLiteral("#a0281e");
  if (!run) {
    setNarration(tr("<p style='color:%1'>Pick a strategy and press <b>Run</b>: every op-level step that "
                    "changes a sharding is recorded, told in plain words here, and shown as a factor table "
                    "below.</p>").arg(dim));
    return;
  }
  if (!s) {
    QString html = tr("<p><b>The input</b>, before propagation.</p><p style='color:%1'>%2</p>")
                       .arg(dim, run->summary().toHtmlEscaped());
    for (const auto& note : run->trace.notes)
      html += QStringLiteral("<p style='color:%1'>%2</p>").arg(warn, qs(note).toHtmlEscaped());
    setNarration(html);
    return;
  }
  const explain::StepNarration n = explain::narrateStep(*s, run->index.get());
  // Tight paragraphs (Qt's default is 12 px above and below each, and a
  // list indented 40 px): the last steps of while_loop.mlir scrolled at
  // 1280x800 with the default spacing, not for want of words.
  const QString para = QStringLiteral("margin-top:0px; margin-bottom:2px");
  const QString context =
      QStringLiteral("<span style='color:%1'>%2</span>").arg(dim, qs(n.context).toHtmlEscaped());
  QString rest = QStringLiteral("<ul style='%1; -qt-list-indent:1'>").arg(para);
  for (const auto& f : n.factors) {
    if (f.conflict && !f.moved)
      rest += QStringLiteral("<li style='color:%1'>%2</li>").arg(conflict, qs(f.sentence).toHtmlEscaped());
    else
      rest += QStringLiteral("<li>%1</li>").arg(qs(f.sentence).toHtmlEscaped());
  }
  if (n.factors.empty()) rest += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(n.noFactorNote).toHtmlEscaped());
  QStringList updates;
  for (const auto& u : n.updates) updates << qs(u).toHtmlEscaped();
  // The updates run on as one sentence ("%1 is now …; %2 is now …"): a
  // line each took a line of the factor table's height at 1280x800.
  rest += QStringLiteral("</ul><p style='%1'>%2</p><p style='margin:0px; color:%3'>rule %4</p>")
              .arg(para, updates.join(QStringLiteral("; ")), dim, qs(s->rule).toHtmlEscaped());
  // The presentation caption shows the headline in its own large line: its
  // narration starts at the context.
  setNarration(QStringLiteral("<p style='%1'><b>%2</b><br>%3</p>").arg(para, qs(n.headline).toHtmlEscaped(), context) + rest,
               QStringLiteral("<p style='%1'>%2</p>").arg(para, context) + rest);
}

void TracePanel::updateFactorTable() {
  const auto& run = state_->run();
  const propagation::TraceStep* s = state_->currentTraceStep();
  factorModel_->setDimensionView(state_->dimensionView());
  beforeAfter_->setEnabled(s != nullptr);
  if (s && run) {
    const Mesh* mesh = nullptr;
    for (const auto& u : s->updates)
      if (run->input && (mesh = run->input->meshOf(u.sharding))) break;
    factorModel_->setTable(explain::factorTableForStep(*s, !state_->showBefore(), mesh));
    // The step's headline is the narration's first line just above: the
    // title says only which table this is (with the headline it asked the
    // column 520 px and pushed the explorer past a 1280-pixel window).
    tableTitle_->setText(tr("<b>Factor table</b> %1 step %2")
                             .arg(state_->showBefore() ? tr("before") : tr("after"), QString::number(s->step)));
    return;
  }
  const int op = state_->selectedOp();
  if (run && run->input && run->index && op >= 0 && static_cast<size_t>(op) < run->index->ops().size()) {
    std::string error;
    ir::Op* o = run->index->ops()[static_cast<size_t>(op)];
    factorModel_->setTable(explain::factorTableForOp(*run->input, *o, &error));
    tableTitle_->setText(error.empty() ? tr("<b>%1</b> — input shardings").arg(qs(explain::shortOpName(o->name())))
                                       : qs(error).toHtmlEscaped());
    return;
  }
  factorModel_->setTable({});
  tableTitle_->setText(tr("<span style='color:#666'>Select a step to see its factor table.</span>"));
}

QWidget* TracePanel::factorTableWidget() const { return table_; }

}  // namespace shardscope::widgets::trace
