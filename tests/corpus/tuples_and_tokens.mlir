module @jit_tuples attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>) {
    %0 = stablehlo.tuple %arg0, %arg1 {xla_shape = "(f32[3,3]{1,0}, f32[3]{0})"} : tuple<tensor<3x3xf32>, tensor<3xf32>>
    %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<3x3xf32>, tensor<3xf32>>) -> tensor<3x3xf32>
    %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<3x3xf32>, tensor<3xf32>>) -> tensor<3xf32>
    %3 = stablehlo.create_token : !stablehlo.token
    %4 = stablehlo.after_all %3, %3 : !stablehlo.token
    return %1, %2 : tensor<3x3xf32>, tensor<3xf32>
  }
}
