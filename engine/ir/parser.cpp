// The MLIR reader: characters, types, attributes (builtin and sdy), generic
// ops, regions and the module. Custom op formats are in custom_op_parser.cpp.
#include "ir/parser.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "ir/op_traits.h"
#include "ir/parser_impl.h"

namespace shardscope::ir {
namespace detail {

Parser::Parser(std::string_view text, const ParseOptions& opts, DiagnosticSink& diags)
    : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), opts_(opts), diags_(diags) {
  // A UTF-8 byte order mark (editors on Windows write one) is no text:
  // columns on the first line count from after it.
  if (text.size() >= 3 && std::memcmp(begin_, "\xEF\xBB\xBF", 3) == 0) begin_ = p_ = begin_ + 3;
  lineStarts_.push_back(begin_);
  for (const char* c = begin_; c < end_;) {
    const void* nl = std::memchr(c, '\n', static_cast<size_t>(end_ - c));
    if (!nl) break;
    c = static_cast<const char*>(nl) + 1;
    lineStarts_.push_back(c);
  }
}

// ---- characters -----------------------------------------------------------

void Parser::skipWsSlow() {
  while (p_ < end_) {
    char c = *p_;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++p_;
    } else if (c == '/' && p_ + 1 < end_ && p_[1] == '/') {
      const void* nl = std::memchr(p_, '\n', static_cast<size_t>(end_ - p_));
      p_ = nl ? static_cast<const char*>(nl) + 1 : end_;
    } else {
      break;
    }
  }
}

bool Parser::expect(char c) {
  if (consume(c)) return true;
  return error(std::string("expected '") + c + "'");
}

bool Parser::expectKeyword(std::string_view s) {
  if (consumeKeyword(s)) return true;
  return error("expected '" + std::string(s) + "'");
}

std::string_view Parser::parseBareId() {
  skipWs();
  if (p_ >= end_ || !isIdStart(*p_)) return {};
  const char* s = p_;
  while (p_ < end_ && isIdChar(*p_)) ++p_;
  return {s, static_cast<size_t>(p_ - s)};
}

std::string_view Parser::parseSuffixId() {
  if (p_ >= end_ || !isSuffixChar(*p_)) return {};
  const char* s = p_;
  if (isDigit(*p_)) {
    while (p_ < end_ && isDigit(*p_)) ++p_;
  } else {
    while (p_ < end_ && isSuffixChar(*p_)) ++p_;
  }
  return {s, static_cast<size_t>(p_ - s)};
}

bool Parser::parseString(std::string& out) {
  skipWs();
  if (p_ >= end_ || *p_ != '"') return error("expected string");
  const char* start = p_++;
  // Most strings have no escapes: take them in one piece.
  for (const char* c = p_; c < end_ && *c != '\n' && *c != '\\'; ++c) {
    if (*c == '"') {
      out.assign(p_, c);
      p_ = c + 1;
      return true;
    }
  }
  out.clear();
  while (true) {
    if (p_ >= end_ || *p_ == '\n') return error(start, "unterminated string literal");
    char c = *p_++;
    if (c == '"') return true;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (p_ >= end_) return error(start, "unterminated string literal");
    char e = *p_++;
    switch (e) {
      case '"': case '\\': out += e; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      default:
        if (isXDigit(e) && p_ < end_ && isXDigit(*p_)) {
          char hex[3] = {e, *p_++, 0};
          out += static_cast<char>(std::strtol(hex, nullptr, 16));
        } else {
          return error(p_ - 2, "unknown escape in string literal");
        }
    }
  }
}

bool Parser::parseStringView(std::string_view& out, std::string& storage) {
  skipWs();
  if (p_ < end_ && *p_ == '"') {
    for (const char* c = p_ + 1; c < end_ && *c != '\n' && *c != '\\'; ++c) {
      if (*c == '"') {
        out = std::string_view(p_ + 1, static_cast<size_t>(c - p_ - 1));
        p_ = c + 1;
        return true;
      }
    }
  }
  if (!parseString(storage)) return false;
  out = storage;
  return true;
}

bool Parser::parseSymbolName(std::string& out, const char* what) {
  skipWs();
  if (!consume('@')) return error(std::string("expected ") + what);
  if (p_ < end_ && *p_ == '"') return parseString(out);
  out = std::string(parseSuffixId());
  if (out.empty()) return error(std::string("expected ") + what);
  return true;
}

bool Parser::parseInt(int64_t& out, bool allowNegative) {
  skipWs();
  const char* s = p_;
  bool neg = false;
  if (allowNegative && p_ < end_ && *p_ == '-') {
    neg = true;
    ++p_;
  }
  if (p_ >= end_ || !isDigit(*p_)) {
    p_ = s;
    return error("expected integer value");
  }
  int base = 10;
  if (p_ + 1 < end_ && p_[0] == '0' && p_[1] == 'x') {
    base = 16;
    p_ += 2;
  }
  const char* digits = p_;
  while (p_ < end_ && isXDigit(*p_) &&
         (base == 16 || isDigit(*p_)))
    ++p_;
  std::string text(digits, p_);
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, base);
  if (errno == ERANGE || v > static_cast<unsigned long long>(LLONG_MAX) + (neg ? 1ull : 0ull))
    return error(s, "integer value too large");
  out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

// ---- diagnostics ----------------------------------------------------------

SourceLoc Parser::locOf(const char* pos) const {
  // Index of the last line start at or before `pos`.
  size_t idx = lastLine_;
  auto startsAfter = [&](size_t i) { return i + 1 < lineStarts_.size() && lineStarts_[i + 1] <= pos; };
  if (idx < lineStarts_.size() && lineStarts_[idx] <= pos) {
    // Forward a few lines at most, then search.
    for (int step = 0; step < 8 && startsAfter(idx); ++step) ++idx;
    if (startsAfter(idx)) {
      auto it = std::upper_bound(lineStarts_.begin() + static_cast<long>(idx), lineStarts_.end(), pos);
      idx = static_cast<size_t>(it - lineStarts_.begin()) - 1;
    }
  } else {
    auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), pos);
    idx = static_cast<size_t>(it - lineStarts_.begin()) - 1;
  }
  lastLine_ = idx;
  const char* ls = lineStarts_[idx];
  return {static_cast<uint32_t>(idx + opts_.firstLine), static_cast<uint32_t>(pos - ls + 1)};
}

bool Parser::reportProgress() {
  opsSinceProgress_ = 0;
  if (opts_.progress(static_cast<size_t>(p_ - begin_), static_cast<size_t>(end_ - begin_)))
    return true;
  return error(p_, kReadCancelled);
}

bool Parser::error(const char* pos, std::string msg) {
  failed_ = true;
  SourceLoc loc = locOf(std::min(pos, end_));
  // The same complaint twice on one line (a bad symbol used in several
  // places of one attribute) says nothing new.
  for (const Diagnostic& d : diags_.all())
    if (d.severity == Severity::Error && d.loc.line == loc.line && d.message == msg) return false;
  diags_.error(loc, std::move(msg));
  return false;
}

void Parser::warning(const char* pos, std::string msg) { diags_.warning(locOf(pos), std::move(msg)); }

// ---- types ----------------------------------------------------------------

const char* Parser::scanBalanced(const char* from) const {
  int depth = 0;
  for (const char* c = from; c < end_; ++c) {
    switch (*c) {
      case '<': case '(': case '[': case '{': ++depth; break;
      case '>': case ')': case ']': case '}':
        if (--depth == 0) return c + 1;
        break;
      case '-':
        if (c + 1 < end_ && c[1] == '>') ++c;
        break;
      case '"':
        for (++c; c < end_ && *c != '"'; ++c)
          if (*c == '\\') ++c;
        break;
      case '\n':
        break;
      default:
        break;
    }
  }
  return nullptr;
}

bool Parser::parseType(Type& out) {
  DepthGuard guard(*this);
  if (!guard.ok) return false;
  skipWs();
  const char* start = p_;
  if (peekStr("tensor<")) {
    if (const Type* known = knownTensorType()) {
      out = *known;
      return true;
    }
    const char* end = scanBalanced(p_ + 6);
    if (end) {
      std::string_view key(p_, static_cast<size_t>(end - p_));
      Type parsed;
      const char* save = p_;
      p_ += 7;
      if (!parseTensorTypeBody(parsed)) return false;
      if (p_ == end) typeCache_.emplace(key, parsed);
      (void)save;
      out = std::move(parsed);
      return true;
    }
  }
  out = Type();
  if (consumeStr("tensor<")) return parseTensorTypeBody(out);
  return parseNonTensorType(out, start);
}

bool Parser::parseTensorTypeBody(Type& out) {
  {
    out.kind = Type::Kind::Tensor;
    if (consume('*')) {
      out.unranked = true;
      if (!consume('x')) return error("expected 'x' in unranked tensor type");
    } else {
      while (true) {
        skipWs();
        if (p_ < end_ && *p_ == '?') {
          ++p_;
          out.shape.push_back(Type::kDynamic);
        } else if (p_ < end_ && isDigit(*p_)) {
          int64_t d = 0;
          const char* ds = p_;
          while (p_ < end_ && isDigit(*p_)) {
            d = d * 10 + (*p_ - '0');
            if (d > (int64_t(1) << 50)) return error(ds, "dimension size too large");
            ++p_;
          }
          out.shape.push_back(d);
        } else {
          break;
        }
        if (p_ >= end_ || *p_ != 'x') return error("expected 'x' in dimension list");
        ++p_;
      }
    }
    Type elem;
    if (!parseType(elem)) return false;
    out.elementType = elem.str();
    if (consume(',')) {
      skipWs();
      const char* es = p_;
      int depth = 0;
      while (p_ < end_) {
        char c = *p_;
        if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
        if (c == '>' || c == ')' || c == ']' || c == '}') {
          if (depth == 0) break;
          --depth;
        }
        if (c == '"') {
          std::string tmp;
          if (!parseString(tmp)) return false;
          continue;
        }
        ++p_;
      }
      out.encoding.assign(es, p_);
      while (!out.encoding.empty() && std::isspace(static_cast<unsigned char>(out.encoding.back())))
        out.encoding.pop_back();
    }
    return expect('>');
  }
}

