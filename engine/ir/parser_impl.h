// Internal: the recursive-descent reader behind parser.h. Works directly on
// the characters (MLIR's types and sdy's attribute syntax do not tokenize
// uniformly), tracks positions for diagnostics, and stops at the first
// error, adding the enclosing "failed to parse ..." notes as it unwinds.
#pragma once
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/location.h"
#include "ir/location_alias_table.h"
#include "ir/operation.h"
#include "ir/parser.h"

namespace shardscope::ir::detail {

// Character classes of the MLIR syntax. ASCII only, as the C locale's
// <cctype> functions, without their per-call locale lookup.
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
inline bool isXDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool isIdStart(char c) { return isAlpha(c) || c == '_'; }
inline bool isIdChar(char c) { return isAlnum(c) || c == '_' || c == '$' || c == '.'; }
inline bool isSuffixChar(char c) { return isIdChar(c) || c == '-'; }
// What skipWs may have to skip: whitespace, or the '/' of a comment.
inline bool isWsOrSlash(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/'; }

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& opts, DiagnosticSink& diags);

  std::unique_ptr<Module> parseModule();
  bool parseStandaloneAttribute(Attribute& out);
  bool parseStandaloneType(Type& out);

  // ---- characters -------------------------------------------------------
  // The small ones are defined here so that calls with a literal compile to
  // a few compares rather than a call and a memcmp.
  void skipWs() {
    if (p_ < end_ && !isWsOrSlash(*p_)) return;
    skipWsSlow();
  }
  void skipWsSlow();
  bool atEnd() { skipWs(); return p_ >= end_; }
  char peek() { skipWs(); return p_ < end_ ? *p_ : '\0'; }
  bool peekStr(std::string_view s) {
    skipWs();
    return static_cast<size_t>(end_ - p_) >= s.size() && std::memcmp(p_, s.data(), s.size()) == 0;
  }
  bool consume(char c) {
    skipWs();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool consumeStr(std::string_view s) {
    if (!peekStr(s)) return false;
    p_ += s.size();
    return true;
  }
  // A keyword: `s` not followed by an identifier character.
  bool peekKeyword(std::string_view s) {
    if (!peekStr(s)) return false;
    const char* after = p_ + s.size();
    return after >= end_ || !isSuffixChar(*after);
  }
  bool consumeKeyword(std::string_view s) {
    if (!peekKeyword(s)) return false;
    p_ += s.size();
    return true;
  }
  bool expect(char c);
  bool expectKeyword(std::string_view s);
  std::string_view parseBareId();
  std::string_view parseSuffixId();
  bool parseString(std::string& out);
  // A string as a view of the source when it has no escapes, else decoded
  // into `storage` (which `out` then views).
  bool parseStringView(std::string_view& out, std::string& storage);
  // `@name` or `@"quoted name"`; `what` names it in the error ("function name").
  bool parseSymbolName(std::string& out, const char* what);
  bool parseInt(int64_t& out, bool allowNegative = true);
  const char* pos() { skipWs(); return p_; }

  // ---- diagnostics ------------------------------------------------------
  SourceLoc locOf(const char* pos) const;
  bool error(const char* pos, std::string msg);
  bool error(std::string msg) { return error(pos(), std::move(msg)); }
  void warning(const char* pos, std::string msg);
  bool failed() const { return failed_; }
  // Before each op: every kOpsPerProgressCall ops, tells opts_.progress how
  // far the read is; false (with the error kReadCancelled) when it says stop.
  bool keepReading() {
    if (!opts_.progress || ++opsSinceProgress_ < kOpsPerProgressCall) return true;
    return reportProgress();
  }
  bool reportProgress();

  // ---- types ------------------------------------------------------------
  bool parseType(Type& out);
  bool parseTensorTypeBody(Type& out);  // after `tensor<`
  bool parseNonTensorType(Type& out, const char* start);
  bool parseTypeList(std::vector<Type>& out);  // without parens, at least one
  bool parseFunctionType(std::vector<Type>& ins, std::vector<Type>& outs);
  // `(T, ...)` or a single type: the results of a function type.
  bool parseResultTypes(std::vector<Type>& outs);
  // A type as a pointer to one the reader keeps (tensor types in the
  // spelling cache, others in typeStore_), and a function type with its
  // inputs so: a generic op's operand types are only compared with its
  // operands' types, and a copy of each cost an allocation.
  bool parseTypeRef(const Type*& out);
  bool parseFunctionTypeRefs(std::vector<const Type*>& ins, std::vector<Type>& outs);

  // ---- attributes -------------------------------------------------------
  bool parseAttribute(Attribute& out);
  // Record where the value of the current op's attribute `name` (prefixed
  // by sitePrefix_) was written: from `valueBegin` to here. Only with
  // ParseOptions::attributeSites, and only for attributes of an op (not the
  // entries of a dictionary nested in an attribute).
  void noteAttributeSite(std::string_view name, const char* valueBegin);
  bool parseAttrDict(std::vector<NamedAttribute>& out);
  bool parseOptionalAttrDict(std::vector<NamedAttribute>& out);
  // Raw text from an opening bracket at p_ to its match (inclusive).
  bool captureBalanced(std::string& out);
  // After captureBalanced of a `dense<...>` body: false, with the error at
  // the character where a number should have ended, when one runs on.
  bool checkDenseNumbers(const std::string& body);
  bool parseDialectAttribute(Attribute& out);
  bool parseDenseArray(Attribute& out, const char* kwStart);
  bool parseElementsLiteral(Attribute& out, std::string_view id, const char* kwStart);
  // The end of `<...> : tensor<...>` from `from` ('<'), or nullptr when the
  // literal is not followed by a tensor type on its line.
  const char* denseLiteralEnd(const char* from) const;
  bool parseDialectAttributeBody(Attribute& out, const char* start, std::string_view id);

  // sdy attributes (bodies start at '<' unless noted).
  bool parseMeshBody(Mesh& out);
  bool parseMeshRef(MeshRef& out);
  bool parseAxisRef(AxisRef& out);
  bool parseAxisList(AxisRefList& out);  // `{"a", "b":(1)2}`
  bool parseAllToAllParams(AllToAllParamsAttr& out);  // `[{"x"}: 0->1, ...]`
  bool consumeWordBeforeMinus(std::string_view word);
  bool parseEdgeValueRef(EdgeValueRef& out);  // `operand-1`
  bool parsePropagationEdgesBody(PropagationEdgesAttr& out);
  bool parseDimSharding(DimensionSharding& out);
  bool parseTensorShardingBody(TensorSharding& out);  // `<@mesh, [...], ...>`
  bool parseShardingPerValueBody(TensorShardingPerValue& out);  // `<[<..>, ..]>`
  bool parseShardingList(TensorShardingPerValue& out);  // `[<..>, ..]`
  bool parseOpShardingRuleBody(OpShardingRule& out);
  bool parseFactorMappings(std::vector<TensorFactorMapping>& out, std::vector<std::pair<const char*, int64_t>>& used);
  bool parseFactorIndex(int64_t& out);
  bool parseFactorSet(std::vector<int64_t>& out);

  // ---- ops --------------------------------------------------------------
  bool parseOperation(Block& block);
  std::unique_ptr<Op> parseGenericOp(const char* start);
  std::unique_ptr<Op> parseCustomOp(std::string_view name, const char* start);
  // Entry block arguments: names are views of the source text (see SymbolTable).
  using EntryArgs = std::vector<std::pair<std::string_view, Type>>;
  bool parseRegion(Region& region, const EntryArgs* entryArgs);
  bool parseBlockBody(Block& block);
  // An optional `loc(...)`: what it says is in trailingLoc_ (nullptr when
  // none was written), or, for `loc(#name)` before `#name` is defined, in
  // trailingAlias_ until placeLocation takes it.
  bool parseTrailingLocation();
  // The inside of `loc(...)`: `unknown`, `"file":1:2`, `"name"(child)`,
  // `callsite(a at b)`, `fused<meta>[a, b]`, or `#alias` (defined already).
  bool parseLocationInstance(const Location*& out);
  bool parseFileOrNameLocation(const Location*& out);
  // Give the last trailing location to `op`, or to argument `arg` of `block`
  // (an alias defined later is given when the module has been read).
  void placeLocation(Op* op, Block* block, unsigned arg);
  // Block arguments are made after their locations are read: the location
  // of the argument whose name starts at `name` (a view of the source).
  void noteArgumentLocation(std::string_view name);
  void placeArgumentLocation(std::string_view name, Block& block, unsigned arg);
  bool resolveLocationAliases();

  // SSA values.
  struct ValueUse {
    std::string_view name;  // without '%', a view of the source text
    unsigned index = 0;
    const char* pos = nullptr;
  };
  bool parseValueUse(ValueUse& out);
  bool parseValueUseList(std::vector<ValueUse>& out);  // possibly empty, comma separated
  // Resolve a use; `type` (if given) fixes the type of a forward reference.
  Value* resolve(const ValueUse& use, const Type* type = nullptr);
  bool resolveAll(const std::vector<ValueUse>& uses, const std::vector<Type>* types, Op& op);
  bool resolveAll(const std::vector<ValueUse>& uses, const std::vector<const Type*>& types, Op& op);
  // Both: `numTypes` types (when `typed`), type i being `typeAt(i)`.
  template <typename TypeAt>
  bool resolveUses(const std::vector<ValueUse>& uses, bool typed, size_t numTypes, const TypeAt& typeAt, Op& op);
  // Bind `name` (a view of the source text) to one block argument, or to
  // results [first, first + count) of `op`.
  void define(std::string_view name, Value* arg);
  void define(std::string_view name, Op* op, unsigned first, unsigned count);
  void pushScope();
  bool popScope();
  // `(%a: T {attrs}, ...)`: block argument lists.
  struct ArgDecl {
    std::string_view name;
    Type type;
    std::vector<NamedAttribute> attrs;
    const char* pos = nullptr;
  };
  bool parseArgList(std::vector<ArgDecl>& out, bool allowAttrs);

  // Custom formats (custom_op_parser.cpp).
  bool parseSimpleOp(Op& op, std::vector<ValueUse>& uses, std::vector<Type>& operandTypes,
                     std::vector<Type>& resultTypes);
  bool parseTypesForStyle(int style, size_t numOperands, std::vector<Type>& operandTypes,
                          std::vector<Type>& resultTypes);
  // Both move out of their lists (`attrs` is left empty).
  void setAttrs(Op& op, std::vector<NamedAttribute>& attrs, bool forceInherent = false);
  bool finishOp(Op& op, const std::vector<ValueUse>& uses, const std::vector<Type>& operandTypes,
                std::vector<Type>& resultTypes);

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  ParseOptions opts_;
  DiagnosticSink& diags_;
  std::vector<const char*> lineStarts_;
  // The line (0-based index into lineStarts_) of the last locOf: the reader
  // asks in source order, so the next answer is almost always this line or
  // one shortly after, found without a search over every line.
  mutable size_t lastLine_ = 0;
  bool failed_ = false;
  bool errorEmitted_ = false;
  int opsSinceProgress_ = 0;
  int depth_ = 0;  // nesting guard against stack exhaustion
  // Attribute sites (ParseOptions::attributeSites): the start of each op
  // being read, innermost last; the key prefix while a function argument's
  // or result's dictionary is read (`arg_attrs/0/`); attributes being read
  // (a dictionary inside one is no op's attribute).
  std::vector<const char*> opStarts_;
  std::string sitePrefix_;
  int attrDepth_ = 0;

  // Attributes and types are immutable values: identical spellings share one
  // object, as MLIR's context uniques them (a large module repeats the same
  // shardings and tensor types thousands of times).
  std::unordered_map<std::string_view, Attribute> attrCache_;
  // `out` for the source text [from, end): the attribute read from that
  // spelling before, else what `parse` (which reads into `out`) reads, kept
  // when it read exactly that text.
  template <typename Parse>
  bool parseCached(Attribute& out, const char* from, const char* end, const Parse& parse);
  std::unordered_map<std::string_view, Type> typeCache_;
  // Types parseTypeRef hands out that typeCache_ does not hold.
  std::deque<Type> typeStore_;
  // The tensor type at p_ (which starts `tensor<`) when typeCache_ holds its
  // spelling, with p_ moved past it; else nullptr, p_ unmoved.
  const Type* knownTensorType();
  // The last tensor type knownTensorType found, and its spelling.
  std::string_view lastTensorSpelling_;
  const Type* lastTensorType_ = nullptr;
  // End of the bracketed text starting at `from` ('<'), or nullptr.
  const char* scanBalanced(const char* from) const;

  std::unordered_map<std::string, Attribute> attrAliases_;
  // `#name = loc(...)` definitions. Not attribute aliases as well: a
  // location alias used as an attribute becomes one when it is met there.
  LocationAliasTable locAliases_;
  const Location* trailingLoc_ = nullptr;
  std::string_view trailingAlias_;
  const char* trailingAliasAt_ = nullptr;
  // `loc(#name)` read before `#name = loc(...)` (JAX writes its aliases
  // after the module): the op or block argument waiting for it. JAX gives
  // every op one, so an op's entry is two pointers (the alias is read
  // again from the `#` at `at`): 16 bytes an op instead of 48 in fresh pages.
  struct PendingOpLocation {
    const char* at;
    Op* op;
  };
  std::vector<PendingOpLocation> pendingOpLocations_;
  struct PendingArgumentLocation {
    const char* at;
    Block* block;
    unsigned arg;
  };
  std::vector<PendingArgumentLocation> pendingArgumentLocations_;
  // Locations of block arguments not made yet, by their name's position.
  struct ArgumentLocation {
    const Location* loc;
    std::string_view alias;
    const char* at;
  };
  std::unordered_map<const char*, ArgumentLocation> argumentLocations_;
  std::unordered_map<std::string, Type> typeAliases_;
  Module* module_ = nullptr;

  // ---- SSA names --------------------------------------------------------
  // All open scopes share one flat table rather than a hash map each: a
  // large function body defines ~100k names, and building, rehashing and
  // freeing a node-based map per region dominated the reader's time.
  // `defs_` is a stack of definitions, `latest_` maps a name to its innermost
  // definition, and each definition links to the one it hides; closing a
  // scope pops its definitions and restores what they hid. Names are views
  // of the source text, which outlives the parser.
  static constexpr uint32_t kNoDef = UINT32_MAX;
  struct Def {
    std::string_view name;
    uint32_t hidden;  // the definition of `name` this one hides, or kNoDef
    uint32_t scope;   // index in scopes_
    Value* arg;       // a block argument, or
    Op* op;           // results [first, first + count) of `op`
    uint32_t first, count;
    Value* value(unsigned i) const { return arg ? arg : op->result(first + i); }
  };
  // From a name to an index in defs_ (kNoDef once popped). Decimal names
  // (`%12`, what printers produce, so most of any large module) index a
  // vector directly; others go through open addressing, which needs no node
  // per name.
  class NameTable {
   public:
    uint32_t find(std::string_view key) const;
    // The entry for `key`, added with kNoDef when missing.
    uint32_t& operator[](std::string_view key);

   private:
    // Whether `key` is a decimal number without leading zeros below the
    // direct table's bound; its value in `n`.
    static bool asNumber(std::string_view key, uint32_t& n);
    std::vector<uint32_t> byNumber_;
    struct Slot {
      const char* data = nullptr;  // nullptr: empty slot
      uint32_t size = 0;
      uint32_t value = kNoDef;
    };
    size_t slotOf(std::string_view key) const;
    void grow();
    std::vector<Slot> slots_;
    size_t used_ = 0;
  };
  struct ScopeFrame {
    uint32_t firstDef;  // defs_.size() when the scope opened
    uint64_t id;        // a serial per scope instance
  };
  std::vector<Def> defs_;
  std::vector<ScopeFrame> scopes_;
  NameTable latest_;
  // scopes_ below this index belong to the regions around an isolated one
  // (a function body) and are invisible from inside it.
  uint32_t floor_ = 0;
  uint64_t nextScopeId_ = 0;
  // The visible definition of `name`, or nullptr.
  const Def* lookup(std::string_view name) const;
  void bind(Def def);
  bool noVisibleScope() const { return scopes_.size() == floor_; }

  struct ForwardRef {
    std::unique_ptr<Op> holder;  // owns the placeholder value
    const char* pos;
    // The ids of the visible scopes when the use was read: a forward
    // reference may only be resolved by a definition in a scope that
    // enclosed the use.
    std::vector<uint64_t> scopeChain;
  };
  // Key "name#index@outermost-scope": isolated regions (functions) never share one.
  std::unordered_map<std::string, ForwardRef> forwardRefs_;
  std::string forwardKey(std::string_view name, unsigned index) const;

  // Per-op scratch vectors, reused so that reading an op allocates none of
  // its temporary lists. The pools hand out a fresh vector to each nesting
  // level (ops nest through regions).
  template <typename T>
  struct ScratchPool {
    std::vector<std::vector<T>> free;
  };
  template <typename T>
  struct Scratch {
    ScratchPool<T>& pool;
    std::vector<T> v;
    explicit Scratch(ScratchPool<T>& p) : pool(p) {
      if (!p.free.empty()) {
        v = std::move(p.free.back());
        p.free.pop_back();
      }
    }
    ~Scratch() {
      v.clear();
      pool.free.push_back(std::move(v));
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
  };

  struct ResultName {
    std::string_view name;
    int64_t count = 1;
    const char* pos = nullptr;
  };
  ScratchPool<ResultName> resultNamePool_;
  ScratchPool<ValueUse> usePool_;
  ScratchPool<Type> typePool_;
  ScratchPool<const Type*> typeRefPool_;
  ScratchPool<NamedAttribute> attrPool_;

 public:
  // Hide the enclosing scopes for an isolated region (a function body).
  struct IsolatedScope {
    Parser& p;
    uint32_t savedFloor;
    size_t savedDepth;
    explicit IsolatedScope(Parser& parser)
        : p(parser), savedFloor(parser.floor_), savedDepth(parser.scopes_.size()) {
      p.floor_ = static_cast<uint32_t>(savedDepth);
    }
    ~IsolatedScope() {
      // Scopes left open by an error inside go too.
      while (p.scopes_.size() > savedDepth) p.popScope();
      p.floor_ = savedFloor;
    }
  };

 private:

 public:
  static constexpr int kMaxDepth = 512;
  struct DepthGuard {
    Parser& p;
    bool ok;
    explicit DepthGuard(Parser& parser) : p(parser), ok(++parser.depth_ <= kMaxDepth) {
      if (!ok) p.error("nesting too deep");
    }
    ~DepthGuard() { --p.depth_; }
  };
};

}  // namespace shardscope::ir::detail
