// The words titles use for the state the views show, from the window's one
// propagation timeline (document_state.h). Steps are numbered from 0 as in
// the trace explorer and its pictures:
//
//   no run                        "as written"
//   a 12-step run, at its input   "before propagation (user-priority, 12 steps)"
//   after 4 of its steps          "after step 3 (steps 0–11, user-priority)"
//   after all of them             "after propagation (user-priority, 12 steps)"
#pragma once
#include <QString>

namespace shardscope::widgets {

class DocumentState;

QString timelineCaption(const DocumentState& state);
// The same from the numbers: `level` "" means no run.
QString timelineCaption(const QString& level, int stepsApplied, int stepCount);

}  // namespace shardscope::widgets
