// What-if edits of region op results and function results (what_if_test):
// a generic-form case, a generic-form while with attributes, a named
// computation without out_shardings, results with and without attributes.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<i32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg2: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x16xf32>) {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x16xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  %1:2 = "stablehlo.while"(%arg1, %arg0) ({
  ^bb0(%a: tensor<8x16xf32>, %i: tensor<i32>):
    %c = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<8x16xf32>, %i: tensor<i32>):
    %t = stablehlo.tanh %a : tensor<8x16xf32>
    stablehlo.return %t, %i : tensor<8x16xf32>, tensor<i32>
  }) {mhlo.frontend_attributes = {x = "1"}} : (tensor<8x16xf32>, tensor<i32>) -> (tensor<8x16xf32>, tensor<i32>)
  %2 = sdy.named_computation<"layer">(%0) (%b: tensor<8x16xf32>) {
    %n = stablehlo.negate %b : tensor<8x16xf32>
    sdy.return %n : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1#0, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @custom(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> tensor<8x16xf32> {
  %w:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x16xf32>, tensor<i32> attributes {mhlo.frontend_attributes = {x = "1"}}
    cond {
    %c = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %t = stablehlo.tanh %iterArg : tensor<8x16xf32>
    stablehlo.return %t, %iterArg_0 : tensor<8x16xf32>, tensor<i32>
  }
  return %w#0 : tensor<8x16xf32>
}
