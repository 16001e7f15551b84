#include "api/document.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "ir/parser.h"
#if __has_include("verifier/verifier.h")
#include "verifier/verifier.h"
#define SHARDSCOPE_HAVE_VERIFIER 1
#endif

namespace shardscope::api {

bool Document::hasErrors() const { return errorCount() > 0; }

int Document::errorCount() const {
  return static_cast<int>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const ir::Diagnostic& d) { return d.severity == ir::Severity::Error; }));
}

namespace {

std::string baseName(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::shared_ptr<Document> parseDocument(std::string text, std::string name) {
  auto doc = std::make_shared<Document>();
  doc->name = std::move(name);
  doc->text = std::move(text);
  ir::DiagnosticSink sink;
  ir::ParseOptions opts;
  opts.fileName = doc->name;
  doc->module = ir::parseModule(doc->text, opts, sink);
#ifdef SHARDSCOPE_HAVE_VERIFIER
  if (doc->module && !sink.hasErrors()) verifyModule(*doc->module, sink);
#endif
  doc->diagnostics = sink.all();
  std::stable_sort(doc->diagnostics.begin(), doc->diagnostics.end(),
                   [](const ir::Diagnostic& a, const ir::Diagnostic& b) {
                     if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
                     return a.loc.col < b.loc.col;
                   });
  return doc;
}

std::shared_ptr<Document> loadDocument(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    auto doc = std::make_shared<Document>();
    doc->path = path;
    doc->name = baseName(path);
    doc->diagnostics.push_back(
        {ir::Severity::Error, {}, std::string("cannot open file '").append(path).append("'")});
    return doc;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  auto doc = parseDocument(ss.str(), baseName(path));
  doc->path = path;
  return doc;
}

std::string symbolName(const ir::Op& op) {
  if (const ir::Attribute* a = op.attr("sym_name")) {
    if (const std::string* s = a->string()) return *s;
    if (const auto* r = a->as<ir::SymbolRefAttr>())
      return r->path.empty() ? std::string() : r->root();
  }
  return {};
}

namespace {

// Sharding stored under `key` in the dictionary at position `index` of the
// array attribute `listName` of `op` (arg_attrs / res_attrs).
std::optional<TensorSharding> shardingInAttrList(const ir::Op& op, const char* listName,
                                                 unsigned index) {
  const ir::Attribute* list = op.attr(listName);
  if (!list) return std::nullopt;
  const ir::ArrayAttr* arr = list->array();
  if (!arr || index >= arr->elems.size()) return std::nullopt;
  const ir::DictionaryAttr* dict = arr->elems[index].dict();
  if (!dict) return std::nullopt;
  const ir::Attribute* s = dict->get("sdy.sharding");
  if (!s) return std::nullopt;
  if (const auto* ts = s->as<TensorSharding>()) return *ts;
  return std::nullopt;
}

std::optional<TensorSharding> perValueEntry(const ir::Attribute* a, unsigned index) {
  if (!a) return std::nullopt;
  if (const auto* pv = a->as<TensorShardingPerValue>()) {
    if (index < pv->shardings.size()) return pv->shardings[index];
    return std::nullopt;
  }
  if (const auto* ts = a->as<TensorSharding>()) {
    if (index == 0) return *ts;
  }
  return std::nullopt;
}

// Between the import and the export passes of the propagation pipeline, a
// data-flow edge owner's value (a while or case result, a named
// computation's block argument) carries its sharding on the
// `sdy.data_flow_edge` that takes it.
std::optional<TensorSharding> dataFlowEdgeSharding(const ir::Value& value) {
  for (const ir::Use& use : value.uses())
    if (use.user && use.user->is("sdy.data_flow_edge"))
      return perValueEntry(use.user->attr("sharding"), 0);
  return std::nullopt;
}

}  // namespace

std::optional<TensorSharding> valueSharding(const ir::Value& value) {
  if (value.isBlockArgument()) {
    ir::Op* owner = value.ownerBlock->parentOp();
    if (!owner) return std::nullopt;
    if (owner->is("func.func")) return shardingInAttrList(*owner, "arg_attrs", value.index);
    if (owner->is("sdy.manual_computation") || owner->is("sdy.named_computation"))
      if (auto s = perValueEntry(owner->attr("in_shardings"), value.index)) return s;
    // A loop-carried value is sharded as the while's result it becomes.
    if (owner->is("stablehlo.while") && value.index < owner->numResults())
      return valueSharding(*owner->result(value.index));
    return dataFlowEdgeSharding(value);
  }
  const ir::Op* op = value.definingOp;
  if (!op) return std::nullopt;
  if (auto s = perValueEntry(op->attr("sdy.sharding"), value.index)) return s;
  if (op->is("sdy.sharding_constraint") || op->is("sdy.data_flow_edge") || op->is("sdy.reshard"))
    return perValueEntry(op->attr("sharding"), 0);
  if (op->is("sdy.manual_computation") || op->is("sdy.named_computation"))
    if (auto s = perValueEntry(op->attr("out_shardings"), value.index)) return s;
  return dataFlowEdgeSharding(value);
}

std::optional<TensorSharding> functionResultSharding(const ir::Op& func, unsigned index) {
  return shardingInAttrList(func, "res_attrs", index);
}

std::string valueName(const ir::Value& value) {
  if (!value.sourceName.empty()) {
    std::string n = value.sourceName;
    if (n.front() != '%') n.insert(n.begin(), '%');
    if (!value.isBlockArgument() && value.definingOp && value.definingOp->numResults() > 1 &&
        n.find('#') == std::string::npos)
      n.append("#").append(std::to_string(value.index));
    return n;
  }
  if (value.isBlockArgument()) return std::string("%arg").append(std::to_string(value.index));
  if (value.definingOp && value.definingOp->numResults() > 1)
    return std::string("%r#").append(std::to_string(value.index));
  return "%r";
}

std::string shortType(const ir::Type& type) {
  if (type.isRankedTensor()) {
    std::string s;
    for (int64_t d : type.shape) {
      s += d == ir::Type::kDynamic ? std::string("?") : std::to_string(d);
      s += 'x';
    }
    return s + type.elementType;
  }
  if (type.isTensor()) return std::string("*x").append(type.elementType);
  if (type.isToken()) return "token";
  return type.str();
}

const Mesh* meshFor(const ir::Module& module, const TensorSharding& sharding) {
  if (sharding.mesh.isInline()) return &*sharding.mesh.inlineMesh;
  return module.lookupMesh(sharding.mesh.name);
}

std::vector<std::pair<std::string, Mesh>> meshes(const ir::Module& module) {
  std::vector<std::pair<std::string, Mesh>> out;
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh")) continue;
    const ir::Attribute* m = op->attr("mesh");
    const Mesh* mesh = m ? m->as<Mesh>() : nullptr;
    if (mesh) out.emplace_back(symbolName(*op), *mesh);
  }
  return out;
}

ShardLayout computeShardLayout(const std::vector<int64_t>& globalShape,
                               const TensorSharding& sharding, const Mesh& mesh) {
  ShardLayout out;
  out.globalShape = globalShape;
  const size_t rank = globalShape.size();
  if (sharding.dims.size() != rank) {
    out.error = std::string("sharding has rank ")
                    .append(std::to_string(sharding.dims.size()))
                    .append(" but the tensor has rank ")
                    .append(std::to_string(rank));
    return out;
  }
  // Validate axes.
  auto checkAxes = [&](const AxisRefList& axes) {
    for (const AxisRef& a : axes) {
      int64_t n = mesh.axisSize(a.name);
      if (n < 0) {
        out.error =
            std::string("unknown axis \"").append(a.name).append("\" in mesh ").append(mesh.str());
        return false;
      }
      if (a.subAxis && (a.subAxis->size <= 0 || a.subAxis->preSize <= 0 ||
                        n % (a.subAxis->preSize * a.subAxis->size) != 0)) {
        out.error = std::string("sub-axis ")
                        .append(a.str())
                        .append(" does not divide axis size ")
                        .append(std::to_string(n));
        return false;
      }
    }
    return true;
  };
  for (const auto& d : sharding.dims)
    if (!checkAxes(d.axes)) return out;
  if (!checkAxes(sharding.replicated) || !checkAxes(sharding.unreduced)) return out;

  out.localShape.resize(rank);
  out.padding.resize(rank);
  out.shardsPerDim.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t shards = sharding.dims[d].shardCount(mesh);
    out.shardsPerDim[d] = shards;
    int64_t pad = 0;
    out.localShape[d] = globalShape[d] < 0 ? -1 : localDimSize(globalShape[d], shards, &pad);
    out.padding[d] = globalShape[d] < 0 ? 0 : pad;
  }
  int64_t totalShards = 1;
  for (int64_t s : out.shardsPerDim) totalShards *= s;
  const int64_t total = std::max<int64_t>(1, mesh.totalSize());
  out.replicaCount = totalShards > 0 ? std::max<int64_t>(1, total / totalShards) : 1;

