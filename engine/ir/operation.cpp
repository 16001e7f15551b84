#include "ir/operation.h"

#include <algorithm>
#include <cassert>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace shardscope::ir {

// ---- Value ----------------------------------------------------------------

void Value::replaceAllUsesWith(Value* other) {
  replaceUsesWithIf(other, [](const Use&) { return true; });
}

void Value::replaceUsesWithIf(Value* other, const std::function<bool(const Use&)>& pred) {
  if (other == this) return;
  // Rewire the uses directly rather than through setOperand: that searches
  // this use list for each use, which is quadratic for a value with many
  // users (a merged constant can have thousands). The uses move to `other`
  // in their order here, as successive setOperand calls would put them.
  size_t kept = 0;
  for (size_t i = 0; i < uses_.size(); ++i) {
    Use u = uses_[i];
    if (!pred(u)) {
      uses_[kept++] = u;
      continue;
    }
    u.user->operands_[u.index] = other;
    if (other) other->uses_.push_back(u);
  }
  uses_.resize(kept);
}

Op* Value::ownerOp() const {
  if (definingOp) return definingOp;
  return ownerBlock ? ownerBlock->parentOp() : nullptr;
}

// ---- Op -------------------------------------------------------------------

namespace {
// Set while a whole module is destroyed: every value dies with it, so use
// lists need not be kept up to date op by op (that is quadratic for values
// with many uses).
thread_local bool tearingDown = false;
}  // namespace

namespace {
struct NameTable {
  std::mutex mutex;
  // Keys view the entries' own text; entries never move or die.
  std::unordered_map<std::string_view, std::unique_ptr<detail::InternedOpName>> names;
};
NameTable& nameTable() {
  static auto* table = new NameTable();  // never destroyed: ops may outlive statics
  return *table;
}
}  // namespace

const std::string& AttrName::intern(std::string_view n) {
  // Never destroyed: attributes may outlive statics.
  static auto* mutex = new std::mutex();
  static auto* names = new std::unordered_map<std::string_view, std::unique_ptr<std::string>>();
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = names->find(n);
  if (it != names->end()) return *it->second;
  auto owned = std::make_unique<std::string>(n);
  const std::string& ref = *owned;
  names->emplace(std::string_view(ref), std::move(owned));
  return ref;
}

detail::InternedOpName& Op::intern(std::string_view name) {
  NameTable& t = nameTable();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.names.find(name);
  if (it != t.names.end()) return *it->second;
  auto entry = std::make_unique<detail::InternedOpName>();
  entry->text = std::string(name);
  detail::InternedOpName& ref = *entry;
  t.names.emplace(std::string_view(ref.text), std::move(entry));
  return ref;
}

bool Op::anyLive(std::string_view name) {
  NameTable& t = nameTable();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.names.find(name);
  return it != t.names.end() && it->second->live.load(std::memory_order_relaxed) > 0;
}

void Op::setName(std::string_view n) {
  detail::InternedOpName* next = &intern(n);
  if (next == name_) return;
  next->live.fetch_add(1, std::memory_order_relaxed);
  name_->live.fetch_sub(1, std::memory_order_relaxed);
  name_ = next;
}

Op::~Op() {
  name_->live.fetch_sub(1, std::memory_order_relaxed);
  // Regions go first so nested ops release their uses of our values' peers.
  regions_.clear();
  if (!tearingDown) dropAllReferences();
}

std::string Op::dialect() const {
  auto dot = name_->text.find('.');
  return dot == std::string::npos ? std::string() : name_->text.substr(0, dot);
}

static void removeUse(PoolVector<Use>& uses, Op* user, unsigned index) {
  // From the back: the use removed is most often a recent one (an op erased
  // or rewired right after it was made), and erasing near the end moves
  // little. A (user, index) pair occurs at most once, so the order of the
  // search does not matter for the result.
  for (size_t i = uses.size(); i-- > 0;) {
    if (uses[i].user == user && uses[i].index == index) {
      uses.erase(uses.begin() + static_cast<long>(i));
      return;
    }
  }
}

void Op::setOperand(unsigned i, Value* v) {
  if (operands_[i] == v) return;
  if (operands_[i]) removeUse(operands_[i]->uses_, this, i);
  operands_[i] = v;
  if (v) v->uses_.push_back({this, i});
}

