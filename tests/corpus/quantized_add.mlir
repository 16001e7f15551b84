module @quantized {
  func.func public @main(%arg0: tensor<4x2xf32>, %arg1: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %0 = stablehlo.uniform_quantize %arg0 : (tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32, 3.906250e-03:-128>>
    %1 = stablehlo.uniform_quantize %arg1 : (tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32, 3.906250e-03:-128>>
    %2 = stablehlo.add %0, %1 : tensor<4x2x!quant.uniform<i8:f32, 3.906250e-03:-128>>
    %3 = stablehlo.uniform_dequantize %2 : (tensor<4x2x!quant.uniform<i8:f32, 3.906250e-03:-128>>) -> tensor<4x2xf32>
    return %3 : tensor<4x2xf32>
  }
}
