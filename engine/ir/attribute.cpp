#include "ir/attribute.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cctype>
#include <cstdlib>
#include <string_view>

#include "ir/float_format.h"
#include "sharding/string_literal.h"

namespace shardscope::ir {

const std::shared_ptr<const Attribute::Value>& Attribute::unitValue() {
  // Never destroyed: attributes in statics may outlive other statics.
  static const auto* unit =
      new std::shared_ptr<const Value>(std::allocate_shared<const Value>(detail::PoolAllocator<Value>(), UnitAttr{}));
  return *unit;
}

const ArrayAttr* Attribute::array() const {
  auto p = as<std::shared_ptr<const ArrayAttr>>();
  return p ? p->get() : nullptr;
}

const DictionaryAttr* Attribute::dict() const {
  auto p = as<std::shared_ptr<const DictionaryAttr>>();
  return p ? p->get() : nullptr;
}

const StructAttr* Attribute::structAttr() const {
  auto p = as<std::shared_ptr<const StructAttr>>();
  return p ? p->get() : nullptr;
}

std::optional<int64_t> Attribute::integer() const {
  if (auto i = as<IntegerAttr>()) return i->value;
  if (auto b = as<BoolAttr>()) return b->value ? 1 : 0;
  return std::nullopt;
}

const std::string* Attribute::string() const {
  auto s = as<StringAttr>();
  return s ? &s->value : nullptr;
}

Attribute Attribute::makeArray(std::vector<Attribute> elems) {
  return Attribute(std::make_shared<const ArrayAttr>(ArrayAttr{std::move(elems)}));
}

Attribute Attribute::makeDict(std::vector<NamedAttribute> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const NamedAttribute& a, const NamedAttribute& b) { return a.first < b.first; });
  return Attribute(std::make_shared<const DictionaryAttr>(DictionaryAttr{std::move(entries)}));
}

Attribute Attribute::makeStruct(std::string name, std::vector<NamedAttribute> params) {
  return Attribute(std::make_shared<const StructAttr>(StructAttr{std::move(name), std::move(params)}));
}

bool Attribute::operator==(const Attribute& o) const {
  if (v_ == o.v_) return true;
  if (v_->index() != o.v_->index()) return false;
  // Compare pointees for the boxed alternatives.
  if (auto a = array()) return *a == *o.array();
  if (auto d = dict()) return *d == *o.dict();
  if (auto s = structAttr()) return *s == *o.structAttr();
  return *v_ == *o.v_;
}

const Attribute* DictionaryAttr::get(std::string_view name) const {
  for (const auto& [k, v] : entries)
    if (k == name) return &v;
  return nullptr;
}

const Attribute* StructAttr::get(std::string_view key) const {
  for (const auto& [k, v] : params)
    if (k == key) return &v;
  return nullptr;
}

void printAxisRefLists(const AxisRefListsAttr& lists, std::string& out) {
  out += '[';
  for (size_t i = 0; i < lists.perDim.size(); ++i) {
    if (i) out += ", ";
    printAxisList(lists.perDim[i], out);
  }
  out += ']';
}

void printAllToAllParams(const AllToAllParamsAttr& params, std::string& out) {
  out += '[';
  for (size_t i = 0; i < params.params.size(); ++i) {
    const AllToAllParam& p = params.params[i];
    if (i) out += ", ";
    printAxisList(p.axes, out);
    out += ": ";
    out += std::to_string(p.srcDim);
    out += "->";
    out += std::to_string(p.tgtDim);
  }
  out += ']';
}

std::string strIntList(const std::vector<int64_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(values[i]);
  }
  return s + ']';
}

