#include "api/document.h"

#include "passes/import_passes.h"

#include <algorithm>
#include <map>
#include <optional>

#include "api/diagnostic_location.h"
#include "api/staged_load.h"
#include "io/binary_content.h"
#include "io/input_file.h"
#include "sharding/checked_size.h"
#include "ir/parser.h"
#include "ir/sharding_attr_access.h"
#include "passes/import_passes.h"
#if __has_include("verifier/verifier.h")
#include "verifier/verifier.h"
#include "verifier/verify_read_module.h"
#define SHARDSCOPE_HAVE_VERIFIER 1
#endif

namespace shardscope::api {

bool Document::hasErrors() const { return errorCount() > 0; }

int Document::errorCount() const {
  return static_cast<int>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const ir::Diagnostic& d) { return d.severity == ir::Severity::Error; }));
}

const char* loadStageName(LoadStage stage) {
  switch (stage) {
    case LoadStage::Read:
      return "file error";
    case LoadStage::Parse:
      return "parse error";
    case LoadStage::Verify:
      return "verifier error";
  }
  return "error";
}

namespace {

// A module exported with GSPMD shardings and no sdy mesh opens with its
// shardings imported, so every view has sdy shardings to show.
std::string importGspmdShardingsIfAny(ir::Module& module, ir::DiagnosticSink& sink,
                                      const std::function<void()>& beforeChange) {
  bool gspmd = false, meshes = false;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.mesh")) meshes = true;
    if (gspmd) return;
    if (op.hasAttr("mhlo.sharding")) gspmd = true;
    for (const char* array : {"arg_attrs", "res_attrs"})
      if (const ir::Attribute* a = op.attr(array); a && a->array())
        for (const ir::Attribute& entry : a->array()->elems)
          if (const ir::DictionaryAttr* d = entry.dict(); d && d->get("mhlo.sharding")) gspmd = true;
  });
  if (!gspmd || meshes) return {};
  if (beforeChange) beforeChange();
  const size_t before = sink.all().size();
  if (!passes::importGspmdShardings(module, sink)) return {};
  if (sink.all().size() != before) return {};
  std::string note = "GSPMD shardings (mhlo.sharding) imported as sdy shardings";
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      if (const ir::Attribute* a = op->attr("mesh"))
        if (const Mesh* mesh = a->as<Mesh>()) {
          note += " on @" + symbolName(*op) + " = " + mesh->str();
          break;
        }
  note += ", as -xla-sdy-import-shardings does; the source keeps the original strings";
  sink.note({1, 1}, note);
  return note;
}

// What a stopped open gives: nothing of the file, and why.
std::shared_ptr<Document> cancelledDocument(std::string name) {
  auto doc = std::make_shared<Document>();
  doc->name = std::move(name);
  doc->cancelled = true;
  doc->diagnostics.push_back({ir::Severity::Note, {}, ir::kReadCancelled});
  return doc;
}

// Where each stage of an open ends on the progress bar: parsing is most
// of the time, verifying most of the rest.
constexpr double kReadDone = 0.05, kParseDone = 0.85, kVerifyDone = 0.97;

