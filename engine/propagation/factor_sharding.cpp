// Factor shardings (see factor_sharding.h).
#include "propagation/factor_sharding.h"

#include "propagation/axis_algebra.h"

#include <stdexcept>

namespace shardscope::propagation {

FactorSharding& FactorShardingMap::at(int64_t factor) {
  iterator it = find(factor);
  if (it == entries_.end()) throw std::out_of_range("factor " + std::to_string(factor) + " is not in the row");
  return it->second;
}

bool TensorFactorShardings::expandAxes(int64_t factor, const AxisRefList& newAxes) {
  auto it = factors.find(factor);
  if (it == factors.end()) return false;
  if (!isStrictPrefix(it->second.axes, newAxes)) return false;
  it->second.axes = newAxes;
  return true;
}

}  // namespace shardscope::propagation
