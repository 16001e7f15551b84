// What the mesh view shows for known tensors: shard indices, offsets, local
// shapes, padding, replicated copies, sub-axes and custom device ids.
#include "mesh/mesh_view.h"

#include <QTest>

#include "core/document_state.h"
#include "test_util.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {
AxisRef axis(const char* name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return AxisRef{name, SubAxisInfo{pre, size}};
}
DimensionSharding dim(AxisRefList axes) {
  return DimensionSharding{std::move(axes), true, std::nullopt};
}
using Shape = std::vector<int64_t>;
}  // namespace

Q_DECLARE_METATYPE(shardscope::TensorSharding)
Q_DECLARE_METATYPE(shardscope::Mesh)
Q_DECLARE_METATYPE(Shape)

class MeshViewTest : public QObject {
  Q_OBJECT
 private slots:
  // api::computeShardLayout directly (no parser involved).
  void layout_data() {
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<TensorSharding>("sharding");
    QTest::addColumn<Mesh>("mesh");
    QTest::addColumn<Shape>("local");
    QTest::addColumn<qint64>("replicas");
    QTest::addColumn<int>("device");  // linear position checked below
    QTest::addColumn<Shape>("shardIndex");
    QTest::addColumn<Shape>("offset");
    QTest::addColumn<qint64>("deviceId");

    Mesh m22{{{"x", 2}, {"y", 2}}, {}};
    TensorSharding rowsX{MeshRef{"mesh", std::nullopt}, {dim({axis("x")}), dim({})}, {}, {}, "sum"};
    QTest::newRow("rows on x, copies on y")
        << Shape{8, 16} << rowsX << m22 << Shape{4, 16} << qint64(2) << 3 << Shape{1, 0}
        << Shape{4, 0} << qint64(3);
    TensorSharding both{
        MeshRef{"mesh", std::nullopt}, {dim({axis("x")}), dim({axis("y")})}, {}, {}, "sum"};
    QTest::newRow("2d") << Shape{8, 16} << both << m22 << Shape{4, 8} << qint64(1) << 1
                        << Shape{0, 1} << Shape{0, 8} << qint64(1);
    TensorSharding yx{MeshRef{"mesh", std::nullopt}, {dim({axis("y"), axis("x")})}, {}, {}, "sum"};
    QTest::newRow("two axes on one dim, y major")
        << Shape{8} << yx << m22 << Shape{2} << qint64(1) << 2 << Shape{1} << Shape{2} << qint64(2);
    Mesh m42{{{"x", 4}, {"y", 2}}, {}};
    TensorSharding subs{MeshRef{"mesh", std::nullopt},
                        {dim({sub("x", 1, 2)}), dim({sub("x", 2, 2), axis("y")})},
                        {},
                        {},
                        "sum"};
    // position 5 = (x=2, y=1): "x":(1)2 -> 1, "x":(2)2 -> 0, y -> 1.
    QTest::newRow("sub-axes") << Shape{8, 16} << subs << m42 << Shape{4, 4} << qint64(1) << 5
                              << Shape{1, 1} << Shape{4, 4} << qint64(5);
    Mesh ids{{{"x", 2}, {"y", 4}}, {0, 2, 4, 6, 1, 3, 5, 7}};
    TensorSharding rowsY{MeshRef{"mesh", std::nullopt}, {dim({axis("y")}), dim({})}, {}, {}, "sum"};
    QTest::newRow("device ids + padding")
        << Shape{10, 16} << rowsY << ids << Shape{3, 16} << qint64(2) << 3 << Shape{3, 0}
        << Shape{9, 0} << qint64(6);
  }
  void layout() {
    QFETCH(Shape, shape);
    QFETCH(TensorSharding, sharding);
    QFETCH(Mesh, mesh);
    QFETCH(Shape, local);
    QFETCH(qint64, replicas);
    QFETCH(int, device);
    QFETCH(Shape, shardIndex);
    QFETCH(Shape, offset);
    QFETCH(qint64, deviceId);
    const api::ShardLayout l = api::computeShardLayout(shape, sharding, mesh);
    QVERIFY2(l.error.empty(), l.error.c_str());
    QCOMPARE(l.localShape, local);
    QCOMPARE(qint64(l.replicaCount), replicas);
    QCOMPARE(qint64(l.devices.size()), qint64(mesh.totalSize()));
    const api::DeviceShard& d = l.devices[static_cast<size_t>(device)];
    QCOMPARE(d.shardIndex, shardIndex);
    QCOMPARE(d.offset, offset);
    QCOMPARE(qint64(d.deviceId), deviceId);
    // Every shard appears exactly `replicas` times.
    std::map<std::vector<int64_t>, int> count;
    for (const auto& dev : l.devices) ++count[dev.shardIndex];
    for (const auto& [idx, n] : count) QCOMPARE(qint64(n), replicas);
  }

