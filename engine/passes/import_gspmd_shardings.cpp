// `-xla-sdy-import-shardings` (XLA's pass of that name): GSPMD shardings in
// `mhlo.sharding` strings become sdy shardings on one common mesh.
//
//   func.func @f(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"})
// becomes
//   sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>
//   func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>})
//
// The mesh's axes are the pieces every sharding's device order can be cut
// into (gspmd_common_mesh.h); `{maximal device=N}` shardings get a mesh
// `@single_device_N = <[], device_ids=[N]>` each. Replicated and manual
// shardings are closed and empty, `{unknown}` open. Op shardings (a tuple
// for several results) become `sdy.sharding_per_value`. A module without
// tiled or maximal shardings is left as it is.
#include <map>
#include <memory>

#include "passes/import_passes.h"
#include "passes/pass.h"
#include "passes/pass_utils.h"
#include "sharding/gspmd_common_mesh.h"

namespace shardscope::passes {

namespace {

constexpr const char* kGspmdAttr = "mhlo.sharding";
constexpr const char* kCommonMeshName = "mesh";

// Where one `mhlo.sharding` string sits.
struct Site {
  ir::Op* op = nullptr;
  enum class Kind { Arg, Result, Op } kind = Kind::Op;
  unsigned index = 0;
  GspmdSharding sharding;
};

const ir::Attribute* dictEntry(const ir::Op& func, const char* arrayName, unsigned i,
                               const char* key) {
  const ir::Attribute* a = func.attr(arrayName);
  if (!a || !a->array() || i >= a->array()->elems.size()) return nullptr;
  const ir::DictionaryAttr* d = a->array()->elems[i].dict();
  return d ? d->get(key) : nullptr;
}

void eraseDictEntry(ir::Op& func, const char* arrayName, unsigned i, const char* key) {
  const ir::Attribute* a = func.attr(arrayName);
  if (!a || !a->array() || i >= a->array()->elems.size()) return;
  std::vector<ir::Attribute> elems = a->array()->elems;
  const ir::DictionaryAttr* d = elems[i].dict();
  if (!d) return;
  std::vector<ir::NamedAttribute> entries;
  for (const auto& e : d->entries)
    if (e.first != key) entries.push_back(e);
  elems[i] = ir::Attribute::makeDict(std::move(entries));
  bool inherent = false;
  for (const ir::Op::Attr& attr : func.attrs())
    if (attr.name == arrayName) inherent = attr.inherent;
  func.setAttr(arrayName, ir::Attribute::makeArray(std::move(elems)), inherent);
}

int64_t rankOfType(const ir::Type& t) { return t.isRankedTensor() ? t.rank() : 0; }

class GspmdImport {
 public:
  GspmdImport(ir::Module& module, ir::DiagnosticSink& diags) : module_(module), diags_(diags) {}

  bool run() {
    if (!collect()) return false;
    GspmdMeshBuilder builder;
    for (const Site& site : sites_) {
      std::string error;
      if (!builder.add(site.sharding, error)) {
        diags_.error(site.op->loc(), "cannot import the GSPMD sharding: " + error);
        return false;
      }
    }
    if (!builder.any()) return true;  // nothing tiled or on one device: no mesh
    std::string error;
    if (!builder.build(common_, error)) {
      diags_.error(module_.op->loc(), error);
      return false;
    }
    insertMeshes();
    for (Site& site : sites_)
      if (!convert(site)) return false;
    return true;
  }

 private:
  bool parse(ir::Op& op, const ir::Attribute* attr, Site::Kind kind, unsigned index) {
    const std::string* text = attr ? attr->string() : nullptr;
    if (!text) {
      if (attr) diags_.error(op.loc(), "'mhlo.sharding' must be a string");
      return !attr;
    }
    std::string error;
    size_t offset = 0;
    std::optional<GspmdSharding> parsed = parseGspmdSharding(*text, error, &offset);
    if (!parsed) {
      diags_.error(op.loc(), "cannot parse mhlo.sharding \"" + *text + "\" at character " +
                                 std::to_string(offset + 1) + ": " + error);
      return false;
    }
    sites_.push_back({&op, kind, index, std::move(*parsed)});
    return true;
  }

  bool collect() {
    bool ok = true;
    module_.op->walk([&](ir::Op& op) {
      if (!ok) return;
      if (util::isFuncOp(op)) {
        const unsigned args = static_cast<unsigned>(util::funcArgTypes(op).size());
        for (unsigned i = 0; i < args && ok; ++i)
          if (const ir::Attribute* a = dictEntry(op, "arg_attrs", i, kGspmdAttr))
            ok = parse(op, a, Site::Kind::Arg, i);
        for (unsigned i = 0; i < util::numFuncResults(op) && ok; ++i)
          if (const ir::Attribute* a = dictEntry(op, "res_attrs", i, kGspmdAttr))
            ok = parse(op, a, Site::Kind::Result, i);
      }
      if (const ir::Attribute* a = op.attr(kGspmdAttr); a && ok)
        ok = parse(op, a, Site::Kind::Op, 0);
    });
    return ok;
  }

