// The MLIR writer. Value names follow MLIR's printer: per isolated op, block
// arguments `%argN`, results `%N` in program order with nested regions
// numbered after their parent region, name hints (`%c`, `%cst`,
// `%iterArg`) made unique with a conflict counter saved per region.
//
// A block of many ops (a large model's @main holds most of its million ops)
// is written by two threads: every value is named before anything is
// written, so an op's text depends only on the op, and a second writer
// spells every other chunk of ops while this one spells the rest and
// writes both in program order (Writer::printOpsOnTwoThreads).
#include "ir/printer.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "ir/collective_ops.h"
#include "ir/location.h"
#include "ir/location_aliases.h"
#include "ir/op_syntax.h"
#include "ir/op_traits.h"
#include "sharding/string_literal.h"

namespace shardscope::ir {

namespace {

// Whether `opName` (an op's name(), which is interned: Op::internOpName keeps
// one string per name for the process) is `literal`. Compares addresses; the
// literal is interned once per call site. The writer asks several such
// questions per op (result name hints, the custom formats' dispatch), and as
// string comparisons they were 4% of reading and printing the 100k-op
// transformer. `opName` must be the op's own name(), never a copy of it.
#define SS_NAME_IS(opName, literal)                                                  \
  ([](const std::string& ssNameIsName_) {                                            \
    static const std::string* const ssNameIsLiteral_ = &Op::internOpName(literal);   \
    return &ssNameIsName_ == ssNameIsLiteral_;                                       \
  }(opName))

// ---- value names ----------------------------------------------------------

class NameState {
 public:
  // Number everything under `isolated` (a func.func or the module).
  void numberIsolated(const Op& isolated) {
    struct Pending {
      const Region* region;
      unsigned nextValue, nextArg, nextConflict;
      int parentScope;
    };
    std::vector<Pending> stack;
    for (auto it = isolated.regions().rbegin(); it != isolated.regions().rend(); ++it)
      stack.push_back({it->get(), 0, 0, 0, -1});
    while (!stack.empty()) {
      Pending p = stack.back();
      stack.pop_back();
      nextValue_ = p.nextValue;
      nextArg_ = p.nextArg;
      nextConflict_ = p.nextConflict;
      scopes_.push_back({p.parentScope, {}});
      int scope = static_cast<int>(scopes_.size()) - 1;
      numberRegion(*p.region, scope);
      // Nested regions go on with the counters where this region left them,
      // isolated ones too (as MLIR numbers them): the functions of a module
      // each start at %arg0 because the module's body names nothing, and a
      // function nested in another goes on from its arguments.
      for (const auto& block : p.region->blocks())
        for (const auto& op : block->ops())
          for (const auto& r : op->regions())
            stack.push_back({r.get(), nextValue_, nextArg_, nextConflict_, scope});
    }
  }

  std::string_view name(const Value* v) const {
    if (!numbered(v)) return "%<<UNKNOWN SSA VALUE>>";
    const Name& n = names_[v->printSlot];
    return {text_.data() + n.offset, n.size};
  }

  // `%0` for a whole result group, as written before ` = `.
  std::string_view resultGroupName(const Op& op) const {
    std::string_view n = name(op.result(0));
    return n.substr(0, n.find('#'));
  }
  // Both for ops with results only.
  bool hasOwnNames(const Op& op) const { return flagsOf(op) & kOwnNamed; }
  bool namesEachResult(const Op& op) const { return flagsOf(op) & kPerResultNamed; }

 private:
  // Names live side by side in one buffer (`text_`), not one string each:
  // a large module has a name per value.
  struct Name {
    uint32_t offset;
    uint32_t size;
    uint8_t flags;  // on an op's first result: how the op names its results
  };
  static constexpr uint8_t kOwnNamed = 1;        // a hint name (`%cst`) for the group
  static constexpr uint8_t kPerResultNamed = 2;  // a name per result

  bool numbered(const Value* v) const { return v->printGeneration == generation_ && v->printSlot < names_.size(); }
  uint8_t flagsOf(const Op& op) const {
    const Value* r = op.result(0);
    return numbered(r) ? names_[r->printSlot].flags : 0;
  }
  void setFlags(const Op& op, uint8_t flags) { names_[op.result(0)->printSlot].flags = flags; }

  struct Scope {
    int parent;
    std::unordered_set<std::string> used;
  };

  bool isUsed(const std::string& n, int scope) const {
    for (int s = scope; s >= 0; s = scopes_[s].parent)
      if (scopes_[s].used.count(n)) return true;
    return false;
  }

  std::string unique(const std::string& base, int scope) {
    std::string n = base;
    if (isUsed(n, scope)) {
      do {
        n = base + "_" + std::to_string(nextConflict_++);
      } while (isUsed(n, scope));
    }
    scopes_[scope].used.insert(n);
    return n;
  }

  // The name an op gives its result (MLIR's getAsmResultNames), or "".
  static std::string resultHint(const Op& op) {
    if (SS_NAME_IS(op.name(), "stablehlo.constant") && op.numResults() == 1) {
      const std::string& et = op.result(0)->type->elementType;
      bool integer = !et.empty() && (et[0] == 'i' || et.rfind("ui", 0) == 0 || et.rfind("si", 0) == 0);
      return integer ? "c" : "cst";
    }
    if (SS_NAME_IS(op.name(), "arith.constant") && op.numResults() == 1) {
      // `%true`, `%c5_i32`, `%c5` (index), `%cst` (anything else).
      const Attribute* value = op.attr("value");
      if (value && value->is<BoolAttr>()) return value->as<BoolAttr>()->value ? "true" : "false";
      if (const IntegerAttr* i = value ? value->as<IntegerAttr>() : nullptr) {
        std::string name = "c" + std::to_string(i->value);
        if (i->type != "index") name += "_" + i->type;
        return name;
      }
      return "cst";
    }
    return "";
  }

  void numberRegion(const Region& region, int scope) {
    const Op* parent = region.parentOp();
    bool iterArgs = parent && SS_NAME_IS(parent->name(), "stablehlo.while");
    bool first = true;
    for (const auto& block : region.blocks()) {
      for (unsigned i = 0; i < block->numArguments(); ++i) {
        const Value* a = block->argument(i);
        if (iterArgs) {
          setName(a, unique("iterArg", scope));
        } else if (first) {
          setName(a, unique("arg" + std::to_string(nextArg_++), scope));
        } else {
          setNumber(a, nextValue_++);
        }
      }
      first = false;
      for (const auto& op : block->ops()) numberOp(*op, scope);
    }
  }

  // Ops that name each of their results (like MLIR's getAsmResultNames with
  // one name per result): every result is its own group, printed as
  // `%a, %b = ...`.
  static const std::vector<const char*>* perResultNames(const Op& op) {
    static const std::vector<const char*> rngBitGenerator = {"output_state", "output"};
    if (SS_NAME_IS(op.name(), "stablehlo.rng_bit_generator") && op.numResults() == rngBitGenerator.size())
      return &rngBitGenerator;
    static const std::vector<const char*> topK = {"values", "indices"};
    if (SS_NAME_IS(op.name(), "chlo.top_k") && op.numResults() == topK.size()) return &topK;
    return nullptr;
  }