void Op::addOperand(Value* v) {
  operands_.push_back(v);
  if (v) v->uses_.push_back({this, static_cast<unsigned>(operands_.size() - 1)});
}

void Op::setOperands(const std::vector<Value*>& vs) {
  dropAllReferences();
  operands_.clear();
  for (Value* v : vs) addOperand(v);
}

void Op::eraseOperand(unsigned i) {
  std::vector<Value*> vs(operands_.begin(), operands_.end());
  vs.erase(vs.begin() + i);
  setOperands(vs);
}

std::vector<Value*> Op::results() const {
  std::vector<Value*> out;
  out.reserve(results_.size());
  for (const auto& r : results_) out.push_back(r.get());
  return out;
}

Value* Op::addResult(TypeRef t) {
  auto v = std::make_unique<Value>();
  v->type = t;
  v->definingOp = this;
  v->index = static_cast<unsigned>(results_.size());
  results_.push_back(std::move(v));
  return results_.back().get();
}

const Attribute* Op::attr(std::string_view n) const {
  for (const Attr& a : attrs_)
    if (a.name == n) return &a.value;
  return nullptr;
}

void Op::setAttr(std::string n, Attribute v, bool inherent) {
  for (Attr& a : attrs_) {
    if (a.name == n) {
      a.value = std::move(v);
      a.inherent = inherent;
      return;
    }
  }
  attrs_.push_back({std::move(n), std::move(v), inherent});
}

void Op::setAttr(const AttrName& n, Attribute v, bool inherent) {
  for (Attr& a : attrs_) {
    if (a.name == n) {
      a.value = std::move(v);
      a.inherent = inherent;
      return;
    }
  }
  attrs_.push_back({n, std::move(v), inherent});
}

void Op::removeAttr(std::string_view n) {
  attrs_.erase(std::remove_if(attrs_.begin(), attrs_.end(), [&](const Attr& a) { return a.name == n; }),
               attrs_.end());
}

Region& Op::addRegion() {
  regions_.push_back(std::make_unique<Region>(this));
  return *regions_.back();
}

Op* Op::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

Op* Op::parentOfName(const char* n) const {
  for (Op* p = parentOp(); p; p = p->parentOp())
    if (p->name_->text == n) return p;
  return nullptr;
}

bool Op::isAncestorOf(const Op* other) const {
  for (const Op* p = other; p; p = p->parentOp())
    if (p == this) return true;
  return false;
}

void Op::walk(const std::function<void(Op&)>& fn) {
  walkPreOrder([&](Op& op) {
    fn(op);
    return true;
  });
}

OpTags::OpTags() {
  static std::atomic<uint32_t> counter{0};
  uint32_t g = ++counter;
  if (g == 0) g = ++counter;  // 0 is every op's "never tagged"
  generation_ = g;
}

namespace {
// Buffers for walkPreOrder's snapshots of a block's ops, one per nesting
// depth and reused across walks: a fresh vector per block made every walk of
// a large function allocate (and free) a block-sized buffer, which also
// forced malloc to consolidate its small free chunks each time.
struct WalkBuffers {
  std::vector<std::vector<Op*>> byDepth;
  size_t depth = 0;
};
thread_local WalkBuffers walkBuffers;
struct WalkDepth {
  size_t d;
  WalkDepth() : d(walkBuffers.depth++) {
    if (walkBuffers.byDepth.size() <= d) walkBuffers.byDepth.resize(d + 1);
  }
  ~WalkDepth() { --walkBuffers.depth; }
};
}  // namespace

void Op::walkPreOrder(const std::function<bool(Op&)>& fn) {
  if (!fn(*this)) return;
  if (regions_.empty()) return;
  WalkDepth depth;
  for (auto& region : regions_)
    for (auto& block : region->blocks()) {
      // Collect first: `fn` may erase the op it is given.
      std::vector<Op*>& ops = walkBuffers.byDepth[depth.d];
      ops.clear();
      // At its final size at once: grown by doubling, a million-op block's
      // buffer left twice its size in freed fresh pages behind.
      ops.reserve(block->ops().size());
      for (auto& op : block->ops()) ops.push_back(op.get());
      // Nested walks use deeper buffers, so `ops` stays intact; index it
      // afresh since `byDepth` may grow (moving the inner vectors, not
      // their heap buffers).
      for (size_t i = 0, n = ops.size(); i < n; ++i) walkBuffers.byDepth[depth.d][i]->walkPreOrder(fn);
    }
}