std::string quoteString(const std::string& s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

// MLIR prints floats in scientific notation with six digits when that
// round-trips, and with full precision otherwise.
std::string formatMlirFloat(double v);

namespace {
// The tokens of a `dense<...>` body, shared by the check and the
// canonical form so that both see the same numbers. Character tests are
// plain ASCII ones: a literal can hold millions of numbers.
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool keptAsWritten(std::string_view body) {
  // Strings, complex tuples and hex payloads.
  for (char c : body)
    if (c == '"' || c == '(' || c == 'x') return true;
  return false;
}
bool startsDenseNumber(std::string_view body, size_t i) {
  char c = body[i];
  return isDigit(c) || ((c == '-' || c == '+' || c == '.') && i + 1 < body.size() &&
                        (isDigit(body[i + 1]) || body[i + 1] == '.'));
}
// The end of the number or word starting at `i`.
size_t denseTokenEnd(std::string_view body, size_t i) {
  size_t j = i + 1, n = body.size();
  while (j < n && (isAlnum(body[j]) || body[j] == '.' ||
                   ((body[j] == '-' || body[j] == '+') && (body[j - 1] == 'e' || body[j - 1] == 'E'))))
    ++j;
  return j;
}
// How much of `tok` a C decimal number reads (as strtod would):
// [sign] digits [. digits] | [sign] . digits, then [e|E [sign] digits].
size_t decimalNumberLength(std::string_view tok) {
  size_t i = 0, n = tok.size();
  if (i < n && (tok[i] == '+' || tok[i] == '-')) ++i;
  if (i + 1 < n && tok[i] == '0' && (tok[i + 1] == 'X' || tok[i + 1] == 'x')) {
    // strtod reads hex too; such tokens are rare enough to hand over.
    const std::string copy(tok);
    char* end = nullptr;
    std::strtod(copy.c_str(), &end);
    return static_cast<size_t>(end - copy.c_str());
  }
  const size_t wholeStart = i;
  while (i < n && isDigit(tok[i])) ++i;
  size_t digits = i - wholeStart;
  if (i < n && tok[i] == '.') {
    size_t f = i + 1;
    while (f < n && isDigit(tok[f])) ++f;
    digits += f - i - 1;
    if (digits > 0) i = f;
  }
  if (digits == 0) return 0;
  if (i < n && (tok[i] == 'e' || tok[i] == 'E')) {
    size_t k = i + 1;
    if (k < n && (tok[k] == '+' || tok[k] == '-')) ++k;
    const size_t expStart = k;
    while (k < n && isDigit(tok[k])) ++k;
    if (k > expStart) i = k;
  }
  return i;
}
}  // namespace

size_t malformedDenseNumber(const std::string& body) {
  if (keptAsWritten(body)) return std::string::npos;
  const std::string_view text = body;
  size_t i = 0, n = text.size();
  while (i < n) {
    if (!startsDenseNumber(text, i)) {
      ++i;
      continue;
    }
    size_t j = denseTokenEnd(text, i);
    const size_t used = decimalNumberLength(text.substr(i, j - i));
    if (used != j - i) return i + used;
    // A number ends a list element: `0.0e000+00` is two numbers run together.
    size_t k = j;
    while (k < n && isSpace(text[k])) ++k;
    if (k < n && text[k] != ',' && text[k] != ']' && text[k] != '>') return j;
    i = j;
  }
  return std::string::npos;
}

namespace {

// The shape of the nested lists of a dense body: `[[1, 2], [3, 4]]` is
// [2, 2], a bare value is a splat (nullopt shape, `splat` set). False when
// sub-lists disagree.
struct DenseShapeReader {
  std::string_view body;
  size_t i = 0;

  void skipSpace() {
    while (i < body.size() && isSpace(body[i])) ++i;
  }
  // One element at `i`: a list (its shape) or a scalar (empty shape).
  bool element(std::vector<int64_t>& shape) {
    skipSpace();
    if (i < body.size() && body[i] == '[') return list(shape);
    while (i < body.size() && body[i] != ',' && body[i] != ']' && body[i] != '>') ++i;
    shape.clear();
    return true;
  }
  bool list(std::vector<int64_t>& shape) {
    ++i;  // '['
    skipSpace();
    std::optional<std::vector<int64_t>> inner;
    int64_t count = 0;
    if (i < body.size() && body[i] == ']') {
      ++i;
      shape = {0};
      return true;
    }
    while (true) {
      std::vector<int64_t> sub;
      if (!element(sub)) return false;
      if (inner && *inner != sub) return false;
      inner = sub;
      ++count;
      skipSpace();
      if (i < body.size() && body[i] == ',') {
        ++i;
        continue;
      }
      if (i < body.size() && body[i] == ']') {
        ++i;
        break;
      }
      return false;
    }
    shape = {count};
    shape.insert(shape.end(), inner->begin(), inner->end());
    return true;
  }
};

std::string joinShape(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out;
}

// `i8` -> 8 for signless, signed and unsigned integer types; 0 otherwise.
int integerWidth(const std::string& elementType) {
  size_t start = elementType.rfind("si", 0) == 0 || elementType.rfind("ui", 0) == 0 ? 2
                 : elementType.rfind('i', 0) == 0                                  ? 1
                                                                                   : 0;
  if (start == 0 || start >= elementType.size()) return 0;
  int width = 0;
  for (size_t k = start; k < elementType.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(elementType[k])) || width > 100000) return 0;
    width = width * 10 + (elementType[k] - '0');
  }
  return width;
}

}  // namespace