  void numberOp(const Op& op, int scope) {
    if (op.numResults() == 0) return;
    if (const auto* names = perResultNames(op)) {
      for (unsigned i = 0; i < op.numResults(); ++i) setName(op.result(i), unique((*names)[i], scope));
      setFlags(op, kPerResultNamed);
      return;
    }
    if (std::string hint = resultHint(op); !hint.empty()) {
      std::string base = unique(hint, scope);
      if (op.numResults() == 1) {
        setName(op.result(0), base);
      } else {
        for (unsigned i = 0; i < op.numResults(); ++i) setName(op.result(i), base, static_cast<int>(i));
      }
      setFlags(op, kOwnNamed);
      return;
    }
    unsigned number = nextValue_++;
    if (op.numResults() == 1) {
      setNumber(op.result(0), number);
    } else {
      char buf[16];
      std::string_view base(buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, number).ptr - buf));
      for (unsigned i = 0; i < op.numResults(); ++i) setName(op.result(i), base, static_cast<int>(i));
    }
  }

  // `%base`, or `%base#resultNo` for a result of a group.
  void setName(const Value* v, std::string_view base, int resultNo = -1) {
    v->printGeneration = generation_;
    v->printSlot = static_cast<uint32_t>(names_.size());
    size_t offset = text_.size();
    text_ += '%';
    text_ += base;
    if (resultNo >= 0) {
      text_ += '#';
      appendNumber(static_cast<unsigned>(resultNo));
    }
    names_.push_back({static_cast<uint32_t>(offset), static_cast<uint32_t>(text_.size() - offset), 0});
  }
  void setNumber(const Value* v, unsigned number) {
    char buf[16];
    setName(v, std::string_view(buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, number).ptr - buf)));
  }
  void appendNumber(unsigned n) {
    char buf[16];
    text_.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
  }

  // Each writer run gets its own generation, so stale slots are never read.
  static uint32_t nextGeneration() {
    static std::atomic<uint32_t> counter{0};
    uint32_t g = ++counter;
    return g == 0 ? ++counter : g;
  }

  uint32_t generation_ = nextGeneration();
  std::vector<Name> names_;
  std::string text_;
  std::vector<Scope> scopes_;
  unsigned nextValue_ = 0, nextArg_ = 0, nextConflict_ = 0;
};

// ---- output ---------------------------------------------------------------

// The writer's output: text gathers in one string and reaches the stream in
// large pieces. Sending each token through std::ostream cost more than
// producing it; attributes and types append to the same buffer.
class Out {
 public:
  // `os` nullptr: keep everything in the buffer (see take()).
  explicit Out(std::ostream* os) : os_(os) {
    if (os_) buf_.reserve(kFlushAt + kFlushAt / 4);
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  std::string& buffer() { return buf_; }
  void flush() {
    if (!os_ || buf_.empty()) return;
    os_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  std::string take() { return std::move(buf_); }
  // Appends a large piece of text without copying it into the buffer first
  // when there is a stream to send it to.
  void writeThrough(std::string_view s) {
    if (!os_) {
      buf_.append(s);
      return;
    }
    flush();
    os_->write(s.data(), static_cast<std::streamsize>(s.size()));
  }

  Out& operator<<(char c) {
    buf_ += c;
    return *this;
  }
  Out& operator<<(std::string_view s) {
    buf_.append(s);
    if (os_ && buf_.size() >= kFlushAt) flush();
    return *this;
  }
  Out& operator<<(const char* s) { return *this << std::string_view(s); }
  Out& operator<<(const std::string& s) { return *this << std::string_view(s); }
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>)
  Out& operator<<(T v) {
    char b[24];
    buf_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
    return *this;
  }
  Out& operator<<(bool) = delete;  // as a stream would print 1/0: almost surely a mistake
  Out& operator<<(const Type& t) {
    t.print(buf_);
    return *this;
  }
  // A value's type is interned (TypeRef: one object per distinct type for
  // the process, never changed or freed), and a module has few distinct
  // types: each is spelled once per writer, its text copied after that.
  // Spelling a tensor type cost some 200 instructions, a twentieth of
  // printing a module. (Only through TypeRef: a plain Type may be a
  // temporary whose address is reused.)
  Out& operator<<(const TypeRef& t) {
    appendType(t);
    return *this;
  }
  void appendType(const TypeRef& t) {
    auto [it, inserted] = typeText_.try_emplace(&*t);
    if (!inserted) {
      buf_ += it->second;
      return;
    }
    const size_t at = buf_.size();
    t->print(buf_);
    it->second.assign(buf_, at, std::string::npos);
  }

 private:
  static constexpr size_t kFlushAt = 1 << 16;
  std::ostream* os_;
  std::string buf_;
  std::unordered_map<const Type*, std::string> typeText_;
};

// ---- the writer -----------------------------------------------------------

// The attributes of one op that its dictionary prints, in name order. An op
// has a handful: they stay inside the object, so collecting them for each
// op allocates nothing.
class AttrRefs {
 public:
  void push_back(const Op::Attr* a) {
    if (size_ == kInline && spill_.empty()) spill_.assign(inline_, inline_ + kInline);
    if (spill_.empty())
      inline_[size_] = a;
    else
      spill_.push_back(a);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Op::Attr* const* begin() const { return spill_.empty() ? inline_ : spill_.data(); }
  const Op::Attr* const* end() const { return begin() + size_; }
  const Op::Attr* operator[](size_t i) const { return begin()[i]; }
  // Stable, as the dictionary order of equal names must not change; an
  // insertion sort, since the lists are short.
  void sortByName() {
    const Op::Attr** d = spill_.empty() ? inline_ : spill_.data();
    for (size_t i = 1; i < size_; ++i) {
      const Op::Attr* a = d[i];
      size_t j = i;
      for (; j > 0 && a->name < d[j - 1]->name; --j) d[j] = d[j - 1];
      d[j] = a;
    }
  }
  template <typename Pred>
  void removeIf(Pred pred) {
    const Op::Attr** d = spill_.empty() ? inline_ : spill_.data();
    size_t kept = 0;
    for (size_t i = 0; i < size_; ++i)
      if (!pred(d[i])) d[kept++] = d[i];
    size_ = kept;
    if (!spill_.empty()) spill_.resize(kept);
  }

 private:
  static constexpr size_t kInline = 8;
  const Op::Attr* inline_[kInline];
  std::vector<const Op::Attr*> spill_;  // all of them, once there are more than kInline
  size_t size_ = 0;
};

class Writer {
 public:
  Writer(Out& out, const PrintOptions& opts) : os_(out), opts_(opts) {}
  // A second writer of `parent`'s module (printOpsOnTwoThreads): it reads
  // the parent's value names and never starts a helper of its own.
  Writer(Out& out, Writer& parent)
      : os_(out), opts_(parent.opts_), names_(parent.names_), module_(parent.module_), helper_(true) {}

  void printModule(const Module& m) {
    if (opts_.debugInfo && !aliases_) {
      // A first pass meets the locations in the order they are written,
      // which decides their names; the second writes.
      LocationAliases aliases;
      {
        Out discard(nullptr);
        Writer collector(discard, opts_);
        collector.aliases_ = &aliases;
        collector.collecting_ = true;
        collector.module_ = &m;
        collector.printModule(m);
      }
      aliases.name();
      aliases_ = &aliases;
      module_ = &m;
      os_ << aliases.definitions(true);
      printModule(m);
      os_ << aliases.definitions(false);
      aliases_ = nullptr;
      return;
    }
    const Op& mod = *m.op;
    if (collecting_) aliases_->meet(locationOf(mod), true);
    names_.numberIsolated(mod);
    os_ << "module";
    if (const Attribute* n = mod.attr("sym_name"); n && n->string()) {
      os_ << " @";
      appendName(os_.buffer(), *n->string());
    }
    AttrRefs extra = attrsExcept(mod, {"sym_name", "sym_visibility"});
    if (!extra.empty()) {
      os_ << " attributes ";
      printAttrDict(extra);
    }
    os_ << " {\n";
    indent_ = 1;
    for (const auto& op : m.body().ops()) {
      printIndent();
      printOp(*op);
      os_ << '\n';
    }
    os_ << '}';
    printTrailingLocation(mod);
    os_ << '\n';
  }

