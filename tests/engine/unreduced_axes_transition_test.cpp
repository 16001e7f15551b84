// Tests for engine/sharding/unreduced_axes_transition.cpp.
#include "sharding/unreduced_axes_transition.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

AxisRef full(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{name, SubAxisInfo{pre, size}};
}

const Mesh kMesh{{{"x", 4}, {"y", 2}}, {}};
const Mesh kOtherMesh{{{"z", 2}}, {}};

TensorSharding unreducedOn(AxisRefList axes, std::string reduction = "sum",
                           std::string mesh = "mesh") {
  TensorSharding s;
  s.mesh.name = std::move(mesh);
  s.dims.resize(1);
  s.unreduced = std::move(axes);
  s.unreducedReduction = std::move(reduction);
  return s;
}

const Mesh* resolve(const MeshRef& ref) { return ref.name == "other" ? &kOtherMesh : &kMesh; }

std::string check(const TensorSharding* from, const TensorSharding* to,
                  UnreducedTransitionRules rules) {
  return checkUnreducedAxesTransition({from}, {to}, rules, resolve);
}

TEST(UnreducedAxesTransitionTest, DifferenceCutsSubAxesOutOfFullAxes) {
  EXPECT_EQ(unreducedAxisDifference({full("x")}, {sub("x", 1, 2)}, &kMesh),
            (AxisRefList{sub("x", 2, 2)}));
  EXPECT_EQ(unreducedAxisDifference({full("x")}, {sub("x", 2, 2)}, &kMesh),
            (AxisRefList{sub("x", 1, 2)}));
  EXPECT_EQ(unreducedAxisDifference({full("x"), full("y")}, {full("x")}, &kMesh),
            (AxisRefList{full("y")}));
  EXPECT_EQ(unreducedAxisDifference({sub("x", 1, 2)}, {full("x")}, &kMesh), AxisRefList{});
  EXPECT_EQ(unreducedAxisDifference({}, {full("x")}, &kMesh), AxisRefList{});
}

TEST(UnreducedAxesTransitionTest, DroppingNeedsAnOpThatReduces) {
  TensorSharding y = unreducedOn({full("y")});
  TensorSharding none = unreducedOn({});
  EXPECT_EQ(check(&y, &none, {"sum", {}}),
            "dropped unreduced axis 'y' without a blessed operation (e.g., sdy.reshard). This is "
            "an invalid "
            "transition from unreduced to reduced.");
  EXPECT_EQ(check(&y, &none, {{}, "sum"}), "");
  // A value without a sharding has no unreduced axes.
  EXPECT_EQ(check(&y, nullptr, {{}, "sum"}), "");
  TensorSharding yMax = unreducedOn({full("y")}, "max");
  EXPECT_EQ(check(&yMax, &none, {{}, "sum"}),
            "cannot reduce 'max' unreduced axes. Expected 'sum'.");
}

TEST(UnreducedAxesTransitionTest, IntroducingAndKeeping) {
  TensorSharding none = unreducedOn({});
  TensorSharding yMax = unreducedOn({full("y")}, "max");
  TensorSharding ySum = unreducedOn({full("y")});
  EXPECT_EQ(check(&none, &ySum, {{}, {}}), "cannot add new unreduced axis 'y'.");
  EXPECT_EQ(check(&none, &ySum, {"sum", {}}), "");
  EXPECT_EQ(check(&none, &yMax, {"sum", {}}),
            "cannot introduce 'max' unreduced axes. Expected 'sum'.");
  EXPECT_EQ(check(&yMax, &ySum, {"sum", {}}),
            "cannot change the reduction operator of kept unreduced axes from max to sum.");
  EXPECT_EQ(check(&yMax, &yMax, {{}, {}}), "");
}

TEST(UnreducedAxesTransitionTest, PartlyReducedSubAxisCountsAsDropped) {
  TensorSharding x = unreducedOn({full("x")});
  TensorSharding xHalf = unreducedOn({sub("x", 1, 2)});
  EXPECT_EQ(check(&x, &xHalf, {"sum", {}}),
            "dropped unreduced axis 'x' without a blessed operation (e.g., sdy.reshard). This is "
            "an invalid "
            "transition from unreduced to reduced.");
}

TEST(UnreducedAxesTransitionTest, DifferentMeshesAreNotCompared) {
  TensorSharding y = unreducedOn({full("y")});
  TensorSharding z = unreducedOn({full("z")}, "sum", "other");
  EXPECT_EQ(check(&y, &z, {{}, {}}), "");
}

}  // namespace
}  // namespace shardscope
