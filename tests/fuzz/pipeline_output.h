// A printed pipeline output in the form two runs' outputs are compared in
// (propagation_fuzzer.cpp explains why): what sdy does not keep stable from
// one run to the next is spelled one way.
//
//   comparable("func.func private @f_0() -> (tensor<8xf32> {sdy.sharding =
//               #sdy.sharding<@mesh, [{}]>})")
//     == "func.func private @fn0() -> tensor<8xf32>"
//
// - private functions are renamed @fn0, @fn1, ... in order of first mention;
// - an sdy.sharding attribute whose shardings are all closed and name no
//   axis is dropped (with the `attributes` keyword it leaves empty, and the
//   parentheses around a function's single result it leaves bare);
// - such a sharding elsewhere (inside a reshard, say) is spelled `<@*, [...]>`;
// - the open dimensions of `sdy.reshard` are closed.
#pragma once
#include <string>

namespace shardscope::fuzz {

std::string comparable(const std::string& text);

}  // namespace shardscope::fuzz