  void unknownAxis() {
    Mesh m{{{"x", 2}}, {}};
    TensorSharding s{MeshRef{"mesh", std::nullopt}, {dim({axis("z")})}, {}, {}, "sum"};
    const api::ShardLayout l = api::computeShardLayout({8}, s, m);
    QVERIFY(!l.error.empty());
  }

  // Meshes the verifier rejects never reach a division by zero, an overflow
  // or a list of 2^40 devices (issue 12, item 3); large ones are summarised.
  void hostileMeshes_data() {
    QTest::addColumn<Mesh>("mesh");
    QTest::addColumn<TensorSharding>("sharding");
    QTest::addColumn<QString>("error");  // empty: valid but summarised
    const TensorSharding onX{MeshRef{"mesh", std::nullopt}, {dim({axis("x")})}, {}, {}, "sum"};
    QTest::newRow("axis of size 0") << Mesh{{{"x", 0}}, {}} << onX
                                    << "mesh axis \"x\" has size 0";
    QTest::newRow("negative axis") << Mesh{{{"x", -4}}, {}} << onX << "has size -4";
    QTest::newRow("2^40 x 2^40 devices")
        << Mesh{{{"x", int64_t{1} << 40}, {"y", int64_t{1} << 40}}, {}} << onX
        << "more devices than a 64-bit count holds";
    const int64_t big = 9223372036854775807;
    QTest::newRow("overflowing sub-axis")
        << Mesh{{{"x", 4}}, {}}
        << TensorSharding{MeshRef{"mesh", std::nullopt}, {dim({sub("x", big, big)})}, {}, {}, "sum"}
        << "does not divide axis size 4";
    QTest::newRow("sub-axis of size 0")
        << Mesh{{{"x", 4}}, {}}
        << TensorSharding{MeshRef{"mesh", std::nullopt}, {dim({sub("x", 1, 0)})}, {}, {}, "sum"}
        << "does not divide";
    QTest::newRow("device ids of the wrong count")
        << Mesh{{{"x", 4}}, {0, 1}} << onX << "4 devices but 2 device ids";
    QTest::newRow("2^40 devices") << Mesh{{{"x", int64_t{1} << 40}}, {}} << onX << QString();
  }
  void hostileMeshes() {
    QFETCH(Mesh, mesh);
    QFETCH(TensorSharding, sharding);
    QFETCH(QString, error);
    const api::ShardLayout l = api::computeShardLayout({8}, sharding, mesh);
    QVERIFY2(QString::fromStdString(l.error).contains(error), l.error.c_str());
    QVERIFY(l.devices.empty());
    QVERIFY(!l.devicesListed());
    if (error.isEmpty()) {
      QCOMPARE(l.deviceCount, int64_t{1} << 40);
      QCOMPARE(l.shardsPerDim, (Shape{int64_t{1} << 40}));
      QCOMPARE(l.localShape, (Shape{1}));
    }
  }

