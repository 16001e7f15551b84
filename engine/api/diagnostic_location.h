// Pointing a diagnostic at the text it is about. The verifier reports a
// sharding problem at its op, as sdy_opt does (the command line must print
// the same); in the GUI a message about a mesh axis is clearer at the axis:
//
//   2: func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>})
//   verifier: 2:1  'func.func' op arg 0 - unknown axis name: "z"
//   here:     2:77 (the `"z"` in the sharding)
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::api {

// The axis a message is about: `foo` for messages ending in
// `axis name: "foo"` or `manual axis: "foo"`; nullopt otherwise.
std::optional<std::string> axisNamedInMessage(std::string_view message);

// Moves each diagnostic about an axis (axisNamedInMessage) to the first
// `"AXIS"` in `text` at or after its location and before the next op of
// `module` starts (for a func.func: in its signature). Diagnostics whose
// axis is not found there keep their location.
void pointDiagnosticsAtAxes(std::string_view text, const ir::Module& module,
                            std::vector<ir::Diagnostic>& diagnostics);

}  // namespace shardscope::api
