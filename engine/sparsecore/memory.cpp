#include "sparsecore/memory.h"

#include "sharding/checked_size.h"
#include "sparsecore/coo_buffer.h"
#include "sparsecore/stacking.h"

namespace shardscope::sc {

TableMemory tableMemory(const TableSpec& table, int totalSparseCores, int devices) {
  TableMemory m;
  m.name = table.name;
  m.vocabSize = table.vocabSize;
  m.width = table.width;
  // An explicit place in a stack fixes the padding the job allocates.
  m.paddedVocab = table.settingInStack ? table.settingInStack->paddedVocabSize
                                       : paddedVocab(table.vocabSize, totalSparseCores);
  m.paddedWidth = table.settingInStack ? table.settingInStack->paddedEmbeddingDim
                                       : paddedWidth(table.width);
  m.optimizerSlots = optimizerSlots(table.optimizer);
  const int64_t copies = 1 + m.optimizerSlots;
  // Products saturate at INT64_MAX rather than wrap: a job may ask for
  // absurd sizes (a 2^31-1 byte COO entry), and then says they do not fit.
  m.usefulBytes = saturatingProduct(table.vocabSize, table.width, 4, copies);
  m.allocatedBytes = saturatingProduct(m.paddedVocab, m.paddedWidth, 4, copies);
  m.wasteBytes = m.allocatedBytes - m.usefulBytes;
  m.bytesPerChip = m.allocatedBytes / devices;
  m.wasteFraction = m.allocatedBytes ? double(m.wasteBytes) / double(m.allocatedBytes) : 0.0;
  return m;
}

static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

SpmemEstimate spmemEstimate(const ChipSpec& chip, const SpmemModel& model,
                            const std::string& stackName, int64_t maxIds, int64_t maxUniqueIds,
                            int paddedWidth, int64_t samplesPerSparseCore) {
  SpmemEstimate e;
  const int64_t tiles = chip.tilesPerSparseCore;
  e.capacityPerTile = chip.tileSpmemBytes;
  e.idsStagingBytes = saturatingProduct(model.buffering, roundUp(maxIds, 8), model.cooEntryBytes);
  e.uniqueRowsBytes = saturatingProduct(model.buffering, roundUp(maxUniqueIds, 8), paddedWidth, 4);
  e.fixedBytesPerTile = ceilDiv(saturatingAdd(e.idsStagingBytes, e.uniqueRowsBytes), tiles);
  e.gatherBytesPerTile = ceilDiv(saturatingProduct(samplesPerSparseCore, paddedWidth, 4), tiles);
  e.occupancy = (double(e.fixedBytesPerTile) + double(e.gatherBytesPerTile)) / double(e.capacityPerTile);
  if (e.fixedBytesPerTile > e.capacityPerTile) {
    e.error = "Fixed size allocations (" + std::to_string(e.fixedBytesPerTile) +
              " bytes per tile) do not fit in TileSpmem (" + std::to_string(e.capacityPerTile) +
              " bytes) for table " + stackName + ": max_ids_per_partition " +
              std::to_string(maxIds) + ", max_unique_ids_per_partition " +
              std::to_string(maxUniqueIds) + ", padded width " + std::to_string(paddedWidth) +
              "; lower the limits";
  } else if (saturatingAdd(e.fixedBytesPerTile, e.gatherBytesPerTile) > e.capacityPerTile) {
    e.error = "Gather operand too large for table " + stackName +
              ": (sample_count * feature_width) / tiles = (" +
              std::to_string(samplesPerSparseCore) + " * " + std::to_string(paddedWidth) +
              " * 4 B) / " + std::to_string(tiles) + " = " + std::to_string(e.gatherBytesPerTile) +
              " bytes per tile, but only " +
              std::to_string(e.capacityPerTile - e.fixedBytesPerTile) + " of " +
              std::to_string(e.capacityPerTile) +
              " bytes of TileSpmem are free; reduce the batch size or use more chips";
  }
  return e;
}

MemoryReport estimateMemory(const Job& job, const PreprocessResult& pre) {
  MemoryReport r;
  const int n = job.totalSparseCores();
  r.hbmCapacityPerChip = job.chip.hbmBytes;
  for (const TableSpec& t : job.tables) {
    TableMemory m = tableMemory(t, n, job.devices);
    r.hbmTablesPerChip = saturatingAdd(r.hbmTablesPerChip, m.bytesPerChip);
    if (m.wasteFraction >= 0.5 && m.allocatedBytes >= (int64_t{1} << 20))
      r.warnings.push_back("table '" + t.name + "': " + std::to_string(t.vocabSize) + " x " +
                           std::to_string(t.width) + " pads to " + std::to_string(m.paddedVocab) +
                           " x " + std::to_string(m.paddedWidth) + " (32-byte rows); " +
                           std::to_string(int(m.wasteFraction * 100 + 0.5)) +
                           "% of its HBM is padding");
    r.tables.push_back(std::move(m));
  }
  int64_t heapEntries = 0;
  for (size_t s = 0; s < pre.stats.size(); ++s) {
    const StackStats& st = pre.stats[s];
    const StackPlan& plan = pre.stacks[s];
    StackMemory sm;
    sm.name = st.name;
    sm.spmem = spmemEstimate(job.chip, job.spmem, st.name, st.maxIdsLimit, st.maxUniqueIdsLimit,
                             plan.paddedWidth, st.samplesPerSparseCore);
    const int64_t w = plan.paddedWidth;
    const int64_t nz = st.maxUniqueIdsPerSample;
    sm.hbmStackForwardBytes = saturatingProduct(2 * w + 1, nz, job.replicas(), 4);
    sm.hbmStackBackwardBytes = saturatingProduct(3 * w, nz, job.replicas(), 4);
    sm.cooBufferEntriesPerDevice =
        theoreticalMaxCooBufferSize(st.maxIdsLimit, job.devices, job.sparseCoresPerDevice, job.enableMinibatching);
    for (int64_t v : st.requiredBufferPerSparseCore)
      sm.requiredEntriesPerDevice = saturatingAdd(sm.requiredEntriesPerDevice, v);
    r.hbmStackPerChip =
        saturatingAdd(r.hbmStackPerChip, std::max(sm.hbmStackForwardBytes, sm.hbmStackBackwardBytes));
    heapEntries = saturatingAdd(heapEntries, sm.cooBufferEntriesPerDevice);
    r.stacks.push_back(std::move(sm));
  }
  r.hbmHeapPerChip = saturatingProduct(job.maximumParallelIterations, heapEntries, job.spmem.cooEntryBytes);
  if (r.hbmTotalPerChip() > r.hbmCapacityPerChip)
    r.warnings.push_back("HBM per chip (" + std::to_string(r.hbmTotalPerChip()) +
                         " bytes: tables " + std::to_string(r.hbmTablesPerChip) + ", stack " +
                         std::to_string(r.hbmStackPerChip) + ", heap " +
                         std::to_string(r.hbmHeapPerChip) + ") exceeds the chip's " +
                         std::to_string(r.hbmCapacityPerChip) + " bytes");
  return r;
}

}  // namespace shardscope::sc
