module @jit_special attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8xf32>) -> (tensor<16x8xf32> {jax.result_info = ""}, tensor<16x8xi1> {jax.result_info = ""}) {
    %0 = chlo.lgamma %arg0 : tensor<16x8xf32> -> tensor<16x8xf32>
    %1 = chlo.digamma %0 : tensor<16x8xf32> -> tensor<16x8xf32>
    %2 = chlo.erf_inv %1 : tensor<16x8xf32> -> tensor<16x8xf32>
    %3 = chlo.bessel_i1e %2 : tensor<16x8xf32> -> tensor<16x8xf32>
    %4 = chlo.acosh %3 : tensor<16x8xf32> -> tensor<16x8xf32>
    %5 = chlo.atanh %4 : tensor<16x8xf32> -> tensor<16x8xf32>
    %6 = chlo.tan %5 : tensor<16x8xf32> -> tensor<16x8xf32>
    %7 = chlo.next_after %6, %arg0 : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
    %8 = chlo.broadcast_multiply %7, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
    %9 = chlo.is_inf %8 : tensor<16x8xf32> -> tensor<16x8xi1>
    return %8, %9 : tensor<16x8xf32>, tensor<16x8xi1>
  }
}
