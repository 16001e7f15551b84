// One value made off the UI thread for a document, waiting for the view that
// will show that document: the loader's thread puts it, the UI thread takes
// it when the document arrives. Only the value made for the document being
// shown is handed out, so a value made for a document that was replaced
// meanwhile is never shown. One value is kept; a newer put() replaces it.
//
//   struct Tree {
//     std::weak_ptr<const api::Document> doc;  // what it was made for
//     ...
//   };
//   static PreparedForDocument<Tree> prepared;
//   // loader's thread:
//   auto t = std::make_unique<Tree>(); t->doc = doc; ...; prepared.put(std::move(t));
//   // UI thread, on documentChanged:
//   std::unique_ptr<Tree> tree = prepared.take(doc.get());  // null: made for another
//   if (!tree) tree = build(doc);                           // (or none made yet)
//
// T needs a `doc` member that is a weak_ptr (or shared_ptr) to the document.
#pragma once
#include <memory>
#include <mutex>
#include <utility>

namespace shardscope::widgets {

template <typename T>
class PreparedForDocument {
 public:
  // Any thread. Keeps `value`; the one it replaces (never shown) is freed
  // after the lock is released: freeing a big text or tree must not hold up
  // a take() on the UI thread.
  void put(std::unique_ptr<T> value) {
    std::unique_ptr<T> old;
    {
      std::lock_guard lock(mutex_);
      old = std::exchange(slot_, std::move(value));
    }
  }

  // Any thread. The value kept when it was made for `doc` (it is handed over
  // and no longer kept), else nullptr (and the value stays: the document it
  // was made for may still come).
  template <typename Document>
  std::unique_ptr<T> take(const Document* doc) {
    std::lock_guard lock(mutex_);
    if (!slot_ || !doc || madeFor(*slot_) != doc) return nullptr;
    return std::move(slot_);
  }

 private:
  template <typename Ptr>
  static const auto* documentOf(const std::weak_ptr<Ptr>& p) { return p.lock().get(); }
  template <typename Ptr>
  static const auto* documentOf(const std::shared_ptr<Ptr>& p) { return p.get(); }
  static const auto* madeFor(const T& value) { return documentOf(value.doc); }

  std::mutex mutex_;
  std::unique_ptr<T> slot_;
};

}  // namespace shardscope::widgets