  void insertMeshes() {
    util::SymbolTable symbols(module_);
    auto meshOp = [&](const std::string& name, const Mesh& mesh) {
      auto op = std::make_unique<ir::Op>("sdy.mesh", module_.op->loc());
      op->setAttr("sym_name", ir::StringAttr{name}, true);
      op->setAttr("mesh", mesh, true);
      return op;
    };
    // The common mesh first, then one mesh per maximal device, in order.
    ir::Op* last = nullptr;
    {
      auto op = meshOp(kCommonMeshName, common_.mesh);
      last = op.get();
      meshName_ = symbols.insertFirst(std::move(op));
    }
    for (int64_t device : common_.maximalDevices) {
      Mesh single;
      single.deviceIds = {device};
      auto op = meshOp(singleDeviceMeshName(device), single);
      ir::Op* raw = op.get();
      singleNames_[device] = symbols.insert(std::move(op), last);
      last = raw;
    }
  }

  std::optional<TensorSharding> sdyOf(const Site& site, const GspmdSharding& s, int64_t rank) {
    std::string error;
    std::optional<TensorSharding> out =
        toSdySharding(s, common_, meshName_, rank, /*openDims=*/false, error);
    if (!out) {
      diags_.error(site.op->loc(), "cannot import the GSPMD sharding: " + error);
      return std::nullopt;
    }
    if (s.kind == GspmdSharding::Kind::Maximal) out->mesh.name = singleNames_[s.device];
    return out;
  }

  bool convert(Site& site) {
    ir::Op& op = *site.op;
    if (site.kind != Site::Kind::Op) {
      const bool arg = site.kind == Site::Kind::Arg;
      const std::vector<ir::Type> types = arg ? util::funcArgTypes(op) : util::funcResultTypes(op);
      const int64_t rank = site.index < types.size() ? rankOfType(types[site.index]) : 0;
      std::optional<TensorSharding> s = sdyOf(site, site.sharding, rank);
      if (!s) return false;
      const char* array = arg ? "arg_attrs" : "res_attrs";
      eraseDictEntry(op, array, site.index, kGspmdAttr);
      if (arg)
        util::setFuncArgSharding(op, site.index, *s);
      else
        util::setFuncResultSharding(op, site.index, *s);
      return true;
    }
    // One sharding per result; an op without results gets one of rank 0.
    std::vector<const GspmdSharding*> flat;
    if (site.sharding.kind == GspmdSharding::Kind::Tuple)
      for (const GspmdSharding& e : site.sharding.elements) flat.push_back(&e);
    else
      flat.push_back(&site.sharding);
    const unsigned results = op.numResults();
    if (results > 0 && flat.size() != results) {
      diags_.error(op.loc(), "cannot import the GSPMD sharding: it has " +
                                 std::to_string(flat.size()) + " elements for " +
                                 std::to_string(results) + " results");
      return false;
    }
    TensorShardingPerValue perValue;
    if (results == 0) {
      std::optional<TensorSharding> s = sdyOf(site, *flat.front(), 0);
      if (!s) return false;
      perValue.shardings.push_back(std::move(*s));
    }
    for (unsigned r = 0; r < results; ++r) {
      std::optional<TensorSharding> s = sdyOf(site, *flat[r], util::rankOf(op.result(r)));
      if (!s) return false;
      perValue.shardings.push_back(std::move(*s));
    }
    op.removeAttr(kGspmdAttr);
    op.setAttr(util::kShardingAttr, perValue);
    return true;
  }

  ir::Module& module_;
  ir::DiagnosticSink& diags_;
  std::vector<Site> sites_;
  GspmdCommonMesh common_;
  std::string meshName_ = kCommonMeshName;
  std::map<int64_t, std::string> singleNames_;
};

}  // namespace

bool importGspmdShardings(ir::Module& module, ir::DiagnosticSink& diags) {
  return GspmdImport(module, diags).run();
}

void registerGspmdImportPass(std::vector<PassInfo>& out) {
  out.push_back(passWithoutOptions(
      "xla-sdy-import-shardings",
      "Build one mesh for the module's GSPMD (mhlo.sharding) shardings and turn them into sdy "
      "shardings",
      importGspmdShardings));
}

}  // namespace shardscope::passes
