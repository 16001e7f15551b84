module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>) -> (tensor<8x4xcomplex<f32>> {jax.result_info = ""}) {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<8x4xf32>
    %1 = stablehlo.complex %0, %arg1 : tensor<8x4xcomplex<f32>>
    %2 = stablehlo.real %1 : (tensor<8x4xcomplex<f32>>) -> tensor<8x4xf32>
    %3 = stablehlo.imag %1 : (tensor<8x4xcomplex<f32>>) -> tensor<8x4xf32>
    %4 = stablehlo.atan2 %2, %3 : tensor<8x4xf32>
    %5 = stablehlo.complex %4, %2 : tensor<8x4xcomplex<f32>>
    %6 = stablehlo.multiply %1, %5 : tensor<8x4xcomplex<f32>>
    return %6 : tensor<8x4xcomplex<f32>>
  }
}
