// megatron_allreduce.mlir — where Megatron's all-reduce comes from: a
// transformer MLP block (bf16, with its residual add) on a
// ["data"=2, "model"=4] mesh (8 devices).
//
//   %arg0  x               [8, 128, 512]   batch on "data"
//   %arg1  W1 (up-proj.)   [512, 2048]     columns on "model"  (column parallel)
//   %arg2  W2 (down-proj.) [2048, 512]     rows on "model"     (row parallel)
//
// y = x + (h * sigmoid(h)) @ W2 with h = x @ W1. The first matmul needs no
// communication: each "model" shard computes its own 512 hidden columns. The
// second matmul contracts over those hidden columns, so each device holds
// only a partial sum of y: the partitioner must add the four partial sums
// over "model" before the residual add. That is the all-reduce.
//
// See it with the explicit collectives of the export pipeline:
//   shardscope-opt megatron_allreduce.mlir -sdy-propagation-pipeline \
//     -sdy-export-pipeline="enable-insert-explicit-collectives=true" --comm-report=-
// gives `sdy.all_reduce {"model"}` on the second dot_general's result. Each
// device holds a 4x128x512 bf16 block (512 KiB) and, with a ring over the 4
// devices of "model", receives 2 * 3/4 of it: 768 KiB.
// Things to look at: the Communication dock, and the reduction factor of the
// second dot_general in the factor table (contracting, sharded on "model").
sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func @main(%arg0: tensor<8x128x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>},
                %arg1: tensor<512x2048xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                %arg2: tensor<2048x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x128x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] : (tensor<8x128x512xbf16>, tensor<512x2048xbf16>) -> tensor<8x128x2048xbf16>
  %1 = stablehlo.logistic %0 : tensor<8x128x2048xbf16>
  %2 = stablehlo.multiply %0, %1 : tensor<8x128x2048xbf16>
  %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [2] x [0] : (tensor<8x128x2048xbf16>, tensor<2048x512xbf16>) -> tensor<8x128x512xbf16>
  %4 = stablehlo.add %3, %arg0 : tensor<8x128x512xbf16>
  return %4 : tensor<8x128x512xbf16>
}
