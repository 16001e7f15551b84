// func_calls.mlir — one layer function called twice, on a ["x"=2, "y"=2]
// mesh.
//
// @main calls @layer on %arg0 (rows on "x") with the weight %arg1 (columns
// on "y"), then again on the result with the unsharded weight %arg2.
// Propagation does not cross a call by itself: the propagation pipeline
// (Ctrl+P in the GUI, `shardscope-opt -sdy-propagation-pipeline`) first gives
// each call its own copy of the callee and imports it as an
// sdy.named_computation (drawn as a cluster, with data-flow edges), so the
// shardings flow through the layer's body; the export passes turn the named
// computations back into functions (@layer, @layer_0) and calls.
// Things to look at: step 0 of the propagation trace (after the import
// passes: the named computations), the two calls' different result
// shardings, and %arg2, which gets its sharding from the second call.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @layer(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg2: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = call @layer(%arg0, %arg1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = call @layer(%0, %arg2) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
