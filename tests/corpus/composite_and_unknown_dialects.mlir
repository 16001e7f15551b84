module @jit_composite attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = ""}) {
    %0 = stablehlo.composite "my.softplus" %arg0 {composite_attributes = {beta = 1.000000e+00 : f32}, decomposition = @my.softplus.impl} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = "mydialect.annotate"(%0) <{label = #mydialect.label<"hot">}> {note = "kept as written"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "check.expect_close"(%1, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
    return %1 : tensor<8x16xf32>
  }
  func.func private @my.softplus.impl(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<8x16xf32>
    %1 = stablehlo.log_plus_one %0 : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