  void printSingleOp(const Op& op) {
    // Number from where the full print starts afresh, so names match it:
    // an isolated op at the top of the module (a function) or the module.
    // Isolated ops nested deeper go on from their parent's counters.
    const Op* iso = &op;
    while (iso->parentOp() && !(isIsolatedFromAbove(iso->name()) && !iso->parentOp()->parentOp()))
      iso = iso->parentOp();
    names_.numberIsolated(*iso);
    printOp(op);
  }

 private:
  Out& os_;
  std::string typeText_;  // scratch
  PrintOptions opts_;
  NameState ownNames_;
  // ownNames_, or a parent writer's (a helper only reads them).
  NameState& names_ = ownNames_;
  int indent_ = 0;

  // -mlir-print-debuginfo (PrintOptions::debugInfo): the names, and
  // whether this writer only meets the locations for them.
  LocationAliases* aliases_ = nullptr;
  bool collecting_ = false;
  const Module* module_ = nullptr;
  // A helper of another writer (printOpsOnTwoThreads).
  bool helper_ = false;

  // The location MLIR has for `op`: the one written, else its place in the
  // file read (the module `module { ... }` stood for without writing it is
  // at 0:0), else unknown.
  const Location* locationOf(const Op& op) const {
    if (op.location()) return op.location();
    if (&op == module_->op.get() && !module_->explicitModule)
      return Location::fileLineCol(module_->fileName, 0, 0);
    if (!op.loc().known()) return Location::unknown();
    return Location::fileLineCol(module_->fileName, op.loc().line, op.loc().col);
  }
  const Location* argumentLocationOf(const Block& block, unsigned i) const {
    if (const Location* l = block.argumentLocation(i)) return l;
    SourceLoc at = block.argument(i)->loc;
    if (!at.known()) return Location::unknown();
    return Location::fileLineCol(module_->fileName, at.line, at.col);
  }
  // ` loc(#loc3)` after an op (its location was met before what it holds).
  void printTrailingLocation(const Op& op) {
    if (!aliases_ || collecting_) return;
    const std::string& alias = aliases_->aliasOf(locationOf(op));
    os_ << " loc(#" << alias << ')';
  }
  // ` loc("x")` after a block argument: written out, as MLIR does.
  void printArgumentLocation(const Block& block, unsigned i) {
    if (!aliases_) return;
    const Location* l = argumentLocationOf(block, i);
    if (collecting_)
      aliases_->meet(l, false);
    else
      os_ << ' ' << aliases_->inlineText(*l);
  }

  void printIndent() {
    for (int i = 0; i < indent_; ++i) os_ << "  ";
  }

  std::string_view v(const Value* val) const { return names_.name(val); }

  void printOperands(const Op& op, size_t from = 0, size_t to = SIZE_MAX) {
    to = std::min<size_t>(to, op.numOperands());
    for (size_t i = from; i < to; ++i) {
      if (i > from) os_ << ", ";
      os_ << v(op.operand(static_cast<unsigned>(i)));
    }
  }

  static AttrRefs attrsExcept(const Op& op, std::initializer_list<std::string_view> skip) {
    AttrRefs out;
    for (const Op::Attr& a : op.attrs()) {
      bool skipped = false;
      for (std::string_view s : skip) skipped |= (a.name == s);
      if (!skipped) out.push_back(&a);
    }
    out.sortByName();
    return out;
  }

  // The attributes not consumed by a custom format: everything discardable
  // plus inherent ones the format does not spell.
  static AttrRefs dictAttrs(const Op& op, std::initializer_list<std::string_view> consumed) {
    return attrsExcept(op, consumed);
  }

  void printAttrDict(const AttrRefs& attrs) {
    os_ << '{';
    for (size_t i = 0; i < attrs.size(); ++i) {
      if (i) os_ << ", ";
      appendName(os_.buffer(), attrs[i]->name.str());
      if (!attrs[i]->value.is<UnitAttr>()) {
        os_ << " = ";
        writeAttr(attrs[i]->value);
      }
    }
    os_ << '}';
  }

  void writeAttr(const Attribute& a) { a.print(os_.buffer()); }
  void writeType(const Type& t) { t.print(os_.buffer()); }
  void writeType(const TypeRef& t) { os_.appendType(t); }
  // `T, U` for the operands or the results of `op`.
  void writeOperandTypes(const Op& op) {
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      if (i) os_ << ", ";
      writeType(op.operand(i)->type);
    }
  }
  void writeResultTypes(const Op& op) {
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (i) os_ << ", ";
      writeType(op.result(i)->type);
    }
  }

  // Whether intListOf(a) would give a list, without building it.
  static bool isIntList(const Attribute& a) {
    if (a.is<DenseArrayAttr>()) return true;
    if (const ArrayAttr* arr = a.array()) {
      for (const Attribute& e : arr->elems)
        if (!e.integer()) return false;
      return true;
    }
    return intListOf(a).has_value();
  }
  // `[1, 2]`: strIntList(*intListOf(a)) without the temporaries.
  void writeIntListOf(const Attribute& a) {
    os_ << '[';
    if (const DenseArrayAttr* d = a.as<DenseArrayAttr>()) {
      for (size_t i = 0; i < d->values.size(); ++i) {
        if (i) os_ << ", ";
        os_ << d->values[i];
      }
    } else if (auto list = intListOf(a)) {
      for (size_t i = 0; i < list->size(); ++i) {
        if (i) os_ << ", ";
        os_ << (*list)[i];
      }
    }
    os_ << ']';
  }

  void printOptionalAttrDict(const Op& op, std::initializer_list<std::string_view> consumed) {
    auto attrs = dictAttrs(op, consumed);
    if (attrs.empty()) return;
    os_ << ' ';
    printAttrDict(attrs);
  }

