// A module with mistakes, to show how Shardscope reports them.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x"}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