std::string denseLiteralProblem(const std::string& body, const std::vector<int64_t>& shape,
                                const std::string& elementType) {
  if (keptAsWritten(body) || body.size() < 2) return "";
  // Element kinds first, as MLIR's reader checks them while it reads.
  if (integerWidth(elementType) > 0) {
    for (size_t k = 0; k < body.size();) {
      if (!startsDenseNumber(body, k)) {
        ++k;
        continue;
      }
      size_t end = denseTokenEnd(body, k);
      const std::string_view tok = std::string_view(body).substr(k, end - k);
      if (tok.find_first_of(".eE") != std::string_view::npos)
        return "expected integer elements, but parsed floating-point";
      k = end;
    }
  }
  DenseShapeReader reader{std::string_view(body).substr(1, body.size() - 2)};
  reader.skipSpace();
  if (reader.i >= reader.body.size() || reader.body[reader.i] != '[') return "";  // a splat
  std::vector<int64_t> literal;
  if (!reader.list(literal)) return "tensor literal is invalid; ranks are not consistent between elements";
  if (literal != shape)
    return "inferred shape of elements literal ([" + joinShape(literal) + "]) does not match type ([" +
           joinShape(shape) + "])";
  return "";
}

std::string canonicalDenseBody(const std::string& body, const std::string& elementType) {
  if (keptAsWritten(body)) return body;
  bool isFloat = !elementType.empty() && (elementType[0] == 'f' || elementType == "bf16" || elementType == "tf32");
  const std::optional<FloatFormat> format = floatFormatOf(elementType);
  const std::string_view text = body;
  std::string out;
  out.reserve(body.size());
  // A list whose scalars are all alike is a splat: the first scalar and
  // whether every later one equals it.
  std::string first;
  size_t scalars = 0;
  bool allAlike = true;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    bool startsNumber = startsDenseNumber(text, i);
    if (startsNumber || isAlpha(c)) {
      size_t j = denseTokenEnd(text, i);
      const size_t start = out.size();
      const std::string_view tok = text.substr(i, j - i);
      if (isFloat && startsNumber) {
        // f32 values in f32's digits (`3.14159274`), as MLIR prints them.
        if (format) out += formatMlirFloatLiteral(tok, *format);
        else out += formatMlirFloat(std::strtod(std::string(tok).c_str(), nullptr));
      } else {
        out += tok;
      }
      const std::string_view scalar = std::string_view(out).substr(start);
      if (scalars++ == 0) first = scalar;
      else if (allAlike && scalar != first) allAlike = false;
      i = j;
    } else {
      if (c != ' ' || (!out.empty() && out.back() == ',')) out += c;
      ++i;
    }
  }
  if (scalars > 1 && out.size() > 2 && out[1] == '[' && allAlike) return "<" + first + ">";
  return out;
}

