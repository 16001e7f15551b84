// while_loop.mlir — a loop that applies the same layer four times, on a
// ["x"=2, "y"=2] mesh.
//
// stablehlo.while has two regions, drawn as clusters: `cond` (the loop test
// on the i32 counter) and `do` (the body). The loop-carried activations
// (%iterArg) start from %arg0, sharded on "x"; the weight %arg1 is used
// inside the body (captured from above), sharded on "y".
// Propagation must give the operand, the block arguments of both regions,
// the body's returned value and the while result one consistent sharding
// (sdy models this with data-flow edges); the counter stays unsharded.
// Things to look at: the cond/do clusters, the values flowing into the loop
// from outside, and %0#0 once propagated.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_0 = stablehlo.constant dense<1> : tensor<i32>
  %c_1 = stablehlo.constant dense<4> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<8x16xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare  LT, %iterArg_2, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.dot_general %iterArg, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.tanh %1 : tensor<8x16xf32>
    %3 = stablehlo.add %iterArg_2, %c_0 : tensor<i32>
    stablehlo.return %2, %3 : tensor<8x16xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x16xf32>
}
