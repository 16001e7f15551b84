#include "sparsecore/analysis_format.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace shardscope::sc {

using nlohmann::json;

std::string formatBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

json analysisToJson(const AnalysisReport& r) {
  json out;
  out["chip"] = r.chip;
  out["devices"] = r.devices;
  out["sparse_cores_per_device"] = r.sparseCoresPerDevice;
  out["total_sparse_cores"] = r.totalSparseCores;
  out["allow_id_dropping"] = r.allowIdDropping;
  out["enable_minibatching"] = r.enableMinibatching;
  out["minibatching_required"] = r.minibatchingRequired;
  out["minibatches"] = r.minibatches;
  out["max_ids_per_sample"] = r.maxIdsPerSample;
  out["tables"] = json::array();
  for (const TableReport& t : r.tables) {
    const StackStats& s = t.stats;
    json members = json::array();
    for (size_t m = 0; m < t.memberMemory.size(); ++m) {
      const TableMemory& tm = t.memberMemory[m];
      members.push_back({{"name", tm.name},
                         {"vocab_size", tm.vocabSize},
                         {"width", tm.width},
                         {"padded_vocab_size", tm.paddedVocab},
                         {"padded_width", tm.paddedWidth},
                         {"hbm_bytes", tm.allocatedBytes},
                         {"hbm_bytes_per_chip", tm.bytesPerChip},
                         {"hbm_waste_bytes", tm.wasteBytes},
                         {"ids_per_partition", s.memberIdsPerPartition[m]}});
      // The place in the stack, given or derived (the reference's names).
      if (m < t.plan.members.size()) {
        const StackMember& place = t.plan.members[m];
        members.back()["setting_in_stack"] = {{"stack_name", t.plan.name},
                                              {"padded_vocab_size", place.paddedVocab},
                                              {"padded_embedding_dim", place.paddedWidth},
                                              {"row_offset_in_shard", place.rowOffsetInShard},
                                              {"shard_rotation", place.shardRotation}};
      }
    }
    json features = json::array();
    for (const StackFeature& f : t.plan.features)
      features.push_back({{"name", f.name},
                          {"table", s.tables.at(static_cast<size_t>(f.memberIndex))},
                          {"explicit", f.explicitTransformation},
                          {"id_transformation",
                           {{"row_offset", f.rowOffset},
                            {"col_offset", f.colOffset},
                            {"col_shift", f.colShift}}}});
    const SpmemEstimate& sp = t.memory.spmem;
    json spmem = {{"ids_staging_bytes", sp.idsStagingBytes},
                  {"unique_rows_bytes", sp.uniqueRowsBytes},
                  {"fixed_bytes_per_tile", sp.fixedBytesPerTile},
                  {"gather_bytes_per_tile", sp.gatherBytesPerTile},
                  {"tile_spmem_bytes", sp.capacityPerTile},
                  {"occupancy", sp.occupancy},
                  {"fits", !sp.error.has_value()}};
    if (sp.error) spmem["error"] = *sp.error;
    int64_t tableBytes = 0, waste = 0, perChip = 0;
    for (const TableMemory& tm : t.memberMemory) {
      tableBytes += tm.allocatedBytes;
      waste += tm.wasteBytes;
      perChip += tm.bytesPerChip;
    }
    out["tables"].push_back({
        {"name", s.name},
        {"tables", s.tables},
        {"members", members},
        {"features", features},
        {"padded_width", t.paddedWidth},
        {"limits",
         {{"max_ids_per_partition", s.maxIdsLimit},
          {"max_unique_ids_per_partition", s.maxUniqueIdsLimit}}},
        {"max_ids_per_partition", s.maxIdsPerPartition},
        {"max_unique_ids_per_partition", s.maxUniqueIdsPerPartition},
        {"required_buffer_per_sparse_core", s.requiredBufferPerSparseCore},
        {"input_ids", s.inputIds},
        {"ids_after_merge", s.idsAfterMerge},
        {"dropped_ids", s.droppedIds},
        {"minibatches", t.minibatches},
        {"samples_per_sparse_core", s.samplesPerSparseCore},
        {"max_unique_ids_per_sample", s.maxUniqueIdsPerSample},
        {"suggested_limits",
         {{"max_ids_per_partition", t.suggested.maxIdsPerPartition},
          {"max_unique_ids_per_partition", t.suggested.maxUniqueIdsPerPartition}}},
        {"spmem", spmem},
        {"hbm",
         {{"table_bytes", tableBytes},
          {"table_bytes_per_chip", perChip},
          {"padding_waste_bytes", waste},
          {"stack_forward_bytes", t.memory.hbmStackForwardBytes},
          {"stack_backward_bytes", t.memory.hbmStackBackwardBytes},
          {"coo_buffer_entries_per_device", t.memory.cooBufferEntriesPerDevice},
          {"required_entries_per_device", t.memory.requiredEntriesPerDevice}}},
        {"warnings", t.warnings},
    });
    // Full (source SparseCore x partition) matrices for small systems.
    if (s.partitions <= 64) {
      json ids = json::array(), uniq = json::array();
      for (int g = 0; g < s.partitions; ++g) {
        auto row = [&](const std::vector<int64_t>& m) {
          return std::vector<int64_t>(m.begin() + size_t(g) * s.partitions,
                                      m.begin() + size_t(g + 1) * s.partitions);
        };
        ids.push_back(row(s.idsPerSourcePartition));
        uniq.push_back(row(s.uniqueIdsPerSourcePartition));
      }
      out["tables"].back()["ids_per_source_partition"] = std::move(ids);
      out["tables"].back()["unique_ids_per_source_partition"] = std::move(uniq);
    }
  }
  out["hbm"] = {{"tables_per_chip", r.memory.hbmTablesPerChip},
                {"stack_per_chip", r.memory.hbmStackPerChip},
                {"heap_per_chip", r.memory.hbmHeapPerChip},
                {"total_per_chip", r.memory.hbmTotalPerChip()},
                {"capacity_per_chip", r.memory.hbmCapacityPerChip}};
  out["warnings"] = r.warnings;
  out["error"] = r.error ? json(*r.error) : json(nullptr);
  return out;
}

