module @jit_top_k attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x10xbf16>) -> (tensor<6x3xbf16> {jax.result_info = "[0]"}, tensor<6x3xi32> {jax.result_info = "[1]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<6x10xbf16> -> (tensor<6x3xbf16>, tensor<6x3xi32>)
    %0 = stablehlo.negate %values : tensor<6x3xbf16>
    return %0, %indices : tensor<6x3xbf16>, tensor<6x3xi32>
  }
}
