// Dimension shardings.
#include "sharding/dimension_sharding.h"

namespace shardscope {

std::string DimensionSharding::str() const {
  std::string out;
  print(out);
  return out;
}

void DimensionSharding::print(std::string& out) const {
  out += '{';
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    axes[i].print(out);
  }
  if (!closed) out += axes.empty() ? "?" : ", ?";
  out += '}';
  if (priority) {
    out += 'p';
    out += std::to_string(*priority);
  }
}

}  // namespace shardscope
