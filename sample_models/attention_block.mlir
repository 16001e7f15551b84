// attention_block.mlir — scaled-dot-product attention (softmax(Q K^T) V) with
// batch and head parallelism on a ["batch"=2, "heads"=4] mesh.
//
// Q, K, V are [batch=4, heads=8, seq=16, head_dim=32], sharded
// [{"batch"}, {"heads"}, {}, {}]: every device owns 2 batch rows x 2 heads.
// The softmax reduces over the key dimension (dim 3), which is not sharded,
// so the whole block runs without communication: propagation carries
// ("batch", "heads") through the dot_generals (as batching dimensions),
// the two reductions, the broadcasts and the elementwise ops.
// Things to look at: the two reduce ops with their reducer regions (drawn as
// clusters), and the mesh view of %arg0 (8 distinct shards, no copies).
sdy.mesh @mesh = <["batch"=2, "heads"=4]>

func.func @main(%arg0: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>},
                %arg1: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>},
                %arg2: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>})
    -> tensor<4x8x16x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<4x8x16x32xf32>, tensor<4x8x16x32xf32>) -> tensor<4x8x16x16xf32>
  %1 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
  %2 = stablehlo.reduce(%0 init: %1) across dimensions = [3] : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    reducer(%arg3: tensor<f32>, %arg4: tensor<f32>)  {
      %12 = stablehlo.maximum %arg3, %arg4 : tensor<f32>
      stablehlo.return %12 : tensor<f32>
    }
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2] : (tensor<4x8x16xf32>) -> tensor<4x8x16x16xf32>
  %4 = stablehlo.subtract %0, %3 : tensor<4x8x16x16xf32>
  %5 = stablehlo.exponential %4 : tensor<4x8x16x16xf32>
  %6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %7 = stablehlo.reduce(%5 init: %6) across dimensions = [3] : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    reducer(%arg5: tensor<f32>, %arg6: tensor<f32>)  {
      %13 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }
  %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<4x8x16xf32>) -> tensor<4x8x16x16xf32>
  %9 = stablehlo.divide %5, %8 : tensor<4x8x16x16xf32>
  %10 = stablehlo.dot_general %9, %arg2, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<4x8x16x16xf32>, tensor<4x8x16x32xf32>) -> tensor<4x8x16x32xf32>
  return %10 : tensor<4x8x16x32xf32>
}