bool Parser::parseNonTensorType(Type& out, const char* start) {
  if (consumeStr("tuple<")) {
    out.kind = Type::Kind::Tuple;
    if (consume('>')) return true;
    if (!parseTypeList(out.elements)) return false;
    return expect('>');
  }
  if (peek() == '(') {
    std::vector<Type> ins, outs;
    if (!parseFunctionType(ins, outs)) return false;
    out = Type::function(std::move(ins), std::move(outs));
    return true;
  }
  if (peek() == '!') {
    ++p_;
    std::string_view id = parseSuffixId();
    if (id.empty()) return error(start, "expected dialect type name after '!'");
    if (id == "stablehlo.token") {
      out.kind = Type::Kind::Token;
      return true;
    }
    std::string text = "!" + std::string(id);
    if (p_ < end_ && *p_ == '<') {
      std::string body;
      if (!captureBalanced(body)) return false;
      text += body;
    } else if (id.find('.') == std::string_view::npos) {
      auto it = typeAliases_.find(std::string(id));
      if (it == typeAliases_.end()) return error(start, "undefined symbol alias id '" + std::string(id) + "'");
      out = it->second;
      return true;
    }
    out = Type::other(std::move(text));
    return true;
  }
  std::string_view id = parseBareId();
  if (id.empty()) return error(start, "expected non-function type");
  std::string text(id);
  if ((id == "complex" || id == "vector" || id == "memref") && p_ < end_ && *p_ == '<') {
    std::string body;
    if (!captureBalanced(body)) return false;
    text += body;
  }
  out = Type::other(std::move(text));
  return true;
}

bool Parser::parseTypeList(std::vector<Type>& out) {
  do {
    Type t;
    if (!parseType(t)) return false;
    out.push_back(std::move(t));
  } while (consume(','));
  return true;
}

bool Parser::parseResultTypes(std::vector<Type>& outs) {
  if (peek() == '(') {
    ++p_;
    if (consume(')')) return true;
    if (!parseTypeList(outs)) return false;
    return expect(')');
  }
  Type t;
  if (!parseType(t)) return false;
  outs.push_back(std::move(t));
  return true;
}

const Type* Parser::knownTensorType() {
  // The type read last first: the text starting with its spelling (which
  // closes its own brackets) is that type, no scan or hash needed. Operand
  // and result types of an op are most often one type.
  size_t n = lastTensorSpelling_.size();
  if (lastTensorType_ && static_cast<size_t>(end_ - p_) >= n &&
      std::memcmp(p_, lastTensorSpelling_.data(), n) == 0) {
    p_ += n;
    return lastTensorType_;
  }
  const char* end = scanBalanced(p_ + 6);
  if (!end) return nullptr;
  std::string_view key(p_, static_cast<size_t>(end - p_));
  auto it = typeCache_.find(key);
  if (it == typeCache_.end()) return nullptr;
  lastTensorSpelling_ = key;
  lastTensorType_ = &it->second;
  p_ = end;
  return lastTensorType_;
}

bool Parser::parseTypeRef(const Type*& out) {
  skipWs();
  // parseType's depth check first: at the limit it reports the error.
  if (depth_ < kMaxDepth && peekStr("tensor<")) {
    if (const Type* known = knownTensorType()) {
      out = known;
      return true;
    }
  }
  const char* start = p_;
  Type t;
  if (!parseType(t)) return false;
  auto it = typeCache_.find(std::string_view(start, static_cast<size_t>(p_ - start)));
  out = it != typeCache_.end() ? &it->second : &typeStore_.emplace_back(std::move(t));
  return true;
}

bool Parser::parseFunctionTypeRefs(std::vector<const Type*>& ins, std::vector<Type>& outs) {
  // As parseFunctionType.
  if (!expect('(')) return false;
  if (!consume(')')) {
    do {
      const Type* t = nullptr;
      if (!parseTypeRef(t)) return false;
      ins.push_back(t);
    } while (consume(','));
    if (!expect(')')) return false;
  }
  if (!consumeStr("->")) return error("expected '->' in function type");
  return parseResultTypes(outs);
}

bool Parser::parseFunctionType(std::vector<Type>& ins, std::vector<Type>& outs) {
  if (!expect('(')) return false;
  if (!consume(')')) {
    if (!parseTypeList(ins) || !expect(')')) return false;
  }
  if (!consumeStr("->")) return error("expected '->' in function type");
  return parseResultTypes(outs);
}

// ---- attributes -----------------------------------------------------------

