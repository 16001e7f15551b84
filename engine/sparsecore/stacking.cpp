#include "sparsecore/stacking.h"

#include <algorithm>
#include <map>

namespace shardscope::sc {

int paddedWidth(int width) { return static_cast<int>(roundUp(width, 8)); }

int64_t paddedVocab(int64_t vocab, int totalSparseCores) {
  return roundUp(vocab, int64_t{8} * totalSparseCores);
}

namespace {

bool hasExplicitSettings(const Job& job) {
  for (const TableSpec& t : job.tables)
    if (t.settingInStack) return true;
  return false;
}

// Tables grouped as the reference's automatic stacking does: same padded
// width and optimizer (the reference also keys on combiner and
// quantization, which this model does not carry).
std::vector<std::vector<int>> automaticGroups(const Job& job) {
  std::vector<std::vector<int>> groups;
  std::map<std::pair<int, std::string>, size_t> groupOf;
  for (size_t t = 0; t < job.tables.size(); ++t) {
    const TableSpec& table = job.tables[t];
    if (!job.tableStacking) {
      groups.push_back({static_cast<int>(t)});
      continue;
    }
    auto key = std::make_pair(paddedWidth(table.width), table.optimizer);
    auto [it, inserted] = groupOf.emplace(key, groups.size());
    if (inserted)
      groups.push_back({static_cast<int>(t)});
    else
      groups[it->second].push_back(static_cast<int>(t));
  }
  return groups;
}

// Tables grouped by their explicit stack name, in order of first appearance.
std::vector<std::vector<int>> namedGroups(const Job& job) {
  std::vector<std::vector<int>> groups;
  std::map<std::string, size_t> groupOf;
  for (size_t t = 0; t < job.tables.size(); ++t) {
    auto [it, inserted] = groupOf.emplace(job.tables[t].settingInStack->stackName, groups.size());
    if (inserted)
      groups.push_back({static_cast<int>(t)});
    else
      groups[it->second].push_back(static_cast<int>(t));
  }
  return groups;
}

void placeMembers(const Job& job, const std::vector<int>& group, bool explicitSettings,
                  StackPlan& plan) {
  const int n = job.totalSparseCores();
  int64_t rowOffset = 0;
  int rotation = 0;
  for (int t : group) {
    const TableSpec& table = job.tables[t];
    StackMember m;
    m.tableIndex = t;
    if (explicitSettings) {
      const TableSettingInStack& setting = *table.settingInStack;
      m.paddedVocab = setting.paddedVocabSize;
      m.paddedWidth = setting.paddedEmbeddingDim;
      m.rowOffsetInShard = setting.rowOffsetInShard;
      m.shardRotation = setting.shardRotation % n;
    } else {
      m.paddedVocab = paddedVocab(table.vocabSize, n);
      m.paddedWidth = paddedWidth(table.width);
      m.rowOffsetInShard = rowOffset;
      m.shardRotation = rotation;
      rowOffset += m.paddedVocab / n;
      rotation = (rotation + job.rotation()) % n;
    }
    m.colOffset = m.rowOffsetInShard * n;
    if (!plan.name.empty() && !explicitSettings) plan.name += "_";
    if (!explicitSettings) plan.name += table.name;
    plan.paddedWidth = std::max(plan.paddedWidth, m.paddedWidth);
    // Explicit rows may leave gaps: the stack spans up to its last row.
    plan.stackVocab = explicitSettings ? std::max(plan.stackVocab, m.colOffset + m.paddedVocab)
                                       : plan.stackVocab + m.paddedVocab;
    plan.members.push_back(m);
  }
  if (explicitSettings) plan.name = job.tables[group.front()].settingInStack->stackName;
}

// Features of the stack in job order, each with its id transformation: the
// given one, or the member's offset and rotation and the running sample
// count (the reference's derivation).
void attachFeatures(const Job& job, StackPlan& plan) {
  const int n = job.totalSparseCores();
  plan.columnSpace = plan.stackVocab;
  int64_t rowOffset = 0;
  for (size_t f = 0; f < job.features.size(); ++f) {
    const FeatureSpec& feature = job.features[f];
    for (size_t k = 0; k < plan.members.size(); ++k) {
      const StackMember& m = plan.members[k];
      const TableSpec& table = job.tables[m.tableIndex];
      if (table.name != feature.table) continue;
      StackFeature sf;
      sf.featureIndex = static_cast<int>(f);
      sf.memberIndex = static_cast<int>(k);
      sf.name = feature.name;
      if (feature.idTransformation) {
        const IdTransformation& given = *feature.idTransformation;
        sf.rowOffset = given.rowOffset;
        sf.colOffset = given.colOffset;
        sf.colShift = given.colShift % n;
        sf.explicitTransformation = true;
        if (sf.colOffset != m.colOffset || sf.colShift != m.shardRotation)
          plan.warnings.push_back(
              "feature '" + feature.name + "': id_transformation (col_offset " +
              std::to_string(sf.colOffset) + ", col_shift " + std::to_string(sf.colShift) +
              ") differs from table '" + table.name + "' in its stack (row_offset_in_shard " +
              std::to_string(m.rowOffsetInShard) + " x " + std::to_string(n) +
              " SparseCores = " + std::to_string(m.colOffset) + ", shard_rotation " +
              std::to_string(m.shardRotation) + "): its ids land on other rows");
      } else {
        sf.rowOffset = rowOffset;
        sf.colOffset = m.colOffset;
        sf.colShift = m.shardRotation;
      }
      rowOffset += std::max<int64_t>(static_cast<int64_t>(feature.ids.sampleCount()), job.batchSize);
      // Ids are below the vocabulary, so columns stay below the offset plus
      // the vocabulary rounded up to N.
      plan.columnSpace = std::max(plan.columnSpace, sf.colOffset + roundUp(table.vocabSize, n));
      plan.features.push_back(sf);
    }
  }
}

}  // namespace

std::vector<StackPlan> planStacks(const Job& job) {
  const bool explicitSettings = hasExplicitSettings(job);
  const std::vector<std::vector<int>> groups =
      explicitSettings ? namedGroups(job) : automaticGroups(job);

  std::vector<StackPlan> plans;
  for (const std::vector<int>& group : groups) {
    StackPlan plan;
    plan.explicitSetting = explicitSettings;
    placeMembers(job, group, explicitSettings, plan);
    attachFeatures(job, plan);
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
