// A two-layer MLP as jax.jit exports it with GSPMD shardings: no sdy mesh,
// `mhlo.sharding` strings on the arguments and results (8 devices as 2 x 4:
// batch over the first 2, hidden over the last 4). Shardscope imports them
// on open as `-xla-sdy-import-shardings` does:
//   shardscope-opt sample_models/gspmd/mlp_gspmd.mlir -xla-sdy-import-shardings -sdy-propagation-pipeline
module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                         %arg1: tensor<64x256xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
                         %arg2: tensor<256x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
      -> (tensor<16x64xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %1 = stablehlo.tanh %0 : tensor<16x256xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    return %2 : tensor<16x64xf32>
  }
}
