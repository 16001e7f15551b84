// The op sharding rule registry, on ops built by hand (expected rules are the
// reference's, from the conformance cases), and the populate pass.
#include "rules/op_sharding_rule_registry.h"

#include <gtest/gtest.h>

#include "passes/pass.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules {
namespace {

using Shape = std::vector<int64_t>;

ir::Attribute i64(int64_t v) { return ir::IntegerAttr{v, "i64"}; }
ir::Attribute denseArray(Shape v) { return ir::DenseArrayAttr{"i64", std::move(v)}; }
ir::Attribute intArray(const Shape& v) {
  std::vector<ir::Attribute> elems;
  for (int64_t x : v) elems.push_back(i64(x));
  return ir::Attribute::makeArray(std::move(elems));
}
ir::Attribute opaque(std::string text) { return ir::OpaqueAttr{std::move(text)}; }

class RegistryTest : public ::testing::Test {
 protected:
  ir::Value* arg(const Shape& shape, const std::string& elementType = "f32") {
    return module.body().addArgument(ir::Type::tensor(shape, elementType));
  }
  ir::Op& op(const std::string& name, const std::vector<ir::Value*>& operands,
             const std::vector<Shape>& results,
             const std::vector<std::pair<std::string, ir::Attribute>>& attrs = {},
             ir::Block* into = nullptr) {
    auto o = std::make_unique<ir::Op>(name, ir::SourceLoc{++line, 3});
    for (ir::Value* v : operands) o->addOperand(v);
    for (const Shape& s : results) o->addResult(ir::Type::tensor(s, "f32"));
    for (const auto& [k, v] : attrs) o->setAttr(k, v, /*inherent=*/true);
    return *(into ? into : &module.body())->append(std::move(o));
  }
  std::string rule(const ir::Op& o, bool conservative = false) {
    auto r = createOpShardingRule(o, conservative, &diags);
    return r ? r->strBody() : "<none>";
  }

