// mlp_megatron.mlir — a transformer MLP block with Megatron-style tensor
// parallelism on a ["data"=2, "model"=4] mesh (8 devices).
//
//   %arg0  activations x      [16, 64]   rows on "data"            (batch parallel)
//   %arg1  W1 (up-projection) [64, 256]  columns on "model"        (column parallel)
//   %arg2  b1                 [256]      on "model"                (follows W1's columns)
//   %arg3  W2 (down-proj.)    [256, 64]  rows on "model"           (row parallel)
//
// y = tanh(x @ W1 + b1) @ W2. The hidden activations (16x256) end up sharded
// [{"data"}, {"model"}] with no communication; the second matmul contracts
// over the "model"-sharded dimension, so its result needs an all-reduce over
// "model" — the one collective of Megatron's MLP.
// Things to look at: the mesh view of %arg1 (each "model" column slice is
// held by both "data" rows), and the function result's closed sharding.
sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                %arg2: tensor<256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>},
                %arg3: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
  %2 = stablehlo.add %0, %1 : tensor<16x256xf32>
  %3 = stablehlo.tanh %2 : tensor<16x256xf32>
  %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %4 : tensor<16x64xf32>
}
