#include "why_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include "core/axis_style.h"
#include "explain/factor_info.h"
#include "explain/narration.h"
#include "explain/sharding_origin.h"
#include "explain/trace_index.h"
#include "trace_state.h"
#include "why_not_html.h"

namespace shardscope::widgets::trace {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QVariant refToVariant(const propagation::TraceValueRef& r) {
  return QVariantList{qs(r.kind), qlonglong(r.op), qlonglong(r.region), qlonglong(r.index)};
}
QString refKey(const propagation::TraceValueRef& r) {
  return QStringLiteral("%1/%2/%3/%4").arg(qs(r.kind)).arg(r.op).arg(r.region).arg(r.index);
}
std::optional<propagation::TraceValueRef> refFromVariant(const QVariant& v) {
  const QVariantList l = v.toList();
  if (l.size() != 4) return std::nullopt;
  return propagation::TraceValueRef{l[0].toString().toStdString(), l[1].toLongLong(), l[2].toLongLong(),
                                    l[3].toLongLong()};
}
// The mesh of the first sharded value of the run (for the colours of a
// value that has no sharding yet).
const Mesh* meshOfRun(const explain::TraceIndex& index) {
  // A module of one mesh (most are): that mesh, without listing the sharded
  // values (which builds a reference to every value: ~90 ms at 100k ops).
  const Mesh* only = nullptr;
  int meshes = 0;
  for (const auto& op : index.module().body().ops()) {
    if (!op->is("sdy.mesh")) continue;
    ++meshes;
    if (const ir::Attribute* a = op->attr("mesh")) only = a->as<Mesh>();
  }
  if (meshes == 1 && only) return only;
  for (const auto& r : index.shardedValues())
    if (auto s = index.shardingAfter(r, 0))
      if (const Mesh* m = index.module().meshOf(*s)) return m;
  return nullptr;
}
}  // namespace

WhyPanel::WhyPanel(TraceState* state, QWidget* parent) : QWidget(parent), state_(state) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // The question on two rows ("Why is [value]" / "dimension [n] sharded
  // so?  [follow steps]"): on one it asked 520 px, which at 1280x800 took
  // the width the narration beside it needed to read without scrolling.
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Why is"), this));
  value_ = new QComboBox(this);
  value_->setMinimumContentsLength(10);
  value_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  top->addWidget(value_, 1);
  layout->addLayout(top);
  auto* second = new QHBoxLayout;
  second->addWidget(new QLabel(tr("dimension"), this));
  dim_ = new QSpinBox(this);
  dim_->setRange(0, 0);
  second->addWidget(dim_);
  second->addWidget(new QLabel(tr("sharded so?"), this));
  second->addStretch(1);
  follow_ = new QCheckBox(tr("follow steps"), this);
  follow_->setChecked(true);
  follow_->setToolTip(tr("Explain the value each step updates as you step through the trace"));
  second->addWidget(follow_);
  layout->addLayout(second);
  collective_ = new QLabel(this);
  collective_->setObjectName(QStringLiteral("whyCollective"));
  collective_->setTextFormat(Qt::RichText);
  collective_->setWordWrap(true);
  collective_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  collective_->setFrameShape(QFrame::StyledPanel);
  collective_->setMargin(4);
  // All of its lines (the cause and each "why not"): the text below gives
  // way first when the dock is low.
  collective_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  collective_->hide();
  layout->addWidget(collective_);
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("whyText"));
  text_->setOpenLinks(false);
  connect(text_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.toString() != QLatin1String("why:all-hops")) return;
    allHops_ = true;
    refresh();
  });
  layout->addWidget(text_, 1);

  connect(value_, &QComboBox::currentIndexChanged, this, [this] {
    state_->selectValue(refFromVariant(value_->currentData()), dim_->value());
  });
  connect(dim_, &QSpinBox::valueChanged, this, [this](int d) { state_->selectValue(refFromVariant(value_->currentData()), d); });
  connect(state_, &TraceState::runChanged, this, &WhyPanel::rebuildValues);
  connect(state_, &TraceState::currentStepChanged, this, [this] {
    const propagation::TraceStep* s = state_->currentTraceStep();
    if (follow_->isChecked() && s && !s->updates.empty()) {
      const auto& ref = s->updates.front().value;
      if (state_->selectedValue() != ref) {
        state_->selectValue(ref, state_->selectedDimension());  // refreshes
        return;
      }
    }
    refresh();
  });
  connect(state_, &TraceState::valueSelectionChanged, this, [this] {
    allHops_ = false;  // another value or dimension: its chain starts collapsed
    const auto& v = state_->selectedValue();
    if (v) {
      // A hash, not findData: the list holds every sharded value (25k+).
      const int i = rowOfValue_.value(refKey(*v), -1);
      if (i >= 0 && i != value_->currentIndex()) {
        QSignalBlocker b(value_);
        value_->setCurrentIndex(i);
      }
    }
    refresh();
  });
  rebuildValues();
}

