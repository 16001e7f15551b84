// PreparedForDocument: a value made for one document is handed out only for
// that document, once; a newer value replaces (and frees) the one kept.
#include <QTest>
#include <memory>
#include <thread>

#include "core/prepared_for_document.h"

using shardscope::widgets::PreparedForDocument;

namespace {
struct Doc {
  int id = 0;
};
// A prepared value: what it was made for and a counter of values alive.
struct Made {
  std::weak_ptr<const Doc> doc;
  int tag = 0;
  static inline int alive = 0;
  Made() { ++alive; }
  ~Made() { --alive; }
};
std::unique_ptr<Made> makeFor(const std::shared_ptr<const Doc>& doc, int tag) {
  auto m = std::make_unique<Made>();
  m->doc = doc;
  m->tag = tag;
  return m;
}
}  // namespace

class PreparedForDocumentTest : public QObject {
  Q_OBJECT
 private slots:
  // Documents 0..2 exist; `puts` are the documents values are made for, in
  // order (tags 1, 2, ...); then `take` asks for one document (-1: none).
  void take_data() {
    QTest::addColumn<QList<int>>("puts");
    QTest::addColumn<int>("take");
    QTest::addColumn<int>("expectedTag");     // 0: nothing handed out
    QTest::addColumn<int>("aliveAfterTake");  // values kept or handed out
    QTest::newRow("nothing made") << QList<int>{} << 0 << 0 << 0;
    QTest::newRow("made for it") << QList<int>{0} << 0 << 1 << 1;
    QTest::newRow("made for another: kept") << QList<int>{1} << 0 << 0 << 1;
    QTest::newRow("no document asked") << QList<int>{0} << -1 << 0 << 1;
    QTest::newRow("newer replaces older") << QList<int>{0, 1} << 1 << 2 << 1;
    QTest::newRow("older one is gone") << QList<int>{0, 1} << 0 << 0 << 1;
    QTest::newRow("same document twice: the newer") << QList<int>{2, 2} << 2 << 2 << 1;
  }
  void take() {
    QFETCH(QList<int>, puts);
    QFETCH(int, take);
    QFETCH(int, expectedTag);
    QFETCH(int, aliveAfterTake);
    std::vector<std::shared_ptr<const Doc>> docs;
    for (int i = 0; i < 3; ++i) docs.push_back(std::make_shared<const Doc>(Doc{i}));
    {
      PreparedForDocument<Made> slot;
      int tag = 0;
      for (int d : puts) slot.put(makeFor(docs[size_t(d)], ++tag));
      QCOMPARE(Made::alive, puts.isEmpty() ? 0 : 1);  // replaced values were freed
      std::unique_ptr<Made> got = slot.take(take < 0 ? static_cast<const Doc*>(nullptr) : docs[size_t(take)].get());
      QCOMPARE(got ? got->tag : 0, expectedTag);
      QCOMPARE(Made::alive, aliveAfterTake);
      if (got) QVERIFY(!slot.take(docs[size_t(take)].get()));  // handed out once
    }
    QCOMPARE(Made::alive, 0);
  }

  // A value made for a document already gone (its last owner dropped it) is
  // never handed out, even to a new document at the same address.
  void documentGone() {
    PreparedForDocument<Made> slot;
    auto doc = std::make_shared<const Doc>(Doc{7});
    const Doc* address = doc.get();
    slot.put(makeFor(doc, 1));
    doc.reset();
    QVERIFY(!slot.take(address));
  }

  // Put on one thread, take on another: the value arrives whole, once.
  void acrossThreads() {
    PreparedForDocument<Made> slot;
    auto doc = std::make_shared<const Doc>(Doc{1});
    constexpr int kValues = 2000;
    std::thread maker([&] {
      for (int i = 1; i <= kValues; ++i) slot.put(makeFor(doc, i));
    });
    int lastTag = 0, taken = 0;
    while (lastTag < kValues) {
      if (auto got = slot.take(doc.get())) {
        QVERIFY(got->tag > lastTag);  // newer than any taken before
        lastTag = got->tag;
        ++taken;
      }
    }
    maker.join();
    QVERIFY(taken >= 1);
    QVERIFY(!slot.take(doc.get()));
  }
};

QTEST_GUILESS_MAIN(PreparedForDocumentTest)
#include "prepared_for_document_test.moc"
