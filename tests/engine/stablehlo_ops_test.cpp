// Tests for engine/verifier/stablehlo_ops.cpp and the func.call checks of
// engine/verifier/verifier.cpp: invalid StableHLO and calls the reader
// accepted used to verify (and propagate) without a word.
#include "verifier/stablehlo_ops.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "verifier/verifier.h"

namespace shardscope {
namespace {

// The diagnostics of parsing and verifying `text` ("" when it is valid).
std::string verifyText(const std::string& text) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> m = ir::parseModule(text, ir::ParseOptions{}, diags);
  if (m) verifyModule(*m, diags);
  return diags.formatAll("<test>");
}

struct Case {
  const char* name;
  const char* module;
  const char* expected;
};

TEST(StablehloOpsTest, InvalidOpsAreErrorsAtTheOp) {
  const Case cases[] = {
      {"reshape element counts",
       R"(func.func @main(%arg0: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<8x16xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
})",
       "<test>:2:3: error: number of output elements (32) doesn't match expected number of elements (128)\n"},
      {"transpose dims out of range",
       R"(func.func @main(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [5, 9] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
})",
       "<test>:2:3: error: attribute permutation must be a permutation of [0, 1] but got 5, 9\n"
       "<test>:2:3: error: 'stablehlo.transpose' op failed to infer returned types\n"},
      {"transpose rank",
       R"(func.func @main(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
})",
       "<test>:2:3: error: TransposeOp operand rank 2 does not match permutation size 1\n"
       "<test>:2:3: error: 'stablehlo.transpose' op failed to infer returned types\n"},
      {"dot_general contracting dimension out of range",
       R"(func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [5] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
})",
       "<test>:2:3: error: lhs_contracting_dimensions value: 5 is out of range: [0, 2)\n"},
      {"dot_general contracting sizes",
       R"(func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<12x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<12x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
})",
       "<test>:2:3: error: contracting dimension sizes must match for lhs/rhs\n"},
      {"valid ops",
       R"(func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> (tensor<4x32xf32>, tensor<16x8xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<8x16xf32>) -> tensor<4x32xf32>
  %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0, %1, %2 : tensor<4x32xf32>, tensor<16x8xf32>, tensor<8x4xf32>
})",
       ""},
  };
  for (const Case& c : cases) EXPECT_EQ(verifyText(c.module), c.expected) << c.name;
}

// dot_generals that spell their dimension numbers alike share them (the
// verifier reads them once), while each op's operands are checked on their
// own: valid ops with two spellings, alternating, then the op under test.
TEST(StablehloOpsTest, SharedDotDimensionNumbersAreCheckedAgainstEachOpsOperands) {
  const std::string valid =
      R"(func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<16x8xf32>, %d: tensor<4x16xf32>, %e: tensor<16xf32>, %f: tensor<4x12xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [0] x [1] : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
)";
  const Case cases[] = {
      {"first spelling, a rank-1 operand",
       "  %3 = stablehlo.dot_general %e, %b, contracting_dims = [1] x [0] : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<4xf32>\n",
       "<test>:5:3: error: lhs_contracting_dimensions value: 1 is out of range: [0, 1)\n"},
      {"second spelling, sizes that differ",
       "  %3 = stablehlo.dot_general %c, %f, contracting_dims = [0] x [1] : (tensor<16x8xf32>, tensor<4x12xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: contracting dimension sizes must match for lhs/rhs\n"},
      {"a third spelling",
       "  %3 = stablehlo.dot_general %a, %b, contracting_dims = [5] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: lhs_contracting_dimensions value: 5 is out of range: [0, 2)\n"},
      {"contracting counts differ",
       "  %3 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0, 1] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: lhs and rhs should have the same number of contracting dimensions\n"},
      {"batching counts differ",
       "  %3 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: lhs and rhs should have the same number of batching dimensions\n"},
      {"lhs dimension used twice",
       "  %3 = stablehlo.dot_general %c, %d, batching_dims = [1] x [0], contracting_dims = [1] x [1] : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: has duplicated dimension from lhs_batching_dimensions and lhs_contracting_dimensions: 1\n"},
      {"rhs dimension used twice",
       "  %3 = stablehlo.dot_general %c, %d, batching_dims = [0] x [1], contracting_dims = [1] x [1] : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>\n",
       "<test>:5:3: error: has duplicated dimension from rhs_batching_dimensions and rhs_contracting_dimensions: 1\n"},
      {"all valid",
       "  %3 = stablehlo.dot_general %c, %d, contracting_dims = [0] x [1] : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>\n",
       ""},
  };
  for (const Case& c : cases)
    EXPECT_EQ(verifyText(valid + c.module + "  return\n}\n"), c.expected) << c.name;
}

TEST(StablehloOpsTest, CallsMustMatchTheirCallee) {
  const std::string callee = R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)";
  const Case cases[] = {
      {"operand count",
       R"(func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})",
       "<test>:5:3: error: 'func.call' op incorrect number of operands for callee\n"},
      {"operand type",
       R"(func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg1) : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})",
       "<test>:5:3: error: 'func.call' op operand type mismatch: expected operand type 'tensor<8xf32>', but "
       "provided 'tensor<4xf32>' for operand number 0\n"},
      {"result type",
       R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})",
       "<test>:5:3: error: 'func.call' op result type mismatch at index 0\n"
       "<test>:5:3: note:       op result types: 'tensor<4xf32>'\n"
       "<test>:5:3: note: function result types: 'tensor<8xf32>'\n"},
      {"unknown callee",
       R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})",
       "<test>:5:3: error: 'func.call' op 'g' does not reference a valid function\n"},
      {"valid call",
       R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})",
       ""},
  };
  for (const Case& c : cases) EXPECT_EQ(verifyText(callee + c.module), c.expected) << c.name;
}

}  // namespace
}  // namespace shardscope
