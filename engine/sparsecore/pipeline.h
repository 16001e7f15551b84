// TensorCore / SparseCore pipelining. Without it every step runs SC
// forward, TC forward, TC backward, SC backward in sequence. With it, in
// step k the SparseCores run backward(k-2) then forward(k) while the
// TensorCores run forward and backward of batch k-1; n batches take n+2
// steps, each as long as the busier unit, and the embeddings a SparseCore
// forward reads lag the updates by two steps.
//
// Example: SC 1+1, TC 2+2, 10 batches: serial 10 x 6 = 60; pipelined
// 1 (F0) + 4 (F1 | step 0) + 8 x 4 + 4 + 1 (B9) = 42, speed-up 60/42 = 1.43.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace shardscope::sc {

// Durations of the four stages of one batch (any time unit).
struct StageTimes {
  double scForward = 0;
  double tcForward = 0;
  double tcBackward = 0;
  double scBackward = 0;
  bool operator==(const StageTimes&) const = default;
};

enum class Unit { SparseCore, TensorCore };
enum class Phase { Forward, Backward };

struct ScheduledStage {
  Unit unit = Unit::SparseCore;
  Phase phase = Phase::Forward;
  int batch = 0;
  int step = 0;
  double start = 0;
  double end = 0;
  bool operator==(const ScheduledStage&) const = default;
};

struct Schedule {
  std::vector<ScheduledStage> stages;  // in start order per unit
  int steps = 0;
  double total = 0;
  double sparseCoreBusy = 0;
  double tensorCoreBusy = 0;
  bool operator==(const Schedule&) const = default;
};

struct PipelineComparison {
  StageTimes times;
  int batches = 0;
  Schedule serial;
  Schedule pipelined;
  double speedup = 1;
  int stalenessSteps = 2;  // SparseCore updates lag by two steps
  bool operator==(const PipelineComparison&) const = default;
};

// Throws InputError for negative times or fewer than one batch.
// The most steps a schedule holds (each step keeps its four stages).
inline constexpr int kMaxPipelineSteps = 100000;

Schedule serialSchedule(const StageTimes& t, int batches);
Schedule pipelinedSchedule(const StageTimes& t, int batches);
PipelineComparison comparePipelines(const StageTimes& t, int batches);

// "SC/F3" style label of a stage.
std::string stageLabel(const ScheduledStage& s);

nlohmann::json pipelineToJson(const PipelineComparison& c);
std::string pipelineToText(const PipelineComparison& c);
// Reads {"sc_forward", "tc_forward", "tc_backward", "sc_backward", "steps"}
// (or the same object under "pipeline" in a job file).
PipelineComparison pipelineFromJson(const nlohmann::json& j, const std::string& source);

}  // namespace shardscope::sc
