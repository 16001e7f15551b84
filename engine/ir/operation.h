// The in-memory module: operations with operands, results, attributes and
// regions of blocks, linked by SSA values with use lists.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attribute.h"
#include "diagnostics.h"
#include "node_pool.h"
#include "type.h"
#include "type_ref.h"

namespace shardscope::ir {

class Op;
class Block;
class Region;
class Location;  // location.h

// A block's ops. The list nodes come from the node pools (node_pool.h), so
// that walking a block reads nodes lying side by side.
using OpList = std::list<std::unique_ptr<Op>, detail::PoolAllocator<std::unique_ptr<Op>>>;
// The small lists hanging off ops, values and regions (operands, results,
// uses, regions, blocks) also come from the pools: from the general heap they
// land far from their op, and every pass on a large module paid a cache miss
// for each one it looked into.
template <typename T>
using PoolVector = std::vector<T, detail::PoolAllocator<T>>;

// One use of a value: operand `index` of `user`.
struct Use {
  Op* user = nullptr;
  unsigned index = 0;
  bool operator==(const Use&) const = default;
};

// An SSA value: either result `index` of `definingOp`, or argument `index` of `ownerBlock`.
class Value {
 public:
  // Interned (type_ref.h): one pointer, shared by every value of that type.
  TypeRef type;
  Op* definingOp = nullptr;
  Block* ownerBlock = nullptr;
  unsigned index = 0;
  // The name written in the source (`%arg0`, `%iterArg_2`), kept for display.
  std::string sourceName;
  // Where a block argument is declared (`%arg0` in a function's signature),
  // which MLIR's notes point at; unknown for results (their op's is used).
  SourceLoc loc;
  // Scratch for the writer: the slot of this value's printed name in the
  // writer run numbered `printGeneration` (a hash map per print is slower).
  mutable uint32_t printGeneration = 0;
  mutable uint32_t printSlot = 0;

  bool isBlockArgument() const { return ownerBlock != nullptr; }
  const PoolVector<Use>& uses() const { return uses_; }
  bool hasOneUse() const { return uses_.size() == 1; }
  bool useEmpty() const { return uses_.empty(); }
  // Redirect every use of this value to `other`.
  void replaceAllUsesWith(Value* other);
  // Redirect the uses for which `pred(use)` holds.
  void replaceUsesWithIf(Value* other, const std::function<bool(const Use&)>& pred);
  // The op whose region holds this block argument, or the defining op.
  Op* ownerOp() const;

  // Values live in the node pools (node_pool.h), next to their neighbours.
  static void* operator new(std::size_t size) { return detail::poolAllocate(size); }
  static void operator delete(void* p, std::size_t size) { detail::poolDeallocate(p, size); }

 private:
  friend class Op;
  PoolVector<Use> uses_;
};

namespace detail {
// An op name as stored once for the process, with the number of ops of that
// name alive right now (in every module).
struct InternedOpName {
  std::string text;
  std::atomic<int64_t> live{0};
};
}  // namespace detail

// An attribute's name, stored once for the process like op names. Names
// repeat on every op, and the long ones (`sdy.sharding_rule`,
// `broadcast_dimensions`) would otherwise each be a heap string per op that
// every attribute lookup of the same length reads. Reads as a std::string.
class AttrName {
 public:
  AttrName() : s_(&intern({})) {}
  AttrName(std::string_view n) : s_(&intern(n)) {}  // NOLINT: names convert implicitly
  AttrName(const std::string& n) : s_(&intern(n)) {}  // NOLINT
  AttrName(const char* n) : s_(&intern(n)) {}  // NOLINT
  const std::string& str() const { return *s_; }
  operator const std::string&() const { return *s_; }  // NOLINT
  bool operator==(const AttrName& o) const { return s_ == o.s_; }
  bool operator==(const std::string& o) const { return *s_ == o; }
  bool operator==(std::string_view o) const { return *s_ == o; }
  bool operator==(const char* o) const { return *s_ == o; }
  bool operator<(const AttrName& o) const { return *s_ < *o.s_; }

