// Propagation trace: JSON and replay (see propagation_trace.h).
#include "propagation/propagation_trace.h"

#include <nlohmann/json.hpp>

#include "propagation/value_shardings.h"

namespace shardscope::propagation {

using nlohmann::json;

namespace {

json axisToJson(const AxisRef& a) {
  json j;
  j["name"] = a.name;
  if (a.subAxis) {
    j["pre"] = a.subAxis->preSize;
    j["size"] = a.subAxis->size;
  }
  return j;
}

AxisRef axisFromJson(const json& j) {
  AxisRef a;
  a.name = j.at("name").get<std::string>();
  if (j.contains("pre")) a.subAxis = SubAxisInfo{j.at("pre").get<int64_t>(), j.at("size").get<int64_t>()};
  return a;
}

json axesToJson(const AxisRefList& l) {
  json arr = json::array();
  for (const AxisRef& a : l) arr.push_back(axisToJson(a));
  return arr;
}

AxisRefList axesFromJson(const json& j) {
  AxisRefList out;
  for (const json& a : j) out.push_back(axisFromJson(a));
  return out;
}

json meshToJson(const Mesh& m) {
  json j;
  json axes = json::array();
  for (const MeshAxis& a : m.axes) axes.push_back({{"name", a.name}, {"size", a.size}});
  j["axes"] = axes;
  j["device_ids"] = m.deviceIds;
  return j;
}

Mesh meshFromJson(const json& j) {
  Mesh m;
  for (const json& a : j.at("axes")) m.axes.push_back({a.at("name").get<std::string>(), a.at("size").get<int64_t>()});
  m.deviceIds = j.at("device_ids").get<std::vector<int64_t>>();
  return m;
}

json shardingToJson(const TensorSharding& s) {
  json j;
  j["mesh"] = s.mesh.name;
  if (s.mesh.inlineMesh) j["inline_mesh"] = meshToJson(*s.mesh.inlineMesh);
  json dims = json::array();
  for (const DimensionSharding& d : s.dims) {
    json dj;
    dj["axes"] = axesToJson(d.axes);
    dj["closed"] = d.closed;
    if (d.priority) dj["priority"] = *d.priority;
    dims.push_back(dj);
  }
  j["dims"] = dims;
  j["replicated"] = axesToJson(s.replicated);
  j["unreduced"] = axesToJson(s.unreduced);
  if (s.unreducedReduction != "sum") j["unreduced_reduction"] = s.unreducedReduction;
  j["text"] = s.str();
  return j;
}

TensorSharding shardingFromJson(const json& j) {
  TensorSharding s;
  s.mesh.name = j.at("mesh").get<std::string>();
  if (j.contains("inline_mesh")) s.mesh.inlineMesh = meshFromJson(j.at("inline_mesh"));
  for (const json& dj : j.at("dims")) {
    DimensionSharding d;
    d.axes = axesFromJson(dj.at("axes"));
    d.closed = dj.at("closed").get<bool>();
    if (dj.contains("priority")) d.priority = dj.at("priority").get<int64_t>();
    s.dims.push_back(d);
  }
  s.replicated = axesFromJson(j.at("replicated"));
  s.unreduced = axesFromJson(j.at("unreduced"));
  if (j.contains("unreduced_reduction")) s.unreducedReduction = j.at("unreduced_reduction").get<std::string>();
  return s;
}

json tableToJson(const TraceFactorTable& t) {
  json rows = json::array();
  for (const TraceTensorRow& r : t.rows) {
    json rj;
    rj["tensor"] = r.tensor;
    rj["value"] = r.value;
    json factors = json::array();
    for (const TraceFactorCell& c : r.factors) {
      json cj;
      cj["factor"] = c.factor;
      cj["axes"] = axesToJson(c.axes);
      cj["overflow_axes"] = axesToJson(c.overflowAxes);
      cj["closed"] = c.closed;
      cj["minor_most"] = c.minorMost;
      factors.push_back(cj);
    }
    rj["factors"] = factors;
    rj["replicated"] = axesToJson(r.replicated);
    rj["unreduced"] = axesToJson(r.unreduced);
    rows.push_back(rj);
  }
  return rows;
}

TraceFactorTable tableFromJson(const json& j) {
  TraceFactorTable t;
  for (const json& rj : j) {
    TraceTensorRow r;
    r.tensor = rj.at("tensor").get<std::string>();
    r.value = rj.at("value").get<std::string>();
    for (const json& cj : rj.at("factors")) {
      TraceFactorCell c;
      c.factor = cj.at("factor").get<int64_t>();
      c.axes = axesFromJson(cj.at("axes"));
      c.overflowAxes = axesFromJson(cj.at("overflow_axes"));
      c.closed = cj.at("closed").get<bool>();
      c.minorMost = cj.at("minor_most").get<bool>();
      r.factors.push_back(c);
    }
    r.replicated = axesFromJson(rj.at("replicated"));
    r.unreduced = axesFromJson(rj.at("unreduced"));
    t.rows.push_back(r);
  }
  return t;
}

}  // namespace

TraceFactorTable toTraceTable(const ShardingProjection& p, const std::vector<std::string>& valueNames) {
  TraceFactorTable t;
  for (size_t i = 0; i < p.numTensors(); ++i) {
    const TensorFactorShardings& row = p.tensor(i);
    TraceTensorRow r;
    bool isResult = i >= p.numOperands();
    r.tensor = (isResult ? "result-" : "operand-") + std::to_string(isResult ? i - p.numOperands() : i);
    if (i < valueNames.size()) r.value = valueNames[i];
    for (const auto& [f, fs] : row.factors)
      r.factors.push_back({f, fs.axes, fs.overflowAxes, fs.closed, fs.minorMost});
    r.replicated = row.replicated;
    r.unreduced = row.unreduced;
    t.rows.push_back(r);
  }
  return t;
}

std::string traceToJson(const PropagationTrace& trace, int indent) {
  json j;
  j["format"] = "shardscope-propagation-trace";
  j["version"] = trace.version;
  json steps = json::array();
  for (const TraceStep& s : trace.steps) {
    json sj;
    sj["step"] = s.step;
    sj["user_priority"] = s.userPriority;
    sj["op_priority"] = s.opPriority;
    sj["strategy"] = s.strategy;
    sj["iteration"] = s.iteration;
    sj["visit"] = s.visit;
    sj["op"] = s.op;
    sj["op_index"] = s.opIndex;
    sj["line"] = s.line;
    sj["col"] = s.col;
    sj["rule"] = s.rule;
    sj["directions"] = s.directions;
    sj["before"] = tableToJson(s.before);
    sj["after"] = tableToJson(s.after);
    json moves = json::array();
    for (const TraceAxisMove& m : s.moves)
      moves.push_back({{"factor", m.factor}, {"axis", axisToJson(m.axis)}, {"from", m.from}, {"to", m.to}});
    sj["moves"] = moves;
    json conflicts = json::array();
    for (const TraceConflict& c : s.conflicts) conflicts.push_back({{"factor", c.factor}, {"reason", c.reason}});
    sj["conflicts"] = conflicts;
    json updates = json::array();
    for (const TraceValueUpdate& u : s.updates) {
      json uj;
      uj["value"] = {{"kind", u.value.kind}, {"op", u.value.op}, {"region", u.value.region}, {"index", u.value.index}};
      uj["sharding"] = shardingToJson(u.sharding);
      updates.push_back(uj);
    }
    sj["updates"] = updates;
    steps.push_back(sj);
  }
  j["steps"] = steps;
  j["notes"] = trace.notes;
  return j.dump(indent);
}

std::optional<PropagationTrace> traceFromJson(const std::string& text, std::string* error) {
  try {
    json j = json::parse(text);
    PropagationTrace t;
    t.version = j.at("version").get<int>();
    for (const json& sj : j.at("steps")) {
      TraceStep s;
      s.step = sj.at("step").get<int64_t>();
      s.userPriority = sj.at("user_priority").get<int64_t>();
      s.opPriority = sj.at("op_priority").get<int64_t>();
      s.strategy = sj.at("strategy").get<std::string>();
      s.iteration = sj.at("iteration").get<int64_t>();
      s.visit = sj.value("visit", int64_t{0});
      s.op = sj.at("op").get<std::string>();
      s.opIndex = sj.at("op_index").get<int64_t>();
      s.line = sj.at("line").get<uint32_t>();
      s.col = sj.at("col").get<uint32_t>();
      s.rule = sj.at("rule").get<std::string>();
      s.directions = sj.at("directions").get<std::vector<std::string>>();
      s.before = tableFromJson(sj.at("before"));
      s.after = tableFromJson(sj.at("after"));
      for (const json& m : sj.at("moves"))
        s.moves.push_back({m.at("factor").get<int64_t>(), axisFromJson(m.at("axis")),
                           m.at("from").get<std::string>(), m.at("to").get<std::string>()});
      for (const json& c : sj.at("conflicts"))
        s.conflicts.push_back({c.at("factor").get<int64_t>(), c.at("reason").get<std::string>()});
      for (const json& u : sj.at("updates")) {
        TraceValueUpdate up;
        const json& v = u.at("value");
        up.value.kind = v.at("kind").get<std::string>();
        up.value.op = v.at("op").get<int64_t>();
        up.value.region = v.at("region").get<int64_t>();
        up.value.index = v.at("index").get<int64_t>();
        up.sharding = shardingFromJson(u.at("sharding"));
        s.updates.push_back(up);
      }
      t.steps.push_back(std::move(s));
    }
    if (j.contains("notes")) t.notes = j.at("notes").get<std::vector<std::string>>();
    return t;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

std::vector<ir::Op*> preOrderOps(ir::Module& module) {
  std::vector<ir::Op*> out;
  for (auto& op : module.body().ops())
    op->walkPreOrder([&](ir::Op& o) {
      out.push_back(&o);
      return true;
    });
  return out;
}

ir::Value* resolveValueRef(ir::Module& module, const TraceValueRef& ref, ir::Op** funcOut) {
  return resolveValueRef(preOrderOps(module), ref, funcOut);
}

ir::Value* resolveValueRef(const std::vector<ir::Op*>& ops, const TraceValueRef& ref,
                           ir::Op** funcOut) {
  if (ref.op < 0 || ref.op >= static_cast<int64_t>(ops.size())) return nullptr;
  ir::Op* op = ops[ref.op];
  if (ref.kind == "func_result") {
    if (funcOut) *funcOut = op;
    return nullptr;
  }
  if (ref.kind == "block_arg") {
    if (ref.region < 0 || ref.region >= op->numRegions() || op->region(ref.region).empty()) return nullptr;
    ir::Block& b = op->region(ref.region).front();
    return ref.index >= 0 && ref.index < b.numArguments() ? b.argument(ref.index) : nullptr;
  }
  return ref.index >= 0 && ref.index < op->numResults() ? op->result(ref.index) : nullptr;
}

bool replayTrace(ir::Module& module, const PropagationTrace& trace, std::string* error) {
  const std::vector<ir::Op*> ops = preOrderOps(module);
  for (const TraceStep& s : trace.steps)
    for (const TraceValueUpdate& u : s.updates) {
      ir::Op* func = nullptr;
      ir::Value* v = resolveValueRef(ops, u.value, &func);
      if (u.value.kind == "func_result") {
        if (!func || !func->is("func.func")) {
          if (error) *error = "step " + std::to_string(s.step) + ": no function at op " + std::to_string(u.value.op);
          return false;
        }
        setFuncResultSharding(*func, static_cast<unsigned>(u.value.index), u.sharding);
        continue;
      }
      if (!v) {
        if (error) *error = "step " + std::to_string(s.step) + ": unresolved value at op " + std::to_string(u.value.op);
        return false;
      }
      setSharding(v, u.sharding);
    }
  return true;
}

}  // namespace shardscope::propagation
