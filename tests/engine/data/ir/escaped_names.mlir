// Names that are not bare identifiers print escaped and quoted, so that the
// output reads back: a backslash and a newline in axis names, attribute names
// with a comma or a space, an op name with a quote.
sdy.mesh @mesh = <["a\\b"=2, "c\0Ad"=4, "e\"f"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a\\b"}, {"c\0Ad":(1)2}], replicated={"e\"f"}>}) -> tensor<8x8xf32> {
  "dy."() {",y" = 1 : i32, "a b", plain} : () -> ()
  "x\"y"() : () -> ()
  return %arg0 : tensor<8x8xf32>
}
