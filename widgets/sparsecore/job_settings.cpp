#include "job_settings.h"

#include "sparsecore/chip_spec.h"
#include "sparsecore/errors.h"
#include "sparsecore/id_generator.h"

namespace shardscope::scw {

JobSettings settingsFromJob(const sc::Job& job) {
  JobSettings s;
  s.chip = job.chip.name;
  s.devices = job.devices;
  s.sparseCoresPerDevice = job.sparseCoresPerDevice;
  s.allowIdDropping = job.allowIdDropping;
  s.tableStacking = job.tableStacking;
  s.enableMinibatching = job.enableMinibatching;
  s.batchSize = job.batchSize;
  s.stackedMaxIdsPerPartition = job.stackedMaxIdsPerPartition;
  s.stackedMaxUniqueIdsPerPartition = job.stackedMaxUniqueIdsPerPartition;
  for (const sc::TableSpec& t : job.tables)
    s.tables.push_back({t.name, t.vocabSize, t.width, t.maxIdsPerPartition,
                        t.maxUniqueIdsPerPartition, t.optimizer});
  return s;
}

sc::Job applySettings(const sc::Job& base, const JobSettings& s, const std::string& source) {
  sc::Job job = base;
  if (s.chip != base.chip.name) {
    std::optional<sc::ChipSpec> chip = sc::chipSpecByName(s.chip);
    if (!chip)
      throw sc::InputError(source + ": chip: unknown chip '" + s.chip + "' (known: " +
                           sc::knownChipNames() + ")");
    job.chip = *chip;
  }
  job.devices = s.devices;
  job.sparseCoresPerDevice = s.sparseCoresPerDevice;
  job.allowIdDropping = s.allowIdDropping;
  job.tableStacking = s.tableStacking;
  job.enableMinibatching = s.enableMinibatching;
  job.stackedMaxIdsPerPartition = s.stackedMaxIdsPerPartition;
  job.stackedMaxUniqueIdsPerPartition = s.stackedMaxUniqueIdsPerPartition;
  for (const TableSettings& t : s.tables)
    for (sc::TableSpec& spec : job.tables)
      if (spec.name == t.name) {
        spec.width = t.width;
        spec.maxIdsPerPartition = t.maxIdsPerPartition;
        spec.maxUniqueIdsPerPartition = t.maxUniqueIdsPerPartition;
      }
  if (s.batchSize < 0) throw sc::InputError(source + ": batch_size: must not be negative");
  if (s.batchSize != base.batchSize) {
    job.batchSize = s.batchSize;
    // Generated ids follow the job's batch size (as when the file is read).
    for (size_t i = 0; i < job.features.size(); ++i) {
      sc::FeatureSpec& f = job.features[i];
      if (!f.generator || f.generator->batchSize > 0) continue;
      const sc::TableSpec* table = job.table(f.table);
      if (!table) continue;
      try {
        f.ids = sc::generateIds(*f.generator, table->vocabSize, job.batchSize);
      } catch (const sc::InputError& e) {
        throw sc::InputError(source + ": features[" + std::to_string(i) + "]." + e.what());
      }
    }
  }
  sc::validateJob(job, source);
  return job;
}

}  // namespace shardscope::scw