std::string baseName(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

namespace {

std::shared_ptr<Document> parseInStages(std::string text, std::string name,
                                        const LoadProgress* progress, const AfterParse* after) {
  if (progress && progress->stopped()) return cancelledDocument(std::move(name));
  auto doc = std::make_shared<Document>();
  doc->name = std::move(name);
  doc->text = std::move(text);
  if (after && after->read) after->read(doc);
  ir::DiagnosticSink sink;
  ir::ParseOptions opts;
  opts.fileName = doc->name;
  bool stoppedInReader = false;  // asked once: the answer is kept
  if (progress)
    opts.progress = [progress, &stoppedInReader](size_t consumed, size_t total) {
      progress->at(kReadDone + (kParseDone - kReadDone) * double(consumed) / double(total ? total : 1));
      stoppedInReader = progress->stopped();
      return !stoppedInReader;
    };
  doc->module = ir::parseModule(doc->text, opts, sink);
  if (progress && (stoppedInReader || progress->stopped()))
    return cancelledDocument(std::move(doc->name));
  if (progress) progress->at(kParseDone);
  if (sink.hasErrors()) doc->failedStage = LoadStage::Parse;
  if (after && after->parsed && doc->module && !sink.hasErrors()) after->parsed(doc);
#ifdef SHARDSCOPE_HAVE_VERIFIER
  if (doc->module && !sink.hasErrors()) {
    // Verifier errors in an attribute are underlined at the attribute (an
    // unknown axis at the axis), not at the start of its op; the module
    // shown stays this reading's (`after` may be using it).
    if (!verifyReadModule(doc->text, opts, *doc->module, sink, SitePlacement::Error))
      doc->failedStage = LoadStage::Verify;
  }
#endif
  if (progress && progress->stopped()) return cancelledDocument(std::move(doc->name));
  if (progress) progress->at(kVerifyDone);
  if (doc->module && !sink.hasErrors()) {
    doc->gspmdImportNote = importGspmdShardingsIfAny(
        *doc->module, sink, after ? after->beforeChange : std::function<void()>());
    // A GSPMD sharding the import cannot read is an invalid attribute.
    if (sink.hasErrors()) doc->failedStage = LoadStage::Verify;
  }
  doc->diagnostics = sink.all();
  if (doc->module) pointDiagnosticsAtAxes(doc->text, *doc->module, doc->diagnostics);
  std::stable_sort(doc->diagnostics.begin(), doc->diagnostics.end(),
                   [](const ir::Diagnostic& a, const ir::Diagnostic& b) {
                     if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
                     return a.loc.col < b.loc.col;
                   });
  return doc;
}

std::shared_ptr<Document> loadInStages(const std::string& path, const LoadProgress* progress,
                                       const AfterParse* after) {
  if (progress) progress->at(0);
  std::string text, error;
  bool readable = io::readInputFile(path, io::kDefaultMaxInputBytes, text, error);
  if (readable)
    if (std::optional<std::string> binary = io::binaryContentProblem(text)) {
      error = path + ": " + *binary;
      readable = false;
    }
  if (!readable) {
    auto doc = std::make_shared<Document>();
    doc->path = path;
    doc->name = baseName(path);
    doc->diagnostics.push_back({ir::Severity::Error, {}, error});
    doc->failedStage = LoadStage::Read;
    return doc;
  }
  if (progress) progress->at(kReadDone);
  auto doc = parseInStages(std::move(text), baseName(path), progress, after);
  doc->path = path;
  if (progress && !doc->cancelled) progress->at(1);
  return doc;
}

}  // namespace

std::shared_ptr<Document> parseDocument(std::string text, std::string name,
                                        const LoadProgress* progress) {
  return parseInStages(std::move(text), std::move(name), progress, nullptr);
}

std::shared_ptr<Document> loadDocument(const std::string& path, const LoadProgress* progress) {
  return loadInStages(path, progress, nullptr);
}

std::shared_ptr<Document> loadDocument(const std::string& path, const LoadProgress* progress,
                                       const AfterParse& after) {
  return loadInStages(path, progress, &after);
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

// Between the import and the export passes of the propagation pipeline, a
// data-flow edge owner's value (a while or case result, a named
// computation's block argument) carries its sharding on the
// `sdy.data_flow_edge` that takes it.
std::optional<TensorSharding> dataFlowEdgeSharding(const ir::Value& value) {
  for (const ir::Use& use : value.uses())
    if (use.user && use.user->is("sdy.data_flow_edge"))
      return ir::valueShardingIn(use.user->attr("sharding"), 0);
  return std::nullopt;
}

}  // namespace

std::optional<TensorSharding> valueSharding(const ir::Value& value) {
  if (value.isBlockArgument()) {
    ir::Op* owner = value.ownerBlock->parentOp();
    if (!owner) return std::nullopt;
    if (owner->is("func.func")) return shardingInAttrList(*owner, "arg_attrs", value.index);
    if (owner->is("sdy.manual_computation") || owner->is("sdy.named_computation"))
      if (auto s = ir::valueShardingIn(owner->attr("in_shardings"), value.index)) return s;
    // A loop-carried value is sharded as the while's result it becomes.
    if (owner->is("stablehlo.while") && value.index < owner->numResults())
      return valueSharding(*owner->result(value.index));
    return dataFlowEdgeSharding(value);
  }
  const ir::Op* op = value.definingOp;
  if (!op) return std::nullopt;
  if (auto s = ir::valueShardingIn(op->attr("sdy.sharding"), value.index)) return s;
  if (op->is("sdy.sharding_constraint") || op->is("sdy.data_flow_edge") || op->is("sdy.reshard"))
    return ir::valueShardingIn(op->attr("sharding"), 0);
  if (op->is("sdy.manual_computation") || op->is("sdy.named_computation"))
    if (auto s = ir::valueShardingIn(op->attr("out_shardings"), value.index)) return s;
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

namespace {

// The number of devices of `mesh`, or why it cannot be laid out: the layout
// divides and takes remainders by axis sizes, so a size below 1 or a device
// count beyond int64 (both rejected by the verifier) must stop it here too.
std::optional<int64_t> deviceCount(const Mesh& mesh, std::string& error) {
  int64_t total = 1;
  for (const MeshAxis& axis : mesh.axes) {
    if (axis.size < 1) {
      error = "mesh axis \"" + axis.name + "\" has size " + std::to_string(axis.size) +
              "; an axis needs at least one device";
      return std::nullopt;
    }
    std::optional<int64_t> next = checkedMul(total, axis.size);
    if (!next) {
      error = "mesh " + mesh.str() + " has more devices than a 64-bit count holds";
      return std::nullopt;
    }
    total = *next;
  }
  if (!mesh.deviceIds.empty() && static_cast<int64_t>(mesh.deviceIds.size()) != total) {
    error = "mesh has " + std::to_string(total) + " devices but " +
            std::to_string(mesh.deviceIds.size()) + " device ids";
    return std::nullopt;
  }
  return total;
}

// Checks that every axis of `axes` is in `mesh` and every sub-axis divides
// its axis (without overflowing); returns the product of their sizes (the
// shard count along a dimension sharded by them).
std::optional<int64_t> checkedAxesSize(const AxisRefList& axes, const Mesh& mesh,
                                       std::string& error) {
  int64_t product = 1;
  for (const AxisRef& a : axes) {
    const int64_t n = mesh.axisSize(a.name);
    if (n < 0) {
      error = "unknown axis \"" + a.name + "\" in mesh " + mesh.str();
      return std::nullopt;
    }
    int64_t size = n;
    if (a.subAxis) {
      std::optional<int64_t> span = a.subAxis->size >= 1 && a.subAxis->preSize >= 1
                                        ? checkedMul(a.subAxis->preSize, a.subAxis->size)
                                        : std::nullopt;
      if (!span || n % *span != 0) {
        error = "sub-axis " + a.str() + " does not divide axis size " + std::to_string(n);
        return std::nullopt;
      }
      size = a.subAxis->size;
    }
    std::optional<int64_t> next = checkedMul(product, size);
    if (!next) {
      error = "the axes " + a.str() + " and those before it shard a dimension more than " +
              "a 64-bit count holds";
      return std::nullopt;
    }
    product = *next;
  }
  return product;
}

}  // namespace

ShardLayout computeShardLayout(const std::vector<int64_t>& globalShape,
                               const TensorSharding& sharding, const Mesh& mesh,
                               int64_t maxListedDevices) {
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
  const std::optional<int64_t> total = deviceCount(mesh, out.error);
  if (!total) return out;
  out.deviceCount = *total;

  out.localShape.resize(rank);
  out.padding.resize(rank);
  out.shardsPerDim.resize(rank);
  int64_t totalShards = 1;
  for (size_t d = 0; d < rank; ++d) {
    const std::optional<int64_t> shards = checkedAxesSize(sharding.dims[d].axes, mesh, out.error);
    if (!shards) return out;
    out.shardsPerDim[d] = *shards;
    int64_t pad = 0;
    out.localShape[d] = globalShape[d] < 0 ? -1 : localDimSize(globalShape[d], *shards, &pad);
    out.padding[d] = globalShape[d] < 0 ? 0 : pad;
    // Distinct axes of one mesh never multiply past its device count; a
    // sharding that reuses an axis can, and gets no replica count.
    totalShards = checkedMul(totalShards, *shards).value_or(0);
  }
  if (!checkedAxesSize(sharding.replicated, mesh, out.error) ||
      !checkedAxesSize(sharding.unreduced, mesh, out.error))
    return out;
  out.replicaCount = totalShards > 0 ? std::max<int64_t>(1, *total / totalShards) : 1;
  // A large mesh is summarised (shards, local shape, copies) without a list
  // of its devices: 2^40 entries would not fit in memory.
  if (*total > maxListedDevices) return out;

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
  out.devices.reserve(static_cast<size_t>(*total));
  for (int64_t i = 0; i < *total; ++i) {
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
