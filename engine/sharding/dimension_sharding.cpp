// Dimension shardings.
#include "sharding/dimension_sharding.h"

namespace shardscope {

std::string DimensionSharding::str() const {
  std::string out = "{";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    out += axes[i].str();
  }
  if (!closed) out += axes.empty() ? "?" : ", ?";
  out += '}';
  if (priority) out += 'p' + std::to_string(*priority);
  return out;
}

}  // namespace shardscope