 private:
  static const std::string& intern(std::string_view n);
  const std::string* s_;
};

class Op {
 public:
  Op(std::string_view name, SourceLoc loc = {}) : name_(&intern(name)), loc_(loc) {
    name_->live.fetch_add(1, std::memory_order_relaxed);
  }
  ~Op();
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;

  // Ops live in the node pools (node_pool.h): ops made one after another
  // lie side by side, so walks over a large module stream through memory.
  static void* operator new(std::size_t size) { return detail::poolAllocate(size); }
  static void operator delete(void* p, std::size_t size) { detail::poolDeallocate(p, size); }

  // Scratch for the propagation driver: the op's pre-order index in the
  // driver indexing numbered `scratchGeneration` (0: none), so that queueing
  // an op needs no hash map lookup.
  mutable uint32_t scratchGeneration = 0;
  mutable uint32_t scratchIndex = 0;
  // Scratch for OpTags (below): the tag, valid while `tagGeneration` is the
  // generation of the OpTags that set it. (Free in size: ops are rounded up
  // to the pools' 16-byte steps.)
  mutable uint32_t tagGeneration = 0;
  mutable uint32_t tagValue = 0;

  const std::string& name() const { return name_->text; }
  void setName(std::string_view n);
  // By string_view: a literal's length is known at compile time, so most
  // mismatches are decided by the lengths alone.
  bool is(std::string_view n) const { return name_->text == n; }
  // Op names are few and repeated: each is stored once for the process.
  static const std::string& internOpName(std::string_view name) { return intern(name).text; }
  // Whether any op named `name` exists now, in any module. When none does,
  // a pass looking for such ops has nothing to do and can skip its walk.
  static bool anyLive(std::string_view name);
  // "stablehlo" for "stablehlo.add".
  std::string dialect() const;
  // Where the op is in the file read (diagnostics point here).
  SourceLoc loc() const { return loc_; }
  void setLoc(SourceLoc l) { loc_ = l; }
  // Where the op came from, as its `loc(...)` says (location.h): the
  // Python line and name scope JAX wrote. nullptr when none was written
  // (MLIR then takes the op's place in the file read).
  const Location* location() const { return location_; }
  void setLocation(const Location* l) { location_ = l; }

  // Operands.
  unsigned numOperands() const { return static_cast<unsigned>(operands_.size()); }
  Value* operand(unsigned i) const { return operands_[i]; }
  const PoolVector<Value*>& operands() const { return operands_; }
  void setOperand(unsigned i, Value* v);
  void addOperand(Value* v);
  void reserveOperands(unsigned n) { operands_.reserve(n); }
  void setOperands(const std::vector<Value*>& vs);
  void eraseOperand(unsigned i);

  // Results.
  unsigned numResults() const { return static_cast<unsigned>(results_.size()); }
  Value* result(unsigned i) const { return results_[i].get(); }
  std::vector<Value*> results() const;
  // The results for a range-for loop, without building a vector.
  class ResultRange {
   public:
    using Base = PoolVector<std::unique_ptr<Value>>::const_iterator;
    struct iterator {
      Base it;
      Value* operator*() const { return it->get(); }
      iterator& operator++() {
        ++it;
        return *this;
      }
      bool operator!=(const iterator& o) const { return it != o.it; }
    };
    explicit ResultRange(const PoolVector<std::unique_ptr<Value>>& r) : r_(&r) {}
    iterator begin() const { return {r_->begin()}; }
    iterator end() const { return {r_->end()}; }

   private:
    const PoolVector<std::unique_ptr<Value>>* r_;
  };
  ResultRange resultRange() const { return ResultRange(results_); }
  Value* addResult(TypeRef t);