  // Coordinate of a device along a (sub-)axis.
  auto subCoord = [&](const std::vector<int64_t>& coords, const AxisRef& a) -> int64_t {
    int idx = mesh.axisIndex(a.name);
    int64_t c = coords[static_cast<size_t>(idx)];
    if (!a.subAxis) return c;
    int64_t n = mesh.axes[static_cast<size_t>(idx)].size;
    int64_t minor = n / (a.subAxis->preSize * a.subAxis->size);
    return (c / minor) % a.subAxis->size;
  };

  std::map<std::vector<int64_t>, std::pair<int64_t, int>> groups;  // shardIndex -> (group, count)
  out.devices.reserve(static_cast<size_t>(total));
  for (int64_t i = 0; i < total; ++i) {
    DeviceShard dev;
    dev.linearIndex = i;
    dev.deviceId = mesh.deviceIdAt(i);
    dev.coords.assign(mesh.axes.size(), 0);
    int64_t rest = i;
    for (size_t k = mesh.axes.size(); k-- > 0;) {
      dev.coords[k] = rest % mesh.axes[k].size;
      rest /= mesh.axes[k].size;
    }
    dev.shardIndex.resize(rank);
    dev.offset.resize(rank);
    dev.localShape = out.localShape;
    dev.validShape.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      int64_t idx = 0;
      for (const AxisRef& a : sharding.dims[d].axes)
        idx = idx * a.size(mesh) + subCoord(dev.coords, a);
      dev.shardIndex[d] = idx;
      dev.offset[d] = idx * out.localShape[d];
      int64_t valid = globalShape[d] < 0 ? out.localShape[d]
                                         : std::clamp<int64_t>(globalShape[d] - dev.offset[d], 0,
                                                               out.localShape[d]);
      dev.validShape[d] = valid;
    }
    auto [it, inserted] =
        groups.try_emplace(dev.shardIndex, static_cast<int64_t>(groups.size()), 0);
    dev.replicaGroup = it->second.first;
    dev.replicaRank = it->second.second++;
    out.devices.push_back(std::move(dev));
  }
  return out;
}

}  // namespace shardscope::api
