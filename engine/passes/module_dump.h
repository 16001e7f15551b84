// Module dumps for debugging, as Shardy writes them when given a dump
// directory: the module printed to `DIR/NN.NAME.mlir` (NN the two-digit dump
// index, when there is one) at fixed points of the pipelines:
//
//   01.before_propagation.mlir                 after the import cleanups
//   02.propagation_after_user_priority_0.mlir  before each next user priority
//   02.after_propagation.mlir                  after the export's first steps
//   03.after_explicit_reshards.mlir            with explicit collectives
//   04.after_partitioner_with_global_shapes.mlir
//      (or 03.after_minimal_partitioner_with_global_shapes.mlir)
//
// A directory that does not exist is created; a file that cannot be written
// is a warning, and the pass goes on (as in Shardy).
#pragma once
#include <optional>
#include <string>

#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::passes {

// Writes `module` to `directory`/[NN.]`name`.mlir; nothing when `directory`
// is empty. Returns false (and warns through `diags`) when it failed.
bool saveModuleDump(const ir::Module& module, const std::string& directory,
                    const std::string& name, std::optional<int> index, ir::DiagnosticSink& diags);

// `01` for 1: the dump index as a two-digit prefix.
std::string dumpIndexPrefix(int index);

}  // namespace shardscope::passes