bool Parser::captureBalanced(std::string& out) {
  skipWs();
  const char* start = p_;
  std::vector<char> stack;
  do {
    if (p_ >= end_) return error(start, "unbalanced brackets: reached the end of the input");
    char c = *p_;
    if (c == '"') {
      std::string tmp;
      if (!parseString(tmp)) return false;
      continue;
    }
    if (c == '-' && p_ + 1 < end_ && p_[1] == '>') {
      p_ += 2;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      stack.push_back(c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (stack.empty() || stack.back() != c) return error(p_, std::string("unexpected '") + c + "'");
      stack.pop_back();
    }
    ++p_;
  } while (!stack.empty());
  out.assign(start, p_);
  return true;
}

bool Parser::checkDenseNumbers(const std::string& body) {
  size_t bad = malformedDenseNumber(body);
  if (bad == std::string::npos) return true;
  // The body was captured as written, ending here.
  return error(p_ - body.size() + bad, "expected ',' or '>' after a number in the dense literal");
}

bool Parser::parseOptionalAttrDict(std::vector<NamedAttribute>& out) {
  if (peek() != '{') return true;
  return parseAttrDict(out);
}

bool Parser::parseAttrDict(std::vector<NamedAttribute>& out) {
  if (!expect('{')) return false;
  if (consume('}')) return true;
  do {
    std::string name;
    skipWs();
    const char* npos = p_;
    if (peek() == '"') {
      if (!parseString(name)) return false;
    } else {
      name = std::string(parseBareId());
      if (name.empty()) return error("expected attribute name");
    }
    for (const auto& e : out)
      if (e.first == name) return error(npos, "duplicate key '" + name + "' in dictionary attribute");
    Attribute value;  // unit
    if (consume('=')) {
      const char* valueBegin = pos();
      if (!parseAttribute(value)) return false;
      noteAttributeSite(name, valueBegin);
    }
    out.emplace_back(std::move(name), std::move(value));
  } while (consume(','));
  return expect('}');
}

namespace {
bool startsTypeKeyword(std::string_view id) {
  if (id == "index" || id == "none" || id == "bf16" || id == "tensor" || id == "tuple" ||
      id == "complex" || id == "vector" || id == "memref")
    return true;
  if (id.size() >= 2 && (id[0] == 'i' || id[0] == 'f') &&
      std::all_of(id.begin() + 1, id.end(), [](char c) { return isDigit(c); }))
    return true;
  if (id.size() >= 3 && (id.substr(0, 2) == "ui" || id.substr(0, 2) == "si") &&
      std::all_of(id.begin() + 2, id.end(), [](char c) { return isDigit(c); }))
    return true;
  return id.substr(0, 2) == "f8" || id == "tf32";
}
}  // namespace

void Parser::noteAttributeSite(std::string_view name, const char* valueBegin) {
  if (!opts_.attributeSites || opStarts_.empty() || attrDepth_ != 0) return;
  std::string key = sitePrefix_;
  key += name;
  opts_.attributeSites->add(locOf(opStarts_.back()), std::move(key),
                            static_cast<size_t>(valueBegin - begin_),
                            static_cast<size_t>(p_ - begin_), locOf(valueBegin));
}

template <typename Parse>
bool Parser::parseCached(Attribute& out, const char* from, const char* end, const Parse& parse) {
  std::string_view key(from, static_cast<size_t>(end - from));
  auto it = attrCache_.find(key);
  if (it != attrCache_.end()) {
    out = it->second;
    p_ = end;
    return true;
  }
  if (!parse()) return false;
  if (p_ == end) attrCache_.emplace(key, out);
  return true;
}

bool Parser::parseAttribute(Attribute& out) {
  DepthGuard guard(*this);
  struct Nesting {
    int& depth;
    explicit Nesting(int& d) : depth(++d) {}
    ~Nesting() { --depth; }
  } nesting(attrDepth_);
  if (!guard.ok) return false;
  skipWs();
  const char* start = p_;
  if (p_ >= end_) return error("expected attribute value");
  char c = *p_;
  if (c == '#') return parseDialectAttribute(out);
  if (c == '"') {
    std::string s;
    if (!parseString(s)) return false;
    if (consume(':')) {  // typed string: keep as text
      Type t;
      if (!parseType(t)) return false;
      out = OpaqueAttr{quoteString(s) + " : " + t.str()};
      return true;
    }
    out = StringAttr{std::move(s)};
    return true;
  }
  if (c == '@') {
    SymbolRefAttr ref;
    do {
      skipWs();
      if (p_ >= end_ || *p_ != '@') return error("expected symbol reference");
      ++p_;
      if (p_ < end_ && *p_ == '"') {
        std::string s;
        if (!parseString(s)) return false;
        ref.path.push_back(s);
      } else {
        std::string_view id = parseSuffixId();
        if (id.empty()) return error("expected symbol name");
        ref.path.emplace_back(id);
      }
    } while (consumeStr("::"));
    out = std::move(ref);
    return true;
  }
  if (c == '[') {
    ++p_;
    std::vector<Attribute> elems;
    if (!consume(']')) {
      do {
        Attribute e;
        if (!parseAttribute(e)) return false;
        elems.push_back(std::move(e));
      } while (consume(','));
      if (!expect(']')) return false;
    }
    out = Attribute::makeArray(std::move(elems));
    return true;
  }
  if (c == '{') {
    std::vector<NamedAttribute> entries;
    if (!parseAttrDict(entries)) return false;
    out = Attribute::makeDict(std::move(entries));
    return true;
  }
  if (c == '-' || isDigit(c)) {
    const char* s = p_;
    if (*p_ == '-') ++p_;
    bool isFloat = false;
    if (p_ + 1 < end_ && p_[0] == '0' && p_[1] == 'x') {
      p_ += 2;
      while (p_ < end_ && isXDigit(*p_)) ++p_;
    } else {
      while (p_ < end_ && (isDigit(*p_) || *p_ == '.' || *p_ == 'e' ||
                           *p_ == 'E' || ((*p_ == '+' || *p_ == '-') && (p_[-1] == 'e' || p_[-1] == 'E')))) {
        if (*p_ == '.' || *p_ == 'e' || *p_ == 'E') isFloat = true;
        ++p_;
      }
    }
    std::string text(s, p_);
    std::string type;
    if (consume(':')) {
      Type t;
      if (!parseType(t)) return false;
      type = t.str();
    }
    bool floatType = !type.empty() && (type[0] == 'f' || type == "bf16" || type == "tf32");
    if (isFloat || floatType) {
      FloatAttr f;
      f.value = std::strtod(text.c_str(), nullptr);
      if (text.find("0x") != std::string::npos) {
        out = OpaqueAttr{text + (type.empty() ? "" : " : " + type)};
        return true;
      }
      f.type = type.empty() ? "f64" : type;
      out = std::move(f);
      return true;
    }
    errno = 0;
    long long v = std::strtoll(text.c_str(), nullptr, 0);
    if (errno == ERANGE) {
      // Out of int64 range (e.g. a ui64 bound): keep the text.
      out = OpaqueAttr{text + (type.empty() ? "" : " : " + type)};
      return true;
    }
    IntegerAttr i;
    i.value = v;
    i.type = type.empty() ? "i64" : type;
    if (i.type == "i1") {
      out = BoolAttr{v != 0};
      return true;
    }
    out = std::move(i);
    return true;
  }
  if (c == '!' || c == '(') {
    Type t;
    if (!parseType(t)) return false;
    out = TypeAttr{std::move(t)};
    return true;
  }
  // Keywords.
  const char* kwStart = p_;
  std::string_view id = parseBareId();
  if (id.empty()) return error(start, "expected attribute value");
  if (id == "true" || id == "false") {
    out = BoolAttr{id == "true"};
    return true;
  }
  if (id == "unit") {
    out = UnitAttr{};
    return true;
  }
  if (id == "array" && p_ < end_ && *p_ == '<') {
    // Dense arrays repeat as much as shardings (`dims = [0, 1]` on every
    // broadcast): share them by spelling too.
    if (const char* end = scanBalanced(p_))
      return parseCached(out, kwStart, end, [&] { return parseDenseArray(out, kwStart); });
    return parseDenseArray(out, kwStart);
  }
  if (id == "dense" && p_ < end_ && *p_ == '<') {
    // A constant's literal and tensor type repeat as much as shardings
    // (`dense<0.000000e+00> : tensor<f32>` in every layer of a model), and
    // making its canonical text is the costly part: share it by spelling.
    if (const char* end = denseLiteralEnd(p_))
      return parseCached(out, kwStart, end, [&] { return parseElementsLiteral(out, id, kwStart); });
  }
  if ((id == "dense" || id == "sparse" || id == "dense_resource" || id == "opaque" ||
       id == "affine_map" || id == "affine_set" || id == "strided" || id == "loc" ||
       id == "distinct") &&
      p_ < end_ && (*p_ == '<' || *p_ == '(' || *p_ == '[')) {
    return parseElementsLiteral(out, id, kwStart);
  }
  if (startsTypeKeyword(id)) {
    p_ = kwStart;
    Type t;
    if (!parseType(t)) return false;
    out = TypeAttr{std::move(t)};
    return true;
  }
  return error(start, "expected attribute value");
}

const char* Parser::denseLiteralEnd(const char* from) const {
  const char* bodyEnd = scanBalanced(from);
  if (!bodyEnd) return nullptr;
  // ` : tensor<...>`, on one line as writers put it.
  const char* q = bodyEnd;
  while (q < end_ && *q == ' ') ++q;
  if (q + 1 >= end_ || *q != ':' || q[1] == ':') return nullptr;
  ++q;
  while (q < end_ && *q == ' ') ++q;
  constexpr std::string_view kTensor = "tensor<";
  if (static_cast<size_t>(end_ - q) < kTensor.size() || std::string_view(q, kTensor.size()) != kTensor)
    return nullptr;
  return scanBalanced(q + kTensor.size() - 1);
}

// `dense<...>`, `sparse<...>`, ... from the bracket after the keyword `id`
// (at `kwStart`), kept as canonical text.
bool Parser::parseElementsLiteral(Attribute& out, std::string_view id, const char* kwStart) {
  std::string text(id);
  std::string body;
  if (!captureBalanced(body)) return false;
  if (id == "dense" && !checkDenseNumbers(body)) return false;
  text += body;
  if (id == "distinct" && p_ < end_ && *p_ == '<') {
    if (!captureBalanced(body)) return false;
    text += body;
  }
  if (id != "loc" && id != "affine_map" && id != "affine_set" && peek() == ':' &&
      !(p_ + 1 < end_ && p_[1] == ':')) {
    ++p_;
    const char* typePos = pos();
    Type t;
    if (!parseType(t)) return false;
    if ((id == "dense" || id == "sparse") && t.isTensor() && !t.hasStaticShape())
      return error(typePos, "elements literal type must have static shape");
    if (id == "dense" && t.isTensor()) {
      if (std::string problem = denseLiteralProblem(body, t.shape, t.elementType); !problem.empty())
        return error(kwStart, problem);
      text = "dense" + canonicalDenseBody(body, t.elementType);
    }
    text += " : " + t.str();
  }
  out = OpaqueAttr{std::move(text)};
  return true;
}

// `array<T: v, ...>` from `<`, with `kwStart` at the keyword.
bool Parser::parseDenseArray(Attribute& out, const char* kwStart) {
  ++p_;
  DenseArrayAttr a;
  Type et;
  if (!parseType(et)) return false;
  a.elementType = et.str();
  if (consume(':')) {
    do {
      skipWs();
      if (peekKeyword("true") || peekKeyword("false")) {
        a.values.push_back(consumeKeyword("true") ? 1 : (consumeKeyword("false"), 0));
        continue;
      }
      if (a.elementType[0] == 'f') {
        // Float dense arrays are rare here: keep the whole thing as text.
        p_ = kwStart;
        std::string text = "array";
        p_ += 5;
        std::string body;
        if (!captureBalanced(body)) return false;
        out = OpaqueAttr{text + body};
        return true;
      }
      int64_t v;
      if (!parseInt(v)) return false;
      a.values.push_back(v);
    } while (consume(','));
  }
  if (!expect('>')) return false;
  out = std::move(a);
  return true;
}

bool Parser::parseDialectAttribute(Attribute& out) {
  const char* start = pos();
  ++p_;  // '#'
  std::string_view id = parseSuffixId();
  if (id.empty()) return error(start, "expected attribute alias or dialect attribute name after '#'");
  // Seen before with the same spelling: share it.
  const char* end = (p_ < end_ && *p_ == '<') ? scanBalanced(p_) : nullptr;
  if (end) return parseCached(out, start, end, [&] { return parseDialectAttributeBody(out, start, id); });
  return parseDialectAttributeBody(out, start, id);
}

bool Parser::parseDialectAttributeBody(Attribute& out, const char* start, std::string_view id) {
  std::string name(id);
  if (p_ >= end_ || *p_ != '<') {
    auto it = attrAliases_.find(name);
    if (it != attrAliases_.end()) {
      out = it->second;
      return true;
    }
    // A location alias is an attribute too (`loc(...)`, opaque here); made
    // when used so, since a module with locations defines one per op.
    if (const Location* loc = locAliases_.find(id)) {
      out = OpaqueAttr{"loc(" + locationText(*loc) + ")"};
      return true;
    }
    return error(start, "undefined symbol alias id '" + name + "'");
  }
  if (name == "sdy.sharding") {
    TensorSharding s;
    if (!parseTensorShardingBody(s)) return false;
    out = std::move(s);
    return true;
  }
  if (name == "sdy.sharding_per_value") {
    TensorShardingPerValue s;
    if (!parseShardingPerValueBody(s)) return false;
    out = std::move(s);
    return true;
  }
  if (name == "sdy.mesh") {
    Mesh m;
    if (!parseMeshBody(m)) return false;
    out = std::move(m);
    return true;
  }
  if (name == "sdy.op_sharding_rule") {
    OpShardingRule r;
    if (!parseOpShardingRuleBody(r)) return false;
    out = std::move(r);
    return true;
  }
  if (name == "sdy.propagation_edges") {
    PropagationEdgesAttr edges;
    if (!parsePropagationEdgesBody(edges)) return false;
    out = std::move(edges);
    return true;
  }
  if (name == "sdy.manual_axes") {
    ++p_;
    ManualAxesAttr m;
    if (!expect('[') && !failed_) return false;
    if (!consume(']')) {
      do {
        std::string s;
        if (!parseString(s)) return false;
        m.axes.push_back(s);
      } while (consume(','));
      if (!expect(']')) return false;
    }
    if (!expect('>')) return false;
    out = std::move(m);
    return true;
  }
  // `#dialect<kind VALUE>`: an enum.
  const char* bodyStart = p_;
  if (name.find('.') == std::string::npos) {
    ++p_;
    std::string_view kind = parseBareId();
    skipWs();
    std::string_view value = parseBareId();
    if (!kind.empty() && !value.empty() && consume('>')) {
      out = EnumAttr{name, std::string(kind), std::string(value)};
      return true;
    }
    p_ = bodyStart;
  } else {
    // `#dialect.name<key = value, ...>`: a struct of named parameters.
    ++p_;
    std::vector<NamedAttribute> params;
    bool ok = true;
    if (!consume('>')) {
      size_t diagCount = diags_.all().size();
      bool savedFailed = failed_;
      do {
        std::string_view key = parseBareId();
        if (key.empty() || !consume('=')) {
          ok = false;
          break;
        }
        Attribute v;
        skipWs();
        // Enum-valued parameters are bare words (`transpose_a = TRANSPOSE`).
        const char* vs = p_;
        std::string_view word = parseBareId();
        if (!word.empty() && word != "true" && word != "false" && (peek() == ',' || peek() == '>')) {
          v = EnumAttr{"", "", std::string(word)};
        } else {
          p_ = vs;
          if (!parseAttribute(v)) {
            ok = false;
            break;
          }
        }
        params.emplace_back(std::string(key), std::move(v));
      } while (consume(','));
      if (ok && !consume('>')) ok = false;
      if (!ok) {
        // Not a parameter list: forget errors from the attempt, keep the text.
        diags_.truncate(diagCount);
        failed_ = savedFailed;
      }
    }
    if (ok) {
      out = Attribute::makeStruct(name, std::move(params));
      return true;
    }
    p_ = bodyStart;
  }
  std::string body;
  if (!captureBalanced(body)) return false;
  out = OpaqueAttr{"#" + name + body};
  return true;
}

// ---- sdy attributes -------------------------------------------------------

bool Parser::parseMeshBody(Mesh& out) {
  if (!expect('<')) return false;
  const char* axesPos = pos();
  auto failAxes = [&] {
    return error(axesPos,
                 "failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`");
  };
  if (!expect('[')) return failAxes();
  if (!consume(']')) {
    do {
      MeshAxis axis;
      if (!parseString(axis.name)) return failAxes();
      if (!expect('=')) return failAxes();
      if (!parseInt(axis.size)) return failAxes();
      out.axes.push_back(std::move(axis));
    } while (consume(','));
    if (!expect(']')) return failAxes();
  }
  if (consume(',')) {
    if (!expectKeyword("device_ids") || !expect('=') || !expect('[')) return false;
    if (!consume(']')) {
      do {
        int64_t id;
        if (!parseInt(id)) return false;
        out.deviceIds.push_back(id);
      } while (consume(','));
      if (!expect(']')) return false;
    }
  }
  return expect('>');
}

bool Parser::parseMeshRef(MeshRef& out) {
  skipWs();
  const char* start = p_;
  if (consume('@')) {
    std::string_view id = parseSuffixId();
    if (id.empty()) return error(start, "expected mesh symbol name");
    out.name = std::string(id);
    return true;
  }
  if (consumeKeyword("mesh")) {
    Mesh m;
    if (!parseMeshBody(m)) return false;
    out.inlineMesh = std::move(m);
    return true;
  }
  if (peek() == '#') {
    Attribute a;
    if (!parseDialectAttribute(a)) return false;
    if (auto m = a.as<Mesh>()) {
      out.inlineMesh = *m;
      return true;
    }
    return error(start, "expected a mesh attribute");
  }
  return error(start, "expected a mesh symbol name or an inlined mesh");
}

bool Parser::parseAxisRef(AxisRef& out) {
  skipWs();
  if (p_ >= end_ || *p_ != '"') {
    error("expected string");
    return error("failed to parse Sdy_AxisRef parameter 'name' which is to be a `::llvm::StringRef`");
  }
  if (!parseString(out.name)) return false;
  if (consume(':')) {
    SubAxisInfo sub;
    if (!expect('(') || !parseInt(sub.preSize) || !expect(')') || !parseInt(sub.size))
      return error("failed to parse Sdy_AxisRef parameter 'sub_axis_info'");
    out.subAxis = sub;
  }
  return true;
}

bool Parser::parseAxisList(AxisRefList& out) {
  if (!expect('{')) return false;
  if (consume('}')) return true;
  do {
    AxisRef a;
    if (!parseAxisRef(a))
      return error("failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`");
    out.push_back(std::move(a));
  } while (consume(','));
  return expect('}');
}

// `word` as MLIR's lexer reads it before a `-` (`step-2`, `operand-1`):
// an identifier does not run on into the minus.
bool Parser::consumeWordBeforeMinus(std::string_view word) {
  if (!peekStr(word)) return false;
  const char* after = p_ + word.size();
  if (after < end_ && isIdChar(*after)) return false;
  p_ = after;
  return true;
}

// `operand-1` / `result-0` (the index may be written negative; the op's
// verifier rejects it then).
bool Parser::parseEdgeValueRef(EdgeValueRef& out) {
  skipWs();
  const char* start = p_;
  if (consumeWordBeforeMinus("operand")) {
    out.kind = EdgeValueRef::Kind::Operand;
  } else if (consumeWordBeforeMinus("result")) {
    out.kind = EdgeValueRef::Kind::Result;
  } else {
    error(start, "expected one of [operand, result] for edge node type enum");
    return error(start, "failed to parse Sdy_EdgeValueRef parameter 'type' which is to be a "
                        "`::mlir::sdy::EdgeNodeType`");
  }
  return expect('-') && parseInt(out.index);
}

// `<[{step-N = [{AXIS = SOURCE -> [TARGET, ...]}, ...]}, ...]>`, checked
// as MLIR checks the attribute when it builds it (the error at the `<`).
bool Parser::parsePropagationEdgesBody(PropagationEdgesAttr& out) {
  const char* start = pos();
  if (!expect('<') || !expect('[')) return false;
  if (!consume(']')) {
    do {
      PropagationStepEdges step;
      if (!expect('{')) return false;
      if (!consumeWordBeforeMinus("step")) return error("expected 'step'");
      if (!expect('-') || !parseInt(step.stepIndex) ||
          !expect('=') || !expect('['))
        return false;
      if (!consume(']')) {
        do {
          AxisPropagationEdges entry;
          if (!expect('{') || !parseAxisRef(entry.axis) || !expect('=') ||
              !parseEdgeValueRef(entry.source))
            return false;
          skipWs();
          if (!consumeStr("->")) return error("expected '->'");
          if (!expect('[')) return false;
          if (!consume(']')) {
            do {
              EdgeValueRef target;
              if (!parseEdgeValueRef(target)) return false;
              entry.targets.push_back(target);
            } while (consume(','));
            if (!expect(']')) return false;
          }
          if (!expect('}')) return false;
          step.axisEntries.push_back(std::move(entry));
        } while (consume(','));
        if (!expect(']')) return false;
      }
      if (!expect('}')) return false;
      out.steps.push_back(std::move(step));
    } while (consume(','));
    if (!expect(']')) return false;
  }
  if (!expect('>')) return false;
  if (std::string problem = out.problem(); !problem.empty()) return error(start, problem);
  return true;
}

bool Parser::parseAllToAllParams(AllToAllParamsAttr& out) {
  if (!expect('[')) return false;
  if (consume(']')) return true;
  do {
    AllToAllParam param;
    if (!parseAxisList(param.axes) || !expect(':') || !parseInt(param.srcDim) ||
        !consumeStr("->") || !parseInt(param.tgtDim))
      return failed() ? false : error("expected all-to-all parameter `{axes}: src->tgt`");
    out.params.push_back(std::move(param));
  } while (consume(','));
  return expect(']');
}

bool Parser::parseDimSharding(DimensionSharding& out) {
  if (!expect('{')) return false;
  out.closed = true;
  if (consume('?')) {
    out.closed = false;
  } else if (peek() != '}') {
    do {
      if (consume('?')) {
        out.closed = false;
        break;
      }
      AxisRef a;
      if (!parseAxisRef(a)) {
        return error("failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`");
      }
      out.axes.push_back(std::move(a));
    } while (consume(','));
  }
  if (!expect('}')) return false;
  // Priority suffix `p<N>` directly after the brace.
  if (p_ < end_ && *p_ == 'p') {
    const char* ps = p_;
    ++p_;
    const char* ds = p_;
    while (p_ < end_ && isSuffixChar(*p_)) ++p_;
    std::string digits(ds, p_);
    bool allDigits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
      return isDigit(c);
    });
    if (!allDigits)
      return error(ps, "expecting priority in format 'p<number>', got: " + std::string(ps, p_));
    if (digits.size() > 1 && digits[0] == '0')
      return error(ps,
                   "priorities with leading zeros are not allowed, got: " + std::string(ps, p_));
    errno = 0;
    unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
    if (errno == ERANGE || v > static_cast<unsigned long long>(LLONG_MAX))
      return error(ps, "expecting integer priority, got: " + std::string(ps, p_));
    out.priority = static_cast<int64_t>(v);
  }
  return true;
}

