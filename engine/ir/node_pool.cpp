#include "ir/node_pool.h"

#include <array>
#include <atomic>
#include <mutex>
#include <new>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#define SS_NODE_POOL_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SS_NODE_POOL_OFF 1
#endif
#endif

namespace shardscope::ir::detail {

namespace {

constexpr std::size_t kGrain = 16;        // size classes are multiples of this
constexpr std::size_t kMaxSize = 512;     // larger objects use operator new
constexpr std::size_t kChunk = 64 << 10;  // bytes carved per refill

// Guards one size class. A spin lock rather than std::mutex: the pools are
// taken about thirteen times per op (1.3 million times on the 100k-op transformer's
// pipeline), almost always by one thread, and glibc's pthread_mutex_lock and
// unlock cost some 50 instructions a pair, 2% of that pipeline's. Here an
// uncontended pair is one exchange and one store. The critical sections are
// a few instructions long; a waiter that finds the lock taken (GUI loader
// threads reading at once) yields its core.
class SpinLock {
 public:
  void lock() noexcept {
    while (held_.exchange(true, std::memory_order_acquire))
      while (held_.load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

// One size class: a free list threaded through given-back slots, then the
// rest of the current chunk.
struct SizeClass {
  SpinLock lock;
  void* freeList = nullptr;
  char* next = nullptr;
  char* end = nullptr;
};

// Never destroyed: ops of a module held in a static may be freed after
// other statics are gone.
std::array<SizeClass, kMaxSize / kGrain>& classes() {
  static auto* c = new std::array<SizeClass, kMaxSize / kGrain>();
  return *c;
}

}  // namespace

void* poolAllocate(std::size_t size) {
#ifdef SS_NODE_POOL_OFF
  return ::operator new(size);
#else
  if (size == 0 || size > kMaxSize) return ::operator new(size);
  std::size_t rounded = (size + kGrain - 1) / kGrain * kGrain;
  SizeClass& c = classes()[rounded / kGrain - 1];
  std::lock_guard<SpinLock> held(c.lock);
  if (c.freeList) {
    void* p = c.freeList;
    c.freeList = *static_cast<void**>(p);
    return p;
  }
  if (c.next == nullptr || c.next + rounded > c.end) {
    // The chunk is owned by the pool for the process's lifetime.
    c.next = static_cast<char*>(::operator new(kChunk, std::align_val_t{kGrain}));
    c.end = c.next + kChunk;
  }
  void* p = c.next;
  c.next += rounded;
  return p;
#endif
}

void poolDeallocate(void* p, std::size_t size) noexcept {
  if (!p) return;
#ifdef SS_NODE_POOL_OFF
  ::operator delete(p);
#else
  if (size == 0 || size > kMaxSize) {
    ::operator delete(p);
    return;
  }
  std::size_t rounded = (size + kGrain - 1) / kGrain * kGrain;
  SizeClass& c = classes()[rounded / kGrain - 1];
  std::lock_guard<SpinLock> held(c.lock);
  *static_cast<void**>(p) = c.freeList;
  c.freeList = p;
#endif
}

}  // namespace shardscope::ir::detail