  ir::Module module = ir::makeEmptyModule();
  ir::DiagnosticSink diags;
  uint32_t line = 0;
};

TEST_F(RegistryTest, Pointwise) {
  ir::Value* a = arg({2, 0, 4});
  EXPECT_EQ(rule(op("stablehlo.add", {a, a}, {{2, 0, 4}})),
            "([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}");
  ir::Value* s = arg({});
  EXPECT_EQ(rule(op("stablehlo.tanh", {s}, {Shape{}})), "([])->([])");
  EXPECT_EQ(rule(op("sdy.sharding_constraint", {a}, {{2, 0, 4}})), "([i, j, k])->([i, j, k]) {i=2, j=0, k=4}");
}

TEST_F(RegistryTest, ClampAndSelectWithScalars) {
  ir::Value* s = arg({});
  ir::Value* x = arg({4, 8});
  EXPECT_EQ(rule(op("stablehlo.clamp", {s, x, s}, {{4, 8}})), "([], [i, j], [])->([i, j]) {i=4, j=8}");
  EXPECT_EQ(rule(op("stablehlo.select", {s, x, x}, {{4, 8}})), "([], [i, j], [i, j])->([i, j]) {i=4, j=8}");
}

TEST_F(RegistryTest, Collectives) {
  ir::Value* a = arg({2, 2}, "i64");
  EXPECT_EQ(rule(op("stablehlo.all_gather", {a, a}, {{2, 4}, {2, 4}}, {{"all_gather_dim", i64(1)}})),
            "([i, j], [i, j])->([i, k], [i, k]) {i=2, j=2, k=4} need_replication={j, k}");
  ir::Value* b = arg({2, 4}, "i64");
  EXPECT_EQ(rule(op("stablehlo.all_to_all", {b, b}, {{4, 2}, {4, 2}},
                    {{"split_dimension", i64(1)}, {"concat_dimension", i64(0)}, {"split_count", i64(2)}})),
            "([k, i], [k, i])->([l, j], [l, j]) {i=4, j=2, k=2, l=4} need_replication={i, j, k, l}");
  EXPECT_EQ(rule(op("stablehlo.all_to_all", {b}, {{2, 4}},
                    {{"split_dimension", i64(0)}, {"concat_dimension", i64(0)}})),
            "([j, i])->([k, i]) {i=4, j=2, k=2} need_replication={j, k}");
  ir::Value* c = arg({2, 64, 1, 13}, "i64");
  EXPECT_EQ(rule(op("stablehlo.reduce_scatter", {c}, {{2, 32, 1, 13}}, {{"scatter_dimension", i64(1)}})),
            "([i, l, j, k])->([i, m, j, k]) {i=2, j=1, k=13, l=64, m=32} need_replication={l, m}");
}

TEST_F(RegistryTest, BroadcastInDim) {
  EXPECT_EQ(rule(op("stablehlo.broadcast_in_dim", {arg({2, 3, 5, 1, 7})}, {{2, 5, 3, 11, 7, 13}},
                    {{"broadcast_dimensions", denseArray({0, 2, 1, 3, 4})}})),
            "([i, k, j, l, n])->([i, j, k, m, n, o]) {i=2, j=5, k=3, l=1, m=11, n=7, o=13}");
  EXPECT_EQ(rule(op("stablehlo.broadcast_in_dim", {arg({})}, {{2, 1, 13}},
                    {{"broadcast_dimensions", denseArray({})}})),
            "([])->([i, j, k]) {i=2, j=1, k=13}");
}

TEST_F(RegistryTest, BitcastConvert) {
  EXPECT_EQ(rule(op("stablehlo.bitcast_convert", {arg({4, 2, 2}, "ui32")}, {{4, 2}})),
            "([i, j, k])->([i, j]) {i=4, j=2, k=2} need_replication={k}");
  EXPECT_EQ(rule(op("stablehlo.bitcast_convert", {arg({4, 2}, "ui64")}, {{4, 2, 2}})),
            "([i, j])->([i, j, k]) {i=4, j=2, k=2} need_replication={k}");
}

TEST_F(RegistryTest, ConcatenateDependsOnSlices) {
  ir::Value* a = arg({4, 40, 256});
  ir::Value* b = arg({4, 60, 256});
  auto slice = [&](ir::Value* v, Shape out) { return op("stablehlo.slice", {v}, {out}).result(0); };
  ir::Value* s0 = slice(a, {4, 32, 256});
  ir::Value* s1 = slice(b, {4, 48, 256});
  ir::Op& both = op("stablehlo.concatenate", {s0, s1}, {{4, 80, 256}}, {{"dimension", i64(1)}});
  EXPECT_EQ(rule(both), "([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} permutation={j}");
  EXPECT_EQ(rule(both, /*conservative=*/true),
            "([i, k, j], [i, l, j])->([i, m, j]) {i=4, j=256, k=1, l=1, m=1}");

  ir::Value* s2 = slice(a, {4, 24, 256});
  EXPECT_EQ(rule(op("stablehlo.concatenate", {s0, a, s2}, {{4, 96, 256}}, {{"dimension", i64(1)}})),
            "([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} permutation={j}");
  EXPECT_EQ(rule(op("stablehlo.concatenate", {a, a}, {{4, 80, 256}}, {{"dimension", i64(1)}})),
            "([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} need_replication={j}");
  EXPECT_EQ(rule(op("stablehlo.concatenate", {s0, b}, {{4, 92, 256}}, {{"dimension", i64(1)}})),
            "([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=92, k=256} need_replication={j}");
}

TEST_F(RegistryTest, Convolution) {
  ir::Value* lhs = arg({2, 224, 224, 192});
  ir::Value* rhs = arg({3, 3, 192, 64});
  std::vector<std::pair<std::string, ir::Attribute>> attrs = {
      {"dimension_numbers", opaque("#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>")},
      {"window_strides", denseArray({2, 2})},
      {"batch_group_count", i64(1)},
      {"feature_group_count", i64(1)}};
  ir::Op& conv = op("stablehlo.convolution", {lhs, rhs}, {{2, 112, 112, 64}}, attrs);
  EXPECT_EQ(rule(conv),
            "([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=112, k=2, l=112, m=2, n=192, "
            "o=64} reduction={k, m, n} permutation={j, l}");
  EXPECT_EQ(rule(conv, true),
            "([i, l, m, j], [n, o, j, k])->([i, p, q, k]) {i=2, j=192, k=64, l=1, m=1, n=1, o=1, "
            "p=1, q=1} reduction={j}");

  // The `raw` keyed form and a batch group count.
  attrs[0].second = opaque(
      "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, "
      "input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, "
      "kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], "
      "output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>");
  attrs[2].second = i64(4);
  EXPECT_EQ(rule(op("stablehlo.convolution", {arg({8, 224, 224, 192}), arg({3, 3, 192, 256})},
                    {{2, 112, 112, 256}}, attrs)),
            "([ij, kl, mn, o], [l, n, o, ip])->([j, k, m, ip]) {i=4, j=2, k=112, l=2, m=112, n=2, "
            "o=192, p=64} reduction={l, n, o} permutation={k, m}");
}

TEST_F(RegistryTest, CustomCalls) {
  auto call = [&](const std::string& target, std::vector<ir::Value*> operands, std::vector<Shape> results) {
    return rule(op("stablehlo.custom_call", operands, results, {{"call_target_name", ir::StringAttr{target}}}));
  };
  EXPECT_EQ(call("MoveToHost", {arg({8, 4})}, {{8, 4}}), "([i, j])->([i, j]) {i=8, j=4}");
  EXPECT_EQ(call("Eigh", {arg({8, 4, 4})}, {{8, 4, 4}, {8, 4}}),
            "([i, j, k])->([i, j, k], [i, k]) {i=8, j=4, k=4}");
  EXPECT_EQ(call("Qr", {arg({8, 5, 3})}, {{8, 5, 3}, {8, 3}}),
            "([i, j, k])->([i, j, k], [i, l]) {i=8, j=5, k=3, l=3} need_replication={j, k, l}");
  EXPECT_EQ(call("mhlo.topk", {arg({16, 8})}, {{16, 2}, {16, 2}}),
            "([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}");
  ir::Value* x = arg({16, 4});
  EXPECT_EQ(call("ApproxTopK", {x, x, arg({}), arg({}, "i32")}, {{16, 2}, {16, 2}}),
            "([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=4, k=2} need_replication={k} "
            "blocked_propagation={k}");
  EXPECT_TRUE(diags.all().empty());

  EXPECT_EQ(call("unknown_custom_op", {arg({8, 2})}, {{8, 2}}), "<none>");
  EXPECT_EQ(call("another_unknown", {arg({8, 2})}, {{8, 2}}), "<none>");
  ASSERT_EQ(diags.all().size(), 1u);  // once per sink
  EXPECT_EQ(diags.all()[0].severity, ir::Severity::Warning);
  EXPECT_EQ(diags.all()[0].message,
            "custom call @unknown_custom_op is unknown to SDY sharding rule registry");
  EXPECT_EQ(call("xla_python_cpu_callback", {arg({8, 2})}, {{8, 2}}), "<none>");
  EXPECT_EQ(diags.all().size(), 1u);
}

TEST_F(RegistryTest, X64CombineFeedingRng) {
  ir::Value* a = arg({2}, "ui32");
  ir::Op& combine = op("stablehlo.custom_call", {a, a}, {{2}}, {{"call_target_name", ir::StringAttr{"X64Combine"}}});
  EXPECT_EQ(rule(combine), "([i], [i])->([i]) {i=2}");
  ir::Op& rng = op("stablehlo.rng_bit_generator", {combine.result(0)}, {{2}, {4, 1000}});
  EXPECT_EQ(rule(combine), "([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}");
  EXPECT_EQ(rule(rng), "([i])->([i], [j, k]) {i=2, j=4, k=1000} need_replication={i} blocked_propagation={i}");
}

TEST_F(RegistryTest, Dots) {
  EXPECT_EQ(rule(op("stablehlo.dot", {arg({32}), arg({32, 16})}, {{16}})),
            "([j], [j, i])->([i]) {i=16, j=32} reduction={j}");
  EXPECT_EQ(rule(op("stablehlo.dot", {arg({32}), arg({32})}, {Shape{}})), "([i], [i])->([]) {i=32} reduction={i}");
  ir::Attribute dn = ir::Attribute::makeStruct(
      "stablehlo.dot", {{"lhs_batching_dimensions", intArray({0, 1})},
                        {"rhs_batching_dimensions", intArray({4, 3})},
                        {"lhs_contracting_dimensions", intArray({5, 4})},
                        {"rhs_contracting_dimensions", intArray({1, 2})}});
  EXPECT_EQ(rule(op("stablehlo.dot_general", {arg({2, 4, 8, 4, 64, 32}), arg({16, 32, 64, 4, 2})},
                    {{2, 4, 8, 4, 16}}, {{"dot_dimension_numbers", dn}})),
            "([i, j, k, l, o, n], [m, n, o, j, i])->([i, j, k, l, m]) {i=2, j=4, k=8, l=4, m=16, "
            "n=32, o=64} reduction={n, o}");
}

TEST_F(RegistryTest, DynamicSlicing) {
  ir::Value* i = arg({}, "i32");
  EXPECT_EQ(rule(op("stablehlo.dynamic_slice", {arg({32, 4, 8}), i, i, i}, {{32, 1, 2}},
                    {{"slice_sizes", denseArray({32, 1, 2})}})),
            "([i, j, k], [], [], [])->([i, j, k]) {i=32, j=4, k=8} need_replication={j, k} "
            "blocked_propagation={j, k}");
  EXPECT_EQ(rule(op("stablehlo.dynamic_update_slice", {arg({32, 4, 8}), arg({32, 1, 2}), i, i, i},
                    {{32, 4, 8}})),
            "([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2} "
            "need_replication={k, m}");
  ir::Value* c = op("stablehlo.constant", {}, {Shape{}}).result(0);
  EXPECT_EQ(rule(op("stablehlo.dynamic_update_slice", {arg({32, 4, 8}), arg({32, 1, 2}), c, c, c},
                    {{32, 4, 8}})),
            "([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2}");
}

TEST_F(RegistryTest, Fft) {
  EXPECT_EQ(rule(op("stablehlo.fft", {arg({8, 32, 64})}, {{8, 32, 33}},
                    {{"fft_type", ir::EnumAttr{"stablehlo", "fft_type", "RFFT"}},
                     {"fft_length", denseArray({32, 64})}})),
            "([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k} blocked_propagation={k}");
  EXPECT_EQ(rule(op("stablehlo.fft", {arg({8, 32, 64})}, {{8, 32, 64}}, {{"fft_length", denseArray({64})}})),
            "([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k}");
}

TEST_F(RegistryTest, Gather) {
  ir::Attribute dn = ir::Attribute::makeStruct(
      "stablehlo.gather", {{"offset_dims", intArray({3})},
                           {"collapsed_slice_dims", intArray({1})},
                           {"operand_batching_dims", intArray({0, 2})},
                           {"start_indices_batching_dims", intArray({2, 0})},
                           {"start_index_map", intArray({1, 3})},
                           {"index_vector_dim", i64(1)}});
  EXPECT_EQ(rule(op("stablehlo.gather", {arg({5, 3, 7, 4}), arg({7, 2, 5, 3}, "i64")}, {{7, 5, 3, 2}},
                    {{"dimension_numbers", dn}, {"slice_sizes", denseArray({1, 1, 1, 2})}})),
            "([j, m, i, l], [i, n, j, k])->([i, j, k, l]) {i=7, j=5, k=3, l=4, m=3, n=2} "
            "reduction={m} need_replication={l, n} blocked_propagation={l}");
  // The same attribute kept as text.
  EXPECT_EQ(rule(op("stablehlo.gather", {arg({3, 4, 2, 5}), arg({2, 3, 3}, "i64")}, {{2, 3, 2, 2, 1}},
                    {{"dimension_numbers",
                      opaque("#stablehlo.gather<offset_dims = [2, 3, 4], collapsed_slice_dims = [0], "
                             "start_index_map = [1, 0, 3], index_vector_dim = 2>")}})),
            "([o, k, l, m], [i, j, p])->([i, j, k, l, n]) {i=2, j=3, k=4, l=2, m=5, n=1, o=3, p=3} "
            "reduction={m, o} need_replication={k, n, p} blocked_propagation={k}");
}

TEST_F(RegistryTest, ScatterReductionNeedsACommonCombiner) {
  ir::Attribute dn = ir::Attribute::makeStruct(
      "stablehlo.scatter", {{"update_window_dims", intArray({2, 3})},
                            {"inserted_window_dims", intArray({0})},
                            {"scatter_dims_to_operand_dims", intArray({1, 0})},
                            {"index_vector_dim", i64(2)}});
  auto scatter = [&](const char* combiner) -> ir::Op& {
    ir::Op& s = op("stablehlo.scatter", {arg({3, 4, 2}), arg({2, 3, 2}, "i64"), arg({2, 3, 2, 2})},
                   {{3, 4, 2}}, {{"scatter_dimension_numbers", dn}});
    ir::Block& body = s.addRegion().addBlock();
    ir::Value* x = body.addArgument(ir::Type::tensor({}, "f32"));
    ir::Value* y = body.addArgument(ir::Type::tensor({}, "f32"));
    ir::Value* r = op(combiner, {x, y}, {Shape{}}, {}, &body).result(0);
    op("stablehlo.return", {r}, {}, {}, &body);
    return s;
  };
  EXPECT_EQ(rule(scatter("stablehlo.add")),
            "([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} "
            "reduction={i, j} need_replication={k, l, o}");
  EXPECT_EQ(rule(scatter("stablehlo.subtract")),
            "([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} "
            "need_replication={i, j, k, l, o}");
}

TEST_F(RegistryTest, Reduce) {
  ir::Value* a = arg({2, 64, 13});
  ir::Value* init = arg({});
  EXPECT_EQ(rule(op("stablehlo.reduce", {a, a, init, init}, {{64}, {64}}, {{"dimensions", denseArray({0, 2})}})),
            "([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}");
}

TEST_F(RegistryTest, Windows) {
  ir::Value* a = arg({48, 48, 3});
  ir::Value* init = arg({});
  ir::Op& rw = op("stablehlo.reduce_window", {a, a, init, init}, {{16, 48, 3}, {16, 48, 3}},
                  {{"window_dimensions", denseArray({3, 1, 1})},
                   {"window_strides", denseArray({3, 1, 1})},
                   {"padding", opaque("dense<[[0, 0], [2, -2], [0, 0]]> : tensor<3x2xi64>")}});
  EXPECT_EQ(rule(rw), "([i, j, k], [i, j, k], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, k=3} permutation={i, j}");
  EXPECT_EQ(rule(rw, true),
            "([i, j, k], [i, j, k], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, k=3} permutation={i, j} "
            "blocked_propagation={i, j}");
  EXPECT_EQ(rule(op("stablehlo.reduce_window", {arg({8, 16}), init}, {{8, 16}},
                    {{"window_dimensions", denseArray({1, 1})},
                     {"padding", opaque("dense<0> : tensor<2x2xi64>")}})),
            "([i, j], [])->([i, j]) {i=8, j=16}");

  ir::Op& sas = op("stablehlo.select_and_scatter", {arg({10, 24, 24, 64}), arg({10, 12, 12, 64}), init},
                   {{10, 24, 24, 64}},
                   {{"window_dimensions", denseArray({1, 2, 2, 1})}, {"window_strides", denseArray({1, 2, 2, 1})}});
  EXPECT_EQ(rule(sas, true),
            "([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=10, j=12, k=24, l=12, m=24, n=64} "
            "need_replication={j, l} permutation={k, m} blocked_propagation={j, k, l, m}");
}

TEST_F(RegistryTest, Reshape) {
  auto reshape = [&](Shape in, Shape out) { return rule(op("stablehlo.reshape", {arg(in)}, {out})); };
  EXPECT_EQ(reshape({2, 4}, {8}), "([i, j])->([ij]) {i=2, j=4}");
  EXPECT_EQ(reshape({8}, {2, 4}), "([ij])->([i, j]) {i=2, j=4}");
  EXPECT_EQ(reshape({4, 12}, {4, 2, 3, 2}), "([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}");
  EXPECT_EQ(reshape({3, 2}, {2, 3}), "([i, l])->([j, k]) {i=3, j=2, k=3, l=2}");
  EXPECT_EQ(reshape({6, 4}, {4, 6}), "([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}");
  EXPECT_EQ(reshape({2, 3, 8}, {3, 4, 4}), "([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}");
  EXPECT_EQ(reshape({3, 4, 4}, {2, 3, 8}), "([i, lm, n])->([j, k, mn]) {i=3, j=2, k=3, l=2, m=2, n=4}");
  EXPECT_EQ(reshape({1, 8, 4}, {8, 1, 4, 1}), "([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1}");
  EXPECT_EQ(reshape({8, 4}, {32, 1}), "([i, j])->([ij, k]) {i=8, j=4, k=1}");
  EXPECT_EQ(reshape({32, 1}, {8, 4}), "([ij, k])->([i, j]) {i=8, j=4, k=1}");
  EXPECT_EQ(reshape({32}, {8, 1, 4}), "([ik])->([i, j, k]) {i=8, j=1, k=4}");
  EXPECT_EQ(reshape({1, 1}, {}), "([i, j])->([]) {i=1, j=1}");
  EXPECT_EQ(reshape({4, 0}, {0, 8}), "<none>");
}

TEST_F(RegistryTest, ShapeOps) {
  EXPECT_EQ(rule(op("stablehlo.transpose", {arg({256, 32, 64, 100})}, {{100, 32, 256, 64}},
                    {{"permutation", denseArray({3, 1, 0, 2})}})),
            "([k, j, l, i])->([i, j, k, l]) {i=100, j=32, k=256, l=64}");
  EXPECT_EQ(rule(op("stablehlo.reverse", {arg({4, 32, 8, 2})}, {{4, 32, 8, 2}}, {{"dimensions", denseArray({1, 3})}})),
            "([i, j, k, l])->([i, j, k, l]) {i=4, j=32, k=8, l=2} permutation={j, l}");
  ir::Op& pad = op("stablehlo.pad", {arg({28, 28, 16}), arg({})}, {{30, 26, 16}});
  EXPECT_EQ(rule(pad), "([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j}");
  EXPECT_EQ(rule(pad, true),
            "([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j} blocked_propagation={i, j}");
}

TEST_F(RegistryTest, LinalgSortAndBatchNorm) {
  EXPECT_EQ(rule(op("stablehlo.cholesky", {arg({2, 4, 8, 8})}, {{2, 4, 8, 8}})),
            "([i, j, k, l])->([i, j, k, l]) {i=2, j=4, k=8, l=8} need_replication={k, l}");
  EXPECT_EQ(rule(op("stablehlo.triangular_solve", {arg({8, 3, 3}), arg({8, 5, 3})}, {{8, 5, 3}},
                    {{"left_side", ir::BoolAttr{false}},
                     {"transpose_a", ir::EnumAttr{"stablehlo", "transpose", "TRANSPOSE"}}})),
            "([i, k, l], [i, j, k])->([i, j, l]) {i=8, j=5, k=3, l=3} need_replication={j, k, l}");
  EXPECT_EQ(rule(op("stablehlo.sort", {arg({1, 4, 1})}, {{1, 4, 1}}, {{"dimension", i64(1)}})),
            "([i, j, k])->([i, j, k]) {i=1, j=4, k=1} need_replication={j} blocked_propagation={j}");
  EXPECT_EQ(rule(op("stablehlo.sort", {arg({4, 32, 8}), arg({4, 32, 8})}, {{4, 32, 8}, {4, 32, 8}},
                    {{"dimension", i64(0)}})),
            "([i, j, k], [i, j, k])->([i, j, k], [i, j, k]) {i=4, j=32, k=8} need_replication={i}");
  ir::Value* p = arg({16});
  EXPECT_EQ(rule(op("stablehlo.batch_norm_inference", {arg({4, 8, 16, 32}), p, p, p, p}, {{4, 8, 16, 32}},
                    {{"feature_index", i64(2)}})),
            "([i, j, k, l], [k], [k], [k], [k])->([i, j, k, l]) {i=4, j=8, k=16, l=32}");
}

TEST_F(RegistryTest, OpsWithoutRules) {
  ir::Value* a = arg({4});
  EXPECT_EQ(rule(op("stablehlo.iota", {}, {{4}}, {{"iota_dimension", i64(0)}})), "<none>");
  EXPECT_EQ(rule(op("stablehlo.while", {a}, {{4}})), "<none>");
  EXPECT_EQ(rule(op("func.return", {a}, {})), "<none>");
  EXPECT_EQ(rule(op("sdy.return", {a}, {})), "<none>");
  EXPECT_TRUE(diags.all().empty());
  EXPECT_EQ(rule(op("stablehlo.dynamic_iota", {a}, {{4}})), "<none>");
  EXPECT_EQ(rule(op("foo.bar", {a}, {{4}})), "<none>");
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].message, "op 'stablehlo.dynamic_iota' is unknown to SDY sharding rule registry");
  EXPECT_EQ(diags.all()[0].loc.line, 5u);
}

