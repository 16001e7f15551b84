#include "core/step_words.h"

#include <QCoreApplication>
#include <algorithm>

namespace shardscope::widgets {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("StepWords", text); }
}  // namespace

QString stepRange(int stepCount) {
  if (stepCount <= 0) return tr("no steps");
  if (stepCount == 1) return tr("step 0 only");
  return tr("steps 0–%1").arg(stepCount - 1);
}

QString stepPlaceShort(int stepsApplied) {
  return stepsApplied <= 0 ? tr("before step 0") : tr("after step %1").arg(stepsApplied - 1);
}

QString stepPlace(int stepsApplied, int stepCount) {
  if (stepCount <= 0) return tr("no steps");
  return tr("%1 (%2)").arg(stepPlaceShort(std::min(stepsApplied, stepCount)), stepRange(stepCount));
}

}  // namespace shardscope::widgets
