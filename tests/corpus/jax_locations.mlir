#loc1 = loc("x")
module @jit_scaled attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32> loc("x")) -> (tensor<4x4xf32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32> loc(#loc)
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32> loc(#loc3)
    %1 = stablehlo.multiply %arg0, %0 : tensor<4x4xf32> loc(#loc3)
    %2 = chlo.sinh %1 : tensor<4x4xf32> -> tensor<4x4xf32> loc(#loc4)
    return %2 : tensor<4x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("/home/user/model.py":12:10 to :20)
#loc3 = loc("jit(scaled)/jit(main)/mul"(#loc2))
#loc4 = loc(callsite("sinh"(#loc2) at fused["/home/user/model.py":14:4, "outer"]))
