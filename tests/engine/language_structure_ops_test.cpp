// Tuples, tokens, composites, collectives, control flow and ops of other
// dialects: they read, verify and print back as MLIR prints them.
#include <gtest/gtest.h>

#include "language_test_util.h"

namespace shardscope {
namespace {

using test_support::printedAgain;
using test_support::ruleOfFirst;

TEST(LanguageStructureOpsTest, TuplesAndTokens) {
  const std::string m = R"mlir(module {
  func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3xf32>, %arg2: !stablehlo.token) -> (tensor<3x3xf32>, !stablehlo.token) {
    %0 = stablehlo.tuple %arg0, %arg1 {xla_shape = "(f32[3,3]{1,0}, f32[3]{0})"} : tuple<tensor<3x3xf32>, tensor<3xf32>>
    %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<3x3xf32>, tensor<3xf32>>) -> tensor<3x3xf32>
    %2 = stablehlo.create_token : !stablehlo.token
    %3 = stablehlo.after_all %arg2, %2 : !stablehlo.token
    %4 = stablehlo.after_all : !stablehlo.token
    return %1, %3 : tensor<3x3xf32>, !stablehlo.token
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.after_all"), "<none>");
}

TEST(LanguageStructureOpsTest, Composite) {
  const std::string m = R"mlir(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "my.gelu" %arg0 {composite_attributes = {approximate = true}, decomposition = @my.gelu.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @my.gelu.impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
}

TEST(LanguageStructureOpsTest, CollectivesAreGeneric) {
  const std::string m = R"mlir(module {
  func.func @main(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x8xf32>
    return %1 : tensor<1x4xf32>
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.collective_permute"), "([i, j])->([i, j]) {i=1, j=4}");
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.all_gather"), "([i, j])->([i, k]) {i=1, j=4, k=8} need_replication={j, k}");
}

TEST(LanguageStructureOpsTest, IfAndCaseAreGeneric) {
  const std::string m = R"mlir(module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.if"(%arg0) ({
      stablehlo.return %arg2 : tensor<4xf32>
    }, {
      %2 = stablehlo.negate %arg2 : tensor<4xf32>
      stablehlo.return %2 : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %1 = "stablehlo.case"(%arg1) ({
      stablehlo.return %0 : tensor<4xf32>
    }, {
      stablehlo.return %arg2 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
}

// JAX names functions `<lambda>`: symbols that are no bare identifier are quoted.
TEST(LanguageStructureOpsTest, QuotedSymbolNames) {
  const std::string m = R"mlir(module @"jit_<lambda>" {
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = call @"<lambda>"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
    %1 = stablehlo.custom_call @"my target"(%0) : (tensor<3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @"<lambda>"(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    return %arg0 : tensor<3xf32>
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
}

// Ops of dialects we do not know open in generic form and keep their text:
// names, attributes and types of their own.
TEST(LanguageStructureOpsTest, UnknownDialectsKeepTheirText) {
  const std::string m = R"mlir(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "mydialect.frob"(%arg0) <{mode = #mydialect.mode<fast>}> {note = "kept"} : (tensor<4xf32>) -> !mydialect.handle<4>
    "check.expect_eq_const"(%arg0) <{value = dense<1.000000e+00> : tensor<4xf32>}> : (tensor<4xf32>) -> ()
    return %arg0 : tensor<4xf32>
  }
}
)mlir";
  EXPECT_EQ(printedAgain(m), m);
  // A custom form of an op we do not know is written generically on output.
  EXPECT_EQ(printedAgain(R"mlir(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mydialect.frob %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
})mlir"),
            R"mlir(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "mydialect.frob"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)mlir");
}

}  // namespace
}  // namespace shardscope