  // Attributes. Inherent attributes (the op's own, MLIR "properties") and
  // discardable ones (`sdy.sharding`, ...) live in one list, each flagged.
  struct Attr {
    AttrName name;
    Attribute value;
    bool inherent = false;
  };
  // The list lives in the node pools (node_pool.h), near the op.
  using AttrList = std::vector<Attr, detail::PoolAllocator<Attr>>;
  const AttrList& attrs() const { return attrs_; }
  // By string_view: most callers pass a literal, which as a `std::string`
  // argument was built (and for long names allocated) on every lookup.
  const Attribute* attr(std::string_view n) const;
  // The same for a name interned already (a static AttrName in a hot path):
  // one pointer comparison per attribute instead of comparing texts.
  const Attribute* attr(const AttrName& n) const {
    for (const Attr& a : attrs_)
      if (a.name == n) return &a.value;
    return nullptr;
  }
  const Attribute* attr(const char* n) const { return attr(std::string_view(n)); }
  const Attribute* attr(const std::string& n) const { return attr(std::string_view(n)); }
  bool hasAttr(std::string_view n) const { return attr(n) != nullptr; }
  bool hasAttr(const AttrName& n) const { return attr(n) != nullptr; }
  bool hasAttr(const char* n) const { return attr(std::string_view(n)) != nullptr; }
  bool hasAttr(const std::string& n) const { return attr(std::string_view(n)) != nullptr; }
  // `n` by value: a caller handing over a temporary name has it moved in.
  void setAttr(std::string n, Attribute v, bool inherent = false);
  void setAttr(const char* n, Attribute v, bool inherent = false) { setAttr(std::string(n), std::move(v), inherent); }
  // The same for a name interned already: propagation writes a sharding per
  // changed value, and a name given as text is compared with every
  // attribute's and interned again (under a lock) whenever it is new.
  void setAttr(const AttrName& n, Attribute v, bool inherent = false);
  void removeAttr(std::string_view n);

  // Regions.
  unsigned numRegions() const { return static_cast<unsigned>(regions_.size()); }
  Region& region(unsigned i) const { return *regions_[i]; }
  Region& addRegion();
  const PoolVector<std::unique_ptr<Region>>& regions() const { return regions_; }

  // Position.
  Block* parentBlock() const { return parent_; }
  Op* parentOp() const;
  // The nearest enclosing op named `name` (e.g. "func.func"), or nullptr.
  Op* parentOfName(const char* name) const;
  bool isAncestorOf(const Op* other) const;

  // Walk this op and everything nested, pre-order. Returning false from
  // `fn` skips the op's regions.
  void walk(const std::function<void(Op&)>& fn);
  void walkPreOrder(const std::function<bool(Op&)>& fn);

  // Drop all operand uses (before erasing).
  void dropAllReferences();

 private:
  friend class Block;
  friend class Value;  // rewires operands when replacing uses
  static detail::InternedOpName& intern(std::string_view name);
  detail::InternedOpName* name_;
  SourceLoc loc_;
  const Location* location_ = nullptr;
  PoolVector<Value*> operands_;
  PoolVector<std::unique_ptr<Value>> results_;
  AttrList attrs_;
  PoolVector<std::unique_ptr<Region>> regions_;
  Block* parent_ = nullptr;
  OpList::iterator self_;
};

// A small number per op for one pass, kept on the op itself: a set or map
// of ops in a hash table costs a cache miss per lookup on a large module,
// the op is in cache already. A new OpTags starts with every op untagged.
// One OpTags per op at a time: tagging an op takes it over from any older
// OpTags.
class OpTags {
 public:
  OpTags();
  OpTags(const OpTags&) = delete;
  OpTags& operator=(const OpTags&) = delete;
  // `tag` must not be 0 (which reads as "untagged").
  void set(const Op& op, uint32_t tag) const {
    op.tagGeneration = generation_;
    op.tagValue = tag;
  }
  // The tag of `op`, or 0.
  uint32_t get(const Op& op) const { return op.tagGeneration == generation_ ? op.tagValue : 0; }

