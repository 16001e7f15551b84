// GSPMD shardings (`mhlo.sharding` strings): parsing every form, reading a
// tile assignment's device order as mesh axes, the common mesh of a module,
// and `-xla-sdy-import-shardings` end to end. The expected shardings are
// those XLA's import gives for the same strings (its import_shardings test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/document.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "sharding/gspmd_common_mesh.h"
#include "sharding/gspmd_sharding.h"

namespace shardscope {
namespace {

GspmdSharding parsed(const std::string& text) {
  std::string error;
  std::optional<GspmdSharding> s = parseGspmdSharding(text, error);
  EXPECT_TRUE(s.has_value()) << text << ": " << error;
  return s.value_or(GspmdSharding{});
}

TEST(GspmdShardingParse, EveryForm) {
  EXPECT_EQ(parsed("{replicated}").kind, GspmdSharding::Kind::Replicated);
  EXPECT_EQ(parsed("{manual}").kind, GspmdSharding::Kind::Manual);
  EXPECT_EQ(parsed("{unknown}").kind, GspmdSharding::Kind::Unknown);
  GspmdSharding maximal = parsed("{maximal device=5}");
  EXPECT_EQ(maximal.kind, GspmdSharding::Kind::Maximal);
  EXPECT_EQ(maximal.device, 5);

  GspmdSharding iota = parsed("{devices=[4,8]<=[8,4]T(1,0)}");
  EXPECT_EQ(iota.kind, GspmdSharding::Kind::Tiled);
  EXPECT_EQ(iota.tileDims, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(iota.iotaReshape, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(iota.iotaPerm, (std::vector<int64_t>{1, 0}));
  // Element (j, i) of the transposed iota is device i x 4 + j.
  std::vector<int64_t> list = iota.deviceList(1 << 20);
  ASSERT_EQ(list.size(), 32u);
  EXPECT_EQ(list[1], 4);
  EXPECT_EQ(list[8], 1);

  GspmdSharding explicitList = parsed("{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}");
  EXPECT_EQ(explicitList.devices, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_TRUE(explicitList.lastTileDimReplicate);
  EXPECT_EQ(explicitList.dataRank(), 2u);

  GspmdSharding subgroups = parsed("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(subgroups.lastTileDims.size(), 2u);
  EXPECT_EQ(subgroups.dataRank(), 1u);

  GspmdSharding tuple =
      parsed("{{replicated}, {devices=[2]0,1 metadata={op_name=\"a{b}\" source_line=3}}}");
  ASSERT_EQ(tuple.kind, GspmdSharding::Kind::Tuple);
  ASSERT_EQ(tuple.elements.size(), 2u);
  EXPECT_EQ(tuple.elements[1].tileDims, (std::vector<int64_t>{2}));
}

class GspmdShardingParseErrors
    : public ::testing::TestWithParam<std::tuple<const char*, const char*, size_t>> {};

TEST_P(GspmdShardingParseErrors, SayWhatAndWhere) {
  const auto& [text, cause, offset] = GetParam();
  std::string error;
  size_t at = 0;
  EXPECT_FALSE(parseGspmdSharding(text, error, &at).has_value()) << text;
  EXPECT_NE(error.find(cause), std::string::npos) << error;
  EXPECT_EQ(at, offset) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, GspmdShardingParseErrors,
    ::testing::Values(
        std::make_tuple("replicated", "expected '{'", 0),
        std::make_tuple("{devices=[2,2]0,1,2}", "lists 3 devices for 4 tiles", 20),
        std::make_tuple("{devices=[4]<=[2,3]}", "the iota has 6 devices but the tiles 4", 20),
        std::make_tuple("{devices=[4]<=[2,2]T(0,0)}", "not a permutation", 26),
        std::make_tuple("{maximal}", "expected 'device=N' after 'maximal'", 8),
        std::make_tuple("{replicated} x", "unexpected text after the sharding", 13),
        std::make_tuple("{shuffled}", "unknown word", 1),
        std::make_tuple("{devices=[0]}", "tile dimensions must be positive", 12)));

TEST(GspmdTileAssignment, RunsOfDevicesPerTileDimension) {
  std::string error;
  // [6,35]<=[7,10,3]T(2,1,0): tile dim 0 = 3 devices of stride 1, then 2 of
  // stride 15; tile dim 1 = 5 of stride 3, then 7 of stride 30.
  std::optional<TileAxes> axes =
      analyzeTileAssignment(parsed("{devices=[6,35]<=[7,10,3]T(2,1,0)}"), error);
  ASSERT_TRUE(axes) << error;
  ASSERT_EQ(axes->perTileDim.size(), 2u);
  EXPECT_EQ(axes->perTileDim[0], (std::vector<TileAxis>{{3, 1}, {2, 15}}));
  EXPECT_EQ(axes->perTileDim[1], (std::vector<TileAxis>{{5, 3}, {7, 30}}));
  // A device order no product of axes gives (XLA cannot import it either).
  EXPECT_FALSE(analyzeTileAssignment(parsed("{devices=[2,3]0,3,1,4,2,5}"), error));
  EXPECT_NE(error.find("not a product of mesh axes"), std::string::npos) << error;
  EXPECT_FALSE(analyzeTileAssignment(parsed("{devices=[2,2]0,1,1,3}"), error));
  EXPECT_NE(error.find("not a permutation"), std::string::npos) << error;
}

TEST(GspmdCommonMesh, CutsEveryShardingsAxes) {
  GspmdMeshBuilder builder;
  std::string error;
  ASSERT_TRUE(builder.add(parsed("{devices=[4,8]<=[8,4]T(1,0)}"), error)) << error;
  ASSERT_TRUE(builder.add(parsed("{devices=[1,2,16]<=[32] last_tile_dim_replicate}"), error));
  ASSERT_TRUE(builder.add(parsed("{maximal device=3}"), error));
  GspmdCommonMesh common;
  ASSERT_TRUE(builder.build(common, error)) << error;
  EXPECT_EQ(common.mesh.str(), R"(<["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)");
  EXPECT_EQ(common.axisStrides, (std::vector<int64_t>{16, 4, 1}));
  EXPECT_EQ(common.maximalDevices, (std::vector<int64_t>{3}));
  std::optional<TensorSharding> s =
      toSdySharding(parsed("{devices=[4,8]<=[8,4]T(1,0)}"), common, "mesh", 2, false, error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->str(), R"(#sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>)");
  // Subgroups: replicated axes are listed, manual ones are not.
  s = toSdySharding(parsed("{devices=[2,4,4]<=[32] last_tile_dims={replicated, manual}}"), common,
                    "mesh", 1, false, error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->str(), R"(#sdy.sharding<@mesh, [{"_axis_0"}], replicated={"_axis_1"}>)");
  EXPECT_FALSE(toSdySharding(parsed("{devices=[4,8]<=[32]}"), common, "mesh", 3, false, error));
  EXPECT_NE(error.find("tiles 2 dimensions but the value has rank 3"), std::string::npos);
}

TEST(GspmdCommonMesh, AxesThatDoNotNestHaveNoCommonMesh) {
  GspmdMeshBuilder builder;
  std::string error;
  ASSERT_TRUE(builder.add(parsed("{devices=[2,3]<=[6]}"), error));
  ASSERT_TRUE(builder.add(parsed("{devices=[3,2]<=[6]}"), error));
  GspmdCommonMesh common;
  EXPECT_FALSE(builder.build(common, error));
  EXPECT_NE(error.find("no common mesh"), std::string::npos) << error;
  GspmdMeshBuilder mixed;
  ASSERT_TRUE(mixed.add(parsed("{devices=[4]<=[4]}"), error));
  EXPECT_FALSE(mixed.add(parsed("{devices=[8]<=[8]}"), error));
  EXPECT_NE(error.find("its 8 devices differ from the 4 of another sharding"), std::string::npos);
}

// The pass on whole modules.
std::string importModule(const std::string& input) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> module = ir::parseModule(input, ir::ParseOptions{}, diags);
  if (!module) return "parse failed:\n" + diags.formatAll("<test>");
  const passes::PassInfo* pass = passes::lookupPass("xla-sdy-import-shardings");
  if (!pass) return "no pass";
  passes::PassContext ctx{diags};
  if (!pass->run(*module, passes::PassOptions{}, ctx) || diags.hasErrors())
    return "pass failed:\n" + diags.formatAll("<test>");
  return ir::printModule(*module);
}

std::string argsModule(const std::vector<std::string>& shardings, const std::string& type) {
  std::string text = "func.func @main(";
  for (size_t i = 0; i < shardings.size(); ++i) {
    if (i) text += ", ";
    text += "%arg" + std::to_string(i) + ": " + type + " {mhlo.sharding = \"" + shardings[i] + "\"}";
  }
  text += ") -> " + type + " {\n  return %arg0 : " + type + "\n}\n";
  return text;
}

struct ImportCase {
  const char* name;
  std::vector<std::string> shardings;
  const char* type;
  std::vector<std::string> expected;  // substrings of the printed module, in order
};

class GspmdImportPass : public ::testing::TestWithParam<ImportCase> {};

TEST_P(GspmdImportPass, GivesXlasShardings) {
  const ImportCase& c = GetParam();
  const std::string out = importModule(argsModule(c.shardings, c.type));
  size_t at = 0;
  for (const std::string& e : c.expected) {
    size_t found = out.find(e, at);
    ASSERT_NE(found, std::string::npos) << "missing " << e << " in\n" << out;
    at = found + e.size();
  }
  EXPECT_EQ(out.find("mhlo.sharding"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(
    Modules, GspmdImportPass,
    ::testing::Values(
        ImportCase{"non_trivial_common_mesh",
                   {"{devices=[4,8]<=[8,4]T(1,0)}",
                    "{devices=[1,2,16]<=[32] last_tile_dim_replicate}",
                    "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}"},
                   "tensor<8x8xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>)",
                    R"(#sdy.sharding<@mesh, [{}, {"_axis_0"}]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>)"}},
        ImportCase{"transposed_iotas",
                   {"{devices=[4,8]<=[8,4]T(1,0)}",
                    "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}",
                    "{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}",
                    "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}",
                    "{devices=[8,4]<=[32]}"},
                   "tensor<8x8xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>)",
                    R"(#sdy.sharding<@mesh, [{}, {"_axis_0", "_axis_2"}]>)",
                    R"(#sdy.sharding<@mesh, [{}, {"_axis_1"}]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_1", "_axis_0"}, {}]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {"_axis_2"}]>)"}},
        ImportCase{"prime_number",
                   {"{devices=[6,35]<=[7,10,3]T(2,1,0)}", "{replicated}"},
                   "tensor<6x35xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_3", "_axis_1"}, {"_axis_2", "_axis_0"}]>)",
                    R"(#sdy.sharding<@mesh, [{}, {}]>)"}},
        ImportCase{"prime_number_2",
                   {"{devices=[33,10,1,7]<=[2,3,5,7,11]T(1,4,2,0,3)}",
                    "{devices=[7,55,6,1]<=[2,3,5,7,11]T(3,2,4,1,0)}"},
                   "tensor<231x550x42x42xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3, "_axis_2"=5, "_axis_3"=7, "_axis_4"=11]>)",
                    R"([{"_axis_1", "_axis_4"}, {"_axis_2", "_axis_0"}, {}, {"_axis_3"}])",
                    R"([{"_axis_3"}, {"_axis_2", "_axis_4"}, {"_axis_1", "_axis_0"}, {}])"}},
        ImportCase{"unknown_is_open",
                   {"{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}", "{unknown}"},
                   "tensor<8x8xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_1"}, {}]>)",
                    R"(#sdy.sharding<@mesh, [{?}, {?}]>)"}},
        ImportCase{"maximal_meshes_sorted_and_deduplicated",
                   {"{maximal device=4}", "{maximal device=0}", "{maximal device=4}"},
                   "tensor<8x8xf32>",
                   {"sdy.mesh @mesh = <[]>", "sdy.mesh @single_device_0 = <[], device_ids=[0]>",
                    "sdy.mesh @single_device_4 = <[], device_ids=[4]>",
                    "#sdy.sharding<@single_device_4, []>", "#sdy.sharding<@single_device_0, []>",
                    "#sdy.sharding<@single_device_4, []>"}},
        ImportCase{"explicit_device_list",
                   {"{devices=[2,2]0,2,1,3}"},
                   "tensor<8x8xf32>",
                   {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>)",
                    R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(GspmdImportPassOps, TupleShardingsOfMultiResultOpsAndTokens) {
  const std::string out = importModule(R"(func.func @main(%arg0: tensor<4x64x8xf32>, %arg1: !stablehlo.token {mhlo.sharding = "{replicated}"}) -> (tensor<4x64x8xf32>, tensor<4x64x8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 {mhlo.sharding = "{{devices=[1,4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}, {devices=[4,1,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}"} : tensor<4x64x8xf32>, tensor<4x64x8xf32>
  return %0#0, %0#1 : tensor<4x64x8xf32>, tensor<4x64x8xf32>
}
)");
  EXPECT_NE(out.find(R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)"), std::string::npos) << out;
  EXPECT_NE(out.find(R"(#sdy.sharding_per_value<[<@mesh, [{}, {"_axis_1"}, {}]>, <@mesh, [{"_axis_1"}, {}, {}]>]>)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(!stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, []>})"),
            std::string::npos)
      << out;
}

TEST(GspmdImportPassOps, NothingTiledLeavesTheModuleAlone) {
  const std::string input = argsModule({"{replicated}"}, "tensor<8xf32>");
  const std::string out = importModule(input);
  EXPECT_EQ(out.find("sdy.mesh"), std::string::npos) << out;
  EXPECT_NE(out.find("mhlo.sharding = \"{replicated}\""), std::string::npos) << out;
}

TEST(GspmdImportPassOps, BadShardingsAreErrorsAtTheirOp) {
  EXPECT_NE(importModule(argsModule({"{devices=[2,2]0,1,2}"}, "tensor<8x8xf32>"))
                .find("<test>:1:1: error: cannot parse mhlo.sharding \"{devices=[2,2]0,1,2}\" at "
                      "character 21: the tile assignment lists 3 devices for 4 tiles"),
            std::string::npos);
  EXPECT_NE(importModule(argsModule({"{devices=[2,2]<=[4]}"}, "tensor<8xf32>"))
                .find("cannot import the GSPMD sharding: the sharding tiles 2 dimensions but the "
                      "value has rank 1"),
            std::string::npos);
  EXPECT_NE(importModule(argsModule({"{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}"},
                                    "tensor<6x6xf32>"))
                .find("no common mesh"),
            std::string::npos);
}

// Opening a GSPMD-annotated module (no sdy mesh) imports its shardings and
// says so; a module that has an sdy mesh is left as written.
TEST(GspmdImportOnOpen, DocumentsGetSdyShardingsAndANote) {
  auto doc = api::parseDocument(
      argsModule({"{devices=[4,8]<=[8,4]T(1,0)}", "{replicated}"}, "tensor<8x8xf32>"), "gspmd.mlir");
  ASSERT_TRUE(doc->module);
  EXPECT_FALSE(doc->hasErrors());
  EXPECT_NE(doc->gspmdImportNote.find(R"(on @mesh = <["_axis_0"=8, "_axis_1"=4]>)"),
            std::string::npos)
      << doc->gspmdImportNote;
  ASSERT_FALSE(doc->diagnostics.empty());
  EXPECT_EQ(doc->diagnostics.front().severity, ir::Severity::Note);
  const ir::Op* func = nullptr;
  for (const auto& op : doc->module->body().ops())
    if (op->is("func.func")) func = op.get();
  ASSERT_TRUE(func);
  std::optional<TensorSharding> s = api::valueSharding(*func->region(0).front().argument(0));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->str(), R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)");

  auto sdy = api::parseDocument("sdy.mesh @m = <[\"x\"=2]>\n" +
                                    argsModule({"{devices=[2]<=[2]}"}, "tensor<8xf32>"),
                                "mixed.mlir");
  EXPECT_TRUE(sdy->gspmdImportNote.empty());
}

}  // namespace
}  // namespace shardscope
