// sharding_groups.mlir — tying values together with sdy.sharding_group, on
// a ["x"=2, "y"=2] mesh.
//
// All values in one sharding group must end up with the same sharding.
// Here %0 = tanh(%arg0) gets "x" from %arg0 by ordinary propagation. %1 is
// computed from %arg1, which has no sharding, and its path is cut by a
// propagation barrier that lets nothing through (allowed_direction=NONE).
// Because %0 and %1 are in group 0, %1 still receives [{"x", ?}, {?}].
// Things to look at: the two sdy.sharding_group ops (group #0) and the
// barrier in the graph.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
  %1 = sdy.propagation_barrier %arg1 allowed_direction=NONE : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %2 group_id=0 : tensor<8x8xf32>
  %3 = stablehlo.add %0, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