 private:
  uint32_t generation_;
};

class Block {
 public:
  explicit Block(Region* parent) : parent_(parent) {}
  ~Block();
  // Blocks and regions live in the node pools too, next to their op's.
  static void* operator new(std::size_t size) { return detail::poolAllocate(size); }
  static void operator delete(void* p, std::size_t size) { detail::poolDeallocate(p, size); }
  Region* parentRegion() const { return parent_; }
  Op* parentOp() const;

  unsigned numArguments() const { return static_cast<unsigned>(args_.size()); }
  Value* argument(unsigned i) const { return args_[i].get(); }
  std::vector<Value*> arguments() const;
  Value* addArgument(TypeRef t);
  void eraseArgument(unsigned i);
  // The `loc(...)` written after argument `i` (location.h), or nullptr.
  // Kept here rather than on every value: few values are block arguments.
  const Location* argumentLocation(unsigned i) const {
    return i < argLocations_.size() ? argLocations_[i] : nullptr;
  }
  void setArgumentLocation(unsigned i, const Location* l);

  OpList& ops() { return ops_; }
  const OpList& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  Op* terminator() const { return ops_.empty() ? nullptr : ops_.back().get(); }

  // Insert `op` at the end / before `before` / after `after`; returns it.
  Op* append(std::unique_ptr<Op> op);
  Op* insertBefore(Op* before, std::unique_ptr<Op> op);
  Op* insertAfter(Op* after, std::unique_ptr<Op> op);
  // Remove and destroy `op` (its results must have no uses left).
  void erase(Op* op);
  // Unlink `op` and hand it back.
  std::unique_ptr<Op> take(Op* op);
  // The op right before `op` in this block, or nullptr when `op` is first.
  Op* opBefore(const Op* op) const;

 private:
  Region* parent_;
  PoolVector<std::unique_ptr<Value>> args_;
  PoolVector<const Location*> argLocations_;  // empty until one is set
  OpList ops_;
};

class Region {
 public:
  explicit Region(Op* parent) : parent_(parent) {}
  static void* operator new(std::size_t size) { return detail::poolAllocate(size); }
  static void operator delete(void* p, std::size_t size) { detail::poolDeallocate(p, size); }
  Op* parentOp() const { return parent_; }
  PoolVector<std::unique_ptr<Block>>& blocks() { return blocks_; }
  const PoolVector<std::unique_ptr<Block>>& blocks() const { return blocks_; }
  bool empty() const { return blocks_.empty(); }
  Block& front() const { return *blocks_.front(); }
  Block& addBlock();

 private:
  Op* parent_;
  PoolVector<std::unique_ptr<Block>> blocks_;
};

// A parsed file: the top-level `builtin.module` op (implicit or written), the
// attribute and location aliases, and where it came from.
struct Module {
  std::unique_ptr<Op> op;  // "builtin.module" with one region and one block
  std::string fileName;
  // `#alias = ...` definitions in file order (printed back only when asked).
  std::vector<std::pair<std::string, Attribute>> attributeAliases;
  // Whether the source spelled `module { ... }` explicitly.
  bool explicitModule = false;

  Module() = default;
  Module(Module&&) = default;
  Module& operator=(Module&&) = default;
  // Tears the whole tree down at once, without unlinking each use.
  ~Module();

  Block& body() const { return op->region(0).front(); }
  // `sdy.mesh` op named `name` at the top level, or nullptr.
  Op* lookupSymbol(const std::string& name) const;
  // Mesh of `sdy.mesh @name`, or nullptr.
  const Mesh* lookupMesh(const std::string& name) const;
  // The mesh a sharding refers to (inline or by name), or nullptr.
  const Mesh* meshOf(const TensorSharding& sharding) const;
  // Every `func.func` at the top level.
  std::vector<Op*> functions() const;
};

// Build a fresh empty module.
Module makeEmptyModule();

}  // namespace shardscope::ir
