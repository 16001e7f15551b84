module {
  sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}], device_ids = dense<[0, 2, 4, 6, 1, 3, 5, 7]> : tensor<8xi64>}}
  func.func @main(%arg0: tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) -> (tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<10x16xf32>
    return %0 : tensor<10x16xf32>
  }
}
