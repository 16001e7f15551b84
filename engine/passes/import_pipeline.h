// `-sdy-import-pipeline`: the import passes that prepare a module for
// propagation, in the reference's order. The propagation pipeline starts
// with the same steps (propagation_pipeline.cpp), so both are built here:
//
//   symbol-dce, lift inlined meshes, remove size-one axes,
//   propagate shardings from funcs to calls, constant/scalar splitter,
//   [explicit gather/scatter batching]          enableExplicitGatherScatterBatching
//   symbol-dce, manual axes cleanup, add data-flow edges,
//   [apply sharding constraints, sharding group import]   dedup-functions-fully
//
// With `dedup-functions-fully=false` (the conservative handling of calls)
// the last two run later, once calls were inlined as named computations.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "passes/pass.h"

namespace shardscope::passes {

struct ImportPipelineOptions {
  bool dedupFunctionsFully = false;
  bool enableExplicitGatherScatterBatching = false;
  // Forwarded to -sdy-apply-sharding-constraints.
  bool debugShardingOrigins = false;
  bool debugPropagationEdgeSharding = false;
};

// The registered passes the import pipeline runs, in order, each with its options.
std::vector<std::pair<std::string, PassOptions>> importPipelinePasses(
    const ImportPipelineOptions& options);

}  // namespace shardscope::passes
