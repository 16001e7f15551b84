// Small hand-written modules shared by the explain_* tests.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ir/parser.h"
#include "propagation/propagation.h"

namespace shardscope::explain::testing {

// %arg0 -> add -> dot_general(%0, %arg1) -> return.
inline const char* kChain = R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
)mlir";

// The contracting dimension is sharded differently on both sides.
inline const char* kConflict = R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {"a"}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
)mlir";

// A sharding constraint seeds the middle of a chain; the result flows backwards too.
inline const char* kConstraint = R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
)mlir";

inline std::unique_ptr<ir::Module> parse(const std::string& text) {
  ir::DiagnosticSink diags;
  auto m = ir::parseModule(text, ir::ParseOptions{}, diags);
  EXPECT_TRUE(m) << diags.formatAll("<test>");
  return m;
}

// Parse `text` twice: `input` stays as it was, `trace` records a run on the other copy.
struct Run {
  std::unique_ptr<ir::Module> input;
  std::unique_ptr<ir::Module> output;
  propagation::PropagationTrace trace;
};
inline Run run(const std::string& text, propagation::PropagationLevel level = propagation::PropagationLevel::Basic) {
  Run r;
  r.input = parse(text);
  r.output = parse(text);
  if (!r.input || !r.output) return r;
  ir::DiagnosticSink diags;
  propagation::PropagationOptions o;
  o.level = level;
  EXPECT_TRUE(propagation::propagate(*r.output, o, diags, &r.trace)) << diags.formatAll("<test>");
  return r;
}

}  // namespace shardscope::explain::testing
