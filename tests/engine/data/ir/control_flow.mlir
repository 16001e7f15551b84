// While, case, reduce and an optimization barrier: region numbering and the
// iterArg names follow MLIR's printer.
sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @loop(%arg0: tensor<32x96xf32>, %arg1: tensor<i32>) -> (tensor<32x96xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_0 = stablehlo.constant dense<1> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c) : tensor<32x96xf32>, tensor<i32>
   cond {
    %3 = stablehlo.compare  LT, %iterArg_1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %3 = stablehlo.add %iterArg_1, %c_0 : tensor<i32>
    %4 = stablehlo.add %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<32x96xf32>
    stablehlo.return %4, %3 : tensor<32x96xf32>, tensor<i32>
  }
  %1 = "stablehlo.case"(%arg1) ({
    %5 = stablehlo.negate %0#0 : tensor<32x96xf32>
    stablehlo.return %5 : tensor<32x96xf32>
  }, {
    stablehlo.return %0#0 : tensor<32x96xf32>
  }) : (tensor<i32>) -> tensor<32x96xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.slice %1 [0:4, 0:96:24] : (tensor<32x96xf32>) -> tensor<4x4xf32>
  %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %4:2 = stablehlo.optimization_barrier %1, %3 : tensor<32x96xf32>, tensor<4xf32>
  return %4#0, %4#1 : tensor<32x96xf32>, tensor<4xf32>
}
