// matmul_chain.mlir — the default Shardscope sample.
//
// Two matrix multiplications with an activation in between, on a 2x2 mesh.
// Only the inputs carry shardings:
//   %arg0 (the activations) is split along its rows over "x" (data parallel);
//   %arg1 (the first weight) is split along its columns over "y".
// %1 carries an *open* hint ({"x", ?}): the rows stay on "x" and propagation
// may add more axes to either dimension.
// Things to look at:
//   - Mesh view of %arg0: 2 shards of 4x16, each held by 2 devices (a copy on
//     each "y" coordinate, drawn hatched).
//   - Mesh view of %arg1: 2 column shards of 16x16, replicated over "x".
//   - Propagation gives %0 the sharding [{"x", ?}, {"y", ?}] (rows from %arg0,
//     columns from %arg1) and carries "x" down to the result.
// Run: shardscope-opt matmul_chain.mlir -sdy-basic-propagate
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x32xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
