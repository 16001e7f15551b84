// String attributes print as MLIR prints them: a quote as \22, a backslash
// as \\, a newline as \0A, other bytes as written.
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @Host(%arg0) {backend_config = "{\"type\":\"HOST\"}", mhlo.frontend_attributes = {note = "a\\b\nc", "key\"q" = "\22already\22"}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
