module {
  sdy.mesh @mesh = <["batch"=2, "heads"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "heads", size = 4 : i64}]}}
  func.func @main(%arg0: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>}, %arg1: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>}, %arg2: tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>}) -> (tensor<4x8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"heads"}, {}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : (tensor<4x8x16x32xf32>, tensor<4x8x16x32xf32>) -> tensor<4x8x16x16xf32>
    %1 = sdy.constant dense<-1.000000e+30> : tensor<f32>
    %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}]>]>} : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : (tensor<4x8x16xf32>) -> tensor<4x8x16x16xf32>
    %4 = stablehlo.subtract %0, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : tensor<4x8x16x16xf32>
    %5 = stablehlo.exponential %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : tensor<4x8x16x16xf32>
    %6 = sdy.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%5 init: %6) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}]>]>} : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : (tensor<4x8x16xf32>) -> tensor<4x8x16x16xf32>
    %9 = stablehlo.divide %5, %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : tensor<4x8x16x16xf32>
    %10 = stablehlo.dot_general %9, %arg2, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"heads"}, {}, {}]>]>} : (tensor<4x8x16x16xf32>, tensor<4x8x16x32xf32>) -> tensor<4x8x16x32xf32>
    return %10 : tensor<4x8x16x32xf32>
  }
}
