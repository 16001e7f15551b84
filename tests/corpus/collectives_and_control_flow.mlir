module @jit_collectives attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>) -> tensor<2x4xf32> {
    %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %4 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %2 = "stablehlo.if"(%arg1) ({
      stablehlo.return %1 : tensor<2x4xf32>
    }, {
      %4 = stablehlo.negate %1 : tensor<2x4xf32>
      stablehlo.return %4 : tensor<2x4xf32>
    }) : (tensor<i1>) -> tensor<2x4xf32>
    %3 = "stablehlo.case"(%arg2) ({
      stablehlo.return %2 : tensor<2x4xf32>
    }, {
      stablehlo.return %arg0 : tensor<2x4xf32>
    }) : (tensor<i32>) -> tensor<2x4xf32>
    return %3 : tensor<2x4xf32>
  }
}
