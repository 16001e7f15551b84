// Checks the invariants of the sdy sharding representation and compiler API
// on a parsed module, reporting the first violation with the exact message
// `sdy_opt` gives (`'func.func' op arg 0 - unknown axis name: "c"`).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/attribute_sites.h"
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "sharding/sharding.h"

namespace shardscope {

// Verify the whole module. Emits errors (and their notes) into `diags` and
// returns true when nothing was found. Mirrors the order in which MLIR checks
// things: attribute well-formedness first (meshes, inferred result types),
// then each op on entry (discardable `sdy.*` attributes, then the op's own
// invariants), then symbol-using ops (sharding constraints, data-flow edges,
// manual and named computations) once everything else passed.
//
// Errors are at their op, as sdy_opt reports them (and as the conformance
// cases check them, with or without `-verify-diagnostics`). With `sites`
// (where the reader found each attribute, ir::ParseOptions::attributeSites)
// an error in an attribute also points into the attribute, at the axis,
// mesh or sharding that is wrong when it can be found: by a note after the
// error (`note: at "c" in 'sdy.sharding' of argument 0`), or, with
// `errorsAtSites` (the GUI, which underlines where the error is), by the
// error's own location.
enum class SitePlacement { Note, Error };
bool verifyModule(const ir::Module& module, ir::DiagnosticSink& diags,
                  const ir::AttributeSites* sites = nullptr,
                  SitePlacement placement = SitePlacement::Note);

// A problem found by one of the checks below: the message (without the
// `'op' op` prefix) and notes pointing at related ops.
struct VerifyNote {
  ir::SourceLoc loc;
  std::string message;
};
struct VerifyProblem {
  std::string message;
  std::vector<VerifyNote> notes;
  // What in the attribute's text is wrong (an axis, a sharding of a list).
  ir::SiteTarget at = {};
};
using VerifyResult = std::optional<VerifyProblem>;

// Mesh well-formedness: positive axis sizes, unique axis names, device ids
// (non-negative, a permutation of iota(product(axes)), at most one id when
// there are no axes). Example: `<["a"=2], device_ids=[1, 1]>` gives
// `sorted device ids must be iota(product(axes)), got: 1, 1`.
VerifyResult verifyMesh(const Mesh& mesh);

// Axes of enclosing `sdy.manual_computation` ops: axis name -> the op binding it.
using BoundManualAxes = std::vector<std::pair<std::string, const ir::Op*>>;
// The manual axes bound by the `sdy.manual_computation` ops around `op`
// (not counting `op` itself).
BoundManualAxes boundManualAxesAround(const ir::Op& op);

// One tensor sharding against the type of the value it annotates. `type` is
// null when the sharding is not tied to a value (an op with no results);
// `mesh` is null when the referenced mesh is unknown. Example: `[{"a", "a"}]`
// gives `duplicate axis ref: "a"`.
VerifyResult verifyTensorSharding(const TensorSharding& sharding, const ir::Type* type,
                                  const Mesh* mesh, const BoundManualAxes& bound = {});

// An op sharding rule against the op's operand and result types. Example:
// `([i, j], [i])->([i, j])` on two rank-2 operands gives
// `operand 1 - mapping rank must match: 1 != 2`.
VerifyResult verifyOpShardingRule(const OpShardingRule& rule,
                                  const std::vector<ir::Type>& operandTypes,
                                  const std::vector<ir::Type>& resultTypes);

}  // namespace shardscope