  // The mesh view shows the summary of a 2^40-device mesh and the errors of
  // a rejected module instead of drawing them.
  void summarisedAndRejected_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("note");
    const QString func = QStringLiteral(
        "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{%1}]>}) "
        "-> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n");
    QTest::newRow("2^40 devices")
        << QStringLiteral("sdy.mesh @mesh = <[\"x\"=1099511627776]>\n") +
               func.arg(QStringLiteral("\"x\""))
        << "1099511627776 devices: too many to draw one by one";
    QTest::newRow("overflowing sub-axis")
        << QStringLiteral("sdy.mesh @mesh = <[\"x\"=4]>\n") +
               func.arg(QStringLiteral("\"x\":(9223372036854775807)9223372036854775807"))
        << "Not drawn: m.mlir has 1 error(s)";
  }
  void summarisedAndRejected() {
    QFETCH(QString, text);
    QFETCH(QString, note);
    auto doc = api::parseDocument(text.toStdString(), "m.mlir");
    QVERIFY(doc->module);
    DocumentState state;
    MeshView view(&state);
    state.setDocument(doc);
    const ir::Value* v = state.findValue(QStringLiteral("%arg0"));
    QVERIFY(v);
    state.selectValue(v);
    const MeshTensor& t = view.tensor();
    QVERIFY2(t.note.contains(note), qPrintable(t.note));
    QVERIFY(!t.drawsDevices());
    const Picture pic = view.picture();
    QVERIFY(!pic.isNull());
    QVERIFY(pic.size.width() < 4000 && pic.size.height() < 1000);
  }

  // The mesh view's cell texts for tensors of the samples.
  void cells_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("function");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("device");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("local");
    QTest::newRow("matmul %arg0 copy")
        << "matmul_chain.mlir"
        << "main"
        << "%arg0" << 1 << "device 1\nshard [0, 0]\nat [0, 0]\nlocal 4x16\ncopy 2/2"
        << "4x16";
    QTest::newRow("matmul %arg0 second shard")
        << "matmul_chain.mlir"
        << "main"
        << "%arg0" << 2 << "device 2\nshard [1, 0]\nat [4, 0]\nlocal 4x16\ncopy 1/2"
        << "4x16";
    QTest::newRow("megatron W1") << "mlp_megatron.mlir"
                                 << "main"
                                 << "%arg1" << 6
                                 << "device 6\nshard [0, 2]\nat [0, 128]\nlocal 64x64\ncopy 2/2"
                                 << "64x64";
    QTest::newRow("padded last shard")
        << "device_order.mlir"
        << "main"
        << "%arg0" << 3 << "device 6\nshard [3, 0]\nat [9, 0]\nlocal 3x16 (valid 1x16)\ncopy 1/2"
        << "3x16 (padding 2x0)";
    QTest::newRow("sub-axes") << "reshape_subaxes.mlir"
                              << "explicit"
                              << "%arg0" << 5 << "device 5\nshard [1, 1]\nat [4, 4]\nlocal 4x4"
                              << "4x4";
    QTest::newRow("manual body arg")
        << "manual_computation.mlir"
        << "main"
        << "%arg1" << 1 << "device 1\nshard [0, 0]\nat [0, 0]\nlocal 8x32\ncopy 2/2"
        << "8x32";
  }
  void cells() {
    QFETCH(QString, sample);
    QFETCH(QString, function);
    QFETCH(QString, value);
    QFETCH(int, device);
    QFETCH(QString, text);
    QFETCH(QString, local);
    auto doc = test::loadSample(sample);
    QVERIFY(doc->module);
    DocumentState state;
    state.setDocument(doc);
    state.setFunction(state.findFunction(function));
    const ir::Value* v = state.findValue(value);
    QVERIFY(v);
    MeshView view(&state);
    state.selectValue(v);
    const MeshTensor& t = view.tensor();
    QCOMPARE(t.valueName, value);
    QVERIFY2(t.valid(), qPrintable(t.note));
    QCOMPARE(t.cellText(device), text);
    QCOMPARE(t.localShapeText(), local);
    const Picture pic = view.picture();
    QVERIFY(!pic.isNull());
    QVERIFY(pic.size.width() > 300 && pic.size.height() > 150);
  }

  void unshardedValue() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    QVERIFY(doc->module);
    DocumentState state;
    state.setDocument(doc);
    const ir::Value* v = state.findValue(QStringLiteral("%arg2"));
    QVERIFY(v);
    const MeshTensor t = describeValue(*doc->module, *v);
    QVERIFY(!t.hasSharding);
    QVERIFY(t.note.contains(QLatin1String("no sharding")));
    QVERIFY(!meshPicture(t).isNull());
  }

  // However small the pane (the Mesh tab of a 1280x800 window, a narrow
  // undocked one), the devices' text is drawn at its own size or larger:
  // the picture scrolls rather than shrinks.
  void textStaysReadableInASmallPane_data() {
    QTest::addColumn<QSize>("pane");
    QTest::newRow("1280x800 tab") << QSize(560, 330);
    QTest::newRow("narrow") << QSize(260, 200);
    QTest::newRow("roomy") << QSize(1400, 900);
  }
  void textStaysReadableInASmallPane() {
    QFETCH(QSize, pane);
    auto doc = test::loadSample(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(doc->module);
    DocumentState state;
    MeshView view(&state);
    state.setDocument(doc);
    state.selectValue(state.findValue(QStringLiteral("%arg1")));
    view.resize(pane);
    view.grab();  // paints: the scale shown is known
    QVERIFY(view.shownScale() >= 1.0);
  }

  void defaultSelection() {
    auto doc = test::loadSample(QStringLiteral("matmul_chain.mlir"));
    QVERIFY(doc->module);
    DocumentState state;
    MeshView view(&state);
    state.setDocument(doc);
    QCOMPARE(view.tensor().valueName, QStringLiteral("%arg0"));
  }
};

QTEST_MAIN(MeshViewTest)
#include "mesh_view_test.moc"
