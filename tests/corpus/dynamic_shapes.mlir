module @jit_dynamic attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x4xf32>) -> (tensor<1x?x4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<4> : tensor<1xi32>
    %2 = stablehlo.concatenate %c, %1, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
    %4 = stablehlo.dynamic_iota %2, dim = 1 : (tensor<3xi32>) -> tensor<1x?x4xf32>
    %5 = stablehlo.add %3, %4 : tensor<1x?x4xf32>
    return %5 : tensor<1x?x4xf32>
  }
}
