module @jit_top_k attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x10xbf16>) -> (tensor<6x3xbf16> {jax.result_info = "[0]"}, tensor<6x3xi32> {jax.result_info = "[1]"}) {
    %0:2 = chlo.top_k(%arg0, k = 3) : tensor<6x10xbf16> -> (tensor<6x3xbf16>, tensor<6x3xi32>)
    %1 = stablehlo.negate %0#0 : tensor<6x3xbf16>
    return %1, %0#1 : tensor<6x3xbf16>, tensor<6x3xi32>
  }
}
