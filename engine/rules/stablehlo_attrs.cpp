// StableHLO attribute readers for the rule registry. The parser keeps some
// attributes structured and others as text; these accept both so the
// registry never depends on which.
#include "rules/stablehlo_attrs.h"

#include <cctype>
#include <memory>

namespace shardscope::rules {

namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::optional<int64_t> parseInt(const std::string& s) {
  std::string t = trim(s);
  // `5 : i64` -> `5`.
  if (size_t colon = t.find(':'); colon != std::string::npos) t = trim(t.substr(0, colon));
  if (t == "true") return 1;
  if (t == "false") return 0;
  if (t.empty()) return std::nullopt;
  size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size()) return std::nullopt;
  for (size_t k = i; k < t.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(t[k]))) return std::nullopt;
  try {
    return std::stoll(t);
  } catch (...) {
    return std::nullopt;
  }
}

// Every integer literal in `text`, in order (`[[0, 1], [-2, 3]]` -> 0 1 -2 3).
std::vector<int64_t> scanInts(std::string_view text) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < text.size();) {
    bool neg = text[i] == '-' && i + 1 < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (neg || std::isdigit(static_cast<unsigned char>(text[i]))) {
      size_t j = neg ? i + 1 : i;
      int64_t v = 0;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
        v = v * 10 + (text[j++] - '0');
      out.push_back(neg ? -v : v);
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

// Index of the `close` matching the `open` at `pos`, or npos.
size_t matching(std::string_view s, size_t pos, char open, char close) {
  int depth = 0;
  for (size_t i = pos; i < s.size(); ++i) {
    if (s[i] == open) ++depth;
    else if (s[i] == close && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// Split at top-level commas (not inside [], <>, (), {}).
std::vector<std::string> splitTopLevel(std::string_view s) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[' || c == '<' || c == '(' || c == '{') ++depth;
    else if ((c == ']' || c == '>' || c == ')' || c == '}') && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  std::string last = trim(s.substr(start));
  if (!last.empty()) parts.push_back(last);
  return parts;
}

// `dense<...> : tensor<3x2xi64>` -> values, a splat expanded to the shape.
std::optional<std::vector<int64_t>> denseTextInts(std::string_view text) {
  size_t open = text.find("dense<");
  if (open == std::string_view::npos) return std::nullopt;
  size_t lt = open + 5;
  size_t gt = matching(text, lt, '<', '>');
  if (gt == std::string_view::npos) return std::nullopt;
  std::string_view body = text.substr(lt + 1, gt - lt - 1);
  std::vector<int64_t> values = scanInts(body);
  if (body.find('[') != std::string_view::npos || values.size() != 1) return values;
  // Splat: repeat for every element of the written tensor type.
  size_t tensor = text.find("tensor<", gt);
  if (tensor == std::string_view::npos) return values;
  int64_t count = 1;
  std::string_view dims = text.substr(tensor + 7);
  size_t i = 0;
  while (i < dims.size() && std::isdigit(static_cast<unsigned char>(dims[i]))) {
    int64_t d = 0;
    while (i < dims.size() && std::isdigit(static_cast<unsigned char>(dims[i])))
      d = d * 10 + (dims[i++] - '0');
    if (i < dims.size() && dims[i] == 'x') {
      count *= d;
      ++i;
    } else {
      break;
    }
  }
  return std::vector<int64_t>(static_cast<size_t>(count), values.front());
}

// Text of an opaque attribute, or nullptr.
const std::string* opaqueText(const ir::Attribute& attr) {
  if (auto o = attr.as<ir::OpaqueAttr>()) return &o->text;
  return nullptr;
}

// `key = value` pairs of `#name<k1 = v1, k2 = [..]>` (after `raw` if present).
std::vector<std::pair<std::string, std::string>> keyedText(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t lt = text.find('<');
  if (lt == std::string_view::npos) return out;
  size_t gt = matching(text, lt, '<', '>');
  std::string_view body =
      text.substr(lt + 1, (gt == std::string_view::npos ? text.size() : gt) - lt - 1);
  std::string b = trim(body);
  if (b.rfind("raw ", 0) == 0) b = trim(b.substr(4));
  for (const std::string& part : splitTopLevel(b)) {
    size_t eq = part.find('=');
    if (eq == std::string::npos) continue;
    out.emplace_back(trim(part.substr(0, eq)), trim(part.substr(eq + 1)));
  }
  return out;
}

}  // namespace

std::optional<std::vector<int64_t>> intsOf(const ir::Attribute& attr) {
  if (auto dense = attr.as<ir::DenseArrayAttr>()) return dense->values;
  if (auto array = attr.as<std::shared_ptr<const ir::ArrayAttr>>()) {
    std::vector<int64_t> out;
    for (const ir::Attribute& e : (*array)->elems) {
      if (auto i = e.as<ir::IntegerAttr>()) out.push_back(i->value);
      else if (auto b = e.as<ir::BoolAttr>()) out.push_back(b->value ? 1 : 0);
      else if (auto nested = intsOf(e)) out.insert(out.end(), nested->begin(), nested->end());
      else return std::nullopt;
    }
    return out;
  }
  if (auto i = attr.as<ir::IntegerAttr>()) return std::vector<int64_t>{i->value};
  if (const std::string* text = opaqueText(attr)) {
    if (auto dense = denseTextInts(*text)) return dense;
    // `array<i64: 1, 2>` or `[1, 2]` kept verbatim.
    if (text->find('[') != std::string::npos || text->rfind("array<", 0) == 0) {
      std::string_view body = *text;
      if (size_t colon = body.find(':'); body.rfind("array<", 0) == 0 && colon != body.npos)
        body = body.substr(colon + 1);
      return scanInts(body);
    }
  }
  return std::nullopt;
}

std::optional<int64_t> intAttrOf(const ir::Op& op, const std::string& name) {
  const ir::Attribute* attr = op.attr(name);
  if (!attr) return std::nullopt;
  if (auto i = attr->as<ir::IntegerAttr>()) return i->value;
  if (auto b = attr->as<ir::BoolAttr>()) return b->value ? 1 : 0;
  if (const std::string* text = opaqueText(*attr)) return parseInt(*text);
  return std::nullopt;
}

std::optional<std::vector<int64_t>> intListAttrOf(const ir::Op& op, const std::string& name) {
  const ir::Attribute* attr = op.attr(name);
  if (!attr) return std::nullopt;
  return intsOf(*attr);
}

std::optional<std::string> stringOrSymbolOf(const ir::Op& op, const std::string& name) {
  const ir::Attribute* attr = op.attr(name);
  if (!attr) return std::nullopt;
  if (auto s = attr->as<ir::StringAttr>()) return s->value;
  if (auto sym = attr->as<ir::SymbolRefAttr>()) {
    std::string out;
    for (size_t i = 0; i < sym->path.size(); ++i) out += (i ? "::" : "") + sym->path[i];
    return out;
  }
  if (const std::string* text = opaqueText(*attr)) {
    std::string t = trim(*text);
    if (!t.empty() && t[0] == '@') t = t.substr(1);
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
    return t;
  }
  return std::nullopt;
}

std::optional<std::string> enumValueOf(const ir::Op& op, const std::string& name) {
  const ir::Attribute* attr = op.attr(name);
  if (!attr) return std::nullopt;
  if (auto e = attr->as<ir::EnumAttr>()) return e->value;
  if (auto s = attr->as<ir::StringAttr>()) return s->value;
  if (const std::string* text = opaqueText(*attr)) {
    // `#stablehlo<transpose TRANSPOSE>` -> `TRANSPOSE`; a bare word as is.
    std::string t = trim(*text);
    if (!t.empty() && t.back() == '>') t.pop_back();
    size_t space = t.find_last_of(" <");
    return trim(space == std::string::npos ? t : t.substr(space + 1));
  }
  return std::nullopt;
}

std::optional<StructParams> StructParams::from(const ir::Attribute& attr) {
  StructParams out;
  if (auto s = attr.as<std::shared_ptr<const ir::StructAttr>>()) {
    for (const auto& [key, value] : (*s)->params)
      out.params_.emplace_back(key, intsOf(value).value_or(std::vector<int64_t>{}));
    return out;
  }
  if (auto dict = attr.as<std::shared_ptr<const ir::DictionaryAttr>>()) {
    for (const auto& [key, value] : (*dict)->entries)
      out.params_.emplace_back(key, intsOf(value).value_or(std::vector<int64_t>{}));
    return out;
  }
  if (const std::string* text = opaqueText(attr)) {
    if (text->find('<') == std::string::npos) return std::nullopt;
    for (const auto& [key, value] : keyedText(*text)) out.params_.emplace_back(key, scanInts(value));
    return out;
  }
  return std::nullopt;
}

std::vector<int64_t> StructParams::list(const std::string& key) const {
  for (const auto& [k, v] : params_)
    if (k == key) return v;
  return {};
}

std::optional<int64_t> StructParams::integer(const std::string& key) const {
  for (const auto& [k, v] : params_)
    if (k == key && v.size() == 1) return v.front();
  return std::nullopt;
}

namespace {

// One `[b, 0, 1, f]` group: the position of each letter, and of each spatial index.
bool parseConvGroup(std::string_view group, char first, char second, int64_t& firstPos,
                    int64_t& secondPos, std::vector<int64_t>& spatial) {
  std::vector<std::string> entries = splitTopLevel(group);
  firstPos = secondPos = -1;
  spatial.assign(entries.size() >= 2 ? entries.size() - 2 : 0, -1);
  for (size_t pos = 0; pos < entries.size(); ++pos) {
    const std::string& e = entries[pos];
    auto p = static_cast<int64_t>(pos);
    if (e.size() == 1 && e[0] == first) {
      firstPos = p;
    } else if (e.size() == 1 && e[0] == second) {
      secondPos = p;
    } else if (auto k = parseInt(e); k && *k >= 0 && *k < static_cast<int64_t>(spatial.size())) {
      spatial[static_cast<size_t>(*k)] = p;
    } else {
      return false;
    }
  }
  if (firstPos < 0 || secondPos < 0) return false;
  for (int64_t s : spatial)
    if (s < 0) return false;
  return true;
}

std::optional<ConvDimensionNumbers> convFromKeys(const StructParams& params) {
  ConvDimensionNumbers dn;
  auto need = [&](const char* key, int64_t& out) {
    auto v = params.integer(key);
    if (v) out = *v;
    return v.has_value();
  };
  if (!need("input_batch_dimension", dn.inputBatch) ||
      !need("input_feature_dimension", dn.inputFeature) ||
      !need("kernel_input_feature_dimension", dn.kernelInputFeature) ||
      !need("kernel_output_feature_dimension", dn.kernelOutputFeature) ||
      !need("output_batch_dimension", dn.outputBatch) ||
      !need("output_feature_dimension", dn.outputFeature))
    return std::nullopt;
  dn.inputSpatial = params.list("input_spatial_dimensions");
  dn.kernelSpatial = params.list("kernel_spatial_dimensions");
  dn.outputSpatial = params.list("output_spatial_dimensions");
  return dn;
}

}  // namespace

std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(const ir::Attribute& attr) {
  const std::string* text = opaqueText(attr);
  if (!text) {
    auto params = StructParams::from(attr);
    return params ? convFromKeys(*params) : std::nullopt;
  }
  if (text->find("input_batch_dimension") != std::string::npos) {
    auto params = StructParams::from(attr);
    return params ? convFromKeys(*params) : std::nullopt;
  }
  // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, possibly inside `#stablehlo.conv<...>`.
  std::string_view s = *text;
  std::vector<std::string_view> groups;
  for (size_t pos = s.find('['); pos != std::string_view::npos && groups.size() < 3;
       pos = s.find('[', pos)) {
    size_t end = matching(s, pos, '[', ']');
    if (end == std::string_view::npos) return std::nullopt;
    groups.push_back(s.substr(pos + 1, end - pos - 1));
    pos = end + 1;
  }
  if (groups.size() != 3) return std::nullopt;
  ConvDimensionNumbers dn;
  if (!parseConvGroup(groups[0], 'b', 'f', dn.inputBatch, dn.inputFeature, dn.inputSpatial) ||
      !parseConvGroup(groups[1], 'i', 'o', dn.kernelInputFeature, dn.kernelOutputFeature,
                      dn.kernelSpatial) ||
      !parseConvGroup(groups[2], 'b', 'f', dn.outputBatch, dn.outputFeature, dn.outputSpatial))
    return std::nullopt;
  return dn;
}

}  // namespace shardscope::rules