bool Parser::parseTensorShardingBody(TensorSharding& out) {
  if (!expect('<')) return false;
  if (!parseMeshRef(out.mesh)) return false;
  if (!expect(',')) return false;
  const char* dimsPos = pos();
  auto failDims = [&] {
    return error(dimsPos,
                 "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
                 "`::llvm::ArrayRef<DimensionShardingAttr>`");
  };
  if (!expect('[')) return failDims();
  if (!consume(']')) {
    do {
      DimensionSharding d;
      if (!parseDimSharding(d)) return failDims();
      out.dims.push_back(std::move(d));
    } while (consume(','));
    if (!expect(']')) return failDims();
  }
  // `replicated=...` and `unreduced=...` may come in either order; a list that
  // is still empty may be given (again).
  while (consume(',')) {
    skipWs();
    const char* kp = p_;
    bool replicated = out.replicated.empty() && consumeKeyword("replicated");
    bool unreduced = !replicated && out.unreduced.empty() && consumeKeyword("unreduced");
    if (!replicated && !unreduced) {
      return error(kp, "failed to parse Sdy_TensorSharding, expected valid named axis list after comma");
    }
    std::string param = replicated ? "replicated_axes" : "unreduced_axes";
    AxisRefList& list = replicated ? out.replicated : out.unreduced;
    bool ok = true;
    if (replicated) {
      ok = expect('=');
    } else {
      // `unreduced{...}`, `unreduced={...}` or `unreduced=KIND{...}` with
      // KIND one of sum (the default), max, min.
      out.unreducedReduction = "sum";
      if (consume('=')) {
        skipWs();
        for (std::string_view kind : {"sum", "max", "min"}) {
          if (consumeKeyword(kind)) {
            out.unreducedReduction = std::string(kind);
            break;
          }
        }
      }
    }
    if (!ok || !parseAxisList(list))
      return error(kp, "failed to parse Sdy_TensorSharding parameter '" + param +
                           "' which is to be a `::llvm::ArrayRef<AxisRefAttr>`");
  }
  return expect('>');
}