void WhyPanel::rebuildValues() {
  meshIndex_ = nullptr;  // another run
  runMesh_ = nullptr;
  QSignalBlocker b(value_);
  value_->clear();
  rowOfValue_.clear();
  const auto& run = state_->run();
  if (run && run->index) {
    for (const auto& r : run->index->shardedValues()) {
      QString label = qs(run->index->valueName(r));
      const int64_t rank = run->index->rankOf(r);
      if (r.op >= 0 && static_cast<size_t>(r.op) < run->index->ops().size()) {
        const ir::Op* op = run->index->ops()[static_cast<size_t>(r.op)];
        if (r.kind == "result") label += QStringLiteral("  (%1, line %2)").arg(qs(explain::shortOpName(op->name()))).arg(op->loc().line);
      }
      if (rank >= 0) label += QStringLiteral("  rank %1").arg(rank);
      rowOfValue_.insert(refKey(r), value_->count());
      value_->addItem(label, refToVariant(r));
    }
  }
  // Default: the function result, else the last value.
  int pick = -1;
  for (int i = 0; i < value_->count(); ++i)
    if (value_->itemData(i).toList().value(0).toString() == QLatin1String("func_result")) pick = i;
  if (pick < 0) pick = value_->count() - 1;
  value_->setCurrentIndex(pick);
  if (pick >= 0) state_->selectValue(refFromVariant(value_->itemData(pick)), 0);
  refresh();
}

