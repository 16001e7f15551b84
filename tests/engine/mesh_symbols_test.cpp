// The module's mesh symbols read once (ir/mesh_symbols.h).
#include "ir/mesh_symbols.h"

#include <gtest/gtest.h>

#include "parse_test_module.h"

namespace shardscope {
namespace {

TEST(MeshSymbols, NamedInlineAndFirstMeshWithAxes) {
  auto m = test_support::parseTestModule(R"(sdy.mesh @empty = <[]>
sdy.mesh @single = <[], device_ids=[3]>
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @other = <["z"=8]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m);
  ir::MeshSymbols meshes(*m);
  ASSERT_TRUE(meshes.named("mesh"));
  EXPECT_EQ(meshes.named("mesh")->totalSize(), 8);
  EXPECT_FALSE(meshes.named("missing"));
  ASSERT_TRUE(meshes.named("single"));
  EXPECT_TRUE(meshes.named("single")->isMaximal());

  MeshRef byName{"other", std::nullopt};
  EXPECT_EQ(meshes.of(byName), meshes.named("other"));
  Mesh inlineMesh;
  inlineMesh.axes.push_back({"a", 2});
  MeshRef inlineRef{"", inlineMesh};
  ASSERT_TRUE(meshes.of(inlineRef));
  EXPECT_EQ(meshes.of(inlineRef)->totalSize(), 2);

  auto global = meshes.firstWithAxes();
  ASSERT_TRUE(global);
  EXPECT_EQ(global->first, "mesh");
}

TEST(MeshSymbols, NoMeshWithAxes) {
  auto m = test_support::parseTestModule("sdy.mesh @empty = <[]>\n");
  ASSERT_TRUE(m);
  ir::MeshSymbols meshes(*m);
  EXPECT_TRUE(meshes.named("empty"));
  EXPECT_FALSE(meshes.firstWithAxes());
}

}  // namespace
}  // namespace shardscope
