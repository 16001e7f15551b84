// manual_computation.mlir — a region where the program handles axis "x"
// by hand (SPMD style), on a ["x"=2, "y"=2] mesh.
//
// Outside, %arg0 [16, 32] is sharded rows on "x", columns on "y".
// sdy.manual_computation takes it with in_shardings [{"x"}, {?}] and
// manual_axes={"x"}: inside the body each device sees its local block of
// 8 rows (the body argument is tensor<8x32xf32>), while "y" stays free
// (automatic) and may propagate into the body through the open {?}.
// The body's result is put back together by out_shardings.
// Things to look at: the body cluster, the local 8x32 type of %arg1 versus
// the global 16x32 operand (the mesh view of %arg1 shows the global operand),
// and the tanh after the region.
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{"x"}, {?}]>] manual_axes={"x"} (%arg1: tensor<8x32xf32>) {
    %2 = stablehlo.negate %arg1 : tensor<8x32xf32>
    %3 = stablehlo.add %2, %arg1 : tensor<8x32xf32>
    sdy.return %3 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = stablehlo.tanh %0 : tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}
