module {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func @main(%arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<2x32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}, {}]>}) {
    %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"x":(2)2}, {}]>]>} : (tensor<64x32xf32>) -> tensor<2x32x32xf32>
    return %0 : tensor<2x32x32xf32>
  }
}
