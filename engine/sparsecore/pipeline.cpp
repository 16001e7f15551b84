#include "sparsecore/pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sparsecore/errors.h"

namespace shardscope::sc {

static void check(const StageTimes& t, int batches) {
  for (double v : {t.scForward, t.tcForward, t.tcBackward, t.scBackward})
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError("pipeline: stage times must be finite and non-negative");
  if (batches < 1) throw InputError("pipeline: steps must be at least 1");
  if (batches > kMaxPipelineSteps)
    throw InputError("pipeline: steps must be at most " + std::to_string(kMaxPipelineSteps));
}

Schedule serialSchedule(const StageTimes& t, int batches) {
  check(t, batches);
  Schedule s;
  double now = 0;
  for (int i = 0; i < batches; ++i) {
    auto add = [&](Unit u, Phase p, double d) {
      s.stages.push_back({u, p, i, i, now, now + d});
      (u == Unit::SparseCore ? s.sparseCoreBusy : s.tensorCoreBusy) += d;
      now += d;
    };
    add(Unit::SparseCore, Phase::Forward, t.scForward);
    add(Unit::TensorCore, Phase::Forward, t.tcForward);
    add(Unit::TensorCore, Phase::Backward, t.tcBackward);
    add(Unit::SparseCore, Phase::Backward, t.scBackward);
  }
  s.steps = batches;
  s.total = now;
  return s;
}

Schedule pipelinedSchedule(const StageTimes& t, int batches) {
  check(t, batches);
  Schedule s;
  double now = 0;
  for (int k = 0; k < batches + 2; ++k) {
    double sc = now, tc = now;
    // SparseCores: backward of batch k-2 first (frees its gradients), then
    // forward of batch k.
    if (k - 2 >= 0 && k - 2 < batches) {
      s.stages.push_back({Unit::SparseCore, Phase::Backward, k - 2, k, sc, sc + t.scBackward});
      sc += t.scBackward;
    }
    if (k < batches) {
      s.stages.push_back({Unit::SparseCore, Phase::Forward, k, k, sc, sc + t.scForward});
      sc += t.scForward;
    }
    // TensorCores: the dense step of batch k-1.
    if (k - 1 >= 0 && k - 1 < batches) {
      s.stages.push_back({Unit::TensorCore, Phase::Forward, k - 1, k, tc, tc + t.tcForward});
      tc += t.tcForward;
      s.stages.push_back({Unit::TensorCore, Phase::Backward, k - 1, k, tc, tc + t.tcBackward});
      tc += t.tcBackward;
    }
    s.sparseCoreBusy += sc - now;
    s.tensorCoreBusy += tc - now;
    now = std::max(sc, tc);  // steps end together
  }
  s.steps = batches + 2;
  s.total = now;
  return s;
}

PipelineComparison comparePipelines(const StageTimes& t, int batches) {
  PipelineComparison c;
  c.times = t;
  c.batches = batches;
  c.serial = serialSchedule(t, batches);
  c.pipelined = pipelinedSchedule(t, batches);
  c.speedup = c.pipelined.total > 0 ? c.serial.total / c.pipelined.total : 1.0;
  return c;
}

std::string stageLabel(const ScheduledStage& s) {
  return std::string(s.unit == Unit::SparseCore ? "SC/" : "TC/") +
         (s.phase == Phase::Forward ? "F" : "B") + std::to_string(s.batch);
}

static nlohmann::json scheduleJson(const Schedule& s) {
  nlohmann::json stages = nlohmann::json::array();
  for (const ScheduledStage& st : s.stages)
    stages.push_back({{"unit", st.unit == Unit::SparseCore ? "SparseCore" : "TensorCore"},
                      {"phase", st.phase == Phase::Forward ? "forward" : "backward"},
                      {"batch", st.batch},
                      {"step", st.step},
                      {"start", st.start},
                      {"end", st.end},
                      {"label", stageLabel(st)}});
  const double denom = s.total > 0 ? s.total : 1;
  return {{"steps", s.steps},
          {"total", s.total},
          {"sparse_core_utilization", s.sparseCoreBusy / denom},
          {"tensor_core_utilization", s.tensorCoreBusy / denom},
          {"stages", stages}};
}

nlohmann::json pipelineToJson(const PipelineComparison& c) {
  return {{"stage_times",
           {{"sc_forward", c.times.scForward},
            {"tc_forward", c.times.tcForward},
            {"tc_backward", c.times.tcBackward},
            {"sc_backward", c.times.scBackward}}},
          {"batches", c.batches},
          {"without_pipelining", scheduleJson(c.serial)},
          {"with_pipelining", scheduleJson(c.pipelined)},
          {"speedup", c.speedup},
          {"staleness_steps", c.stalenessSteps}};
}

std::string pipelineToText(const PipelineComparison& c) {
  std::ostringstream o;
  char buf[256];
  std::snprintf(
      buf, sizeof buf, "stage times: SC fwd %g, TC fwd %g, TC bwd %g, SC bwd %g; %d batches\n",
      c.times.scForward, c.times.tcForward, c.times.tcBackward, c.times.scBackward, c.batches);
  o << buf;
  auto line = [&](const char* name, const Schedule& s) {
    const double d = s.total > 0 ? s.total : 1;
    std::snprintf(buf, sizeof buf,
                  "%-20s %3d steps, total %g (SparseCore busy %.0f%%, TensorCore busy %.0f%%)\n",
                  name, s.steps, s.total, 100 * s.sparseCoreBusy / d, 100 * s.tensorCoreBusy / d);
    o << buf;
  };
  line("without pipelining:", c.serial);
  line("with pipelining:", c.pipelined);
  std::snprintf(buf, sizeof buf, "speed-up: %.3fx; SparseCore updates are %d steps stale\n",
                c.speedup, c.stalenessSteps);
  o << buf;
  // A compact step table of the pipelined schedule (first steps only).
  o << "pipelined steps (SparseCores | TensorCores):\n";
  const int shown = std::min(c.pipelined.steps, 8);
  for (int k = 0; k < shown; ++k) {
    std::string sc, tc;
    for (const ScheduledStage& st : c.pipelined.stages) {
      if (st.step != k) continue;
      std::string& dst = st.unit == Unit::SparseCore ? sc : tc;
      if (!dst.empty()) dst += " ";
      dst += stageLabel(st);
    }
    std::snprintf(buf, sizeof buf, "  step %2d: %-14s | %s\n", k, sc.empty() ? "-" : sc.c_str(),
                  tc.empty() ? "-" : tc.c_str());
    o << buf;
  }
  if (shown < c.pipelined.steps) o << "  ...\n";
  return o.str();
}

PipelineComparison pipelineFromJson(const nlohmann::json& doc, const std::string& source) {
  const nlohmann::json& j = doc.contains("pipeline") ? doc["pipeline"] : doc;
  if (!j.is_object()) throw InputError(source + ": pipeline: expected an object");
  auto num = [&](const char* key) {
    auto it = j.find(key);
    if (it == j.end()) throw InputError(source + ": pipeline." + key + ": missing required field");
    if (!it->is_number()) throw InputError(source + ": pipeline." + key + ": expected a number");
    double v = it->get<double>();
    if (v < 0) throw InputError(source + ": pipeline." + key + ": must not be negative");
    return v;
  };
  StageTimes t{num("sc_forward"), num("tc_forward"), num("tc_backward"), num("sc_backward")};
  int steps = 10;
  if (auto it = j.find("steps"); it != j.end()) {
    if (!it->is_number_integer())
      throw InputError(source + ": pipeline.steps: expected an integer");
    // Read wide, so that 1e15 is reported as too large rather than wrapped.
    const int64_t wide = it->is_number_unsigned() && it->get<uint64_t>() > INT64_MAX
                             ? INT64_MAX
                             : it->get<int64_t>();
    if (wide < 1) throw InputError(source + ": pipeline.steps: must be at least 1");
    if (wide > kMaxPipelineSteps)
      throw InputError(source + ": pipeline.steps: " + std::to_string(wide) +
                       " is more than the " + std::to_string(kMaxPipelineSteps) +
                       " steps a schedule holds");
    steps = static_cast<int>(wide);
  }
  return comparePipelines(t, steps);
}

}  // namespace shardscope::sc
