#include "trace_export.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QTextLayout>
#include <memory>

#include "explain/factor_info.h"
#include "explain/factor_table.h"
#include "explain/narration.h"
#include "core/step_words.h"
#include "explain/trace_index.h"
#include "factor_table_model.h"
#include "factor_table_view.h"
#include "trace_step_model.h"

namespace shardscope::widgets::trace {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QFont bodyFont(int px = 13) {
  QFont f;
  f.setPixelSize(px);
  return f;
}

// Pictures stacked top to bottom with `gap` between them.
Picture stack(const std::vector<Picture>& parts, qreal gap) {
  Picture out;
  qreal w = 0, h = 0;
  for (const Picture& p : parts) {
    w = std::max(w, p.size.width());
    h += p.size.height();
  }
  h += gap * std::max<qsizetype>(0, qsizetype(parts.size()) - 1);
  out.size = QSizeF(w, h);
  out.paint = [parts, gap](QPainter& p) {
    p.save();
    for (const Picture& part : parts) {
      if (part.paint) part.paint(p);
      p.translate(0, part.size.height() + gap);
    }
    p.restore();
  };
  return out;
}

// Word-wrapped lines of text in `width`; each entry: (text, bold, colour, indent).
struct TextLine {
  QString text;
  bool bold = false;
  QColor color = QColor(0x20, 0x20, 0x20);
  qreal indent = 0;
};

Picture textBlock(const QList<TextLine>& lines, qreal width, const QString& heading = {}) {
  const QFont font = bodyFont();
  QFont bold = font;
  bold.setBold(true);
  struct Laid {
    std::shared_ptr<QTextLayout> layout;
    QColor color;
    qreal y;
  };
  auto laid = std::make_shared<std::vector<Laid>>();
  qreal y = 8;
  auto lay = [&](const QString& text, const QFont& f, const QColor& c, qreal indent) {
    auto l = std::make_shared<QTextLayout>(text, f);
    QTextOption opt;
    opt.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    l->setTextOption(opt);
    l->beginLayout();
    qreal ly = 0;
    bool firstLine = true;
    for (;;) {
      QTextLine line = l->createLine();
      if (!line.isValid()) break;
      const qreal ind = 10 + indent + (firstLine ? 0 : 18);
      line.setLineWidth(width - ind - 10);
      line.setPosition(QPointF(ind, ly));
      ly += line.height() + 1;
      firstLine = false;
    }
    l->endLayout();
    laid->push_back({l, c, y});
    y += ly + 3;
  };
  if (!heading.isEmpty()) lay(heading, bold, QColor(0x20, 0x20, 0x20), 0);
  for (const TextLine& t : lines) lay(t.text, t.bold ? bold : font, t.color, t.indent);
  Picture out;
  out.size = QSizeF(width, y + 6);
  out.paint = [laid, width, h = y + 6](QPainter& p) {
    p.save();
    p.setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 1));
    p.setBrush(QColor(0xfa, 0xfa, 0xf7));
    p.drawRoundedRect(QRectF(0.5, 0.5, width - 1, h - 1), 4, 4);
    for (const Laid& l : *laid) {
      p.setPen(l.color);
      l.layout->draw(&p, QPointF(0, l.y));
    }
    p.restore();
  };
  return out;
}

