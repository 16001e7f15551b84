// Factor shardings (see factor_sharding.h).
#include "propagation/factor_sharding.h"

#include "propagation/axis_algebra.h"

namespace shardscope::propagation {

bool TensorFactorShardings::expandAxes(int64_t factor, const AxisRefList& newAxes) {
  auto it = factors.find(factor);
  if (it == factors.end()) return false;
  if (!isStrictPrefix(it->second.axes, newAxes)) return false;
  it->second.axes = newAxes;
  return true;
}

}  // namespace shardscope::propagation
