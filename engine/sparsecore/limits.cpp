#include "sparsecore/limits.h"

#include <algorithm>

namespace shardscope::sc {

static const char kAdvice[] =
    ". Use `allow_id_dropping` or increase the `max_ids_per_partition`. You could also try to "
    "reduce the batch size.";

std::string maxIdsExceededMessage(int64_t observed, const std::string& table, int64_t limit) {
  return "Observed max ids per partition: " + std::to_string(observed) + " for table: " + table +
         " is greater than the set max ids per partition: " + std::to_string(limit) + kAdvice;
}

std::string maxUniqueIdsExceededMessage(int64_t observed, const std::string& table, int64_t limit) {
  // The reference repeats `max_ids_per_partition` in the advice here too.
  return "Observed max unique ids per partition: " + std::to_string(observed) +
         " for table: " + table +
         " is greater than the set max unique ids per partition: " + std::to_string(limit) +
         kAdvice;
}

std::string idDroppingWarning(int64_t observed, const std::string& table, int64_t limit,
                              bool unique) {
  const char* what = unique ? "max unique ids per partition" : "max ids per partition";
  return std::string("Allowing ID dropping for table: ") + table + " observed " + what + ": " +
         std::to_string(observed) + " is greater than the set " + what + ": " +
         std::to_string(limit);
}

SuggestedLimits suggestLimits(const std::vector<int64_t>& maxIds,
                              const std::vector<int64_t>& maxUnique) {
  auto top = [](const std::vector<int64_t>& v) {
    int64_t m = v.empty() ? 0 : *std::max_element(v.begin(), v.end());
    return std::max<int64_t>(8, (m + 7) / 8 * 8);
  };
  return {top(maxIds), top(maxUnique)};
}

}  // namespace shardscope::sc