// The step list around `current` (at most `maxRows` rows).
Picture stepListPicture(const TraceRun& run, int current, int maxRows) {
  auto model = std::make_shared<TraceStepModel>();
  model->setRun(std::shared_ptr<const TraceRun>(std::shared_ptr<const TraceRun>(), &run));
  const int n = model->rowCount();
  int first = std::max(0, current - maxRows / 2);
  int last = std::min(n - 1, first + maxRows - 1);
  first = std::max(0, last - maxRows + 1);
  const QFont font = bodyFont();
  QFont bold = font;
  bold.setBold(true);
  QFontMetricsF fm(font), bfm(bold);
  const int cols = TraceStepModel::NumColumns;
  std::vector<qreal> widths(cols, 0);
  for (int c = 0; c < cols; ++c) {
    widths[size_t(c)] = bfm.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + 16;
    for (int r = first; r <= last; ++r)
      widths[size_t(c)] = std::max(widths[size_t(c)], fm.horizontalAdvance(model->index(r, c).data().toString()) + 16);
  }
  widths[TraceStepModel::SummaryColumn] = std::min<qreal>(widths[TraceStepModel::SummaryColumn], 520);
  qreal w = 0;
  for (qreal x : widths) w += x;
  const qreal rowH = fm.height() + 8;
  const int rows = n == 0 ? 0 : last - first + 1;
  const bool moreBefore = first > 0, moreAfter = last < n - 1;
  const qreal h = rowH * (rows + 1 + (moreBefore ? 1 : 0) + (moreAfter ? 1 : 0));
  Picture out;
  out.size = QSizeF(w, h);
  out.paint = [model, first, last, rows, widths, rowH, w, font, bold, moreBefore, moreAfter, current, n](QPainter& p) {
    p.save();
    p.fillRect(QRectF(0, 0, w, rowH), QColor(0xee, 0xf1, 0xf5));
    qreal x = 0;
    p.setFont(bold);
    p.setPen(QColor(0x20, 0x20, 0x20));
    for (int c = 0; c < TraceStepModel::NumColumns; ++c) {
      p.drawText(QRectF(x + 8, 0, widths[size_t(c)] - 12, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                 model->headerData(c, Qt::Horizontal).toString());
      x += widths[size_t(c)];
    }
    qreal y = rowH;
    p.setFont(font);
    auto note = [&](const QString& t) {
      p.setPen(QColor(0x77, 0x77, 0x77));
      p.drawText(QRectF(8, y, w - 16, rowH), Qt::AlignVCenter | Qt::AlignLeft, t);
      y += rowH;
    };
    if (moreBefore) note(QStringLiteral("… %1 earlier step(s)").arg(first));
    for (int r = first; r <= last && rows > 0; ++r) {
      if (r == current) {
        p.fillRect(QRectF(0, y, w, rowH), QColor(0xd6, 0xe6, 0xfa));
        p.setPen(QPen(QColor(0x30, 0x6e, 0xc8), 1.5));
        p.drawRect(QRectF(0.75, y + 0.75, w - 1.5, rowH - 1.5));
      } else if ((r - first) % 2) {
        p.fillRect(QRectF(0, y, w, rowH), QColor(0xf7, 0xf7, 0xf7));
      }
      x = 0;
      for (int c = 0; c < TraceStepModel::NumColumns; ++c) {
        const QModelIndex i = model->index(r, c);
        QColor fg = i.data(Qt::ForegroundRole).value<QColor>();
        p.setPen(fg.isValid() ? fg : QColor(0x20, 0x20, 0x20));
        const QRectF cell(x + 8, y, widths[size_t(c)] - 12, rowH);
        const QString text = QFontMetricsF(font).elidedText(i.data().toString(), Qt::ElideRight, cell.width());
        p.drawText(cell, Qt::AlignVCenter | (c == TraceStepModel::SummaryColumn || c == TraceStepModel::OpColumn
                                                 ? Qt::AlignLeft
                                                 : Qt::AlignRight),
                   text);
        x += widths[size_t(c)];
      }
      y += rowH;
    }
    if (moreAfter) note(QStringLiteral("… %1 later step(s)").arg(n - 1 - last));
    p.setPen(QPen(QColor(0xc8, 0xc8, 0xc8), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(0.5, 0.5, w - 1, y - 1));
    p.restore();
  };
  return out;
}

const Mesh* meshOfStep(const TraceRun& run, const propagation::TraceStep& step) {
  if (!run.input) return nullptr;
  for (const auto& u : step.updates)
    if (const Mesh* m = run.input->meshOf(u.sharding)) return m;
  return nullptr;
}

// The factor table picture for a step (or an op without a step) with its model kept alive.
Picture tablePicture(explain::FactorTable table, bool dimensionView) {
  auto model = std::make_shared<FactorTableModel>();
  model->setTable(std::move(table));
  model->setDimensionView(dimensionView);
  Picture inner = factorTablePicture(*model);
  Picture out = inner;
  out.paint = [model, inner](QPainter& p) { inner.paint(p); };
  return out;
}

// "user-priority round 0 · op-priority stage 2 · aggressive" (the step's
// strategy only when it is not the run's name).
QString roundText(const propagation::TraceStep& s, const QString& runStrategy) {
  QStringList parts;
  if (s.userPriority >= 0) parts << QStringLiteral("user-priority round %1").arg(s.userPriority);
  if (s.opPriority >= 0) parts << QStringLiteral("op-priority stage %1").arg(s.opPriority);
  if (!s.strategy.empty() && qs(s.strategy) != runStrategy) parts << qs(s.strategy) + QStringLiteral(" strategy");
  return parts.join(QStringLiteral(" · "));
}

// withTitle() sizes itself by the title; widen the content so that a long
// subtitle is not clipped.
Picture titled(Picture content, const QString& title, const QString& subtitle) {
  QFont sf;
  sf.setPixelSize(12);
  const qreal need = QFontMetricsF(sf).horizontalAdvance(subtitle) + 4;
  if (content.size.width() < need) content.size.setWidth(need);
  return withTitle(content, title, subtitle);
}

}  // namespace

bool parseTraceExportView(const QString& name, TraceExportView* view) {
  const QString n = name.trimmed().toLower();
  TraceExportView v;
  if (n == QLatin1String("factors") || n == QLatin1String("factor")) v = TraceExportView::Factors;
  else if (n == QLatin1String("trace")) v = TraceExportView::Trace;
  else return false;
  if (view) *view = v;
  return true;
}

int findOpIndex(const TraceRun& run, const QString& name) {
  if (!run.index || name.isEmpty()) return -1;
  const std::string n = name.trimmed().toStdString();
  const auto& ops = run.index->ops();
  if (!n.empty() && n.front() == '%') {
    for (size_t i = 0; i < ops.size(); ++i)
      for (unsigned r = 0; r < ops[i]->numResults(); ++r) {
        const std::string& s = ops[i]->result(r)->sourceName;
        const std::string v = s.empty() ? s : (s.front() == '%' ? s : "%" + s);
        if (v == n || v + "#" + std::to_string(r) == n || (n.find('#') != std::string::npos && v == n.substr(0, n.find('#'))))
          return static_cast<int>(i);
      }
    return -1;
  }
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i]->name() == n || explain::shortOpName(ops[i]->name()) == n) return static_cast<int>(i);
  return -1;
}

