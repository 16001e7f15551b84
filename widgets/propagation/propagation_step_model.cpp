#include "propagation/propagation_step_model.h"

#include <QStringList>

#include "core/axis_style.h"

namespace shardscope::widgets {

PropagationStepModel::PropagationStepModel(QObject* parent) : QAbstractTableModel(parent) {}

void PropagationStepModel::setRun(std::shared_ptr<const api::PropagationRun> run) {
  beginResetModel();
  run_ = std::move(run);
  updates_.clear();
  if (run_) {
    ir::Module* module =
        run_->result && run_->result->module ? run_->result->module.get() : nullptr;
    // Numbered once: resolving each update by a walk of the module took
    // minutes over a run of 17,000 steps on 25,000 ops.
    const std::vector<ir::Op*> ops =
        module ? propagation::preOrderOps(*module) : std::vector<ir::Op*>();
    for (const auto& step : run_->trace.steps) updates_ << updatesText(step, module ? &ops : nullptr);
  }
  endResetModel();
}

int PropagationStepModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !run_) return 0;
  return static_cast<int>(run_->trace.steps.size());
}

int PropagationStepModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

namespace {
QString tensorName(const propagation::TraceStep& step, const std::string& tensor) {
  for (const auto* table : {&step.before, &step.after})
    for (const auto& row : table->rows)
      if (row.tensor == tensor && !row.value.empty()) return toQString(row.value);
  return toQString(tensor);
}
}  // namespace

QString PropagationStepModel::movesText(const propagation::TraceStep& step) {
  QStringList parts;
  for (const auto& m : step.moves)
    parts << toQString(m.axis.str()) + u' ' + tensorName(step, m.from) + QStringLiteral(" → ") +
                 tensorName(step, m.to);
  return parts.join(QStringLiteral("; "));
}

QString PropagationStepModel::updatesText(const propagation::TraceStep& step,
                                          const std::vector<ir::Op*>* ops) {
  QStringList parts;
  for (const auto& u : step.updates) {
    QString who;
    ir::Op* func = nullptr;
    ir::Value* v = ops ? propagation::resolveValueRef(*ops, u.value, &func) : nullptr;
    if (v)
      who = toQString(api::valueName(*v));
    else if (u.value.kind == "func_result")
      who = (func ? u'@' + toQString(api::symbolName(*func)) + u' ' : QString()) +
            QStringLiteral("result #%1").arg(u.value.index);
    else if (u.value.kind == "block_arg")
      who = QStringLiteral("op %1 arg %2").arg(u.value.op).arg(u.value.index);
    else
      who = QStringLiteral("op %1 #%2").arg(u.value.op).arg(u.value.index);
    parts << who + QStringLiteral(" ← ") + shardingText(u.sharding);
  }
  return parts.join(QStringLiteral("; "));
}

QVariant PropagationStepModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const propagation::TraceStep& s = run_->trace.steps[static_cast<size_t>(index.row())];
  switch (role) {
    case StepRole:
      return static_cast<int>(s.step);
    case LineRole:
      return static_cast<int>(s.line);
    case OpIndexRole:
      return static_cast<int>(s.opIndex);
    case Qt::ToolTipRole:
      if (index.column() == OpColumn && !s.rule.empty()) return toQString(s.rule);
      if (index.column() == MovesColumn) return movesText(s);
      if (index.column() == UpdatesColumn) return updates_.value(index.row());
      return {};
    case Qt::DisplayRole:
      switch (index.column()) {
        case StepColumn:
          return static_cast<int>(s.step);
        case RoundColumn: {
          QStringList r;
          if (s.userPriority >= 0) r << QStringLiteral("p%1").arg(s.userPriority);
          if (s.opPriority >= 0) r << QStringLiteral("op%1").arg(s.opPriority);
          r << toQString(s.strategy);
          return r.join(u' ');
        }
        case OpColumn:
          return toQString(s.op);
        case LineColumn:
          return s.line ? QVariant(static_cast<int>(s.line)) : QVariant(QStringLiteral("—"));
        case MovesColumn:
          return movesText(s);
        case UpdatesColumn:
          return updates_.value(index.row());
      }
      return {};
  }
  return {};
}

QVariant PropagationStepModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StepColumn:
      return tr("Step");
    case RoundColumn:
      return tr("Round");
    case OpColumn:
      return tr("Op");
    case LineColumn:
      return tr("Line");
    case MovesColumn:
      return tr("Axes moved");
    case UpdatesColumn:
      return tr("New shardings");
  }
  return {};
}

}  // namespace shardscope::widgets
