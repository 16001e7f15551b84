// Two modules in one file, as `-split-input-file` reads them.
module @first {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = chlo.erfc %arg0 : tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module @second {
  func.func @main(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.popcnt %arg0 : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