QString WhyPanel::explanationHtml() const {
  const auto& run = state_->run();
  const auto& v = state_->selectedValue();
  if (!run || !run->index || !v) return tr("<i>Run propagation, then pick a value.</i>");
  const size_t steps = static_cast<size_t>(state_->currentStep() + 1);
  const Mesh* mesh = nullptr;
  if (auto s = run->index->shardingAfter(*v, steps)) mesh = run->input->meshOf(*s);
  const explain::DimensionOrigin o = explain::explainDimension(*run->index, *v, state_->selectedDimension(), steps);
  auto axis = [mesh](const AxisRef& a) {
    return QStringLiteral("<b style=\"color:%1\">%2</b>")
        .arg(widgets::axisColor(mesh, qs(a.name)).name(), qs(a.str()).toHtmlEscaped());
  };
  // Single arg() calls throughout: value names such as %1 are not placeholders.
  QString html = QStringLiteral("<p><b>%1</b> dimension %2 after step %3: ")
                     .arg(qs(o.valueName).toHtmlEscaped(), QString::number(o.dim),
                          QString::number(state_->currentStep()));
  // After the axes it holds: what kept every other axis of the mesh away.
  if (!mesh && meshIndex_ != run->index.get()) {
    meshIndex_ = run->index.get();
    runMesh_ = meshOfRun(*run->index);
  }
  const QString whyNot = whyNotHtml(api::blockedAxes(*run->index, *v, o.dim, steps), mesh ? mesh : runMesh_);
  if (!o.sharding) return html + tr("no sharding yet.</p>") + whyNot;
  QStringList axes;
  for (const AxisRef& a : o.sharding->axes) axes << axis(a);
  if (!o.sharding->closed) axes << QStringLiteral("<i>?</i>");
  html += u'{' + axes.join(QStringLiteral(", ")) + QStringLiteral("}</p>");
  if (o.axes.empty()) html += tr("<p>No axes: this dimension is replicated.</p>");
  for (const explain::AxisOrigin& a : o.axes) {
    html += QStringLiteral("<p>Axis %1<ol>").arg(axis(a.axis));
    // A long chain: its head and tail, the middle behind a link (laying
    // out hundreds of hops on every step would hold the UI thread).
    const int hops = static_cast<int>(a.hops.size());
    const bool collapse = !allHops_ && hops > kHeadHops + kTailHops + 2;
    for (int k = 0; k < hops; ++k) {
      const explain::OriginHop& h = a.hops[static_cast<size_t>(k)];
      if (collapse && k == kHeadHops) {
        const int skipped = hops - kHeadHops - kTailHops;
        html += tr("</ol><p style=\"margin-left:24px\"><i>… %1 more hops (steps %2 to %3)</i> "
                   "<a href=\"why:all-hops\">show all %4 hops</a></p>")
                    .arg(skipped)
                    .arg(h.step)
                    .arg(a.hops[static_cast<size_t>(hops - kTailHops - 1)].step)
                    .arg(hops);
        // Qt's rich text ignores <ol start>: the tail numbers itself.
        html += QStringLiteral("<ol style=\"list-style-type:none\">");
        k = hops - kTailHops - 1;
        continue;
      }
      const qsizetype item = html.size() + 4;  // after the next "<li>"
      const QString number =
          collapse && k >= hops - kTailHops ? QString::number(k + 1) + QStringLiteral(". ") : QString();
      if (h.viaShardingGroup) {
        html += QStringLiteral("<li>step %1: copied from <b>%2</b> (same sharding group)</li>")
                    .arg(QString::number(h.step), qs(h.fromName).toHtmlEscaped());
        html.insert(item, number);
        continue;
      }
      html += QStringLiteral("<li>step %1: <b>%2</b>%3, factor <b>%4</b> (%5): from %6 <b>%7</b> dim %8</li>")
                  .arg(QString::number(h.step),
                       h.op == "func.return" ? tr("function result sync")
                                             : qs(explain::shortOpName(h.op)).toHtmlEscaped(),
                       h.line ? QStringLiteral(" (line %1)").arg(h.line) : QString(), qs(h.factorName),
                       qs(h.factorKinds).toHtmlEscaped(), qs(h.fromTensor), qs(h.fromName).toHtmlEscaped(),
                       QString::number(h.fromDim));
      html.insert(item, number);
    }
    html += QStringLiteral("</ol>");
    if (a.seed)
      html += QStringLiteral("&nbsp;&nbsp;seed: <b>%1</b> — %2")
                  .arg(qs(explain::seedKindName(a.seed->kind)), qs(a.seed->description).toHtmlEscaped());
    else if (!a.note.empty())
      html += QStringLiteral("&nbsp;&nbsp;<i>%1</i>").arg(qs(a.note).toHtmlEscaped());
    html += QStringLiteral("</p>");
  }
  return html + whyNot;
}

void WhyPanel::refresh() {
  const auto& run = state_->run();
  const auto& v = state_->selectedValue();
  int rank = 0;
  if (run && run->index && v) rank = static_cast<int>(std::max<int64_t>(0, run->index->rankOf(*v)));
  {
    QSignalBlocker b(dim_);
    dim_->setRange(0, std::max(0, rank - 1));
    dim_->setValue(std::clamp(state_->selectedDimension(), 0, std::max(0, rank - 1)));
  }
  if (!isVisible()) {
    stale_ = true;  // laid out when shown
    return;
  }
  stale_ = false;
  QString html = explanationHtml();
  if (html == shownHtml_) return;  // the step left this chain as it was
  shownHtml_ = std::move(html);
  text_->setHtml(shownHtml_);
}

void WhyPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) refresh();
}

QString WhyPanel::plainText() const {
  if (stale_) {
    // Hidden since the last step: what it would show.
    QTextDocument doc;
    doc.setHtml(explanationHtml());
    return doc.toPlainText();
  }
  return text_->toPlainText();
}

void WhyPanel::showCollective(const QString& html) {
  collective_->setText(html);
  collective_->setVisible(!html.isEmpty());
}

QString WhyPanel::collectiveText() const {
  QTextDocument doc;
  doc.setHtml(collective_->text());
  return doc.toPlainText();
}

}  // namespace shardscope::widgets::trace