std::string formatMlirFloat(double v) {
  if (std::isnan(v)) return "0x7FC00000";
  if (std::isinf(v)) return v > 0 ? "0x7F800000" : "0xFF800000";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  if (std::strtod(buf, nullptr) == v) return buf;
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

namespace {

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Dictionary keys that are not bare identifiers are quoted (`"c:(1)4"`).
void appendKey(std::string& out, const std::string& key) { appendName(out, key); }

// Appends rather than returns: nested attributes and the writer's output
// then grow one buffer instead of building a string per level.
// `bare`: integers without their type, as inside dialect struct parameters.
struct Printer {
  std::string& out;
  bool bare;

  void print(const Attribute& attr, bool bareInner) const { std::visit(Printer{out, bareInner}, attr.value()); }
  void printNamed(const NamedAttribute& na, bool bareInner) const {
    appendKey(out, na.first);
    if (na.second.is<UnitAttr>() && !bareInner) return;
    out += " = ";
    print(na.second, bareInner);
  }

  void operator()(const UnitAttr&) const { out += "unit"; }
  void operator()(const BoolAttr& b) const { out += b.value ? "true" : "false"; }
  void operator()(const IntegerAttr& i) const {
    if (bare || i.type.empty()) return appendInt(out, i.value);
    if (i.type == "i1") {
      out += i.value ? "true" : "false";
      return;
    }
    appendInt(out, i.value);
    out += " : ";
    out += i.type;
  }
  void operator()(const FloatAttr& f) const {
    if (std::optional<FloatFormat> format = floatFormatOf(f.type))
      out += formatMlirFloat(f.value, *format);
    else
      out += formatMlirFloat(f.value);
    if (bare || f.type.empty()) return;
    out += " : ";
    out += f.type;
  }
  void operator()(const StringAttr& s) const { out += quoteString(s.value); }
  void operator()(const SymbolRefAttr& s) const {
    for (size_t i = 0; i < s.path.size(); ++i) {
      if (i) out += "::";
      out += '@';
      appendName(out, s.path[i]);  // `@"<lambda>"` for a name that is no bare identifier
    }
  }
  void operator()(const std::shared_ptr<const ArrayAttr>& a) const {
    out += '[';
    for (size_t i = 0; i < a->elems.size(); ++i) {
      if (i) out += ", ";
      print(a->elems[i], bare);
    }
    out += ']';
  }
  void operator()(const std::shared_ptr<const DictionaryAttr>& d) const {
    out += '{';
    for (size_t i = 0; i < d->entries.size(); ++i) {
      if (i) out += ", ";
      printNamed(d->entries[i], false);
    }
    out += '}';
  }
  void operator()(const DenseArrayAttr& a) const {
    out += "array<";
    out += a.elementType;
    bool i1 = a.elementType == "i1";
    for (size_t i = 0; i < a.values.size(); ++i) {
      out += i ? ", " : ": ";
      if (i1)
        out += a.values[i] ? "true" : "false";
      else
        appendInt(out, a.values[i]);
    }
    out += '>';
  }
  void operator()(const TypeAttr& t) const { t.type.print(out); }
  void operator()(const EnumAttr& e) const {
    out += '#';
    out += e.dialect;
    out += '<';
    out += e.kind;
    out += ' ';
    out += e.value;
    out += '>';
  }
  void operator()(const std::shared_ptr<const StructAttr>& s) const {
    out += '#';
    out += s->name;
    out += '<';
    for (size_t i = 0; i < s->params.size(); ++i) {
      if (i) out += ", ";
      out += s->params[i].first;
      out += " = ";
      print(s->params[i].second, true);
    }
    out += '>';
  }
  void operator()(const OpaqueAttr& o) const { out += o.text; }
  void operator()(const TensorSharding& t) const { t.print(out); }
  void operator()(const TensorShardingPerValue& t) const { t.print(out); }
  void operator()(const Mesh& m) const {
    out += "#sdy.mesh";
    out += m.str();
  }
  void operator()(const OpShardingRule& r) const { out += r.str(); }
  void operator()(const ManualAxesAttr& m) const {
    out += "#sdy<manual_axes{";
    for (size_t i = 0; i < m.axes.size(); ++i) {
      if (i) out += ", ";
      out += quoteString(m.axes[i]);
    }
    out += "}>";
  }
  void operator()(const AxisRefListAttr& l) const {
    out += "#sdy<axis_ref_list";
    printAxisList(l.axes, out);
    out += '>';
  }
  void operator()(const AxisRefListsAttr& l) const {
    out += "#sdy<list_of_axis_ref_lists";
    printAxisRefLists(l, out);
    out += '>';
  }
  void operator()(const PropagationEdgesAttr& p) const { p.print(out); }
  void operator()(const AllToAllParamsAttr& p) const {
    out += "#sdy<all_to_all_param_list";
    printAllToAllParams(p, out);
    out += '>';
  }
};

}  // namespace

void Attribute::print(std::string& out) const { std::visit(Printer{out, false}, value()); }

std::string Attribute::str() const {
  std::string out;
  print(out);
  return out;
}

std::optional<std::vector<int64_t>> intListOf(const Attribute& attr) {
  if (auto d = attr.as<DenseArrayAttr>()) return d->values;
  if (auto a = attr.array()) {
    std::vector<int64_t> out;
    for (const Attribute& e : a->elems) {
      auto v = e.integer();
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    return out;
  }
  if (auto o = attr.as<OpaqueAttr>()) {
    // `dense<[1, 2]> : tensor<2xi64>` or `dense<3> : ...`
    const std::string& t = o->text;
    if (t.rfind("dense<", 0) != 0) return std::nullopt;
    std::vector<int64_t> out;
    size_t end = t.find('>');
    std::string body = t.substr(6, end == std::string::npos ? std::string::npos : end - 6);
    const char* p = body.c_str();
    while (*p) {
      if ((*p >= '0' && *p <= '9') || *p == '-') {
        char* e = nullptr;
        out.push_back(std::strtoll(p, &e, 10));
        p = e;
      } else {
        ++p;
      }
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace shardscope::ir