TEST_F(RegistryTest, ExistingRuleWins) {
  OpShardingRule custom;
  custom.factorSizes = {4, 2};
  custom.operands = {TensorFactorMapping{{{0}, {1}}}};
  custom.results = {TensorFactorMapping{{{1}, {0}}}};
  custom.isCustom = true;
  ir::Op& call = op("stablehlo.custom_call", {arg({4, 2})}, {{2, 4}}, {{"call_target_name", ir::StringAttr{"foo"}}});
  call.setAttr(kShardingRuleAttr, custom);
  auto got = getOrCreateOpShardingRule(call, false, &diags);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->str(), "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>");
  EXPECT_TRUE(diags.all().empty());
}

TEST(StablehloAttrs, ReadsEveryForm) {
  EXPECT_EQ(intsOf(opaque("dense<[[0, 1], [2, -2]]> : tensor<2x2xi64>")), (Shape{0, 1, 2, -2}));
  EXPECT_EQ(intsOf(opaque("dense<0> : tensor<2x2xi64>")), (Shape{0, 0, 0, 0}));
  EXPECT_EQ(intsOf(opaque("array<i64: 3, 1>")), (Shape{3, 1}));
  EXPECT_EQ(intsOf(intArray({4, 5})), (Shape{4, 5}));
  EXPECT_EQ(intsOf(denseArray({})), Shape{});

  auto params = StructParams::from(opaque("#stablehlo.scatter<update_window_dims = [2, 3], index_vector_dim = 2>"));
  ASSERT_TRUE(params);
  EXPECT_EQ(params->list("update_window_dims"), (Shape{2, 3}));
  EXPECT_EQ(params->integer("index_vector_dim"), 2);
  EXPECT_EQ(params->list("inserted_window_dims"), Shape{});

  auto conv = parseConvDimensionNumbers(opaque("[f, 1, b, 0]x[o, i, 1, 0]->[0, b, f, 1]"));
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->inputBatch, 2);
  EXPECT_EQ(conv->inputFeature, 0);
  EXPECT_EQ(conv->inputSpatial, (Shape{3, 1}));
  EXPECT_EQ(conv->kernelOutputFeature, 0);
  EXPECT_EQ(conv->kernelInputFeature, 1);
  EXPECT_EQ(conv->kernelSpatial, (Shape{3, 2}));
  EXPECT_EQ(conv->outputSpatial, (Shape{0, 3}));
  EXPECT_FALSE(parseConvDimensionNumbers(opaque("[b, 0, x]x[0, i, o]->[b, 0, f]")));
}

TEST_F(RegistryTest, PopulatePassSetsRules) {
  const passes::PassInfo* pass = passes::lookupPass("sdy-populate-op-sharding-rules");
  ASSERT_NE(pass, nullptr);
  ir::Value* a = arg({4, 8});
  ir::Op& add = op("stablehlo.add", {a, a}, {{4, 8}});
  ir::Op& ret = op("func.return", {add.result(0)}, {});
  passes::PassOptions options;
  passes::PassContext ctx{diags, ""};
  ASSERT_TRUE(pass->run(module, options, ctx));
  const OpShardingRule* r = existingOpShardingRule(add);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->strBody(), "([i, j], [i, j])->([i, j]) {i=4, j=8}");
  EXPECT_EQ(existingOpShardingRule(ret), nullptr);
  EXPECT_FALSE(add.attrs().back().inherent);
}

}  // namespace
}  // namespace shardscope::rules