Picture traceExportPicture(const TraceRun& run, const TraceExportOptions& o, QString* error) {
  auto fail = [&](const QString& m) {
    if (error) *error = m;
    return Picture();
  };
  if (run.status == explain::RunStatus::Invalid) return fail(run.summary());
  const QString file = QFileInfo(qs(run.fileName)).fileName();
  const int n = static_cast<int>(run.trace.steps.size());
  int opIndex = -1;
  if (!o.op.isEmpty()) {
    opIndex = findOpIndex(run, o.op);
    if (opIndex < 0) return fail(QStringLiteral("no op named '%1' in %2").arg(o.op, file));
  }
  int step = o.step;
  if (step >= n) return fail(QStringLiteral("step %1 does not exist (the %2 run has %3 step(s))")
                                 .arg(step)
                                 .arg(strategyName(run.strategy()))
                                 .arg(n));
  if (step < 0) {
    if (opIndex >= 0) {
      for (int i = 0; i < n; ++i)
        if (run.trace.steps[size_t(i)].opIndex == opIndex) step = i;
    } else {
      // The last step of an op with a sharding rule: result syncs and the
      // closing normalisation step (priorities dropped) only when nothing
      // else moved.
      step = n - 1;
      for (int i = n - 1; i >= 0; --i)
        if (!run.trace.steps[size_t(i)].rule.empty()) {
          step = i;
          break;
        }
    }
  }
  const QString strategy = strategyName(run.strategy());
  if (step < 0) {
    // No step to show: the op with its final shardings (factors), or an empty trace.
    if (o.view == TraceExportView::Factors && opIndex >= 0 && run.output) {
      const auto outOps = propagation::preOrderOps(*run.output);
      if (static_cast<size_t>(opIndex) >= outOps.size()) return fail(QStringLiteral("op index out of range"));
      std::string err;
      explain::FactorTable t = explain::factorTableForOp(*run.output, *outOps[size_t(opIndex)], &err);
      if (t.columns.empty() && t.rows.empty()) return fail(qs(err));
      const QString title = file + QStringLiteral(" — ") + qs(explain::shortOpName(t.op)) +
                            (t.line ? QStringLiteral(" (line %1)").arg(t.line) : QString()) +
                            QStringLiteral(" — factor table");
      return titled(tablePicture(std::move(t), o.dimensionView), title,
                       QStringLiteral("final shardings after %1 propagation (no step changed this op) · rule %2")
                           .arg(strategy, qs(explain::factorTableForOp(*run.output, *outOps[size_t(opIndex)]).rule)));
    }
    if (n == 0) {
      QList<TextLine> lines{{QStringLiteral("Propagation made no change: every sharding was already final."), false}};
      for (const auto& note : run.trace.notes) lines.append({qs(note), false, QColor(0x80, 0x40, 0x00)});
      return titled(textBlock(lines, 560), file + QStringLiteral(" — propagation trace"),
                       strategy + QStringLiteral(" · 0 steps"));
    }
    return fail(QStringLiteral("'%1' was not changed by any step").arg(o.op));
  }

  const propagation::TraceStep& s = run.trace.steps[size_t(step)];
  const Mesh* mesh = meshOfStep(run, s);
  explain::FactorTable table = explain::factorTableForStep(s, !o.before, mesh);
  const QString headline = qs(explain::stepHeadline(s));
  const QString when = o.before ? QStringLiteral("before") : QStringLiteral("after");
  if (o.view == TraceExportView::Factors) {
    if (table.columns.empty()) return fail(QStringLiteral("step %1 has no rule to draw").arg(step));
    const QString title = file + QStringLiteral(" — ") + headline + QStringLiteral(" — factor table %1 step %2").arg(when).arg(step);
    const QString rounds = roundText(s, strategy);
    const QString sub = QStringLiteral("%1 propagation%2 · rule %3")
                            .arg(strategy, rounds.isEmpty() ? QString() : QStringLiteral(" · ") + rounds, qs(s.rule));
    return titled(tablePicture(std::move(table), o.dimensionView), title, sub);
  }
  // The trace view.
  const explain::StepNarration nar = explain::narrateStep(s, run.index.get());
  QList<TextLine> lines;
  lines.append({qs(nar.context), false, QColor(0x55, 0x55, 0x55)});
  for (const auto& f : nar.factors)
    lines.append({qs(f.sentence), false, f.conflict && !f.moved ? QColor(0xa0, 0x28, 0x1e) : QColor(0x20, 0x20, 0x20), 8});
  if (nar.factors.empty()) lines.append({QString::fromStdString(nar.noFactorNote), false, QColor(0x55, 0x55, 0x55), 8});
  for (const auto& u : nar.updates) lines.append({qs(u), true, QColor(0x20, 0x20, 0x20), 8});
  Picture steps = stepListPicture(run, step, 16);
  Picture table2 = table.columns.empty() ? Picture() : tablePicture(std::move(table), o.dimensionView);
  const qreal width = std::max({steps.size.width(), table2.size.width(), 560.0});
  std::vector<Picture> parts{steps, textBlock(lines, width, QStringLiteral("Step %1: %2").arg(step).arg(headline))};
  if (!table2.isNull()) parts.push_back(table2);
  const QString title = file + QStringLiteral(" — propagation trace — step %1 (%2)").arg(step).arg(stepRange(n));
  return titled(stack(parts, 14), title, QStringLiteral("%1 propagation · factor table %2 the step").arg(strategy, when));
}

