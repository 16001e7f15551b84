// widgets/graph/op_group_table: every op emplaced is found in its group,
// others are not, the first group of an op emplaced twice stays, and growing
// past the reserved room keeps them all. Op addresses are only compared,
// never read, so the ops here are addresses in a pool-like array.
#include "graph/op_group_table.h"

#include <QTest>

#include <vector>

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// The address of op `i` of a pool whose ops are `stride` bytes apart.
const ir::Op* opAt(std::vector<char>& pool, size_t i, size_t stride) {
  return reinterpret_cast<const ir::Op*>(pool.data() + i * stride);
}

}  // namespace

class OpGroupTableTest : public QObject {
  Q_OBJECT
 private slots:
  void findsEachOpsGroup_data() {
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("reserved");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("perGroup");
    QTest::newRow("empty") << 0 << 0 << 8 << 1;
    QTest::newRow("one") << 1 << 1 << 8 << 1;
    QTest::newRow("reserved, ops of 120 bytes") << 5000 << 5000 << 120 << 73;
    QTest::newRow("grown from nothing") << 5000 << 0 << 120 << 73;
    QTest::newRow("grown past a small reserve") << 20000 << 10 << 64 << 7;
    QTest::newRow("power-of-two stride") << 4000 << 4000 << 4096 << 61;
  }
  void findsEachOpsGroup() {
    QFETCH(int, count);
    QFETCH(int, reserved);
    QFETCH(int, stride);
    QFETCH(int, perGroup);
    std::vector<char> pool(size_t(count + 10) * size_t(stride));
    OpGroupTable t;
    t.reserve(size_t(reserved));
    for (int i = 0; i < count; ++i) t.emplace(opAt(pool, size_t(i), size_t(stride)), i / perGroup);
    QCOMPARE(t.size(), size_t(count));
    QCOMPARE(t.empty(), count == 0);
    for (int i = 0; i < count; ++i)
      if (t.find(opAt(pool, size_t(i), size_t(stride))) != i / perGroup)
        QFAIL(qPrintable(QStringLiteral("op %1 not in group %2").arg(i).arg(i / perGroup)));
    // Ops never emplaced, and no op at all.
    for (int i = count; i < count + 10; ++i) QCOMPARE(t.find(opAt(pool, size_t(i), size_t(stride))), -1);
    QCOMPARE(t.find(nullptr), -1);
  }

  void firstGroupStays() {
    std::vector<char> pool(64);
    OpGroupTable t;
    t.emplace(opAt(pool, 1, 8), 3);
    t.emplace(opAt(pool, 1, 8), 9);
    QCOMPARE(t.size(), size_t(1));
    QCOMPARE(t.find(opAt(pool, 1, 8)), 3);
    QCOMPARE(t.find(opAt(pool, 2, 8)), -1);
  }
};

QTEST_GUILESS_MAIN(OpGroupTableTest)
#include "op_group_table_test.moc"
