#include "core/timeline_caption.h"

#include "api/propagate.h"
#include "core/document_state.h"
#include "core/step_words.h"

namespace shardscope::widgets {

QString timelineCaption(const QString& level, int stepsApplied, int stepCount) {
  if (level.isEmpty()) return QStringLiteral("as written");
  if (stepsApplied <= 0)
    return QStringLiteral("before propagation (%1, %2 steps)").arg(level).arg(stepCount);
  if (stepsApplied >= stepCount)
    return QStringLiteral("after propagation (%1, %2 steps)").arg(level).arg(stepCount);
  // Numbered as everywhere else (step_words.h): from 0, with the range, so
  // that "step 2" here is the step 2 of the step list and the window title.
  return QStringLiteral("%1 (%2, %3)").arg(stepPlaceShort(stepsApplied), stepRange(stepCount), level);
}

QString timelineCaption(const DocumentState& state) {
  const api::SteppedRun* run = state.steppedRun();
  if (!run || !run->run) return timelineCaption(QString(), 0, 0);
  return timelineCaption(QString::fromLatin1(api::levelName(run->run->options.level)),
                         state.stepsApplied(), state.stepCount());
}

}  // namespace shardscope::widgets
