// Internal: the recursive-descent reader behind parser.h. Works directly on
// the characters (MLIR's types and sdy's attribute syntax do not tokenize
// uniformly), tracks positions for diagnostics, and stops at the first
// error, adding the enclosing "failed to parse ..." notes as it unwinds.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "ir/parser.h"

namespace shardscope::ir::detail {

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& opts, DiagnosticSink& diags);

  std::unique_ptr<Module> parseModule();
  bool parseStandaloneAttribute(Attribute& out);
  bool parseStandaloneType(Type& out);

  // ---- characters -------------------------------------------------------
  void skipWs();
  bool atEnd() { skipWs(); return p_ >= end_; }
  char peek() { skipWs(); return p_ < end_ ? *p_ : '\0'; }
  bool peekStr(std::string_view s);
  bool consume(char c);
  bool consumeStr(std::string_view s);
  // A keyword: `s` not followed by an identifier character.
  bool consumeKeyword(std::string_view s);
  bool peekKeyword(std::string_view s);
  bool expect(char c);
  bool expectKeyword(std::string_view s);
  std::string_view parseBareId();
  std::string_view parseSuffixId();
  bool parseString(std::string& out);
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

  // ---- types ------------------------------------------------------------
  bool parseType(Type& out);
  bool parseTensorTypeBody(Type& out);  // after `tensor<`
  bool parseNonTensorType(Type& out, const char* start);
  bool parseTypeList(std::vector<Type>& out);  // without parens, at least one
  bool parseFunctionType(std::vector<Type>& ins, std::vector<Type>& outs);
  // `(T, ...)` or a single type: the results of a function type.
  bool parseResultTypes(std::vector<Type>& outs);

  // ---- attributes -------------------------------------------------------
  bool parseAttribute(Attribute& out);
  bool parseAttrDict(std::vector<NamedAttribute>& out);
  bool parseOptionalAttrDict(std::vector<NamedAttribute>& out);
  // Raw text from an opening bracket at p_ to its match (inclusive).
  bool captureBalanced(std::string& out);
  bool parseDialectAttribute(Attribute& out);
  bool parseDialectAttributeBody(Attribute& out, const char* start, std::string_view id);

  // sdy attributes (bodies start at '<' unless noted).
  bool parseMeshBody(Mesh& out);
  bool parseMeshRef(MeshRef& out);
  bool parseAxisRef(AxisRef& out);
  bool parseAxisList(AxisRefList& out);  // `{"a", "b":(1)2}`
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
  bool parseRegion(Region& region, const std::vector<std::pair<std::string, Type>>* entryArgs);
  bool parseBlockBody(Block& block);
  bool parseTrailingLocation();

  // SSA values.
  struct ValueUse {
    std::string name;  // without '%'
    unsigned index = 0;
    const char* pos = nullptr;
  };
  bool parseValueUse(ValueUse& out);
  bool parseValueUseList(std::vector<ValueUse>& out);  // possibly empty, comma separated
  // Resolve a use; `type` (if given) fixes the type of a forward reference.
  Value* resolve(const ValueUse& use, const Type* type = nullptr);
  bool resolveAll(const std::vector<ValueUse>& uses, const std::vector<Type>* types, Op& op);
  void define(const std::string& name, std::vector<Value*> values);
  void pushScope();
  bool popScope();
  // `(%a: T {attrs}, ...)`: block argument lists.
  struct ArgDecl {
    std::string name;
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
  void setAttrs(Op& op, const std::vector<NamedAttribute>& attrs, bool forceInherent = false);
  bool finishOp(Op& op, const std::vector<ValueUse>& uses, const std::vector<Type>& operandTypes,
                const std::vector<Type>& resultTypes);

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  ParseOptions opts_;
  DiagnosticSink& diags_;
  std::vector<const char*> lineStarts_;
  bool failed_ = false;
  bool errorEmitted_ = false;
  int depth_ = 0;  // nesting guard against stack exhaustion

  // Attributes and types are immutable values: identical spellings share one
  // object, as MLIR's context uniques them (a large module repeats the same
  // shardings and tensor types thousands of times).
  std::unordered_map<std::string_view, Attribute> attrCache_;
  std::unordered_map<std::string_view, Type> typeCache_;
  // End of the bracketed text starting at `from` ('<'), or nullptr.
  const char* scanBalanced(const char* from) const;

  std::unordered_map<std::string, Attribute> attrAliases_;
  std::unordered_map<std::string, Type> typeAliases_;
  Module* module_ = nullptr;

  std::vector<std::unordered_map<std::string, std::vector<Value*>>> scopes_;
  // A serial per scope instance, parallel to scopes_: a forward reference may
  // only be resolved by a definition in a scope that enclosed the use.
  std::vector<uint64_t> scopeIds_;
  uint64_t nextScopeId_ = 0;
  struct ForwardRef {
    std::unique_ptr<Op> holder;  // owns the placeholder value
    const char* pos;
    std::vector<uint64_t> scopeChain;  // scopeIds_ when the use was read
  };
  // Key "name#index@outermost-scope": isolated regions (functions) never share one.
  std::unordered_map<std::string, ForwardRef> forwardRefs_;
  std::string forwardKey(const std::string& name, unsigned index) const;

 public:
  // Swap in a fresh scope stack for an isolated region (a function body).
  struct IsolatedScope {
    Parser& p;
    std::vector<std::unordered_map<std::string, std::vector<Value*>>> savedScopes;
    std::vector<uint64_t> savedIds;
    explicit IsolatedScope(Parser& parser)
        : p(parser), savedScopes(std::move(parser.scopes_)), savedIds(std::move(parser.scopeIds_)) {
      p.scopes_.clear();
      p.scopeIds_.clear();
    }
    ~IsolatedScope() {
      p.scopes_ = std::move(savedScopes);
      p.scopeIds_ = std::move(savedIds);
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