bool Parser::parseShardingList(TensorShardingPerValue& out) {
  const char* start = pos();
  auto fail = [&] {
    return error(start,
                 "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which is to be a "
                 "`::llvm::ArrayRef<TensorShardingAttr>`");
  };
  if (!expect('[')) return fail();
  if (consume(']')) return true;
  do {
    TensorSharding s;
    // An element may be spelled in full (`#sdy.sharding<@m, [...]>`), as MLIR
    // accepts any attribute of the element's kind there.
    if (peekStr("#sdy.sharding<")) consumeStr("#sdy.sharding");
    if (!parseTensorShardingBody(s)) return fail();
    out.shardings.push_back(std::move(s));
  } while (consume(','));
  if (!expect(']')) return fail();
  return true;
}

bool Parser::parseShardingPerValueBody(TensorShardingPerValue& out) {
  if (!expect('<')) return false;
  if (!parseShardingList(out)) return false;
  return expect('>');
}

// Factor symbols: i..z for 0..17, then z_1, z_2, ... for 18, 19, ...
bool Parser::parseFactorIndex(int64_t& out) {
  skipWs();
  if (p_ >= end_) return error("expecting symbol from 'i' to 'z'. Received: ''");
  char c = *p_;
  if (c < 'i' || c > 'z') return error(std::string("expecting symbol from 'i' to 'z'. Received: '") + c + "'");
  ++p_;
  if (c != 'z' || p_ >= end_ || *p_ != '_') {
    out = c - 'i';
    return true;
  }
  ++p_;
  const char* ds = p_;
  while (p_ < end_ && isDigit(*p_)) ++p_;
  std::string digits(ds, p_);
  if (digits.empty()) return error(ds, "expecting integer after 'z_'. Received: 'z_'");
  if (digits[0] == '0') return error(ds, "expecting positive integer without leading zeros. Received: '" + digits + "'");
  errno = 0;
  unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || v > static_cast<unsigned long long>(LLONG_MAX)) {
    // Reported, but parsing goes on so the iota check can report too.
    error(ds, "expecting symbol index <=2^63-1. Received: '" + digits + "'");
    out = LLONG_MAX;
    return true;
  }
  out = v > static_cast<unsigned long long>(LLONG_MAX - 17) ? LLONG_MAX : static_cast<int64_t>(v) + ('z' - 'i');
  return true;
}

bool Parser::parseFactorMappings(std::vector<TensorFactorMapping>& out,
                                 std::vector<std::pair<const char*, int64_t>>& used) {
  if (!expect('(')) return false;
  do {
    TensorFactorMapping tm;
    if (!expect('[')) return false;
    if (!consume(']')) {
      auto failDims = [&] { return error("failed to parse Sdy_TensorMapping parameter 'dim_mappings'"); };
      do {
        std::vector<int64_t> factors;
        skipWs();
        // A dimension is a run of factor symbols (`ij`, `iz_1`); `[i,]` has an empty one.
        while (p_ < end_ && *p_ != ',' && *p_ != ']' && *p_ != ' ' && *p_ != '\n') {
          const char* fp = p_;
          int64_t f;
          if (!parseFactorIndex(f)) return failDims();
          used.emplace_back(fp, f);
          factors.push_back(f);
        }
        tm.dims.push_back(std::move(factors));
      } while (consume(','));
      if (!expect(']')) return false;
    }
    out.push_back(std::move(tm));
  } while (consume(','));
  return expect(')');
}

bool Parser::parseFactorSet(std::vector<int64_t>& out) {
  if (!expect('{')) return false;
  if (consume('}')) return true;
  do {
    int64_t f;
    if (!parseFactorIndex(f)) return false;
    out.push_back(f);
  } while (consume(','));
  return expect('}');
}

bool Parser::parseOpShardingRuleBody(OpShardingRule& out) {
  if (!expect('<')) return false;
  std::vector<std::pair<const char*, int64_t>> used;
  const char* operandsPos = pos();
  if (!parseFactorMappings(out.operands, used))
    return error(operandsPos, "failed to parse Sdy_OpShardingRule parameter 'operand_mappings'");
  if (!consumeStr("->")) return error("expected '->'");
  const char* resultsPos = pos();
  if (!parseFactorMappings(out.results, used))
    return error(resultsPos, "failed to parse Sdy_OpShardingRule parameter 'result_mappings'");
  if (peek() == '{') {
    ++p_;
    int64_t expected = 0;
    if (!consume('}')) {
      do {
        skipWs();
        const char* fp = p_;
        int64_t f;
        if (!parseFactorIndex(f)) return false;
        if (f != expected) {
          return error(fp, "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, ...}). "
                           "Expecting factor index symbol '" + OpShardingRule::factorName(expected) +
                               "', received: '" + OpShardingRule::factorName(f) + "'");
        }
        ++expected;
        if (!expect('=')) return false;
        int64_t size;
        if (!parseInt(size)) return false;
        out.factorSizes.push_back(size);
      } while (consume(','));
      if (!expect('}')) return false;
    }
  }
  (void)used;  // range checks belong to the verifier
  // Optional factor groups, each at most once and in this fixed order, then
  // `, custom`. A group out of order (or any other word) ends the groups.
  const std::pair<std::string_view, std::vector<int64_t>*> groups[] = {
      {"reduction", &out.reductionFactors},
      {"need_replication", &out.needReplicationFactors},
      {"permutation", &out.permutationFactors},
      {"blocked_propagation", &out.blockedPropagationFactors},
  };
  for (const auto& [keyword, target] : groups) {
    skipWs();
    if (!consumeKeyword(keyword)) continue;
    if (!expect('=') || !parseFactorSet(*target)) return false;
  }
  skipWs();
  if (peek() != ',' && peek() != '>') {
    const char* kp = p_;
    std::string_view w = parseBareId();
    p_ = kp;
    if (!w.empty()) return error(kp, "expected '>'");
  }
  if (consume(',')) {
    if (!expectKeyword("custom")) return false;
    out.isCustom = true;
  }
  return expect('>');
}

// ---- SSA values -----------------------------------------------------------

bool Parser::parseValueUse(ValueUse& out) {
  skipWs();
  out.pos = p_;
  if (p_ >= end_ || *p_ != '%') return error("expected SSA operand");
  ++p_;
  std::string_view id = parseSuffixId();
  if (id.empty()) return error(out.pos, "expected SSA value name");
  out.name = id;
  out.index = 0;
  if (p_ < end_ && *p_ == '#') {
    ++p_;
    int64_t idx;
    if (!parseInt(idx, false)) return false;
    out.index = static_cast<unsigned>(idx);
  }
  return true;
}

bool Parser::parseValueUseList(std::vector<ValueUse>& out) {
  if (peek() != '%') return true;
  while (true) {
    ValueUse u;
    if (!parseValueUse(u)) return false;
    out.push_back(std::move(u));
    // A comma continues the list only when another value follows it
    // (`%a, dims = [..]` ends it).
    const char* save = pos();
    if (!consume(',') || peek() != '%') {
      p_ = save;
      return true;
    }
  }
}

// ---- SSA name table --------------------------------------------------------

size_t Parser::NameTable::slotOf(std::string_view key) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = std::hash<std::string_view>{}(key) & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.data || (s.size == key.size() && std::memcmp(s.data, key.data(), key.size()) == 0)) return i;
  }
}

void Parser::NameTable::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  for (const Slot& s : old)
    if (s.data) slots_[slotOf({s.data, s.size})] = s;
}

