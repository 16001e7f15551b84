// The reader's custom op formats: module, func, sdy ops and the pretty forms
// of StableHLO ops. Each stores its attributes under the names MLIR's
// generic form uses, so the rest of the engine sees one representation.
#include <cctype>

#include "ir/collective_ops.h"
#include "ir/op_syntax.h"
#include "ir/op_traits.h"
#include "ir/parser_impl.h"

namespace shardscope::ir::detail {

namespace {

// A view of a literal or of `name` (the source text): no string per op.
std::string_view canonicalOpName(std::string_view name) {
  if (name == "module") return "builtin.module";
  if (name == "func") return "func.func";
  if (name == "return") return "func.return";
  if (name == "call") return "func.call";
  return name;
}

// `e5m10` -> 5 and 10.
bool splitExponentMantissa(std::string_view text, int64_t& exponent, int64_t& mantissa) {
  auto number = [&](size_t& i, int64_t& out) {
    size_t start = i;
    out = 0;
    while (i < text.size() && isDigit(text[i]) && i - start < 9) out = out * 10 + (text[i++] - '0');
    return i > start;
  };
  size_t i = 1;
  return text.size() >= 4 && text[0] == 'e' && number(i, exponent) && i < text.size() && text[i++] == 'm' &&
         number(i, mantissa) && i == text.size();
}

}  // namespace

// `: T` (every operand and the result), `: T_pred, T` (select), or `: (..) -> ..`.
bool Parser::parseTypesForStyle(int style, size_t numOperands, std::vector<Type>& operandTypes,
                                std::vector<Type>& resultTypes) {
  if (!expect(':')) return false;
  auto ts = static_cast<TypeStyle>(style);
  if (ts == TypeStyle::ResultOnly) {
    Type t;
    if (!parseType(t)) return false;
    resultTypes.push_back(t);
    return true;
  }
  if (ts == TypeStyle::Arrow || ts == TypeStyle::ListArrow) {
    // `T -> R` / `T, U -> R`: one type per operand before the arrow.
    const char* at = pos();
    if (!parseTypeList(operandTypes)) return false;
    if (operandTypes.size() != numOperands)
      return error(at, "expected " + std::to_string(numOperands) + " operand types but got " +
                           std::to_string(operandTypes.size()));
    if (!consumeStr("->")) return error("expected '->'");
    return parseResultTypes(resultTypes);
  }
  if (peek() == '(') {
    return parseFunctionType(operandTypes, resultTypes);
  }
  if (ts == TypeStyle::Functional) return error("expected '(' for a function type");
  if (ts == TypeStyle::ComplexOrFunctional) {
    // The result type alone: both operands are its real part.
    const char* at = pos();
    Type t;
    if (!parseType(t)) return false;
    std::string_view part = t.isTensor() ? complexPartType(t.elementType) : std::string_view();
    if (part.empty()) return error(at, "expected tensor with complex element type");
    Type real = t;
    real.elementType = std::string(part);
    operandTypes.assign(numOperands, real);
    resultTypes.push_back(std::move(t));
    return true;
  }
  std::vector<Type> list;
  if (!parseTypeList(list)) return false;
  if (list.size() == 1) {
    operandTypes.assign(numOperands, list[0]);
    resultTypes.push_back(list[0]);
    return true;
  }
  return error("expected a single type or a function type");
}

bool Parser::parseSimpleOp(Op& op, std::vector<ValueUse>& uses, std::vector<Type>& operandTypes,
                           std::vector<Type>& resultTypes) {
  const SimpleOpSyntax* syntax = lookupSimpleSyntax(op.name());
  if (!parseValueUseList(uses)) return false;
  if (syntax) {
    for (const KeywordClause& kw : syntax->keywords) {
      if (!uses.empty() || &kw != &syntax->keywords.front()) {
        if (!consume(',')) {
          if (op.name() == "stablehlo.cholesky" || op.name() == "stablehlo.dot") break;  // optional clauses
          return error("expected ','");
        }
      }
      if (!expectKeyword(kw.keyword) || !expect('=')) return false;
      switch (kw.kind) {
        case KeywordKind::I64Array: {
          DenseArrayAttr a;
          if (!expect('[')) return false;
          if (!consume(']')) {
            do {
              int64_t v;
              if (!parseInt(v)) return false;
              a.values.push_back(v);
            } while (consume(','));
            if (!expect(']')) return false;
          }
          op.setAttr(std::string(kw.attr), a, true);
          break;
        }
        case KeywordKind::I64: {
          int64_t v;
          if (!parseInt(v)) return false;
          op.setAttr(std::string(kw.attr), IntegerAttr{v, "i64"}, true);
          break;
        }
        case KeywordKind::Bool: {
          if (consumeKeyword("true")) op.setAttr(std::string(kw.attr), BoolAttr{true}, true);
          else if (consumeKeyword("false")) op.setAttr(std::string(kw.attr), BoolAttr{false}, true);
          else return error("expected 'true' or 'false'");
          break;
        }
        case KeywordKind::Enum: {
          std::string_view v = parseBareId();
          if (v.empty()) return error("expected enum value");
          op.setAttr(std::string(kw.attr), EnumAttr{"stablehlo", std::string(kw.enumKind), std::string(v)}, true);
          break;
        }
        case KeywordKind::String: {
          std::string v;
          if (!parseString(v)) return false;
          op.setAttr(std::string(kw.attr), StringAttr{std::move(v)}, true);
          break;
        }
        case KeywordKind::ExponentMantissa: {
          // `e5m10`: exponent and mantissa bits, stored as two i32 attributes.
          const char* at = pos();
          std::string_view v = parseBareId();
          int64_t bits[2];
          if (!splitExponentMantissa(v, bits[0], bits[1]))
            return error(at, "expected exponent mantissa in format e#m#, saw " + std::string(v));
          op.setAttr(std::string(kw.attr), IntegerAttr{bits[0], "i32"}, true);
          op.setAttr(std::string(kw.attr2), IntegerAttr{bits[1], "i32"}, true);
          break;
        }
      }
    }
  }
  // `stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT]`.
  if (op.name() == "stablehlo.dot" && consume(',')) {
    if (!expectKeyword("precision") || !expect('=') || !expect('[')) return false;
    std::vector<Attribute> ps;
    do {
      std::string_view v = parseBareId();
      if (v.empty()) return error("expected precision value");
      ps.push_back(EnumAttr{"stablehlo", "precision", std::string(v)});
    } while (consume(','));
    if (!expect(']')) return false;
    op.setAttr("precision_config", Attribute::makeArray(std::move(ps)), true);
  }
  std::vector<NamedAttribute> attrs;
  if (!parseOptionalAttrDict(attrs)) return false;
  setAttrs(op, attrs);
  if (peek() != ':') {
    if (uses.empty() && !syntax) return true;  // no operands, no types: `foo.bar`
    return expect(':');
  }
  TypeStyle style = syntax ? syntax->types : TypeStyle::SameOrFunctional;
  return parseTypesForStyle(static_cast<int>(style), uses.size(), operandTypes, resultTypes);
}

std::unique_ptr<Op> Parser::parseCustomOp(std::string_view rawName, const char* start) {
  std::string_view name = canonicalOpName(rawName);
  // A custom-form name without a dialect that is none of the above is no op
  // at all (MLIR refuses it the same way); read as an op of the common
  // shape, `return BOTH%0 : t` became a return plus an op named "BOTH".
  if (name.find('.') == std::string_view::npos) {
    error(rawName.data(), "custom op '" + std::string(name) + "' is unknown");
    return nullptr;
  }
  auto op = std::make_unique<Op>(name, locOf(start));
  // Reused scratch lists (see Scratch): most ops need all three.
  Scratch<ValueUse> usesScratch(usePool_);
  Scratch<Type> operandTypesScratch(typePool_), resultTypesScratch(typePool_);
  std::vector<ValueUse>& uses = usesScratch.v;
  std::vector<Type>& operandTypes = operandTypesScratch.v;
  std::vector<Type>& resultTypes = resultTypesScratch.v;
  auto finish = [&]() -> std::unique_ptr<Op> {
    if (!finishOp(*op, uses, operandTypes, resultTypes)) return nullptr;
    return std::move(op);
  };
  // Shared tails.
  // `{attrs} : types` in `style` for `numOperands` operands, then the op.
  auto finishWithAttrsAndTypes = [&](TypeStyle style, size_t numOperands) -> std::unique_ptr<Op> {
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(style), numOperands, operandTypes, resultTypes)) return nullptr;
    return finish();
  };
  auto parseShardingBodyAttr = [&](const char* attrName) {
    TensorSharding s;
    const char* valueBegin = pos();
    if (!parseTensorShardingBody(s)) return false;
    noteAttributeSite(attrName, valueBegin);
    op->setAttr(attrName, std::move(s), true);
    return true;
  };
  auto parseAttrsAndType = [&](bool hasResult) {
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return false;
    setAttrs(*op, attrs);
    if (!expect(':')) return false;
    Type t;
    if (!parseType(t)) return false;
    operandTypes.assign(uses.size(), t);
    if (hasResult) resultTypes.push_back(t);
    return true;
  };

  if (name == "builtin.module") {
    if (peek() == '@') {
      std::string id;  // `@jit_f` or `@"jit_<lambda>"`
      if (!parseSymbolName(id, "module name")) return nullptr;
      op->setAttr("sym_name", StringAttr{std::move(id)}, true);
    }
    if (consumeKeyword("attributes")) {
      std::vector<NamedAttribute> attrs;
      if (!parseAttrDict(attrs)) return nullptr;
      setAttrs(*op, attrs);
    }
    pushScope();
    bool ok = parseRegion(op->addRegion(), nullptr);
    popScope();
    if (!ok) return nullptr;
    return op;
  }

  if (name == "sdy.mesh") {
    std::string id;
    if (!parseSymbolName(id, "symbol name")) return nullptr;
    op->setAttr("sym_name", StringAttr{id}, true);
    if (!expect('=')) return nullptr;
    // The mesh may also be written as the full attribute, `#sdy.mesh<[...]>`.
    consumeKeyword("#sdy.mesh");
    Mesh m;
    const char* meshBegin = pos();
    if (!parseMeshBody(m)) {
      error(start, "custom op 'sdy.mesh' failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                   "`::llvm::ArrayRef<MeshAxisAttr>`");
      return nullptr;
    }
    noteAttributeSite("mesh", meshBegin);
    op->setAttr("mesh", std::move(m), true);
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    return op;
  }

  if (name == "func.func") {
    skipWs();
    for (const char* vis : {"private", "public", "nested"}) {
      if (consumeKeyword(vis)) op->setAttr("sym_visibility", StringAttr{vis}, true);
    }
    std::string fname;
    if (!parseSymbolName(fname, "function name")) return nullptr;
    op->setAttr("sym_name", StringAttr{fname}, true);
    // Arguments: `%a: T {attrs}` (definition) or `T {attrs}` (declaration).
    if (!expect('(')) return nullptr;
    EntryArgs args;
    std::vector<Attribute> argAttrs, resAttrs;
    bool anyArgAttr = false, anyResAttr = false;
    std::vector<Type> argTypes, resTypes;
    if (!consume(')')) {
      do {
        std::string_view argName;
        skipWs();
        if (consume('%')) {
          argName = parseSuffixId();
          if (!expect(':')) return nullptr;
        }
        Type t;
        if (!parseType(t)) return nullptr;
        std::vector<NamedAttribute> attrs;
        sitePrefix_ = argAttrKey("arg_attrs", argAttrs.size(), "");
        const bool dictOk = parseOptionalAttrDict(attrs);
        sitePrefix_.clear();
        if (!dictOk) return nullptr;
        if (!parseTrailingLocation()) return nullptr;
        noteArgumentLocation(argName);
        anyArgAttr |= !attrs.empty();
        argAttrs.push_back(Attribute::makeDict(std::move(attrs)));
        argTypes.push_back(t);
        args.emplace_back(argName, t);
      } while (consume(','));
      if (!expect(')')) return nullptr;
    }
    if (consumeStr("->")) {
      if (peek() == '(') {
        ++p_;
        if (!consume(')')) {
          do {
            Type t;
            if (!parseType(t)) return nullptr;
            std::vector<NamedAttribute> attrs;
            sitePrefix_ = argAttrKey("res_attrs", resAttrs.size(), "");
            const bool dictOk = parseOptionalAttrDict(attrs);
            sitePrefix_.clear();
            if (!dictOk) return nullptr;
            anyResAttr |= !attrs.empty();
            resAttrs.push_back(Attribute::makeDict(std::move(attrs)));
            resTypes.push_back(t);
          } while (consume(','));
          if (!expect(')')) return nullptr;
        }
      } else {
        Type t;
        if (!parseType(t)) return nullptr;
        resTypes.push_back(t);
        resAttrs.push_back(Attribute::makeDict({}));
      }
    }
    op->setAttr("function_type", TypeAttr{Type::function(argTypes, resTypes)}, true);
    if (anyArgAttr) op->setAttr("arg_attrs", Attribute::makeArray(argAttrs), true);
    if (anyResAttr) op->setAttr("res_attrs", Attribute::makeArray(resAttrs), true);
    if (consumeKeyword("attributes")) {
      std::vector<NamedAttribute> attrs;
      if (!parseAttrDict(attrs)) return nullptr;
      setAttrs(*op, attrs);
    }
    if (peek() == '{') {
      for (const auto& a : args)
        if (a.first.empty()) {
          error("expected SSA identifier for the arguments of a function with a body");
          return nullptr;
        }
      // A function nested in a region may not take a name the regions
      // around it define, isolated or not (MLIR's reader refuses it too).
      for (const auto& a : args)
        if (lookup(a.first)) {
          error(a.first.data() - 1, "region entry argument '%" + std::string(a.first) + "' is already in use");
          return nullptr;
        }
      // Functions are isolated: a fresh scope stack.
      bool ok;
      {
        IsolatedScope isolated(*this);
        ok = parseRegion(op->addRegion(), &args);
      }
      if (!ok) return nullptr;
    }
    return op;
  }

  if (name == "func.return" || name == "stablehlo.return" || name == "sdy.return") {
    // The attribute dictionary may come before or after the operands.
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    if (!parseValueUseList(uses)) return nullptr;
    if (attrs.empty() && !parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!uses.empty()) {
      if (!expect(':') || !parseTypeList(operandTypes)) return nullptr;
    }
    return finish();
  }

  if (name == "func.call") {
    std::string callee;
    if (!parseSymbolName(callee, "symbol reference")) return nullptr;
    op->setAttr("callee", SymbolRefAttr{{callee}}, true);
    if (!expect('(') || !parseValueUseList(uses) || !expect(')')) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!expect(':') || !parseFunctionType(operandTypes, resultTypes)) return nullptr;
    return finish();
  }

  const bool constant = name == "stablehlo.constant" || name == "sdy.constant" || name == "chlo.constant";
  if (constant && peek() == '(') {
    // `stablehlo.constant() {value = ...} : () -> T`: the generic-looking spelling.
    if (!expect('(') || !expect(')')) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (peekStr("<{")) {
      ++p_;
      if (!parseAttrDict(attrs) || !expect('>')) return nullptr;
    }
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!expect(':') || !parseFunctionType(operandTypes, resultTypes)) return nullptr;
    return finish();
  }
  if (constant) {
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    skipWs();
    const char* vs = p_;
    std::string_view kw = parseBareId();
    std::string text(kw);
    if (kw.empty() || p_ >= end_ || *p_ != '<') {
      error(vs, "expected a dense elements attribute");
      return nullptr;
    }
    std::string body;
    if (!captureBalanced(body)) return nullptr;
    if (kw == "dense" && !checkDenseNumbers(body)) return nullptr;
    text += body;
    if (!expect(':')) return nullptr;
    const char* typePos = pos();
    Type t;
    if (!parseType(t)) return nullptr;
    if (t.isTensor() && !t.hasStaticShape()) {
      error(typePos, "elements literal type must have static shape");
      return nullptr;
    }
    if (kw == "dense" && t.isTensor()) {
      if (std::string problem = denseLiteralProblem(body, t.shape, t.elementType); !problem.empty()) {
        error(vs, problem);
        return nullptr;
      }
      text = "dense" + canonicalDenseBody(body, t.elementType);
    }
    op->setAttr("value", OpaqueAttr{text + " : " + t.str()}, true);
    resultTypes.push_back(t);
    return finish();
  }

  if (name == "arith.constant") {
    // `arith.constant {attrs} VALUE`: a typed value whose type is the result's.
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    const char* vs = pos();
    Attribute value;
    if (!parseAttribute(value)) return nullptr;
    Type t;
    if (const auto* i = value.as<IntegerAttr>()) {
      t = Type::other(i->type);
    } else if (const auto* f = value.as<FloatAttr>()) {
      t = Type::other(f->type);
    } else if (value.is<BoolAttr>()) {
      t = Type::other("i1");
    } else if (const auto* o = value.as<OpaqueAttr>(); o && o->text.rfind(" : ") != std::string::npos) {
      DiagnosticSink scratch;
      std::optional<Type> parsed = ir::parseType(o->text.substr(o->text.rfind(" : ") + 3), scratch);
      if (!parsed) {
        error(vs, "expected a typed attribute value");
        return nullptr;
      }
      t = *parsed;
    } else {
      error(vs, "expected a typed attribute value");
      return nullptr;
    }
    op->setAttr("value", value, true);
    resultTypes.push_back(t);
    return finish();
  }
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    if (!parseShardingBodyAttr("sharding")) return nullptr;
    if (!parseAttrsAndType(true)) return nullptr;
    return finish();
  }

  if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    if (consumeKeyword("sharding")) {
      if (!expect('=') || !parseShardingBodyAttr("sharding")) return nullptr;
    }
    if (!parseAttrsAndType(true)) return nullptr;
    return finish();
  }

  if (std::optional<CollectiveKind> kind = collectiveKindOf(name)) {
    // `sdy.all_gather [{}, {"x"}] %0 out_sharding=<@mesh, [...]> : T`, with
    // an optional reduction (`max`) first and the axes in the kind's form
    // (none for collective_permute). See collective_ops.h.
    if (hasReductionOp(*kind)) {
      for (const char* reduction : {"sum", "max", "min"})
        if (consumeKeyword(reduction)) setReductionOp(*op, reduction);
    }
    if (const char* axesAttr = collectiveAxesAttrName(*kind)) {
      if (*kind == CollectiveKind::AllToAll) {
        AllToAllParamsAttr params;
        if (!parseAllToAllParams(params)) return nullptr;
        op->setAttr(axesAttr, std::move(params), true);
      } else if (hasAxesPerDim(*kind)) {
        AxisRefListsAttr lists;
        if (!expect('[')) return nullptr;
        if (!consume(']')) {
          do {
            AxisRefList axes;
            if (!parseAxisList(axes)) return nullptr;
            lists.perDim.push_back(std::move(axes));
          } while (consume(','));
          if (!expect(']')) return nullptr;
        }
        op->setAttr(axesAttr, std::move(lists), true);
      } else {
        AxisRefList axes;
        if (!parseAxisList(axes)) return nullptr;
        op->setAttr(axesAttr, AxisRefListAttr{std::move(axes)}, true);
      }
    }
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    if (!expectKeyword("out_sharding") || !expect('=') || !parseShardingBodyAttr(kOutShardingAttr))
      return nullptr;
    if (!parseAttrsAndType(true)) return nullptr;
    return finish();
  }

  if (name == "sdy.propagation_barrier") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    if (!expectKeyword("allowed_direction") || !expect('=')) return nullptr;
    std::string_view dir = parseBareId();
    if (dir.empty()) {
      error("expected propagation direction");
      return nullptr;
    }
    op->setAttr("allowed_direction", EnumAttr{"sdy", "propagation_direction", std::string(dir)}, true);
    if (!parseAttrsAndType(true)) return nullptr;
    return finish();
  }

  if (name == "sdy.sharding_group") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    if (!expectKeyword("group_id") || !expect('=')) return nullptr;
    int64_t id;
    if (!parseInt(id)) return nullptr;
    op->setAttr("group_id", IntegerAttr{id, "i64"}, true);
    if (!parseAttrsAndType(false)) return nullptr;
    return finish();
  }

  if (name == "sdy.manual_computation" || name == "sdy.named_computation") {
    if (name == "sdy.named_computation") {
      if (!expect('<')) return nullptr;
      std::string n;
      if (!parseString(n) || !expect('>')) return nullptr;
      op->setAttr("name", StringAttr{n}, true);
    }
    if (!expect('(') || !parseValueUseList(uses) || !expect(')')) return nullptr;
    for (const char* key : {"in_shardings", "out_shardings"}) {
      if (consumeKeyword(key)) {
        TensorShardingPerValue s;
        if (!expect('=')) return nullptr;
        const char* valueBegin = pos();
        if (!parseShardingList(s)) return nullptr;
        noteAttributeSite(key, valueBegin);
        op->setAttr(key, std::move(s), true);
      }
    }
    if (name == "sdy.manual_computation") {
      if (!expectKeyword("manual_axes") || !expect('=') || !expect('{')) return nullptr;
      ManualAxesAttr m;
      if (!consume('}')) {
        do {
          std::string a;
          if (!parseString(a)) return nullptr;
          m.axes.push_back(a);
        } while (consume(','));
        if (!expect('}')) return nullptr;
      }
      op->setAttr("manual_axes", std::move(m), true);
    }
    std::vector<ArgDecl> args;
    if (!parseArgList(args, false)) return nullptr;
    EntryArgs entry;
    for (auto& a : args) entry.emplace_back(a.name, a.type);
    if (!parseRegion(op->addRegion(), &entry)) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!expect(':') || !parseFunctionType(operandTypes, resultTypes)) return nullptr;
    return finish();
  }

  if (name == "stablehlo.compare") {
    std::string_view dir = parseBareId();
    if (dir.empty()) {
      error("expected comparison direction");
      return nullptr;
    }
    op->setAttr("comparison_direction", EnumAttr{"stablehlo", "comparison_direction", std::string(dir)}, true);
    if (!expect(',') || !parseValueUseList(uses)) return nullptr;
    if (consume(',')) {
      std::string_view ct = parseBareId();
      op->setAttr("compare_type", EnumAttr{"stablehlo", "comparison_type", std::string(ct)}, true);
    }
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::SameOrFunctional), uses.size(), operandTypes, resultTypes))
      return nullptr;
    return finish();
  }

  if (name == "stablehlo.select") {
    if (!parseValueUseList(uses)) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!expect(':')) return nullptr;
    if (peek() == '(') {
      if (!parseFunctionType(operandTypes, resultTypes)) return nullptr;
    } else {
      std::vector<Type> ts;
      if (!parseTypeList(ts)) return nullptr;
      if (ts.size() != 2) {
        error("expected the predicate type and the result type");
        return nullptr;
      }
      operandTypes = {ts[0], ts[1], ts[1]};
      resultTypes = {ts[1]};
    }
    return finish();
  }

  if (name == "stablehlo.slice") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    DenseArrayAttr starts, limits, strides;
    if (!expect('[')) return nullptr;
    if (!consume(']')) {
      do {
        int64_t s, l, st = 1;
        if (!parseInt(s) || !expect(':') || !parseInt(l)) return nullptr;
        if (consume(':') && !parseInt(st)) return nullptr;
        starts.values.push_back(s);
        limits.values.push_back(l);
        strides.values.push_back(st);
      } while (consume(','));
      if (!expect(']')) return nullptr;
    }
    op->setAttr("start_indices", starts, true);
    op->setAttr("limit_indices", limits, true);
    op->setAttr("strides", strides, true);
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), 1, operandTypes, resultTypes)) return nullptr;
    return finish();
  }

  if (name == "stablehlo.dot_general") {
    if (!parseValueUseList(uses)) return nullptr;
    std::vector<NamedAttribute> dims;
    auto parseList = [&](std::vector<Attribute>& out) {
      if (!expect('[')) return false;
      if (consume(']')) return true;
      do {
        int64_t v;
        if (!parseInt(v)) return false;
        out.push_back(IntegerAttr{v, "i64"});
      } while (consume(','));
      return expect(']');
    };
    while (consume(',')) {
      skipWs();
      if (consumeKeyword("batching_dims") || consumeKeyword("contracting_dims")) {
        bool batching = std::string_view(p_ - 13, 13) == "batching_dims";
        std::vector<Attribute> lhs, rhs;
        if (!expect('=') || !parseList(lhs) || !expectKeyword("x") || !parseList(rhs)) return nullptr;
        std::string prefix = batching ? "batching_dimensions" : "contracting_dimensions";
        if (!lhs.empty()) dims.emplace_back("lhs_" + prefix, Attribute::makeArray(lhs));
        if (!rhs.empty()) dims.emplace_back("rhs_" + prefix, Attribute::makeArray(rhs));
      } else if (consumeKeyword("precision")) {
        if (!expect('=') || !expect('[')) return nullptr;
        std::vector<Attribute> ps;
        do {
          std::string_view v = parseBareId();
          if (v.empty()) {
            error("expected precision value");
            return nullptr;
          }
          ps.push_back(EnumAttr{"stablehlo", "precision", std::string(v)});
        } while (consume(','));
        if (!expect(']')) return nullptr;
        op->setAttr("precision_config", Attribute::makeArray(std::move(ps)), true);
      } else if (consumeKeyword("algorithm")) {
        if (!expect('=')) return nullptr;
        std::string body;
        if (!captureBalanced(body)) return nullptr;
        op->setAttr("algorithm", OpaqueAttr{"#stablehlo.dot_algorithm" + body}, true);
      } else {
        error("expected 'batching_dims', 'contracting_dims', 'precision' or 'algorithm'");
        return nullptr;
      }
    }
    op->setAttr("dot_dimension_numbers", Attribute::makeStruct("stablehlo.dot", std::move(dims)), true);
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), uses.size(), operandTypes, resultTypes))
      return nullptr;
    return finish();
  }

  if (name == "stablehlo.custom_call") {
    std::string target;
    if (!parseSymbolName(target, "custom call target")) return nullptr;
    op->setAttr("call_target_name", StringAttr{target}, true);
    if (!expect('(') || !parseValueUseList(uses) || !expect(')')) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), uses.size(), operandTypes, resultTypes))
      return nullptr;
    return finish();
  }

  if (name == "stablehlo.while") {
    if (!expect('(')) return nullptr;
    EntryArgs iterArgs;
    std::vector<std::string_view> iterNames;
    if (!consume(')')) {
      do {
        skipWs();
        if (!consume('%')) {
          error("expected iteration argument");
          return nullptr;
        }
        iterNames.emplace_back(parseSuffixId());
        if (!expect('=')) return nullptr;
        ValueUse u;
        if (!parseValueUse(u)) return nullptr;
        uses.push_back(u);
      } while (consume(','));
      if (!expect(')')) return nullptr;
    }
    if (!uses.empty()) {
      if (!expect(':') || !parseTypeList(operandTypes)) return nullptr;
      if (operandTypes.size() != uses.size()) {
        error("expected one type per iteration argument");
        return nullptr;
      }
    }
    for (size_t i = 0; i < iterNames.size(); ++i) iterArgs.emplace_back(iterNames[i], operandTypes[i]);
    if (consumeKeyword("attributes")) {
      std::vector<NamedAttribute> attrs;
      if (!parseAttrDict(attrs)) return nullptr;
      setAttrs(*op, attrs);
    }
    if (!expectKeyword("cond") || !parseRegion(op->addRegion(), &iterArgs)) return nullptr;
    if (!expectKeyword("do") || !parseRegion(op->addRegion(), &iterArgs)) return nullptr;
    resultTypes = operandTypes;
    return finish();
  }

  if (name == "stablehlo.reduce") {
    // `(%a init: %i), (%b init: %j) [applies OP] across dimensions = [..] {attrs} : (..) -> ..`
    std::vector<ValueUse> inputs, inits;
    do {
      ValueUse a, b;
      if (!expect('(') || !parseValueUse(a) || !expectKeyword("init") || !expect(':') || !parseValueUse(b) ||
          !expect(')'))
        return nullptr;
      inputs.push_back(a);
      inits.push_back(b);
    } while (consume(','));
    uses = inputs;
    uses.insert(uses.end(), inits.begin(), inits.end());
    std::string applied;
    if (consumeKeyword("applies")) {
      applied = canonicalOpName(parseBareId());
      if (applied.empty()) {
        error("expected the reducer op name");
        return nullptr;
      }
    }
    if (!expectKeyword("across") || !expectKeyword("dimensions") || !expect('=') || !expect('[')) return nullptr;
    DenseArrayAttr dims;
    if (!consume(']')) {
      do {
        int64_t v;
        if (!parseInt(v)) return nullptr;
        dims.values.push_back(v);
      } while (consume(','));
      if (!expect(']')) return nullptr;
    }
    op->setAttr("dimensions", dims, true);
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), uses.size(), operandTypes, resultTypes))
      return nullptr;
    size_t n = inputs.size();
    Region& body = op->addRegion();
    if (!applied.empty()) {
      // Build the body: one scalar block argument pair per input.
      Block& b = body.addBlock();
      std::vector<Value*> lhs, rhs;
      for (size_t i = 0; i < n; ++i) {
        Type et = Type::tensor({}, operandTypes.size() > n + i ? operandTypes[n + i].elementType : "f32");
        lhs.push_back(b.addArgument(et));
      }
      for (size_t i = 0; i < n; ++i) rhs.push_back(b.addArgument(lhs[i]->type));
      auto inner = std::make_unique<Op>(applied, op->loc());
      for (size_t i = 0; i < n; ++i) {
        inner->addOperand(lhs[i]);
        inner->addOperand(rhs[i]);
      }
      Value* r = inner->addResult(lhs[0]->type);
      b.append(std::move(inner));
      auto ret = std::make_unique<Op>("stablehlo.return", op->loc());
      ret->addOperand(r);
      b.append(std::move(ret));
    } else {
      if (!expectKeyword("reducer")) return nullptr;
      std::vector<ArgDecl> lhs, rhs;
      for (size_t i = 0; i < n; ++i) {
        std::vector<ArgDecl> pair;
        if (!parseArgList(pair, false)) return nullptr;
        if (pair.size() != 2) {
          error("expected two reducer arguments per input");
          return nullptr;
        }
        lhs.push_back(pair[0]);
        rhs.push_back(pair[1]);
      }
      EntryArgs entry;
      for (auto& a : lhs) entry.emplace_back(a.name, a.type);
      for (auto& a : rhs) entry.emplace_back(a.name, a.type);
      if (!parseRegion(body, &entry)) return nullptr;
    }
    return finish();
  }

  if (name == "stablehlo.optimization_barrier") {
    {
      std::vector<NamedAttribute> attrs;
      if (!parseOptionalAttrDict(attrs)) return nullptr;
      setAttrs(*op, attrs);
    }
    if (consume('(')) {
      if (!expect(')')) return nullptr;
    } else if (!parseValueUseList(uses)) {
      return nullptr;
    }
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!uses.empty()) {
      if (!expect(':') || !parseTypeList(operandTypes)) return nullptr;
    }
    resultTypes = operandTypes;
    return finish();
  }

  if (name == "stablehlo.get_tuple_element") {
    ValueUse u;
    if (!parseValueUse(u)) return nullptr;
    uses.push_back(u);
    int64_t idx;
    if (!expect('[') || !parseInt(idx) || !expect(']')) return nullptr;
    op->setAttr("index", IntegerAttr{idx, "i32"}, true);
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), 1, operandTypes, resultTypes)) return nullptr;
    return finish();
  }

  if (name == "stablehlo.tuple") {
    if (!parseValueUseList(uses)) return nullptr;
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    Type t;
    if (!expect(':') || !parseType(t)) return nullptr;
    if (t.kind == Type::Kind::Tuple && t.elements.size() == uses.size()) operandTypes = t.elements;
    resultTypes.push_back(t);
    return finish();
  }

  if (name == "stablehlo.convolution") {
    if (!expect('(') || !parseValueUseList(uses) || !expect(')')) return nullptr;
    if (!expectKeyword("dim_numbers") || !expect('=')) return nullptr;
    skipWs();
    const char* ds = p_;
    // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: three bracket groups.
    for (int i = 0; i < 3; ++i) {
      std::string g;
      if (!captureBalanced(g)) return nullptr;
      if (i == 0 && !consume('x')) {
        error("expected 'x'");
        return nullptr;
      }
      if (i == 1 && !consumeStr("->")) {
        error("expected '->'");
        return nullptr;
      }
    }
    op->setAttr("dimension_numbers", OpaqueAttr{"#stablehlo.conv<" + std::string(ds, p_) + ">"}, true);
    if (consume(',')) {
      if (!expectKeyword("window") || !expect('=') || !expect('{')) return nullptr;
      if (!consume('}')) {
        do {
          std::string_view key = parseBareId();
          if (!expect('=')) return nullptr;
          if (key == "pad") {
            std::string body;
            if (!captureBalanced(body)) return nullptr;
            int rows = 0;
            for (char c : body.substr(1)) rows += c == '[';
            op->setAttr("padding", OpaqueAttr{"dense<" + body + "> : tensor<" + std::to_string(rows) + "x2xi64>"}, true);
            continue;
          }
          DenseArrayAttr a;
          bool boolean = key == "reverse";
          if (boolean) a.elementType = "i1";
          if (!expect('[')) return nullptr;
          if (!consume(']')) {
            do {
              if (consumeKeyword("true")) a.values.push_back(1);
              else if (consumeKeyword("false")) a.values.push_back(0);
              else {
                int64_t v;
                if (!parseInt(v)) return nullptr;
                a.values.push_back(v);
              }
            } while (consume(','));
            if (!expect(']')) return nullptr;
          }
          const char* attr = key == "stride" ? "window_strides"
                             : key == "lhs_dilate" ? "lhs_dilation"
                             : key == "rhs_dilate" ? "rhs_dilation"
                             : key == "reverse" ? "window_reversal"
                                                : nullptr;
          if (!attr) {
            error("unknown convolution window key '" + std::string(key) + "'");
            return nullptr;
          }
          op->setAttr(attr, a, true);
        } while (consume(','));
        if (!expect('}')) return nullptr;
      }
    }
    std::vector<NamedAttribute> attrs;
    if (!parseOptionalAttrDict(attrs)) return nullptr;
    setAttrs(*op, attrs);
    if (!parseTypesForStyle(static_cast<int>(TypeStyle::Functional), uses.size(), operandTypes, resultTypes))
      return nullptr;
    return finish();
  }

  if (name == "chlo.top_k") {
    // `chlo.top_k(%0, k = 3[, is_stable = true]) : T -> (T, tensor<..xi32>)`.
    ValueUse u;
    if (!expect('(') || !parseValueUse(u) || !expect(',') || !expectKeyword("k") || !expect('=')) return nullptr;
    uses.push_back(u);
    int64_t k;
    if (!parseInt(k)) return nullptr;
    op->setAttr("k", IntegerAttr{k, "i64"}, true);
    if (consume(',')) {
      if (!expectKeyword("is_stable") || !expect('=')) return nullptr;
      if (consumeKeyword("true")) op->setAttr("is_stable", BoolAttr{true}, true);
      else if (consumeKeyword("false")) op->setAttr("is_stable", BoolAttr{false}, true);
      else {
        error("expected 'true' or 'false'");
        return nullptr;
      }
    }
    if (!expect(')')) return nullptr;
    return finishWithAttrsAndTypes(TypeStyle::Arrow, 1);
  }

  if (name == "stablehlo.composite") {
    // `stablehlo.composite "my.op" %a, %b {decomposition = @impl, ...} : (..) -> ..`.
    std::string compositeName;
    if (!parseString(compositeName)) return nullptr;
    op->setAttr("name", StringAttr{std::move(compositeName)}, true);
    if (!parseValueUseList(uses)) return nullptr;
    return finishWithAttrsAndTypes(TypeStyle::Functional, uses.size());
  }

  // Simple formats (table-driven) and, for ops we do not know, the common
  // `op %a, %b {attrs} : types` shape.
  if (!parseSimpleOp(*op, uses, operandTypes, resultTypes)) {
    if (!lookupSimpleSyntax(name) && name.rfind("stablehlo.", 0) != 0 && name.rfind("sdy.", 0) != 0 &&
        name.rfind("func.", 0) != 0) {
      std::string n(name);
      error(start, "custom assembly format of '" + n + "' is not known; write this op in MLIR's generic form (\"" +
                       n + "\"(...) : (...) -> ...)");
    }
    return nullptr;
  }
  return finish();
}

}  // namespace shardscope::ir::detail
