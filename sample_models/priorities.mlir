// priorities.mlir — user priorities: batch parallelism first (p0), then
// Megatron tensor parallelism (p1), then ZeRO-style parameter sharding (p2),
// on a ["data"=4, "model"=2] mesh (8 devices).
//
// A dimension sharding may carry a priority pN; propagation runs in rounds,
// p0 first, each round only with the shardings of priority <= N, so
// lower-numbered intents win conflicts:
//   p0  %arg0 (activations) rows on "data"             — batch parallel
//   p1  %arg1 / %arg2 (weights) on "model" as in Megatron: W1 by columns,
//       W2 by rows
//   p2  the weights' other dimension on "data"          — ZeRO: parameters
//       sharded over the data-parallel axis too
// The p2 "data" on the weights conflicts with the p0 "data" on the
// activations at the matmuls (one axis cannot shard two factors). Lower
// numbers are propagated first, so by the time round p2 runs the batch
// dimension already owns "data" and the ZeRO shardings cannot take it over.
// All dimensions are open ({..., ?}) so propagation may extend them.
sdy.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", ?}p0, {?}]>},
                %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", ?}p2, {"model", ?}p1]>},
                %arg2: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model", ?}p1, {"data", ?}p2]>})
    -> tensor<16x64xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %1 = stablehlo.tanh %0 : tensor<16x256xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}