bool Parser::NameTable::asNumber(std::string_view key, uint32_t& n) {
  // Up to 6 digits: the direct table stays below 4 MB however names are spread.
  if (key.empty() || key.size() > 6 || (key[0] == '0' && key.size() > 1)) return false;
  n = 0;
  for (char c : key) {
    if (!isDigit(c)) return false;
    n = n * 10 + static_cast<uint32_t>(c - '0');
  }
  return true;
}

uint32_t Parser::NameTable::find(std::string_view key) const {
  if (uint32_t n; asNumber(key, n)) return n < byNumber_.size() ? byNumber_[n] : kNoDef;
  if (slots_.empty()) return kNoDef;
  const Slot& s = slots_[slotOf(key)];
  return s.data ? s.value : kNoDef;
}

uint32_t& Parser::NameTable::operator[](std::string_view key) {
  if (uint32_t n; asNumber(key, n)) {
    if (n >= byNumber_.size()) byNumber_.resize(std::max<size_t>(n + 1, byNumber_.size() * 2), kNoDef);
    return byNumber_[n];
  }
  // An empty view may have no data pointer, which marks empty slots.
  if (!key.data()) key = std::string_view("", 0);
  if ((used_ + 1) * 4 > slots_.size() * 3) grow();  // at most 3/4 full
  Slot& s = slots_[slotOf(key)];
  if (!s.data) {
    s.data = key.data();
    s.size = static_cast<uint32_t>(key.size());
    s.value = kNoDef;
    ++used_;
  }
  return s.value;
}

const Parser::Def* Parser::lookup(std::string_view name) const {
  uint32_t d = latest_.find(name);
  if (d == kNoDef || defs_[d].scope < floor_) return nullptr;
  return &defs_[d];
}

Value* Parser::resolve(const ValueUse& use, const Type* type) {
  if (const Def* d = lookup(use.name)) {
    if (use.index >= d->count) {
      error(use.pos, "result number " + std::to_string(use.index) + " of %" + std::string(use.name) +
                         " is out of range (it has " + std::to_string(d->count) + " results)");
      return nullptr;
    }
    return d->value(use.index);
  }
  // Forward reference (legal across blocks): a placeholder, replaced when defined.
  if (noVisibleScope()) pushScope();
  std::string key = forwardKey(use.name, use.index);
  auto it = forwardRefs_.find(key);
  if (it != forwardRefs_.end()) return it->second.holder->result(0);
  auto holder = std::make_unique<Op>("builtin.unrealized_forward_ref");
  holder->addResult(type ? *type : Type::other("none"));
  Value* v = holder->result(0);
  std::vector<uint64_t> chain;
  for (size_t i = floor_; i < scopes_.size(); ++i) chain.push_back(scopes_[i].id);
  forwardRefs_[key] = ForwardRef{std::move(holder), use.pos, std::move(chain)};
  return v;
}

std::string Parser::forwardKey(std::string_view name, unsigned index) const {
  uint64_t outermost = noVisibleScope() ? 0 : scopes_[floor_].id;
  return std::string(name) + "#" + std::to_string(index) + "@" + std::to_string(outermost);
}

void Parser::define(std::string_view name, Value* arg) { bind(Def{name, kNoDef, 0, arg, nullptr, 0, 1}); }

void Parser::define(std::string_view name, Op* op, unsigned first, unsigned count) {
  bind(Def{name, kNoDef, 0, nullptr, op, first, count});
}

void Parser::bind(Def def) {
  for (unsigned i = 0; i < def.count; ++i) {
    Value* v = def.value(i);
    std::string& sn = v->sourceName;
    sn.assign(1, '%');
    sn.append(def.name);
    if (def.count > 1) {
      sn += '#';
      sn += std::to_string(i);
    }
    if (forwardRefs_.empty()) continue;
    if (noVisibleScope()) pushScope();
    std::string key = forwardKey(def.name, i);
    auto it = forwardRefs_.find(key);
    // Only a definition in a scope enclosing the use resolves it: a value
    // defined inside a nested region is invisible outside of it.
    if (it != forwardRefs_.end() &&
        std::find(it->second.scopeChain.begin(), it->second.scopeChain.end(), scopes_.back().id) !=
            it->second.scopeChain.end()) {
      it->second.holder->result(0)->replaceAllUsesWith(v);
      forwardRefs_.erase(it);
    }
  }
  if (noVisibleScope()) pushScope();
  def.scope = static_cast<uint32_t>(scopes_.size() - 1);
  uint32_t& latest = latest_[def.name];
  def.hidden = latest;
  latest = static_cast<uint32_t>(defs_.size());
  defs_.push_back(def);
}

void Parser::pushScope() { scopes_.push_back({static_cast<uint32_t>(defs_.size()), ++nextScopeId_}); }

bool Parser::popScope() {
  uint32_t firstDef = scopes_.back().firstDef;
  scopes_.pop_back();
  while (defs_.size() > firstDef) {
    const Def& d = defs_.back();
    latest_[d.name] = d.hidden;
    defs_.pop_back();
  }
  return true;
}

template <typename TypeAt>
bool Parser::resolveUses(const std::vector<ValueUse>& uses, bool typed, size_t numTypes, const TypeAt& typeAt,
                         Op& op) {
  if (typed && numTypes != uses.size()) {
    return error(uses.empty() ? pos() : uses.front().pos,
                 std::to_string(uses.size()) + " operands present, but expected " + std::to_string(numTypes));
  }
  op.reserveOperands(op.numOperands() + static_cast<unsigned>(uses.size()));
  for (size_t i = 0; i < uses.size(); ++i) {
    const Type* t = typed ? typeAt(i) : nullptr;
    Value* v = resolve(uses[i], t);
    if (!v) return false;
    bool placeholder = v->definingOp && v->definingOp->name() == "builtin.unrealized_forward_ref";
    if (t && !placeholder && v->type != *t) {
      return error(uses[i].pos, "use of value '%" + std::string(uses[i].name) + "' expects different type than prior uses: '" +
                                    t->str() + "' vs '" + v->type->str() + "'");
    }
    op.addOperand(v);
  }
  return true;
}

bool Parser::resolveAll(const std::vector<ValueUse>& uses, const std::vector<Type>* types, Op& op) {
  return resolveUses(uses, types != nullptr, types ? types->size() : 0,
                     [types](size_t i) { return &(*types)[i]; }, op);
}

bool Parser::resolveAll(const std::vector<ValueUse>& uses, const std::vector<const Type*>& types, Op& op) {
  return resolveUses(uses, true, types.size(), [&types](size_t i) { return types[i]; }, op);
}

bool Parser::parseArgList(std::vector<ArgDecl>& out, bool allowAttrs) {
  if (!expect('(')) return false;
  if (consume(')')) return true;
  do {
    ArgDecl a;
    skipWs();
    a.pos = p_;
    if (!consume('%')) return error("expected SSA identifier");
    std::string_view id = parseSuffixId();
    if (id.empty()) return error("expected SSA identifier");
    a.name = id;
    if (!expect(':') || !parseType(a.type)) return false;
    if (allowAttrs && !parseOptionalAttrDict(a.attrs)) return false;
    if (!parseTrailingLocation()) return false;
    noteArgumentLocation(a.name);
    out.push_back(std::move(a));
  } while (consume(','));
  return expect(')');
}

namespace {

// The end of the bracketed text starting at `from` ('('), or nullptr when
// its brackets do not match before `end` (strings skipped).
const char* matchingBracketEnd(const char* from, const char* end) {
  std::string closers;  // in place up to 15 levels: no allocation per location
  for (const char* c = from; c < end; ++c) {
    switch (*c) {
      case '(': closers.push_back(')'); break;
      case '[': closers.push_back(']'); break;
      case '{': closers.push_back('}'); break;
      case '<': closers.push_back('>'); break;
      case ')': case ']': case '}': case '>':
        if (*c == '>' && c > from && c[-1] == '-') break;  // `->`
        if (closers.empty() || closers.back() != *c) return nullptr;
        closers.pop_back();
        if (closers.empty()) return c + 1;
        break;
      case '"':
        for (++c; c < end && *c != '"'; ++c)
          if (*c == '\\') ++c;
        if (c >= end) return nullptr;
        break;
      default: break;
    }
  }
  return nullptr;
}

// The end of `(#name)` at `from`, nothing between, or nullptr.
const char* aliasInBracketsEnd(const char* from, const char* end) {
  if (end - from < 4 || from[0] != '(' || from[1] != '#') return nullptr;
  const char* c = from + 2;
  while (c < end && isSuffixChar(*c)) ++c;
  return c > from + 2 && c < end && *c == ')' ? c + 1 : nullptr;
}

// Whether the text at `from` is one of the shapes JAX writes, `(#name)` or
// `("text")` or `("text"(#name))` (no backslash in the text), which
// matchingBracketEnd would find balanced: a name has no brackets or quotes,
// and the text is skipped as a string.
bool isSimpleLocation(const char* from, const char* end) {
  if (aliasInBracketsEnd(from, end)) return true;
  if (end - from < 4 || from[0] != '(' || from[1] != '"') return false;
  const char* text = from + 2;
  const auto* close = static_cast<const char*>(std::memchr(text, '"', static_cast<size_t>(end - text)));
  if (!close || std::memchr(text, '\\', static_cast<size_t>(close - text))) return false;
  const char* c = close + 1;
  if (c < end && *c == '(') {
    c = aliasInBracketsEnd(c, end);
    if (!c) return false;
  }
  return c < end && *c == ')';
}

}  // namespace

