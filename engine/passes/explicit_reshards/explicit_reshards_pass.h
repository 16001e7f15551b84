// `-sdy-insert-explicit-reshards`: make every op's shardings compatible
// with its sharding rule by inserting `sdy.reshard`s (and the
// `sdy.all_reduce`s its reduction factors need), so that the partitioner
// needs no implicit communication.
//
// With `enableFullVersion` false (the default, as in sdy_opt) only
// unreduced axes are reduced where their consumer does not keep them, dots
// may reshard their result (dot_result_reshard.h), and calls and
// concatenates whose operands differ from their result still get the full
// treatment.
//
// `causes`, when given, receives one entry per inserted op saying why it
// was needed (reshard_cause.h).
#pragma once
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "passes/explicit_reshards/reshard_cause.h"

namespace shardscope::passes {

struct InsertExplicitReshardsOptions {
  bool enableFullVersion = false;
};

bool insertExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags,
                            const InsertExplicitReshardsOptions& options, ReshardCauses* causes = nullptr);

}  // namespace shardscope::passes
