// Every sdy op in its custom form, inline meshes and sub-axes.
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[3]>

func.func @sdy_ops(%arg0: tensor<16x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(1)2, ?}, {"y"}], replicated={"x":(2)2}> : tensor<16x8xf32>
  sdy.sharding_group %0 group_id=3 : tensor<16x8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<16x8xf32>
  %2 = sdy.data_flow_edge %1 sharding=<mesh<["z"=2]>, [{"z"}, {}]> : tensor<16x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<16x8xf32>
  %4 = sdy.named_computation<"body">(%3, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] (%arg2: tensor<16x8xf32>, %arg3: tensor<16x8xf32>) {
    %6 = stablehlo.multiply %arg2, %arg3 : tensor<16x8xf32>
    sdy.return %6 : tensor<16x8xf32>
  } : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %5 = sdy.manual_computation(%4) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{"x"}, {?}]>] manual_axes={"x"} (%arg2: tensor<4x8xf32>) {
    %6 = sdy.constant dense<1.000000e+00> : tensor<4x8xf32>
    %7 = stablehlo.add %arg2, %6 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>} : tensor<4x8xf32>
    sdy.return %7 : tensor<4x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %5 : tensor<16x8xf32>
}