bool Parser::parseTrailingLocation() {
  trailingLoc_ = nullptr;
  trailingAlias_ = {};
  if (!peekKeyword("loc")) return true;
  const char* at = p_;
  p_ += 3;
  skipWs();
  // Unbalanced brackets or an unterminated string: said once, where the
  // location starts, rather than at the end of the file. What JAX writes
  // (`loc(#loc3)` after every op, `#loc3 = loc("jit(f)/add"(#loc2))`)
  // matches without the scan.
  if (!isSimpleLocation(p_, end_)) {
    const char* end = p_ < end_ && *p_ == '(' ? matchingBracketEnd(p_, end_) : nullptr;
    if (!end) return error(at, "malformed location: expected 'loc(...)' with matching brackets and quotes");
  }
  ++p_;
  skipWs();
  // `loc(#loc3)`: the alias may be defined further down (JAX writes them
  // after the module); placeLocation keeps it until the module is read.
  if (p_ < end_ && *p_ == '#') {
    const char* aliasAt = p_;
    ++p_;
    std::string_view alias = parseSuffixId();
    if (alias.empty()) return error(aliasAt, "expected location alias name after '#'");
    if (const Location* known = locAliases_.find(alias)) {
      trailingLoc_ = known;
    } else {
      trailingAlias_ = alias;
      trailingAliasAt_ = aliasAt;
    }
  } else if (!parseLocationInstance(trailingLoc_)) {
    return false;
  }
  return expect(')');
}

bool Parser::parseLocationInstance(const Location*& out) {
  DepthGuard guard(*this);
  if (!guard.ok) return false;
  skipWs();
  const char* at = p_;
  if (p_ < end_ && *p_ == '#') {
    ++p_;
    std::string_view alias = parseSuffixId();
    const Location* known = locAliases_.find(alias);
    if (!known) {
      if (attrAliases_.count(std::string(alias)))
        return error(at, "expected location attribute, but alias '#" + std::string(alias) + "' is not a location");
      return error(at, "undefined symbol alias id '" + std::string(alias) + "'");
    }
    out = known;
    return true;
  }
  if (p_ < end_ && *p_ == '"') return parseFileOrNameLocation(out);
  if (consumeKeyword("unknown")) {
    out = Location::unknown();
    return true;
  }
  if (consumeKeyword("callsite")) {
    const Location *callee = nullptr, *caller = nullptr;
    if (!expect('(') || !parseLocationInstance(callee)) return false;
    if (!consumeKeyword("at")) return error("expected 'at' in callsite location");
    if (!parseLocationInstance(caller)) return false;
    if (!expect(')')) return false;
    out = Location::callSite(callee, caller);
    return true;
  }
  if (consumeKeyword("fused")) {
    std::string metadata;
    skipWs();
    if (p_ < end_ && *p_ == '<') {
      std::string body;
      if (!captureBalanced(body)) return false;
      metadata = body.substr(1, body.size() - 2);
    }
    if (!expect('[')) return false;
    std::vector<const Location*> parts;
    skipWs();
    if (!consume(']')) {
      do {
        const Location* l = nullptr;
        if (!parseLocationInstance(l)) return false;
        parts.push_back(l);
      } while (consume(','));
      if (!expect(']')) return false;
    }
    out = Location::fused(parts, metadata);
    return true;
  }
  return error(at, "expected location instance: unknown, \"file\":line:col, \"name\", callsite(...), fused[...] "
                   "or #alias");
}

bool Parser::parseFileOrNameLocation(const Location*& out) {
  // A view of the source unless the string has escapes: the interner copies
  // the text only for a location it has not seen.
  std::string storage;
  std::string_view text;
  if (!parseStringView(text, storage)) return false;
  skipWs();
  if (p_ < end_ && *p_ == ':') {
    // `"file":line:col`, optionally `to :col` or `to line:col`.
    ++p_;
    skipWs();
    int64_t line = 0, col = 0;
    if (p_ >= end_ || !isDigit(*p_) || !parseInt(line, false) || line > UINT32_MAX)
      return error("expected integer line number in file location");
    skipWs();
    if (!consume(':')) {
      out = Location::fileLineCol(text, static_cast<uint32_t>(line), 0);
      return true;
    }
    skipWs();
    if (p_ >= end_ || !isDigit(*p_) || !parseInt(col, false) || col > UINT32_MAX)
      return error("expected integer column number in file location");
    skipWs();
    if (!consumeKeyword("to")) {
      out = Location::fileLineCol(text, static_cast<uint32_t>(line), static_cast<uint32_t>(col));
      return true;
    }
    skipWs();
    int64_t endLine = line, endCol = 0;
    if (!consume(':')) {
      if (p_ >= end_ || !isDigit(*p_) || !parseInt(endLine, false) || endLine > UINT32_MAX)
        return error("expected integer line number after 'to' in file location");
      if (!expect(':')) return false;
    }
    skipWs();
    if (p_ >= end_ || !isDigit(*p_) || !parseInt(endCol, false) || endCol > UINT32_MAX)
      return error("expected integer column number after 'to' in file location");
    out = Location::fileRange(text, static_cast<uint32_t>(line), static_cast<uint32_t>(col),
                              static_cast<uint32_t>(endLine), static_cast<uint32_t>(endCol));
    return true;
  }
  const Location* child = nullptr;
  if (consume('(')) {
    if (!parseLocationInstance(child)) return false;
    if (!expect(')')) return false;
  }
  out = Location::name(text, child);
  return true;
}

void Parser::placeLocation(Op* op, Block* block, unsigned arg) {
  if (!trailingAlias_.empty()) {
    if (op)
      pendingOpLocations_.push_back({trailingAliasAt_, op});
    else
      pendingArgumentLocations_.push_back({trailingAliasAt_, block, arg});
    trailingAlias_ = {};
    return;
  }
  if (!trailingLoc_) return;
  if (op)
    op->setLocation(trailingLoc_);
  else
    block->setArgumentLocation(arg, trailingLoc_);
}

void Parser::noteArgumentLocation(std::string_view name) {
  if (!trailingLoc_ && trailingAlias_.empty()) return;
  if (name.empty()) return;
  argumentLocations_[name.data()] = {trailingLoc_, trailingAlias_, trailingAliasAt_};
  trailingAlias_ = {};
}

void Parser::placeArgumentLocation(std::string_view name, Block& block, unsigned arg) {
  if (argumentLocations_.empty() || name.empty()) return;
  auto it = argumentLocations_.find(name.data());
  if (it == argumentLocations_.end()) return;
  trailingLoc_ = it->second.loc;
  trailingAlias_ = it->second.alias;
  trailingAliasAt_ = it->second.at;
  argumentLocations_.erase(it);
  placeLocation(nullptr, &block, arg);
}

bool Parser::resolveLocationAliases() {
  // `at` is the '#' of an alias parseTrailingLocation read (parseSuffixId
  // gives it again). An alias never defined is reported at its first use in
  // the text, whether an op's or a block argument's.
  auto find = [this](const char* at) {
    p_ = at + 1;
    return locAliases_.find(parseSuffixId());
  };
  const char* const resume = p_;
  const char* undefinedAt = nullptr;
  auto undefined = [&undefinedAt](const char* at) {
    if (!undefinedAt || at < undefinedAt) undefinedAt = at;
  };
  for (const PendingArgumentLocation& p : pendingArgumentLocations_) {
    if (const Location* loc = find(p.at))
      p.block->setArgumentLocation(p.arg, loc);
    else
      undefined(p.at);
  }
  for (const PendingOpLocation& p : pendingOpLocations_) {
    if (const Location* loc = find(p.at))
      p.op->setLocation(loc);
    else
      undefined(p.at);
  }
  p_ = resume;
  pendingArgumentLocations_.clear();
  pendingOpLocations_.clear();
  if (undefinedAt) return error(undefinedAt, "operation location alias was never defined");
  return true;
}

// ---- regions and ops ------------------------------------------------------

bool Parser::parseRegion(Region& region, const EntryArgs* entryArgs) {
  DepthGuard guard(*this);
  if (!guard.ok) return false;
  if (!expect('{')) return false;
  pushScope();
  Block* block = &region.addBlock();
  if (entryArgs) {
    for (const auto& [name, type] : *entryArgs) {
      Value* arg = block->addArgument(type);
      // Declared names are views of the source, right after their '%'.
      if (name.data() > begin_ && name.data() <= end_ && name.data()[-1] == '%')
        arg->loc = locOf(name.data() - 1);
      placeArgumentLocation(name, *block, arg->index);
      define(name, arg);
    }
  }
  bool first = true;
  while (true) {
    skipWs();
    if (p_ >= end_) {
      popScope();
      return error("expected '}' at the end of the region (reached the end of the input)");
    }
    if (*p_ == '}') {
      ++p_;
      break;
    }
    if (*p_ == '^') {
      // Block label `^bb0(%a: T, ...):`.
      const char* lp = p_;
      ++p_;
      if (parseSuffixId().empty()) return error(lp, "expected block name");
      if (!first || !block->empty() || (entryArgs && !entryArgs->empty())) {
        if (!(first && block->empty())) block = &region.addBlock();
      }
      if (peek() == '(') {
        std::vector<ArgDecl> args;
        if (!parseArgList(args, false)) return false;
        for (auto& a : args) {
          Value* arg = block->addArgument(a.type);
          arg->loc = locOf(a.pos);
          placeArgumentLocation(a.name, *block, arg->index);
          define(a.name, arg);
        }
      }
      if (!expect(':')) return false;
      first = false;
      continue;
    }
    first = false;
    if (!keepReading() || !parseOperation(*block)) {
      popScope();
      return false;
    }
  }
  popScope();
  return true;
}