static std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

std::string analysisToText(const AnalysisReport& r) {
  std::ostringstream o;
  o << "SparseCore analysis: chip " << r.chip << ", " << r.devices << " device(s) x "
    << r.sparseCoresPerDevice << " SparseCores = " << r.totalSparseCores << " partitions\n";
  for (const TableReport& t : r.tables) {
    const StackStats& s = t.stats;
    o << "\ntable " << s.name;
    if (s.tables.size() > 1) {
      o << " (stack of";
      for (const std::string& m : s.tables) o << " " << m;
      o << ")";
    }
    o << "  limits: max_ids_per_partition " << s.maxIdsLimit << ", max_unique_ids_per_partition "
      << s.maxUniqueIdsLimit << "\n";
    o << "  max_ids_per_partition:           " << list(s.maxIdsPerPartition) << "\n";
    o << "  max_unique_ids_per_partition:    " << list(s.maxUniqueIdsPerPartition) << "\n";
    o << "  required_buffer_per_sparse_core: " << list(s.requiredBufferPerSparseCore) << "\n";
    o << "  ids: " << s.inputIds << " in, " << s.idsAfterMerge
      << " after in-sample merge; dropped_ids: " << s.droppedIds
      << "; minibatches: " << t.minibatches << "\n";
    o << "  suggested limits: max_ids_per_partition " << t.suggested.maxIdsPerPartition
      << ", max_unique_ids_per_partition " << t.suggested.maxUniqueIdsPerPartition << "\n";
    const SpmemEstimate& sp = t.memory.spmem;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", sp.occupancy * 100.0);
    o << "  SPMEM per tile: fixed " << formatBytes(sp.fixedBytesPerTile) << " + gather "
      << formatBytes(sp.gatherBytesPerTile) << " of " << formatBytes(sp.capacityPerTile) << " ("
      << pct << ")\n";
    for (const TableMemory& tm : t.memberMemory)
      o << "  HBM " << tm.name << ": " << tm.vocabSize << " x " << tm.width << " padded to "
        << tm.paddedVocab << " x " << tm.paddedWidth << " = " << formatBytes(tm.allocatedBytes)
        << " (" << formatBytes(tm.bytesPerChip) << " per chip, padding "
        << formatBytes(tm.wasteBytes) << ")\n";
    o << "  HBM stack: forward " << formatBytes(t.memory.hbmStackForwardBytes) << ", backward "
      << formatBytes(t.memory.hbmStackBackwardBytes) << "\n";
    for (const std::string& w : t.warnings) o << "  warning: " << w << "\n";
  }
  o << "\nHBM per chip: tables " << formatBytes(r.memory.hbmTablesPerChip) << ", stack "
    << formatBytes(r.memory.hbmStackPerChip) << ", heap " << formatBytes(r.memory.hbmHeapPerChip)
    << ", total " << formatBytes(r.memory.hbmTotalPerChip()) << " of "
    << formatBytes(r.memory.hbmCapacityPerChip) << "\n";
  if (r.enableMinibatching)
    o << "mini-batching: " << (r.minibatchingRequired ? "required" : "not required") << ", "
      << r.minibatches << " mini-batch(es)\n";
  for (const std::string& w : r.warnings) o << "warning: " << w << "\n";
  if (r.error) o << "error: " << *r.error << "\n";
  return o.str();
}

}  // namespace shardscope::sc
