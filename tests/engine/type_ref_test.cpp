// Interned types (ir/type_ref.h): equal types share one object, different
// ones never do, and values read from a module hold the shared objects.
#include "ir/type_ref.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "ir/operation.h"
#include "parse_test_module.h"

namespace shardscope {
namespace {

using ir::Type;
using ir::TypeRef;

struct TypePair {
  const char* name;
  Type a;
  Type b;
  bool equal;
};

std::vector<TypePair> pairs() {
  Type dynamic = Type::tensor({Type::kDynamic, 8}, "f32");
  Type encoded = Type::tensor({4}, "f32");
  encoded.encoding = "#enc";
  Type unranked = Type::tensor({}, "f32");
  unranked.unranked = true;
  Type tuple;
  tuple.kind = Type::Kind::Tuple;
  tuple.elements = {Type::tensor({2}, "i32"), Type::token()};
  Type otherTuple = tuple;
  otherTuple.elements[0].shape = {3};
  return {
      {"same tensor", Type::tensor({4, 8}, "f32"), Type::tensor({4, 8}, "f32"), true},
      {"other shape", Type::tensor({4, 8}, "f32"), Type::tensor({8, 4}, "f32"), false},
      {"other element type", Type::tensor({4, 8}, "f32"), Type::tensor({4, 8}, "bf16"), false},
      {"scalar tensor and scalar", Type::tensor({}, "f32"), Type::other("f32"), false},
      {"dynamic dim", dynamic, Type::tensor({Type::kDynamic, 8}, "f32"), true},
      {"encoding", encoded, Type::tensor({4}, "f32"), false},
      {"unranked", unranked, Type::tensor({}, "f32"), false},
      {"tokens", Type::token(), Type::token(), true},
      {"nested tuple element", tuple, otherTuple, false},
      {"same tuple", tuple, tuple, true},
      {"function types", Type::function({Type::tensor({2}, "f32")}, {Type::tensor({2}, "f32")}),
       Type::function({Type::tensor({2}, "f32")}, {}), false},
  };
}

TEST(TypeRef, EqualTypesShareOneObject) {
  for (const TypePair& p : pairs()) {
    SCOPED_TRACE(p.name);
    TypeRef a = p.a;
    TypeRef b = p.b;
    EXPECT_EQ(a == b, p.equal);
    EXPECT_EQ(&*a == &*b, p.equal);
    // The shared object is equal to what was interned.
    EXPECT_TRUE(*a == p.a);
    EXPECT_TRUE(*b == p.b);
    EXPECT_EQ(a->str(), p.a.str());
    if (p.equal) EXPECT_EQ(ir::hashType(p.a), ir::hashType(p.b));
  }
}

TEST(TypeRef, DefaultIsTheEmptyType) {
  TypeRef d;
  EXPECT_TRUE(*d == Type{});
  EXPECT_EQ(d, TypeRef(Type{}));
}

TEST(TypeRef, ThreadsInterningTheSameTypesGetTheSameObjects) {
  // Documents are read on worker threads (the GUI); all must share.
  constexpr int kThreads = 4;
  std::vector<std::vector<const Type*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&seen, t] {
      for (int64_t n = 1; n <= 200; ++n) seen[t].push_back(&*TypeRef(Type::tensor({n, 7}, "f32")));
    });
  for (std::thread& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]);
}

TEST(TypeRef, ValuesOfAModuleShareTypes) {
  auto m = test_support::parseTestModule(R"(func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.multiply %0, %arg1 : tensor<8x16xf32>
  %2 = stablehlo.reduce_precision %1, format = e5m10 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
)");
  ASSERT_TRUE(m);
  std::vector<const ir::Value*> values;
  m->op->walkPreOrder([&](ir::Op& op) {
    for (ir::Value* r : op.resultRange()) values.push_back(r);
    for (const auto& region : op.regions())
      for (const auto& b : region->blocks())
        for (unsigned i = 0; i < b->numArguments(); ++i) values.push_back(b->argument(i));
    return true;
  });
  ASSERT_EQ(values.size(), 5u);
  for (const ir::Value* v : values) {
    EXPECT_EQ(&*v->type, &*values.front()->type);
    EXPECT_EQ(v->type->str(), "tensor<8x16xf32>");
  }
}

}  // namespace
}  // namespace shardscope