  // `(T, T) -> R` / `-> (R, S)`, streamed without building a function type.
  void printFunctionalType(const Op& op) {
    os_ << '(';
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      if (i) os_ << ", ";
      writeType(op.operand(i)->type);
    }
    os_ << ") -> ";
    bool parens = op.numResults() != 1 || op.result(0)->type->kind == Type::Kind::Function;
    if (parens) os_ << '(';
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (i) os_ << ", ";
      writeType(op.result(i)->type);
    }
    if (parens) os_ << ')';
  }

  void writeIntList(const Attribute* a) {
    os_ << '[';
    if (a) {
      if (const ArrayAttr* arr = a->array()) {
        for (size_t i = 0; i < arr->elems.size(); ++i) {
          if (i) os_ << ", ";
          os_ << arr->elems[i].integer().value_or(0);
        }
      } else if (auto list = intListOf(*a)) {
        for (size_t i = 0; i < list->size(); ++i) os_ << (i ? ", " : "") << (*list)[i];
      }
    }
    os_ << ']';
  }

  void printTypes(const Op& op, TypeStyle style) {
    os_ << " : ";
    if (style == TypeStyle::ResultOnly) {
      writeResultTypes(op);
      return;
    }
    if (style == TypeStyle::Arrow || style == TypeStyle::ListArrow) {
      writeOperandTypes(op);
      os_ << " -> ";
      if (op.numResults() == 1) {
        writeResultTypes(op);
      } else {
        os_ << '(';
        writeResultTypes(op);
        os_ << ')';
      }
      return;
    }
    if (style == TypeStyle::ComplexOrFunctional && op.numResults() == 1 && op.numOperands() == 2) {
      const Type& r = op.result(0)->type;
      std::string_view part = r.isTensor() ? complexPartType(r.elementType) : std::string_view();
      bool real = !part.empty();
      for (const Value* o : op.operands())
        real &= o->type->isTensor() && o->type->elementType == part && o->type->shape == r.shape &&
                o->type->unranked == r.unranked && o->type->encoding == r.encoding;
      if (real) {
        writeType(r);
        return;
      }
    }
    if (style == TypeStyle::SameOrFunctional && op.numResults() == 1) {
      const Type& r = op.result(0)->type;
      bool same = true;
      for (const Value* o : op.operands()) same &= (o->type == r);
      if (same) {
        writeType(r);
        return;
      }
    }
    printFunctionalType(op);
  }

  void printRegion(const Region& region, bool printEntryArgs, bool printEmptyBlock = true) {
    os_ << "{\n";
    ++indent_;
    bool first = true;
    for (const auto& block : region.blocks()) {
      bool label = (!first) || (printEntryArgs && block->numArguments() > 0);
      if (label) {
        --indent_;
        printIndent();
        ++indent_;
        os_ << "^bb" << (&block - &region.blocks().front());
        if (block->numArguments()) {
          os_ << '(';
          for (unsigned i = 0; i < block->numArguments(); ++i) {
            if (i) os_ << ", ";
            os_ << v(block->argument(i)) << ": " << block->argument(i)->type;
            printArgumentLocation(*block, i);
          }
          os_ << ')';
        }
        os_ << ":\n";
      }
      first = false;
      if (sharesWork(*block)) {
        printOpsOnTwoThreads(*block);
      } else {
        for (const auto& op : block->ops()) printOpLine(*op);
      }
    }
    (void)printEmptyBlock;
    --indent_;
    printIndent();
    os_ << '}';
  }

  void printOpLine(const Op& op) {
    printIndent();
    printOp(op);
    os_ << '\n';
  }

  // ---- two threads for a large block ---------------------------------------

  // Chunks of this many ops go to one thread or the other: large enough
  // that handing one over costs nothing next to spelling it (a few hundred
  // KB of text), small enough that the two threads' shares stay even.
  static constexpr size_t kChunkOps = 2048;
  // Blocks of fewer ops are written on this thread alone.
  static constexpr size_t kTwoThreadOps = 8 * kChunkOps;
  // Chunks the helper may have spelt ahead of the writing (their buffers
  // are reused, so the text in flight stays a few MB whatever the size).
  static constexpr size_t kChunksAhead = 4;

  // Location aliases are named in the order a single writer meets them, so
  // -mlir-print-debuginfo is written on one thread.
  bool sharesWork(const Block& block) const {
    if (helper_ || aliases_ || collecting_) return false;
    size_t n = 0;
    for (auto it = block.ops().begin(); it != block.ops().end() && n < kTwoThreadOps; ++it) ++n;
    return n >= kTwoThreadOps;
  }

  // Writes the ops of `block` as the loop in printRegion would: chunks
  // 0, 2, 4, ... are spelt here straight into the output, chunks 1, 3, 5,
  // ... by a helper writer on another thread into a ring of buffers, each
  // written out here after the chunk before it. The text is the same as one
  // writer's: each op's spelling depends on the op and the value names
  // (all given before writing starts), and the order is program order.
  void printOpsOnTwoThreads(const Block& block) {
    std::vector<OpList::const_iterator> starts;  // of each chunk, then end
    size_t n = 0;
    for (auto it = block.ops().begin(); it != block.ops().end(); ++it, ++n)
      if (n % kChunkOps == 0) starts.push_back(it);
    starts.push_back(block.ops().end());
    const size_t chunks = starts.size() - 1;

    struct Relay {
      std::mutex mutex;
      std::condition_variable changed;
      std::string text[kChunksAhead];
      bool ready[kChunksAhead] = {};
      bool stop = false;  // the writing side gave up (an exception)
      std::exception_ptr failure;  // the helper's
    } relay;
    // The helper's k-th chunk (chunk 2k + 1) goes through slot k % kChunksAhead.
    auto slotOf = [](size_t chunk) { return (chunk / 2) % kChunksAhead; };

    std::thread helper([&] {
      try {
        Out out(nullptr);
        Writer writer(out, *this);
        writer.indent_ = indent_;
        for (size_t c = 1; c < chunks; c += 2) {
          const size_t slot = slotOf(c);
          {
            std::unique_lock lock(relay.mutex);
            relay.changed.wait(lock, [&] { return relay.stop || !relay.ready[slot]; });
            if (relay.stop) return;
            out.buffer().swap(relay.text[slot]);  // reuse the slot's storage
          }
          out.buffer().clear();
          for (auto it = starts[c]; it != starts[c + 1]; ++it) writer.printOpLine(**it);
          {
            std::lock_guard lock(relay.mutex);
            relay.text[slot].swap(out.buffer());
            relay.ready[slot] = true;
          }
          relay.changed.notify_all();
        }
      } catch (...) {
        std::lock_guard lock(relay.mutex);
        relay.failure = std::current_exception();
        relay.stop = true;
        relay.changed.notify_all();
      }
    });
    // Stops and joins the helper however this function is left.
    struct Join {
      std::thread& helper;
      Relay& relay;
      ~Join() {
        {
          std::lock_guard lock(relay.mutex);
          relay.stop = true;
        }
        relay.changed.notify_all();
        helper.join();
      }
    } join{helper, relay};

    std::string taken;
    for (size_t c = 0; c < chunks; ++c) {
      if (c % 2 == 0) {
        for (auto it = starts[c]; it != starts[c + 1]; ++it) printOpLine(**it);
        continue;
      }
      const size_t slot = slotOf(c);
      {
        std::unique_lock lock(relay.mutex);
        relay.changed.wait(lock, [&] { return relay.ready[slot] || relay.failure; });
        if (!relay.ready[slot]) std::rethrow_exception(relay.failure);
        taken.swap(relay.text[slot]);
      }
      os_.writeThrough(taken);
      {
        std::lock_guard lock(relay.mutex);
        relay.text[slot].swap(taken);  // the storage goes back for a later chunk
        relay.ready[slot] = false;
      }
      relay.changed.notify_all();
    }
  }

  void printBlockArgDecls(const Block& block) {
    os_ << '(';
    for (unsigned i = 0; i < block.numArguments(); ++i) {
      if (i) os_ << ", ";
      os_ << v(block.argument(i)) << ": " << block.argument(i)->type;
      printArgumentLocation(block, i);
    }
    os_ << ')';
  }

  // MLIR drops the `func.` prefix only where the enclosing op names `func` as
  // its regions' default dialect: directly in a function's body, not inside
  // a manual computation, while or case nested in it.
  bool insideFunc(const Op& op) const {
    const Op* parent = op.parentOp();
    return parent && parent->is("func.func");
  }

  // ---- ops ----------------------------------------------------------------

  void printOp(const Op& op) {
    if (op.numResults() > 0) {
      if (names_.namesEachResult(op)) {
        for (unsigned i = 0; i < op.numResults(); ++i) os_ << (i ? ", " : "") << v(op.result(i));
      } else if (names_.hasOwnNames(op) || op.numResults() == 1) {
        os_ << names_.resultGroupName(op);
      } else {
        os_ << names_.resultGroupName(op) << ':' << op.numResults();
      }
      os_ << " = ";
    }
    if (collecting_) aliases_->meet(locationOf(op), true);
    if (opts_.genericForm || !printCustom(op)) printGeneric(op);
    printTrailingLocation(op);
  }

  void printGeneric(const Op& op) {
    appendQuoted(os_.buffer(), op.name());
    os_ << '(';
    printOperands(op);
    os_ << ')';
    AttrRefs props, attrs;
    for (const Op::Attr& a : op.attrs()) (a.inherent ? props : attrs).push_back(&a);
    props.sortByName();
    attrs.sortByName();
    if (!props.empty()) {
      os_ << " <";
      printAttrDict(props);
      os_ << '>';
    }
    if (op.numRegions()) {
      os_ << " (";
      for (unsigned i = 0; i < op.numRegions(); ++i) {
        if (i) os_ << ", ";
        printRegion(op.region(i), true);
      }
      os_ << ')';
    }
    if (!attrs.empty()) {
      os_ << ' ';
      printAttrDict(attrs);
    }
    os_ << " : ";
    printFunctionalType(op);
  }

  void printShardingList(const TensorShardingPerValue& s) {
    os_ << '[';
    for (size_t i = 0; i < s.shardings.size(); ++i) {
      if (i) os_ << ", ";
      s.shardings[i].printBody(os_.buffer());
    }
    os_ << ']';
  }

  // Ops with no custom format skip the comparisons below: op names are
  // interned, so the answer is cached per name.
  static bool mayHaveCustomFormat(const std::string& n) {
    static thread_local std::unordered_map<const std::string*, bool> cache;
    auto it = cache.find(&n);
    if (it != cache.end()) return it->second;
    bool known = lookupSimpleSyntax(n) != nullptr || n.rfind("sdy.", 0) == 0 || n.rfind("func.", 0) == 0 ||
                 n == "stablehlo.return" || n == "stablehlo.constant" || n == "stablehlo.compare" ||
                 n == "stablehlo.select" || n == "stablehlo.slice" || n == "stablehlo.dot_general" ||
                 n == "stablehlo.custom_call" || n == "stablehlo.while" || n == "stablehlo.reduce" ||
                 n == "stablehlo.optimization_barrier" || n == "stablehlo.get_tuple_element" ||
                 n == "stablehlo.tuple" || n == "stablehlo.convolution" || n == "stablehlo.composite" ||
                 n == "chlo.top_k" || n == "chlo.constant" || n == "arith.constant";
    cache.emplace(&n, known);
    return known;
  }

  // `sdy.all_gather [{}, {"x"}] %0 out_sharding=<...> : T` and the other
  // collectives (see collective_ops.h); false when the op is malformed, so
  // that it is printed generically instead.
  bool printCollective(const Op& op, CollectiveKind kind) {
    const TensorSharding* out = outShardingOf(op);
    if (!out || op.numOperands() != 1 || op.numResults() != 1) return false;
    const char* axesAttr = collectiveAxesAttrName(kind);
    const Attribute* axes = axesAttr ? op.attr(axesAttr) : nullptr;
    if (axesAttr) {
      bool wellFormed = kind == CollectiveKind::AllToAll ? axes && axes->is<AllToAllParamsAttr>()
                        : hasAxesPerDim(kind)           ? axes && axes->is<AxisRefListsAttr>()
                                                        : axes && axes->is<AxisRefListAttr>();
      if (!wellFormed) return false;
    }
    const Attribute* reduction = op.attr(kReductionOpAttr);
    if (reduction && !reduction->is<EnumAttr>()) return false;
    os_ << op.name();
    if (reduction) os_ << ' ' << reduction->as<EnumAttr>()->value;
    if (axes) {
      os_ << ' ';
      if (const auto* params = axes->as<AllToAllParamsAttr>())
        printAllToAllParams(*params, os_.buffer());
      else if (const auto* lists = axes->as<AxisRefListsAttr>())
        printAxisRefLists(*lists, os_.buffer());
      else
        printAxisList(axes->as<AxisRefListAttr>()->axes, os_.buffer());
    }
    os_ << ' ' << v(op.operand(0)) << " out_sharding=";
    out->printBody(os_.buffer());
    if (axesAttr)
      printOptionalAttrDict(op, {axesAttr, kOutShardingAttr, kReductionOpAttr});
    else
      printOptionalAttrDict(op, {kOutShardingAttr, kReductionOpAttr});
    os_ << " : " << op.result(0)->type;
    return true;
  }

  bool printCustom(const Op& op) {
    const std::string& n = op.name();
    if (!mayHaveCustomFormat(n)) return false;
    // The element-wise and keyword ops are the common case: try them first.
    if (const SimpleOpSyntax* syntax = lookupSimpleSyntax(n)) return printSimple(op, *syntax);
    if (SS_NAME_IS(n, "func.func")) return printFunc(op);
    if (SS_NAME_IS(n, "sdy.mesh")) {
      const Attribute* sym = op.attr("sym_name");
      const Attribute* mesh = op.attr("mesh");
      if (!sym || !sym->string() || !mesh || !mesh->as<Mesh>()) return false;
      os_ << "sdy.mesh @";
      appendName(os_.buffer(), *sym->string());
      os_ << " = " << mesh->as<Mesh>()->str();
      printOptionalAttrDict(op, {"sym_name", "mesh"});
      return true;
    }
    if (SS_NAME_IS(n, "func.return") || SS_NAME_IS(n, "stablehlo.return") || SS_NAME_IS(n, "sdy.return")) {
      // `return` without operands followed by another op (invalid, but the
      // reader keeps it) would read back with that op's result as operand.
      if (op.numOperands() == 0 && op.parentBlock() && op.parentBlock()->terminator() != &op)
        return false;
      os_ << (SS_NAME_IS(n, "func.return") && insideFunc(op) ? "return" : n);
      if (!SS_NAME_IS(n, "stablehlo.return")) printOptionalAttrDict(op, {});
      if (op.numOperands()) os_ << ' ';
      printOperands(op);
      if (SS_NAME_IS(n, "stablehlo.return")) printOptionalAttrDict(op, {});
      if (op.numOperands()) {
        os_ << " : ";
        writeOperandTypes(op);
      }
      return true;
    }
    if (SS_NAME_IS(n, "func.call")) {
      const Attribute* callee = op.attr("callee");
      if (!callee || !callee->as<SymbolRefAttr>()) return false;
      os_ << (insideFunc(op) ? "call " : "func.call ") << callee->str() << '(';
      printOperands(op);
      os_ << ')';
      printOptionalAttrDict(op, {"callee"});
      os_ << " : ";
      printFunctionalType(op);
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.constant") || SS_NAME_IS(n, "sdy.constant") || SS_NAME_IS(n, "chlo.constant")) {
      const Attribute* value = op.attr("value");
      if (!value || !value->as<OpaqueAttr>() || op.numResults() != 1) return false;
      const std::string& text = value->as<OpaqueAttr>()->text;
      auto colon = text.rfind(" : ");
      typeText_.clear();
      op.result(0)->type->print(typeText_);
      if (colon == std::string::npos || std::string_view(text).substr(colon + 3) != typeText_) {
        // The value's type differs from the result (e.g. quantized): spelled generically.
        os_ << n << "() <{value = " << text << "}>";
        printOptionalAttrDict(op, {"value"});
        os_ << " : () -> " << op.result(0)->type;
        return true;
      }
      os_ << n;
      printOptionalAttrDict(op, {"value"});
      os_ << ' ' << value->as<OpaqueAttr>()->text;
      return true;
    }
    if (SS_NAME_IS(n, "arith.constant")) {
      // `arith.constant dense<0.0> : tensor<8xf32>`, `arith.constant 5 : i32`,
      // `arith.constant true`: the value carries the result type.
      const Attribute* value = op.attr("value");
      if (!value || op.numResults() != 1) return false;
      os_ << n;
      printOptionalAttrDict(op, {"value"});
      os_ << ' ' << value->str();
      return true;
    }
    if (SS_NAME_IS(n, "sdy.sharding_constraint") || SS_NAME_IS(n, "sdy.reshard")) {
      const Attribute* s = op.attr("sharding");
      if (!s || !s->as<TensorSharding>() || op.numOperands() != 1 || op.numResults() != 1) return false;
      os_ << n << ' ' << v(op.operand(0)) << ' ';
      s->as<TensorSharding>()->printBody(os_.buffer());
      printOptionalAttrDict(op, {"sharding"});
      os_ << " : " << op.result(0)->type;
      return true;
    }
    if (SS_NAME_IS(n, "sdy.data_flow_edge") || SS_NAME_IS(n, "sdy.func_data_flow_edge")) {
      if (op.numOperands() != 1 || op.numResults() != 1) return false;
      os_ << n << ' ' << v(op.operand(0));
      if (const Attribute* s = op.attr("sharding"); s && s->as<TensorSharding>())
      {
        os_ << " sharding=";
        s->as<TensorSharding>()->printBody(os_.buffer());
      }
      printOptionalAttrDict(op, {"sharding"});
      os_ << " : " << op.result(0)->type;
      return true;
    }
    if (std::optional<CollectiveKind> kind = collectiveKindOf(n)) return printCollective(op, *kind);
    if (SS_NAME_IS(n, "sdy.propagation_barrier")) {
      const Attribute* d = op.attr("allowed_direction");
      if (!d || !d->as<EnumAttr>() || op.numOperands() != 1 || op.numResults() != 1) return false;
      os_ << n << ' ' << v(op.operand(0)) << " allowed_direction=" << d->as<EnumAttr>()->value;
      printOptionalAttrDict(op, {"allowed_direction"});
      os_ << " : " << op.result(0)->type;
      return true;
    }
    if (SS_NAME_IS(n, "sdy.sharding_group")) {
      const Attribute* g = op.attr("group_id");
      if (!g || !g->integer() || op.numOperands() != 1) return false;
      os_ << n << ' ' << v(op.operand(0)) << " group_id=" << *g->integer();
      printOptionalAttrDict(op, {"group_id"});
      os_ << " : " << op.operand(0)->type;
      return true;
    }
    if (SS_NAME_IS(n, "sdy.manual_computation") || SS_NAME_IS(n, "sdy.named_computation")) return printComputation(op);
    if (SS_NAME_IS(n, "stablehlo.compare")) {
      const Attribute* d = op.attr("comparison_direction");
      if (!d || !d->as<EnumAttr>()) return false;
      os_ << n << "  " << d->as<EnumAttr>()->value << ", ";
      printOperands(op);
      if (const Attribute* ct = op.attr("compare_type"); ct && ct->as<EnumAttr>())
        os_ << ",  " << ct->as<EnumAttr>()->value;
      printOptionalAttrDict(op, {"comparison_direction", "compare_type"});
      printTypes(op, TypeStyle::Functional);  // always `(T, T) -> R`, also for i1 operands
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.select")) {
      if (op.numOperands() != 3 || op.numResults() != 1) return false;
      os_ << n << ' ';
      printOperands(op);
      printOptionalAttrDict(op, {});
      const Type& r = op.result(0)->type;
      if (op.operand(1)->type == r && op.operand(2)->type == r) {
        os_ << " : " << op.operand(0)->type << ", " << r;
      } else {
        os_ << " : ";
        printFunctionalType(op);
      }
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.slice")) {
      auto starts = op.attr("start_indices"), limits = op.attr("limit_indices"), strides = op.attr("strides");
      if (!starts || !limits || op.numOperands() != 1) return false;
      auto s = intListOf(*starts), l = intListOf(*limits);
      std::optional<std::vector<int64_t>> st = strides ? intListOf(*strides) : std::nullopt;
      if (!s || !l || s->size() != l->size()) return false;
      os_ << n << ' ' << v(op.operand(0)) << " [";
      for (size_t i = 0; i < s->size(); ++i) {
        if (i) os_ << ", ";
        os_ << (*s)[i] << ':' << (*l)[i];
        if (st && i < st->size() && (*st)[i] != 1) os_ << ':' << (*st)[i];
      }
      os_ << ']';
      printOptionalAttrDict(op, {"start_indices", "limit_indices", "strides"});
      printTypes(op, TypeStyle::Functional);
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.dot_general")) return printDotGeneral(op);
    if (SS_NAME_IS(n, "stablehlo.custom_call")) {
      const Attribute* t = op.attr("call_target_name");
      if (!t || !t->string()) return false;
      os_ << n << " @";
      appendName(os_.buffer(), *t->string());  // `@"<lambda>"` quoted
      os_ << '(';
      printOperands(op);
      os_ << ')';
      printOptionalAttrDict(op, {"call_target_name"});
      printTypes(op, TypeStyle::Functional);
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.while")) return printWhile(op);
    if (SS_NAME_IS(n, "stablehlo.reduce")) return printReduce(op);
    if (SS_NAME_IS(n, "stablehlo.optimization_barrier")) {
      os_ << n;
      printOptionalAttrDict(op, {});
      if (op.numOperands()) {
        os_ << ' ';
        printOperands(op);
        os_ << " : ";
        writeOperandTypes(op);
      } else {
        os_ << "()";
      }
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.get_tuple_element")) {
      const Attribute* idx = op.attr("index");
      if (!idx || !idx->integer() || op.numOperands() != 1) return false;
      os_ << n << ' ' << v(op.operand(0)) << '[' << *idx->integer() << ']';
      printOptionalAttrDict(op, {"index"});
      printTypes(op, TypeStyle::Functional);
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.tuple")) {
      if (op.numResults() != 1) return false;
      os_ << n << ' ';
      printOperands(op);
      printOptionalAttrDict(op, {});
      os_ << " : " << op.result(0)->type;
      return true;
    }
    if (SS_NAME_IS(n, "stablehlo.convolution")) return printConvolution(op);
    if (SS_NAME_IS(n, "stablehlo.composite")) {
      const Attribute* name = op.attr("name");
      if (!name || !name->string() || op.numRegions()) return false;
      os_ << n << ' ';
      writeAttr(*name);
      if (op.numOperands()) os_ << ' ';
      printOperands(op);
      printOptionalAttrDict(op, {"name"});
      printTypes(op, TypeStyle::Functional);
      return true;
    }
    if (SS_NAME_IS(n, "chlo.top_k")) {
      const Attribute* k = op.attr("k");
      const Attribute* stable = op.attr("is_stable");
      if (!k || !k->integer() || (stable && !stable->as<BoolAttr>()) || op.numOperands() != 1 ||
          op.numResults() != 2)
        return false;
      os_ << n << '(' << v(op.operand(0)) << ", k = " << *k->integer();
      if (stable) os_ << ", is_stable = " << (stable->as<BoolAttr>()->value ? "true" : "false");
      os_ << ')';
      printOptionalAttrDict(op, {"k", "is_stable"});
      printTypes(op, TypeStyle::Arrow);
      return true;
    }
    return false;
  }

  bool printSimple(const Op& op, const SimpleOpSyntax& syntax) {
    // Check every keyword attribute exists with the expected shape first.
    for (const KeywordClause& kw : syntax.keywords) {
      const Attribute* a = op.attr(kw.attr);
      bool optional = SS_NAME_IS(op.name(), "stablehlo.cholesky");
      if (!a && !optional) return false;
      if (a && kw.kind == KeywordKind::Enum && !a->as<EnumAttr>()) return false;
      if (a && kw.kind == KeywordKind::I64Array && !isIntList(*a)) return false;
      if (a && kw.kind == KeywordKind::I64 && !a->integer()) return false;
      if (a && kw.kind == KeywordKind::Bool && !a->as<BoolAttr>()) return false;
      if (a && kw.kind == KeywordKind::String && !a->string()) return false;
      if (kw.kind == KeywordKind::ExponentMantissa) {
        const Attribute* m = op.attr(kw.attr2);
        if (!a->integer() || !m || !m->integer()) return false;
      }
    }
    if (SS_NAME_IS(op.name(), "stablehlo.dot") && op.attr("precision_config") && !op.attr("precision_config")->array())
      return false;
    os_ << op.name();
    bool first = true;
    if (op.numOperands()) {
      os_ << ' ';
      printOperands(op);
      first = false;
    }
    for (const KeywordClause& kw : syntax.keywords) {
      const Attribute* a = op.attr(kw.attr);
      if (!a) continue;
      os_ << (first ? " " : ", ") << kw.keyword << " = ";
      first = false;
      switch (kw.kind) {
        case KeywordKind::I64Array: writeIntListOf(*a); break;
        case KeywordKind::I64: os_ << *a->integer(); break;
        case KeywordKind::Bool: os_ << (a->as<BoolAttr>()->value ? "true" : "false"); break;
        case KeywordKind::Enum: os_ << (kw.spaceBeforeEnum ? " " : "") << a->as<EnumAttr>()->value; break;
        case KeywordKind::String: writeAttr(*a); break;
        case KeywordKind::ExponentMantissa:
          os_ << 'e' << *a->integer() << 'm' << *op.attr(kw.attr2)->integer();
          break;
      }
    }
    bool dot = SS_NAME_IS(op.name(), "stablehlo.dot");
    if (dot) {
      if (const Attribute* p = op.attr("precision_config")) printPrecision(*p);
    }
    // What the keywords spelled (every keyword attribute the op has) is not
    // repeated in the dictionary.
    auto attrs = attrsExcept(op, {});
    attrs.removeIf([&](const Op::Attr* a) {
      if (dot && a->name == "precision_config") return true;
      for (const KeywordClause& kw : syntax.keywords)
        if (kw.attr == a->name || (!kw.attr2.empty() && kw.attr2 == a->name)) return true;
      return false;
    });
    if (!attrs.empty()) {
      os_ << ' ';
      printAttrDict(attrs);
    }
    printTypes(op, syntax.types);
    return true;
  }

  void printPrecision(const Attribute& p) {
    const ArrayAttr* arr = p.array();
    if (!arr) return;
    os_ << ", precision = [";
    for (size_t i = 0; i < arr->elems.size(); ++i) {
      if (i) os_ << ", ";
      const EnumAttr* e = arr->elems[i].as<EnumAttr>();
      os_ << (e ? e->value : arr->elems[i].str());
    }
    os_ << ']';
  }

  bool printDotGeneral(const Op& op) {
    const Attribute* dn = op.attr("dot_dimension_numbers");
    const StructAttr* s = dn ? dn->structAttr() : nullptr;
    if (!s || op.numOperands() != 2) return false;
    os_ << op.name() << ' ';
    printOperands(op);
    const Attribute* lb = s->get("lhs_batching_dimensions");
    const Attribute* rb = s->get("rhs_batching_dimensions");
    auto nonEmpty = [](const Attribute* a) {
      if (!a) return false;
      if (const DenseArrayAttr* d = a->as<DenseArrayAttr>()) return !d->values.empty();
      if (const ArrayAttr* arr = a->array()) return isIntList(*a) && !arr->elems.empty();
      auto list = intListOf(*a);
      return list && !list->empty();
    };
    if (nonEmpty(lb) || nonEmpty(rb)) {
      os_ << ", batching_dims = ";
      writeIntList(lb);
      os_ << " x ";
      writeIntList(rb);
    }
    os_ << ", contracting_dims = ";
    writeIntList(s->get("lhs_contracting_dimensions"));
    os_ << " x ";
    writeIntList(s->get("rhs_contracting_dimensions"));
    if (const Attribute* p = op.attr("precision_config")) printPrecision(*p);
    if (const Attribute* a = op.attr("algorithm"); a && a->as<OpaqueAttr>()) {
      std::string t = a->as<OpaqueAttr>()->text;
      auto lt = t.find('<');
      os_ << ", algorithm = " << (lt == std::string::npos ? t : t.substr(lt));
    }
    printOptionalAttrDict(op, {"dot_dimension_numbers", "precision_config", "algorithm"});
    printTypes(op, TypeStyle::Functional);
    return true;
  }

  bool printConvolution(const Op& op) {
    const Attribute* dn = op.attr("dimension_numbers");
    if (!dn || !dn->as<OpaqueAttr>()) return false;
    std::string t = dn->as<OpaqueAttr>()->text;
    const std::string prefix = "#stablehlo.conv<";
    if (t.rfind(prefix, 0) != 0 || t.rfind("raw", prefix.size()) == prefix.size()) return false;
    os_ << op.name() << '(';
    printOperands(op);
    os_ << ") dim_numbers = " << t.substr(prefix.size(), t.size() - prefix.size() - 1);
    struct Key {
      const char* attr;
      const char* key;
    };
    std::vector<std::string> parts;
    for (Key k : {Key{"window_strides", "stride"}, Key{"padding", "pad"}, Key{"lhs_dilation", "lhs_dilate"},
                  Key{"rhs_dilation", "rhs_dilate"}, Key{"window_reversal", "reverse"}}) {
      const Attribute* a = op.attr(k.attr);
      if (!a) continue;
      std::string val;
      if (std::string(k.key) == "pad") {
        const OpaqueAttr* o = a->as<OpaqueAttr>();
        if (!o) return false;
        auto open = o->text.find('<'), close = o->text.rfind('>', o->text.find(" : "));
        val = o->text.substr(open + 1, close - open - 1);
      } else if (const DenseArrayAttr* d = a->as<DenseArrayAttr>()) {
        val = "[";
        for (size_t i = 0; i < d->values.size(); ++i) {
          if (i) val += ", ";
          val += d->elementType == "i1" ? (d->values[i] ? "true" : "false") : std::to_string(d->values[i]);
        }
        val += "]";
      } else {
        return false;
      }
      parts.push_back(std::string(k.key) + " = " + val);
    }
    // The format always has the window, `window = {}` when it sets nothing.
    os_ << ", window = {";
    for (size_t i = 0; i < parts.size(); ++i) os_ << (i ? ", " : "") << parts[i];
    os_ << '}';
    printOptionalAttrDict(op, {"dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation",
                               "window_reversal"});
    printTypes(op, TypeStyle::Functional);
    return true;
  }

  bool printWhile(const Op& op) {
    if (op.numRegions() != 2 || op.region(0).empty() || op.region(1).empty()) return false;
    const Block& cond = op.region(0).front();
    if (cond.numArguments() != op.numOperands()) return false;
    os_ << op.name() << '(';
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      if (i) os_ << ", ";
      os_ << v(cond.argument(i)) << " = " << v(op.operand(i));
    }
    os_ << ')';
    if (op.numOperands()) {
      os_ << " : ";
      writeOperandTypes(op);
    }
    auto attrs = attrsExcept(op, {});
    if (!attrs.empty()) {
      os_ << " attributes ";
      printAttrDict(attrs);
    }
    os_ << '\n';
    printIndent();
    os_ << "cond ";
    printRegion(op.region(0), false);
    os_ << " do ";
    printRegion(op.region(1), false);
    return true;
  }

  bool printReduce(const Op& op) {
    size_t n = op.numOperands() / 2;
    if (n == 0 || op.numOperands() % 2 || op.numRegions() != 1 || op.region(0).empty()) return false;
    const Attribute* dims = op.attr("dimensions");
    if (!dims || !isIntList(*dims)) return false;
    const Block& body = op.region(0).front();
    if (body.numArguments() != 2 * n) return false;
    os_ << op.name();
    for (size_t i = 0; i < n; ++i) {
      os_ << (i ? ", (" : "(") << v(op.operand(static_cast<unsigned>(i))) << " init: "
          << v(op.operand(static_cast<unsigned>(n + i))) << ')';
    }
    // Compact form: the body is one binary op on (arg0, arg1) returned as is.
    const Op* inner = nullptr;
    if (n == 1 && body.ops().size() == 2) {
      inner = body.ops().front().get();
      const Op* ret = body.ops().back().get();
      bool ok = inner->numOperands() == 2 && inner->operand(0) == body.argument(0) &&
                inner->operand(1) == body.argument(1) && inner->numResults() == 1 && inner->attrs().empty() &&
                inner->numRegions() == 0 && SS_NAME_IS(ret->name(), "stablehlo.return") && ret->numOperands() == 1 &&
                ret->operand(0) == inner->result(0) && inner->dialect() == "stablehlo" &&
                body.argument(0)->type->rank() == 0 && lookupSimpleSyntax(inner->name()) &&
                lookupSimpleSyntax(inner->name())->keywords.empty();
      if (!ok) inner = nullptr;
    }
    if (inner) os_ << " applies " << inner->name();
    os_ << " across dimensions = ";
    writeIntListOf(*dims);
    printOptionalAttrDict(op, {"dimensions"});
    printTypes(op, TypeStyle::Functional);
    if (inner) return true;
    os_ << '\n';
    printIndent();
    os_ << " reducer";
    for (size_t i = 0; i < n; ++i) {
      const Value* a = body.argument(static_cast<unsigned>(i));
      const Value* b = body.argument(static_cast<unsigned>(n + i));
      os_ << '(' << v(a) << ": " << a->type << ", " << v(b) << ": " << b->type << ") ";
    }
    os_ << ' ';
    printRegion(op.region(0), false);
    return true;
  }

  bool printComputation(const Op& op) {
    bool manual = SS_NAME_IS(op.name(), "sdy.manual_computation");
    if (op.numRegions() != 1 || op.region(0).empty()) return false;
    os_ << op.name();
    if (!manual) {
      const Attribute* name = op.attr("name");
      if (!name || !name->string()) return false;
      os_ << '<' << quoteString(*name->string()) << '>';
    }
    os_ << '(';
    printOperands(op);
    os_ << ')';
    for (const char* key : {"in_shardings", "out_shardings"}) {
      const Attribute* a = op.attr(key);
      if (!a) {
        if (manual) {
          os_ << ' ' << key << "=[]";
        }
        continue;
      }
      const TensorShardingPerValue* s = a->as<TensorShardingPerValue>();
      if (!s) return false;
      os_ << ' ' << key << '=';
      printShardingList(*s);
    }
    if (manual) {
      const Attribute* m = op.attr("manual_axes");
      os_ << " manual_axes={";
      if (m && m->as<ManualAxesAttr>()) {
        const auto& axes = m->as<ManualAxesAttr>()->axes;
        for (size_t i = 0; i < axes.size(); ++i) os_ << (i ? ", " : "") << quoteString(axes[i]);
      }
      os_ << '}';
    }
    os_ << ' ';
    printBlockArgDecls(op.region(0).front());
    os_ << ' ';
    printRegion(op.region(0), false);
    printOptionalAttrDict(op, {"name", "in_shardings", "out_shardings", "manual_axes"});
    os_ << " : ";
    printFunctionalType(op);
    return true;
  }

  bool printFunc(const Op& op) {
    const Attribute* sym = op.attr("sym_name");
    const Attribute* ft = op.attr("function_type");
    if (!sym || !sym->string() || !ft || !ft->as<TypeAttr>() ||
        ft->as<TypeAttr>()->type.kind != Type::Kind::Function)
      return false;
    const Type& fnType = ft->as<TypeAttr>()->type;
    const ArrayAttr* argAttrs = op.attr("arg_attrs") ? op.attr("arg_attrs")->array() : nullptr;
    const ArrayAttr* resAttrs = op.attr("res_attrs") ? op.attr("res_attrs")->array() : nullptr;
    // The non-empty dictionary at `i`, printed as it stands.
    auto dictAt = [](const ArrayAttr* arr, size_t i) -> const Attribute* {
      if (!arr || i >= arr->elems.size()) return nullptr;
      const DictionaryAttr* d = arr->elems[i].dict();
      return d && !d->entries.empty() ? &arr->elems[i] : nullptr;
    };
    os_ << "func.func ";
    if (const Attribute* vis = op.attr("sym_visibility"); vis && vis->string()) os_ << *vis->string() << ' ';
    os_ << '@';
    appendName(os_.buffer(), *sym->string());
    os_ << '(';
    bool hasBody = op.numRegions() == 1 && !op.region(0).empty();
    for (size_t i = 0; i < fnType.elements.size(); ++i) {
      if (i) os_ << ", ";
      if (hasBody && i < op.region(0).front().numArguments())
        os_ << v(op.region(0).front().argument(static_cast<unsigned>(i))) << ": ";
      os_ << fnType.elements[i];
      if (const Attribute* d = dictAt(argAttrs, i)) {
        os_ << ' ';
        writeAttr(*d);
      }
      if (hasBody && i < op.region(0).front().numArguments())
        printArgumentLocation(op.region(0).front(), static_cast<unsigned>(i));
    }
    os_ << ')';
    if (!fnType.results.empty()) {
      os_ << " -> ";
      bool anyAttr = false;
      for (size_t i = 0; i < fnType.results.size(); ++i) anyAttr |= dictAt(resAttrs, i) != nullptr;
      bool parens = fnType.results.size() > 1 || anyAttr || fnType.results[0].kind == Type::Kind::Function;
      if (parens) os_ << '(';
      for (size_t i = 0; i < fnType.results.size(); ++i) {
        if (i) os_ << ", ";
        os_ << fnType.results[i];
        if (const Attribute* d = dictAt(resAttrs, i)) {
          os_ << ' ';
          writeAttr(*d);
        }
      }
      if (parens) os_ << ')';
    }
    auto extra = attrsExcept(op, {"sym_name", "function_type", "arg_attrs", "res_attrs", "sym_visibility"});
    if (!extra.empty()) {
      os_ << " attributes ";
      printAttrDict(extra);
    }
    if (hasBody) {
      os_ << ' ';
      printRegion(op.region(0), false);
    }
    return true;
  }
};

}  // namespace

void printModule(const Module& module, std::ostream& os, const PrintOptions& opts) {
  Out out(&os);
  Writer w(out, opts);
  w.printModule(module);
  out.flush();
}

std::string printModule(const Module& module, const PrintOptions& opts) {
  Out out(nullptr);
  Writer w(out, opts);
  w.printModule(module);
  return out.take();
}

std::string printOp(const Op& op, const PrintOptions& opts) {
  Out out(nullptr);
  Writer w(out, opts);
  w.printSingleOp(op);
  return out.take();
}

}  // namespace shardscope::ir
