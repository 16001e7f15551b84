#include "trace_step_model.h"

#include <QColor>

#include "explain/factor_info.h"
#include "explain/narration.h"

namespace shardscope::widgets::trace {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString rowName(const propagation::TraceStep& step, const std::string& tensor) {
  for (const auto& row : step.after.rows)
    if (row.tensor == tensor && !row.value.empty()) return qs(row.value);
  return qs(tensor);
}
}  // namespace

TraceStepModel::TraceStepModel(QObject* parent) : QAbstractTableModel(parent) {}

QString TraceStepModel::summary(const propagation::TraceStep& step) {
  QStringList parts;
  for (const auto& m : step.moves)
    parts << qs(m.axis.str()) + u' ' + rowName(step, m.from) + QStringLiteral("→") + rowName(step, m.to);
  parts.removeDuplicates();
  QString out = parts.join(QStringLiteral(", "));
  if (!step.conflicts.empty())
    out += (out.isEmpty() ? QString() : QStringLiteral("; ")) +
           QStringLiteral("%1 conflict(s)").arg(step.conflicts.size());
  return out;
}

void TraceStepModel::setRun(std::shared_ptr<const TraceRun> run) {
  beginResetModel();
  run_ = std::move(run);
  summaries_.clear();
  if (run_)
    for (const auto& s : run_->trace.steps) summaries_ << summary(s);
  endResetModel();
}

int TraceStepModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !run_ ? 0 : static_cast<int>(run_->trace.steps.size());
}

int TraceStepModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : NumColumns; }

QVariant TraceStepModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& s = run_->trace.steps[static_cast<size_t>(index.row())];
  switch (role) {
    case StepRole: return static_cast<int>(s.step);
    case UserPriorityRole: return static_cast<int>(s.userPriority);
    case OpPriorityRole: return static_cast<int>(s.opPriority);
    case OpIndexRole: return static_cast<int>(s.opIndex);
    case LineRole: return static_cast<int>(s.line);
    case ConflictRole: return !s.conflicts.empty();
    case NarrationRole: return qs(explain::narration(s, run_->index.get()));
    case Qt::ToolTipRole:
      if (index.column() == OpColumn || index.column() == SummaryColumn)
        return qs(explain::narration(s, run_->index.get())).trimmed();
      return {};
    case Qt::ForegroundRole:
      if (index.column() == SummaryColumn && !s.conflicts.empty() && s.moves.empty()) return QColor(0xb0, 0x30, 0x20);
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == StepColumn || index.column() == LineColumn || index.column() == RoundColumn ||
          index.column() == StageColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::DisplayRole:
      switch (index.column()) {
        case StepColumn: return static_cast<int>(s.step);
        case RoundColumn: return s.userPriority >= 0 ? QVariant(QStringLiteral("p%1").arg(s.userPriority)) : QVariant();
        case StageColumn: return s.opPriority >= 0 ? QVariant(static_cast<int>(s.opPriority)) : QVariant();
        case OpColumn: {
          QString t = qs(explain::shortOpName(s.op));
          for (const auto& row : s.after.rows)
            if (row.tensor == "result-0" && !row.value.empty()) t += u' ' + qs(row.value);
          return t;
        }
        case LineColumn: return s.line ? QVariant(static_cast<int>(s.line)) : QVariant();
        case SummaryColumn: return summaries_.value(index.row());
      }
      return {};
  }
  return {};
}

QVariant TraceStepModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case RoundColumn: return tr("user-priority round");
      case StageColumn: return tr("op-priority stage (0-4)");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case StepColumn: return tr("Step");
    case RoundColumn: return tr("Round");
    case StageColumn: return tr("Stage");
    case OpColumn: return tr("Op");
    case LineColumn: return tr("Line");
    case SummaryColumn: return tr("What moved");
  }
  return {};
}

}  // namespace shardscope::widgets::trace