void Op::dropAllReferences() {
  for (unsigned i = 0; i < operands_.size(); ++i)
    if (operands_[i]) {
      removeUse(operands_[i]->uses_, this, i);
      operands_[i] = nullptr;
    }
}

// ---- Block / Region -------------------------------------------------------

Block::~Block() {
  // Unlink every use first (nested ones too): a use may refer to a value
  // defined later in the block or in another region (forward references in
  // graph regions, half-built input), so no destruction order alone is safe.
  if (!tearingDown)
    for (auto& op : ops_) op->walk([](Op& o) { o.dropAllReferences(); });
  while (!ops_.empty()) ops_.pop_back();
}

Op* Block::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

std::vector<Value*> Block::arguments() const {
  std::vector<Value*> out;
  for (const auto& a : args_) out.push_back(a.get());
  return out;
}

Value* Block::addArgument(TypeRef t) {
  auto v = std::make_unique<Value>();
  v->type = t;
  v->ownerBlock = this;
  v->index = static_cast<unsigned>(args_.size());
  args_.push_back(std::move(v));
  return args_.back().get();
}

void Block::eraseArgument(unsigned i) {
  args_.erase(args_.begin() + i);
  for (unsigned j = 0; j < args_.size(); ++j) args_[j]->index = j;
  if (i < argLocations_.size()) argLocations_.erase(argLocations_.begin() + i);
}

void Block::setArgumentLocation(unsigned i, const Location* l) {
  if (argLocations_.size() <= i) {
    if (!l) return;
    argLocations_.resize(i + 1, nullptr);
  }
  argLocations_[i] = l;
}

Op* Block::append(std::unique_ptr<Op> op) {
  op->parent_ = this;
  ops_.push_back(std::move(op));
  ops_.back()->self_ = std::prev(ops_.end());
  return ops_.back().get();
}

Op* Block::insertBefore(Op* before, std::unique_ptr<Op> op) {
  if (!before) return append(std::move(op));
  assert(before->parent_ == this);
  op->parent_ = this;
  auto it = ops_.insert(before->self_, std::move(op));
  (*it)->self_ = it;
  return it->get();
}

Op* Block::insertAfter(Op* after, std::unique_ptr<Op> op) {
  assert(after->parent_ == this);
  op->parent_ = this;
  auto it = ops_.insert(std::next(after->self_), std::move(op));
  (*it)->self_ = it;
  return it->get();
}

std::unique_ptr<Op> Block::take(Op* op) {
  assert(op->parent_ == this);
  std::unique_ptr<Op> owned = std::move(*op->self_);
  ops_.erase(op->self_);
  owned->parent_ = nullptr;
  return owned;
}

void Block::erase(Op* op) { take(op).reset(); }

Op* Block::opBefore(const Op* op) const {
  assert(op->parent_ == this);
  return op->self_ == ops_.begin() ? nullptr : std::prev(op->self_)->get();
}

Block& Region::addBlock() {
  blocks_.push_back(std::make_unique<Block>(this));
  return *blocks_.back();
}

// ---- Module ---------------------------------------------------------------

Module::~Module() {
  bool outer = tearingDown;
  tearingDown = true;
  op.reset();
  tearingDown = outer;
}

Op* Module::lookupSymbol(const std::string& name) const {
  for (auto& op : body().ops()) {
    const Attribute* sym = op->attr("sym_name");
    if (sym && sym->string() && *sym->string() == name) return op.get();
  }
  return nullptr;
}

const Mesh* Module::lookupMesh(const std::string& name) const {
  Op* op = lookupSymbol(name);
  if (!op || op->name() != "sdy.mesh") return nullptr;
  const Attribute* m = op->attr("mesh");
  return m ? m->as<Mesh>() : nullptr;
}

const Mesh* Module::meshOf(const TensorSharding& sharding) const {
  if (sharding.mesh.inlineMesh) return &*sharding.mesh.inlineMesh;
  return lookupMesh(sharding.mesh.name);
}

std::vector<Op*> Module::functions() const {
  std::vector<Op*> out;
  for (auto& op : body().ops())
    if (op->name() == "func.func") out.push_back(op.get());
  return out;
}

Module makeEmptyModule() {
  Module m;
  m.op = std::make_unique<Op>("builtin.module");
  m.op->addRegion().addBlock();
  return m;
}

}  // namespace shardscope::ir