bool Parser::parseOperation(Block& block) {
  DepthGuard guard(*this);
  if (!guard.ok) return false;
  skipWs();
  const char* start = p_;
  Scratch<ResultName> namesScratch(resultNamePool_);
  std::vector<ResultName>& names = namesScratch.v;
  if (*p_ == '%') {
    do {
      ResultName rn;
      skipWs();
      rn.pos = p_;
      if (!consume('%')) return error("expected SSA result name");
      std::string_view id = parseSuffixId();
      if (id.empty()) return error(rn.pos, "expected SSA result name");
      rn.name = id;
      if (p_ < end_ && *p_ == ':' && p_ + 1 < end_ && isDigit(p_[1])) {
        ++p_;
        if (!parseInt(rn.count, false)) return false;
        if (rn.count < 1) return error(rn.pos, "expected named operation to have at least 1 result");
      }
      names.push_back(rn);
    } while (consume(','));
    if (!consume('=')) return error("expected '=' after SSA name");
  }
  skipWs();
  std::unique_ptr<Op> op;
  opStarts_.push_back(start);
  if (p_ < end_ && *p_ == '"') {
    op = parseGenericOp(start);
  } else {
    const char* np = p_;
    std::string_view name = parseBareId();
    if (name.empty()) {
      opStarts_.pop_back();
      return error(np, "expected operation name");
    }
    op = parseCustomOp(name, start);
  }
  opStarts_.pop_back();
  if (!op) return false;
  if (!parseTrailingLocation()) return false;
  placeLocation(op.get(), nullptr, 0);
  int64_t total = 0;
  for (const auto& n : names) total += n.count;
  if (!names.empty() && total != op->numResults()) {
    return error(start, "operation defines " + std::to_string(op->numResults()) + " results but was provided " +
                            std::to_string(total) + " to bind");
  }
  unsigned next = 0;
  for (const auto& n : names) {
    if (!noVisibleScope()) {
      uint32_t d = latest_.find(n.name);
      if (d != kNoDef && defs_[d].scope + 1 == scopes_.size())
        return error(n.pos, "redefinition of SSA value '%" + std::string(n.name) + "'");
    }
    define(n.name, op.get(), next, static_cast<unsigned>(n.count));
    next += static_cast<unsigned>(n.count);
  }
  block.append(std::move(op));
  return true;
}

std::unique_ptr<Op> Parser::parseGenericOp(const char* start) {
  std::string_view name;
  std::string escaped;  // the name when it has escapes (never, in practice)
  if (!parseStringView(name, escaped)) return nullptr;
  // The name is taken as written, as MLIR does: `"return"` without a
  // dialect is an unregistered op of that name, not `func.return`.
  auto op = std::make_unique<Op>(name, locOf(start));
  Scratch<ValueUse> uses(usePool_);
  if (!expect('(')) return nullptr;
  if (!parseValueUseList(uses.v)) return nullptr;
  if (!expect(')')) return nullptr;
  if (consume('[')) {  // successors: recorded only as text
    while (!consume(']')) {
      if (p_ >= end_) {
        error("expected ']'");
        return nullptr;
      }
      ++p_;
    }
  }
  if (peekStr("<{")) {
    ++p_;
    Scratch<NamedAttribute> props(attrPool_);
    if (!parseAttrDict(props.v) || !expect('>')) return nullptr;
    setAttrs(*op, props.v, true);
  }
  if (peek() == '(') {
    ++p_;
    do {
      if (!parseRegion(op->addRegion(), nullptr)) return nullptr;
    } while (consume(','));
    if (!expect(')')) return nullptr;
  }
  {
    Scratch<NamedAttribute> attrs(attrPool_);
    if (!parseOptionalAttrDict(attrs.v)) return nullptr;
    setAttrs(*op, attrs.v);
  }
  if (!expect(':')) return nullptr;
  Scratch<const Type*> ins(typeRefPool_);
  Scratch<Type> outs(typePool_);
  if (!parseFunctionTypeRefs(ins.v, outs.v)) return nullptr;
  if (!resolveAll(uses.v, ins.v, *op)) return nullptr;
  for (auto& t : outs.v) op->addResult(std::move(t));
  return op;
}

void Parser::setAttrs(Op& op, std::vector<NamedAttribute>& attrs, bool forceInherent) {
  for (auto& [k, v] : attrs) {
    bool inherent = forceInherent || isInherentAttr(op.name(), k);
    op.setAttr(std::move(k), std::move(v), inherent);
  }
  attrs.clear();
}

bool Parser::finishOp(Op& op, const std::vector<ValueUse>& uses, const std::vector<Type>& operandTypes,
                      std::vector<Type>& resultTypes) {
  if (!resolveAll(uses, operandTypes.empty() && !uses.empty() ? nullptr : &operandTypes, op)) return false;
  for (Type& t : resultTypes) op.addResult(std::move(t));
  return true;
}

// ---- module ---------------------------------------------------------------

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->fileName = opts_.fileName;
  module->op = std::make_unique<Op>("builtin.module", SourceLoc{opts_.firstLine, 1});
  module_ = module.get();
  Block& top = module->op->addRegion().addBlock();
  pushScope();
  while (!atEnd()) {
    skipWs();
    const char* start = p_;
    if (*p_ == '#' || *p_ == '!') {
      // Alias definition `#name = attr` / `!name = type`.
      char kind = *p_;
      ++p_;
      std::string_view id = parseSuffixId();
      if (!id.empty() && consume('=')) {
        if (kind == '#' && peekKeyword("loc")) {
          // `#loc3 = loc(...)`: a location others name.
          if (!parseTrailingLocation()) return nullptr;
          if (!trailingLoc_) {
            error(trailingAliasAt_, "undefined symbol alias id '" + std::string(trailingAlias_) + "'");
            return nullptr;
          }
          if (locAliases_.contains(id) || attrAliases_.count(std::string(id))) {
            error(start, "redefinition of attribute alias id '" + std::string(id) + "'");
            return nullptr;
          }
          locAliases_.define(id, trailingLoc_);
          continue;
        }
        if (kind == '#') {
          Attribute a;
          if (!parseAttribute(a)) return nullptr;
          attrAliases_[std::string(id)] = a;
          module->attributeAliases.emplace_back(std::string(id), a);
        } else {
          Type t;
          if (!parseType(t)) return nullptr;
          typeAliases_[std::string(id)] = t;
        }
        continue;
      }
      error(start, "expected '=' in alias definition");
      return nullptr;
    }
    if (!keepReading() || !parseOperation(top)) return nullptr;
  }
  // A single explicit `module` op is the module itself.
  if (top.ops().size() == 1 && top.ops().front()->name() == "builtin.module") {
    std::unique_ptr<Op> inner = top.take(top.ops().front().get());
    module->op = std::move(inner);
    module->explicitModule = true;
  }
  if (!resolveLocationAliases()) return nullptr;
  if (!forwardRefs_.empty()) {
    const ForwardRef* first = nullptr;
    std::string firstName;
    for (const auto& [k, fr] : forwardRefs_)
      if (!first || fr.pos < first->pos) {
        first = &fr;
        firstName = k.substr(0, k.find('#'));
      }
    // Unresolved placeholders still have users in the module: destroy it first.
    error(first->pos, "use of undeclared SSA value name '%" + firstName + "'");
    // Placeholders still have users inside the module: destroy the module first.
    module.reset();
    forwardRefs_.clear();
    return nullptr;
  }
  if (failed_) return nullptr;
  return module;
}

bool Parser::parseStandaloneAttribute(Attribute& out) {
  if (!parseAttribute(out)) return false;
  if (!atEnd()) return error("unexpected text after the attribute");
  return true;
}

bool Parser::parseStandaloneType(Type& out) {
  if (!parseType(out)) return false;
  if (!atEnd()) return error("unexpected text after the type");
  return true;
}

}  // namespace detail

std::unique_ptr<Module> parseModule(std::string_view text, const ParseOptions& opts, DiagnosticSink& diags) {
  if (opts.attributeSites) opts.attributeSites->setText(text);
  detail::Parser parser(text, opts, diags);
  auto m = parser.parseModule();
  if (!m && !diags.hasErrors()) diags.error({opts.firstLine, 1}, "failed to parse the module");
  return m;
}

std::vector<SourceChunk> splitInputFile(std::string_view text) {
  std::vector<SourceChunk> chunks;
  uint32_t line = 1, chunkLine = 1;
  size_t chunkStart = 0, i = 0;
  while (i <= text.size()) {
    size_t eol = text.find('\n', i);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view l = text.substr(i, eol - i);
    size_t a = l.find_first_not_of(" \t");
    if (a != std::string_view::npos && l.substr(a).rfind("// -----", 0) == 0) {
      chunks.push_back({text.substr(chunkStart, i - chunkStart), chunkLine});
      chunkStart = eol + 1 <= text.size() ? eol + 1 : text.size();
      chunkLine = line + 1;
    }
    if (eol == text.size()) break;
    i = eol + 1;
    ++line;
  }
  chunks.push_back({text.substr(std::min(chunkStart, text.size())), chunkLine});
  return chunks;
}

std::optional<Attribute> parseAttribute(std::string_view text, DiagnosticSink& diags) {
  detail::Parser parser(text, {}, diags);
  Attribute a;
  if (!parser.parseStandaloneAttribute(a)) return std::nullopt;
  return a;
}

std::optional<Type> parseType(std::string_view text, DiagnosticSink& diags) {
  detail::Parser parser(text, {}, diags);
  Type t;
  if (!parser.parseStandaloneType(t)) return std::nullopt;
  return t;
}

}  // namespace shardscope::ir
