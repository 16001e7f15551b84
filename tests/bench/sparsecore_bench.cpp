// Throughput of the SparseCore preprocessing model. The target: 100 million
// ids analysed in under 2 s on a 2-core machine.
//
//   sparsecore_bench --benchmark_filter=Analyze100M
#include <benchmark/benchmark.h>

#include "sparsecore/analysis.h"
#include "sparsecore/id_generator.h"
#include "sparsecore/preprocessing.h"

using namespace shardscope::sc;

namespace {

// 4 tables x 25M ids (6.25M samples x 4 ids), 1 device x 4 SparseCores,
// limits high enough that nothing is dropped.
Job makeJob(GeneratorSpec::Distribution distribution, int64_t idsTotal) {
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 4;
  const int tables = 4;
  const int idsPerSample = 4;
  const int64_t batch = idsTotal / tables / idsPerSample;
  for (int t = 0; t < tables; ++t) {
    TableSpec table;
    table.name = "table" + std::to_string(t);
    table.vocabSize = 2'000'000;
    table.width = 16 * (t + 1);
    table.maxIdsPerPartition = 1 << 24;
    table.maxUniqueIdsPerPartition = 1 << 24;
    job.tables.push_back(table);
    GeneratorSpec g;
    g.distribution = distribution;
    g.exponent = 1.05;
    g.idsPerSample = idsPerSample;
    g.seed = 7 + t;
    FeatureSpec f;
    f.name = "feature" + std::to_string(t);
    f.table = table.name;
    f.ids = generateIds(g, table.vocabSize, batch);
    job.features.push_back(std::move(f));
  }
  job.tableStacking = false;  // 4 stacks x 4 SparseCores = 16 tasks
  return job;
}

const Job& job100M(GeneratorSpec::Distribution d) {
  static Job uniform = makeJob(GeneratorSpec::Distribution::Uniform, 100'000'000);
  static Job zipf = makeJob(GeneratorSpec::Distribution::Zipf, 100'000'000);
  return d == GeneratorSpec::Distribution::Uniform ? uniform : zipf;
}

void BM_Analyze100M_Uniform(benchmark::State& state) {
  const Job& job = job100M(GeneratorSpec::Distribution::Uniform);
  PreprocessOptions options;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    AnalysisReport r = analyze(job, options);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * 100'000'000);
}
BENCHMARK(BM_Analyze100M_Uniform)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(3);

void BM_Analyze100M_Zipf(benchmark::State& state) {
  const Job& job = job100M(GeneratorSpec::Distribution::Zipf);
  PreprocessOptions options;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    AnalysisReport r = analyze(job, options);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * 100'000'000);
}
BENCHMARK(BM_Analyze100M_Zipf)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(3);

// Dropping path: a Zipf batch against tight limits (sorting the flagged
// partitions dominates).
void BM_Analyze10M_ZipfDropping(benchmark::State& state) {
  static Job job = [] {
    Job j = makeJob(GeneratorSpec::Distribution::Zipf, 10'000'000);
    j.allowIdDropping = true;
    for (TableSpec& t : j.tables) {
      t.maxIdsPerPartition = 4096;
      t.maxUniqueIdsPerPartition = 1024;
    }
    return j;
  }();
  for (auto _ : state) {
    AnalysisReport r = analyze(job);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * 10'000'000);
}
BENCHMARK(BM_Analyze10M_ZipfDropping)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(3);

void BM_GenerateZipf1M(benchmark::State& state) {
  GeneratorSpec g;
  g.distribution = GeneratorSpec::Distribution::Zipf;
  g.idsPerSample = 4;
  for (auto _ : state) {
    IdBatch b = generateIds(g, 10'000'000, 250'000);
    benchmark::DoNotOptimize(b);
  }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_GenerateZipf1M)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
