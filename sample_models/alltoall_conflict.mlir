// alltoall_conflict.mlir — two shardings that disagree, resolved by an
// all-to-all, on a ["x"=4] mesh.
//
//   %arg0  [256, 128]  rows on "x"      (each device holds 64x128)
//   %arg1  [256, 128]  columns on "x"   (each device holds 256x32)
//
// `add` maps both dimensions of its operands and its result to the same
// factors, so row i of %arg0 must meet row i of %arg1 on the same device.
// The two arguments shard the same shape along different dimensions on the
// same axis, and both are closed (written without `?`), so they cannot meet
// half-way: factor i is "x" in %arg0 and empty in %arg1, factor j the
// reverse. Aggressive propagation keeps the sharding of the larger tensor
// (here both are the same size, so the first operand's): %0 becomes
// [{"x"}, {}] and the partitioner must reshard %arg1 from columns to rows.
// Moving the "x" shards from dimension 1 to dimension 0 is an all-to-all:
// each device keeps one of its four 64x32 blocks and receives one from each
// other device.
//
//   shardscope-opt alltoall_conflict.mlir -sdy-propagation-pipeline \
//     -sdy-export-pipeline="enable-insert-explicit-collectives=true" --comm-report=-
// gives `sdy.all_to_all [{"x"}: 1->0] %arg1`: 3/4 of a 256x32 f32 shard
// (32 KiB), 24 KiB received per device.
// Things to look at: the Why panel for %0 dimension 1 (why "x" is not there)
// and what-if: give %arg1 the sharding [{"x"}, {}] and the all-to-all goes.
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<256x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<256x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> tensor<256x128xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}