Picture traceExportPicture(const QString& moduleText, const QString& fileName, const TraceExportOptions& o,
                           QString* error) {
  std::shared_ptr<const TraceRun> run =
      runPropagation(moduleText.toStdString(), fileName.toStdString(), optionsFor(o.strategy));
  const Picture pic = traceExportPicture(*run, o, error);
  if (pic.isNull()) return pic;
  Picture keep = pic;
  keep.paint = [run, pic](QPainter& p) { pic.paint(p); };  // keeps the run alive
  return keep;
}

bool exportTracePanel(const QString& path, const TraceRun& run, const TraceExportOptions& o, QString* error) {
  const Picture pic = traceExportPicture(run, o, error);
  if (pic.isNull()) return false;
  return writePicture(pic, path, error);
}

bool exportTracePanel(const QString& path, const QString& moduleText, const QString& fileName,
                      const TraceExportOptions& o, QString* error) {
  auto run = runPropagation(moduleText.toStdString(), fileName.toStdString(), optionsFor(o.strategy));
  return exportTracePanel(path, *run, o, error);
}

bool exportTracePanel(const QString& path, const api::Document& doc, const TraceExportOptions& o, QString* error) {
  if (!doc.module || doc.hasErrors()) {
    if (error) *error = QStringLiteral("%1 has %2 error(s); cannot propagate").arg(qs(doc.name)).arg(doc.errorCount());
    return false;
  }
  return exportTracePanel(path, qs(doc.text), qs(doc.name.empty() ? doc.path : doc.name), o, error);
}

QImage renderTracePicture(const Picture& picture, double scale) {
  if (picture.isNull()) return {};
  QImage img((picture.size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  p.scale(scale, scale);
  picture.paint(p);
  return img;
}

}  // namespace shardscope::widgets::trace
