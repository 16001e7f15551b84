#include "sparsecore/stacking.h"

#include <map>

namespace shardscope::sc {

int paddedWidth(int width) { return static_cast<int>(roundUp(width, 8)); }

int64_t paddedVocab(int64_t vocab, int totalSparseCores) {
  return roundUp(vocab, int64_t{8} * totalSparseCores);
}

std::vector<StackPlan> planStacks(const Job& job) {
  const int n = job.totalSparseCores();
  // Group key: padded width + optimizer (the reference also keys on combiner
  // and quantization, which this model does not carry).
  std::vector<std::vector<int>> groups;
  std::map<std::pair<int, std::string>, size_t> groupOf;
  for (size_t t = 0; t < job.tables.size(); ++t) {
    const TableSpec& table = job.tables[t];
    if (!job.tableStacking) {
      groups.push_back({static_cast<int>(t)});
      continue;
    }
    auto key = std::make_pair(paddedWidth(table.width), table.optimizer);
    auto it = groupOf.find(key);
    if (it == groupOf.end()) {
      groupOf[key] = groups.size();
      groups.push_back({static_cast<int>(t)});
    } else {
      groups[it->second].push_back(static_cast<int>(t));
    }
  }

  std::vector<StackPlan> plans;
  for (const std::vector<int>& group : groups) {
    StackPlan plan;
    int64_t rowOffset = 0;
    int rotation = 0;
    for (int t : group) {
      const TableSpec& table = job.tables[t];
      StackMember m;
      m.tableIndex = t;
      m.paddedVocab = paddedVocab(table.vocabSize, n);
      m.paddedWidth = paddedWidth(table.width);
      m.rowOffsetInShard = rowOffset;
      m.shardRotation = rotation;
      m.colOffset = rowOffset * n;
      rowOffset += m.paddedVocab / n;
      rotation = (rotation + job.rotation()) % n;
      if (!plan.name.empty()) plan.name += "_";
      plan.name += table.name;
      plan.paddedWidth = std::max(plan.paddedWidth, m.paddedWidth);
      plan.stackVocab += m.paddedVocab;
      plan.members.push_back(m);
    }
    for (size_t f = 0; f < job.features.size(); ++f)
      for (size_t k = 0; k < plan.members.size(); ++k)
        if (job.tables[plan.members[k].tableIndex].name == job.features[f].table)
          plan.features.push_back({static_cast<int>(f), static_cast<int>(k)});
    if (plan.members.size() == 1) {
      const TableSpec& only = job.tables[plan.members[0].tableIndex];
      plan.maxIdsPerPartition = only.maxIdsPerPartition;
      plan.maxUniqueIdsPerPartition = only.maxUniqueIdsPerPartition;
    } else {
      plan.maxIdsPerPartition = job.stackedMaxIdsPerPartition;
      plan.maxUniqueIdsPerPartition = job.stackedMaxUniqueIdsPerPartition;
      bool custom = false;
      for (const StackMember& m : plan.members) {
        const TableSpec& t = job.tables[m.tableIndex];
        custom = custom || t.maxIdsPerPartition != kDefaultMaxIdsPerPartition ||
                 t.maxUniqueIdsPerPartition != kDefaultMaxUniqueIdsPerPartition;
      }
      if (custom)
        plan.warnings.push_back("stacking " + std::to_string(plan.members.size()) +
                                " tables: per-table limits are ignored, the stack uses max_ids=" +
                                std::to_string(plan.maxIdsPerPartition) + ", max_unique_ids=" +
                                std::to_string(plan.maxUniqueIdsPerPartition) +
                                " (set \"stacked_limits\")");
    }
    if (plan.features.empty()) plan.warnings.push_back("no feature looks up " + plan.name);
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace shardscope::sc
