// A module as JAX exports it: named module with attributes, locations and
// location aliases, a private helper called from main.
#loc1 = loc("x")
module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%arg0: tensor<16x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>} loc("x"), %arg1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<16x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32> loc(#loc1)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<16x256xf32>
    %3 = call @helper(%2) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "", mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<16x256xf32>) -> tensor<16x256xf32>
    return %4 : tensor<16x256xf32>
  }
  func.func private @helper(%arg0: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<16x256xf32>
    %1 = stablehlo.reshape %0 : (tensor<16x256xf32>) -> tensor<4x4x256xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0, 2] : (tensor<4x4x256xf32>) -> tensor<4x4x256xf32>
    %3 = stablehlo.reshape %2 : (tensor<4x4x256xf32>) -> tensor<16x256xf32>
    return %3 : tensor<16x256xf32>
  }
}
