// How every view names a place on the propagation timeline, so that the
// window title, the trace dock, the trace explorer, the Why panel and the
// presentation caption read the same. Steps are numbered from 0, as in the
// step tables, the trace JSON and `--step N`; the range says which is last.
//
//   stepPlace(0, 7)  -> "before step 0 (steps 0–6)"
//   stepPlace(4, 7)  -> "after step 3 (steps 0–6)"
//   stepPlace(7, 7)  -> "after step 6 (steps 0–6)"
//   stepPlace(0, 0)  -> "no steps"
#pragma once
#include <QString>

namespace shardscope::widgets {

// `stepsApplied` of `stepCount` steps (0 = the start, before step 0).
QString stepPlace(int stepsApplied, int stepCount);
// "after step 3" / "before step 0": stepPlace without the range.
QString stepPlaceShort(int stepsApplied);
// "steps 0–6" ("no steps" for 0).
QString stepRange(int stepCount);

}  // namespace shardscope::widgets
