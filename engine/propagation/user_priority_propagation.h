// User-priority propagation: dimension shardings written with a priority
// `p1`, `p2`, ... take part only from their priority's round on.
//
// Before the first round every dimension with priority > 0 is made closed
// and empty, its axes moved to the tensor's `replicated` axes (so nothing
// else can use them); dimensions with priority 0 or none keep their axes.
// Op-priority propagation runs; then, for each priority in ascending order,
// the dimensions of that priority get their axes back (removed from
// `replicated` again) and op-priority propagation runs again.
//
// Example: `[{"a"}p1, {"b"}p0]` starts as `[{}, {"b"}], replicated={"a"}`;
// round p1 restores `[{"a"}, {"b", ...}]`.
#pragma once
#include "propagation/propagation_driver.h"

namespace shardscope::propagation {

bool runUserPriority(PropagationDriver& driver, const GetDirectionFn& direction);

}  // namespace shardscope::propagation
