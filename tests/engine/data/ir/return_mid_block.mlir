// A return without operands that is not the last op of its block (the
// verifier's business) prints generically: bare, the next line's result
// would read back as its operand.
func.func @f(%arg0: tensor<32xf32>) -> tensor<32xf32> {
  "func.return"() : () -> ()
  %0 = "sdy.unknown"(%arg0) : (tensor<32xf32>) -> tensor<32xf32>
}
