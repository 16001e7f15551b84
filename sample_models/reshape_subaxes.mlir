// reshape_subaxes.mlir — how reshapes split a mesh axis into sub-axes, on a
// ["x"=4, "y"=2] mesh.
//
// A sub-axis "x":(k)m is the slice of axis "x" of size m whose major
// neighbours multiply to k: with "x"=4, "x":(1)2 is the major half and
// "x":(2)2 the minor half of "x".
//
//   @main: %arg0 [32] is sharded over "x" (4 shards of 8). Reshaping it to
//     [4, 8] puts the major 4 elements-blocks on dim 0: dim 0 gets "x" and
//     dim 1 is whole. Reshaping to [2, 16] instead needs only the major half
//     of "x" on dim 0 ("x":(1)2) and the minor half on dim 1 ("x":(2)2).
//   @explicit: %arg0 already uses sub-axes: rows on "x":(1)2, columns on
//     "x":(2)2 and "y". In the mesh view, devices with x=0,1 hold row shard 0
//     and x=2,3 row shard 1; the column shard index mixes "x":(2)2 and "y".
sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4x8xf32>, tensor<2x16xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<2x16xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<2x16xf32>
}

func.func @explicit(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>}) -> tensor<128xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x16xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}
