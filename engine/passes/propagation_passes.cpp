// Registration of the propagation passes:
//   -sdy-basic-propagate, -sdy-aggressive-propagate, -sdy-op-priority-propagate,
//   -sdy-user-priority-propagate.
// Each takes conservative-propagation, keep-sharding-rules,
// debug-sharding-origins, debug-propagation-edge-sharding and
// module-dump-directory (the user-priority pass dumps the module before each
// priority after the first, module_dump.h). With `--trace=FILE.json` the
// steps of the run are written to FILE.json (see
// engine/propagation/TRACE_SCHEMA.md).
#include "io/output_file.h"
#include "passes/module_dump.h"
#include "passes/pass.h"
#include "propagation/propagation.h"

namespace shardscope::passes {

namespace {

using propagation::PropagationLevel;
using propagation::PropagationOptions;
using propagation::PropagationStrategy;

const std::vector<std::string> kCommonOptions = {"conservative-propagation", "keep-sharding-rules",
                                                 "debug-sharding-origins", "debug-propagation-edge-sharding",
                                                 "module-dump-directory"};

std::vector<std::string> withCommon(std::vector<std::string> extra) {
  extra.insert(extra.begin(), kCommonOptions.begin(), kCommonOptions.end());
  return extra;
}

bool parseCommon(const PassOptions& o, PropagationOptions& out, PassContext& ctx) {
  out.conservativePropagation = o.getBool("conservative-propagation", false);
  out.keepShardingRules = o.getBool("keep-sharding-rules", false);
  out.debugShardingOrigins = o.getBool("debug-sharding-origins", false);
  out.debugPropagationEdgeSharding = o.getBool("debug-propagation-edge-sharding", false);
  if (o.has("propagation-strategy")) {
    std::string s = o.get("propagation-strategy");
    if (s == "basic") out.strategy = PropagationStrategy::Basic;
    else if (s == "aggressive") out.strategy = PropagationStrategy::Aggressive;
    else if (s == "basic-then-aggressive") out.strategy = PropagationStrategy::BasicThenAggressive;
    else {
      ctx.diags.error({}, "invalid propagation-strategy '" + s + "' (expected basic, aggressive or basic-then-aggressive)");
      return false;
    }
  }
  if (o.has("run-op-priority-propagation"))
    out.runOpPriorityPropagation = o.getBool("run-op-priority-propagation", true);
  return true;
}

PassFn runAt(PropagationLevel level) {
  return [level](ir::Module& m, const PassOptions& o, PassContext& ctx) {
    PropagationOptions opts;
    opts.level = level;
    if (!parseCommon(o, opts, ctx)) return false;
    const std::string dumpDirectory = o.get("module-dump-directory");
    if (level == PropagationLevel::UserPriority && !dumpDirectory.empty())
      opts.beforeNextPriority = [&m, &ctx, dumpDirectory](int64_t priority) {
        saveModuleDump(m, dumpDirectory, "propagation_after_user_priority_" + std::to_string(priority),
                       ctx.moduleDumpIndex.value_or(0), ctx.diags);
      };
    propagation::PropagationTrace own;
    propagation::PropagationTrace* trace = ctx.trace               ? ctx.trace
                                           : ctx.tracePath.empty() ? nullptr
                                                                   : &own;
    bool ok = propagation::propagate(m, opts, ctx.diags, trace);
    if (!ctx.tracePath.empty()) {
      io::OutputFile out;
      std::string error;
      bool written = out.open(ctx.tracePath, error);
      if (written) {
        out.stream() << propagation::traceToJson(*trace) << "\n";
        written = out.close(error);
      }
      if (!written) {
        ctx.diags.error({}, "trace file: " + error);
        return false;
      }
    }
    return ok;
  };
}

}  // namespace

void registerPropagationPasses(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{"sdy-basic-propagate",
                         "Propagate shardings along op sharding rules with the basic strategy",
                         kCommonOptions, runAt(PropagationLevel::Basic)});
  out.push_back(PassInfo{"sdy-aggressive-propagate",
                         "Propagate shardings, resolving conflicts aggressively",
                         withCommon({"propagation-strategy"}), runAt(PropagationLevel::Aggressive)});
  out.push_back(PassInfo{"sdy-op-priority-propagate",
                         "Propagate shardings through pass-through ops first, then the rest",
                         withCommon({"propagation-strategy", "run-op-priority-propagation"}),
                         runAt(PropagationLevel::OpPriority)});
  out.push_back(PassInfo{"sdy-user-priority-propagate",
                         "Propagate shardings in the order of the user's dimension priorities",
                         withCommon({"propagation-strategy", "run-op-priority-propagation"}),
                         runAt(PropagationLevel::UserPriority)});
}

}  // namespace shardscope::passes
