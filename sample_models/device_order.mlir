// device_order.mlir — a mesh with explicit device_ids and uneven shards, on
// ["x"=2, "y"=4] with device_ids=[0, 2, 4, 6, 1, 3, 5, 7].
//
// device_ids list, row-major over the axes, which physical device sits at
// each mesh position: position (x=0, y=1) is device 2, (x=1, y=0) is
// device 1. This models e.g. a ring whose neighbours are not numbered
// consecutively.
// %arg0 [10, 16] is sharded rows over "y" (4 ways): 10 rows do not divide
// by 4, so every device holds a 3-row local shard and the last shard is
// padded (3+3+3+1 real rows). Each shard has two copies, one per "x".
// Things to look at: the mesh view (device ids versus positions, the padded
// shard, the hatched copies).
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]>

func.func @main(%arg0: tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<10x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}
