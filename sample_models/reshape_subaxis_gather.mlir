// reshape_subaxis_gather.mlir — a reshape splits a mesh axis into sub-axes,
// and the consumer wants only one of them: an all-gather on a sub-axis, on a
// ["x"=4] mesh.
//
//   %arg0  [64, 32]       rows on "x" (4 blocks of 16 rows)
//   %0     [2, 32, 32]    the same data, rows split as 64 = 2 x 32
//
// The reshape maps row r of %arg0 to (r / 32, r % 32) of %0. "x" has 4
// devices but the new dimension 0 has only 2 entries, so "x" is split in two
// sub-axes: its major half "x":(1)2 shards dimension 0 and its minor half
// "x":(2)2 dimension 1 (propagation gives [{"x":(1)2}, {"x":(2)2}, {}], no
// data moves). The function result asks for [{"x":(1)2}, {}, {}]: dimension
// 1 whole on every device. So the minor half must be gathered: an all-gather
// over the 2 devices of "x":(2)2 (devices 0,1 and 2,3 of "x").
//
//   shardscope-opt reshape_subaxis_gather.mlir -sdy-propagation-pipeline \
//     -sdy-export-pipeline="enable-insert-explicit-collectives=true" --comm-report=-
// gives `sdy.all_gather [{}, {"x":(2)2}, {}]`: each device ends with a
// 1x32x32 f32 block (4 KiB) and receives the half it lacks, 2 KiB.
// Things to look at: the mesh view of %0 (which devices share a block) and
// the Why panel for %0 dimension 0 (why not all of "x").
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 : (tensor<64x32xf32>) -> tensor<2x32x32xf32>
  return %0 : tensor<2x32x32xf32>
}
