// Random module text (see random_module.h).
#include "random_module.h"

#include <algorithm>
#include <numeric>

namespace shardscope::fuzz {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string intList(const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (int64_t v : values) parts.push_back(std::to_string(v));
  return "[" + join(parts) + "]";
}

}  // namespace

std::string RandomModuleGenerator::type(const Shape& shape) {
  std::string out = "tensor<";
  for (int64_t d : shape) out += std::to_string(d) + "x";
  return out + "f32>";
}

int64_t RandomModuleGenerator::elements(const Shape& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

RandomModuleGenerator::Shape RandomModuleGenerator::randomShape() {
  // Mostly multiples of the axis sizes (pipeline outputs whose shardings all
  // divide evenly are checked for idempotence), sometimes not.
  // Parameters mostly share a few shapes, so that calls find arguments
  // among the caller's values.
  if (!shapePool_.empty() && chance(0.7)) return any(shapePool_);
  static const std::vector<int64_t> kDims = {8, 8, 16, 16, 32, 4, 2, 1, 3, 6, 12};
  Shape shape(static_cast<size_t>(pick(1, 3)));
  for (int64_t& d : shape) d = any(kDims);
  return shape;
}

std::string RandomModuleGenerator::sharding(size_t rank) {
  const Mesh& mesh = meshes_.size() > 1 && chance(0.2) ? meshes_[1] : meshes_[0];
  std::vector<std::string> used;
  auto unusedAxes = [&] {
    std::vector<const Axis*> out;
    for (const Axis& a : mesh.axes)
      if (std::find(used.begin(), used.end(), a.name) == used.end() && (a.size > 1 || chance(0.2)))
        out.push_back(&a);
    return out;
  };
  std::vector<std::string> dims;
  for (size_t d = 0; d < rank; ++d) {
    std::vector<std::string> axes;
    const int count = chance(0.45) ? 0 : pick(1, 2);
    for (int k = 0; k < count; ++k) {
      std::vector<const Axis*> free = unusedAxes();
      if (free.empty()) break;
      const Axis& a = *any(free);
      used.push_back(a.name);
      std::string ref = "\"" + a.name + "\"";
      if (a.size >= 4 && chance(0.3)) {
        // A proper sub-axis (pre-size)size: pre * size divides the axis, size < axis.
        std::vector<std::pair<int64_t, int64_t>> splits;
        for (int64_t size = 2; size < a.size; size *= 2)
          for (int64_t pre = 1; pre * size <= a.size; pre *= 2)
            if (a.size % (pre * size) == 0) splits.emplace_back(pre, size);
        const auto& [pre, size] = any(splits);
        ref += ":(" + std::to_string(pre) + ")" + std::to_string(size);
      }
      axes.push_back(ref);
    }
    const bool open = chance(0.5);
    std::string dim = "{" + join(axes);
    if (open) dim += axes.empty() ? "?" : ", ?";
    dim += "}";
    if ((open || !axes.empty()) && chance(0.25)) dim += "p" + std::to_string(pick(0, 3));
    dims.push_back(dim);
  }
  std::vector<std::string> replicated;
  for (const Axis& a : mesh.axes)  // in mesh order, as the verifier wants
    if (std::find(used.begin(), used.end(), a.name) == used.end() && a.size > 1 && chance(0.15))
      replicated.push_back("\"" + a.name + "\"");
  std::string out = "<@" + mesh.name + ", [" + join(dims) + "]";
  if (!replicated.empty()) out += ", replicated={" + join(replicated) + "}";
  return out + ">";
}

std::string RandomModuleGenerator::shardingPerValue(const std::vector<Shape>& shapes) {
  std::vector<std::string> parts;
  for (const Shape& s : shapes) parts.push_back(sharding(s.size()));
  return "#sdy.sharding_per_value<[" + join(parts) + "]>";
}

std::string RandomModuleGenerator::maybeOpSharding(const std::vector<Shape>& shapes) {
  if (!chance(0.3)) return "";
  return " {sdy.sharding = " + shardingPerValue(shapes) + "}";
}

RandomModuleGenerator::Value RandomModuleGenerator::operand(Body& body) {
  std::vector<const Value*> candidates;
  for (const Value& v : body.values)
    if (body.reusable(v)) candidates.push_back(&v);
  if (candidates.empty()) return valueOf(body, any(body.values).shape);
  return *any(candidates);
}

RandomModuleGenerator::Value RandomModuleGenerator::valueOf(Body& body, const Shape& shape) {
  std::vector<const Value*> same;
  for (const Value& v : body.values)
    if (v.shape == shape && body.reusable(v)) same.push_back(&v);
  if (!same.empty() && chance(0.85)) {
    const Value* chosen = any(same);
    body.used.insert(chosen->name);
    return *chosen;
  }
  for (const Value& v : body.values) {
    if (elements(v.shape) == elements(shape) && body.reusable(v) && chance(0.5)) {
      body.used.insert(v.name);
      Value out{body.fresh(), shape};
      body.text += body.indent + out.name + " = stablehlo.reshape " + v.name +
                   maybeOpSharding({shape}) + " : (" + type(v.shape) + ") -> " + type(shape) + "\n";
      if (body.constant.count(v.name)) body.constant.insert(out.name);
      body.values.push_back(out);  // (invalidates v)
      body.used.insert(out.name);
      return out;
    }
  }
  Value out{body.fresh(), shape};
  body.text += body.indent + out.name + " = stablehlo.constant dense<1.000000e+00> : " +
               type(shape) + "\n";
  body.values.push_back(out);
  body.used.insert(out.name);
  body.constant.insert(out.name);
  return out;
}

void RandomModuleGenerator::emitOp(Body& body, int depth) {
  const Value v = operand(body);
  const std::string t = type(v.shape);
  const size_t rank = v.shape.size();
  std::string& out = body.text;
  const std::string& in = body.indent;
  Value result{body.fresh(), v.shape};
  int kind = pick(0, 13);  // 10 to 13: a call, when there is a callee
  // A scalar has no dimension to contract, reshape, reduce or concatenate.
  if (rank == 0 && (kind == 3 || kind == 4 || kind == 6 || kind == 7)) kind = 0;
  switch (kind) {
    case 0:
    case 1: {  // elementwise, two operands
      static const std::vector<std::string> kOps = {"add", "multiply", "subtract", "maximum"};
      const Value w = valueOf(body, v.shape);
      out += in + result.name + " = stablehlo." + any(kOps) + " " + v.name + ", " + w.name +
             maybeOpSharding({v.shape}) + " : " + t + "\n";
      if (body.constant.count(v.name) && body.constant.count(w.name))
        body.constant.insert(result.name);
      break;
    }
    case 2: {  // elementwise, one operand
      static const std::vector<std::string> kOps = {"negate", "abs", "exponential"};
      out += in + result.name + " = stablehlo." + any(kOps) + " " + v.name +
             maybeOpSharding({v.shape}) + " : " + t + "\n";
      if (body.constant.count(v.name)) body.constant.insert(result.name);
      break;
    }
    case 3: {  // dot_general: [m, k] x [k, n] or [b, m, k] x [b, k, n]
      if (rank < 2) return emitOp(body, depth);
      const Shape lhs(v.shape.end() - (rank == 3 ? 3 : 2), v.shape.end());
      if (rank == 3 && lhs != v.shape) return emitOp(body, depth);
      static const std::vector<int64_t> kDims = {2, 4, 8};
      Shape rhs = rank == 3 ? Shape{lhs[0], lhs[2], any(kDims)} : Shape{lhs[1], any(kDims)};
      Shape res = rank == 3 ? Shape{lhs[0], lhs[1], rhs[2]} : Shape{lhs[0], rhs[1]};
      const Value w = valueOf(body, rhs);
      result.shape = res;
      out += in + result.name + " = stablehlo.dot_general " + v.name + ", " + w.name +
             (rank == 3 ? ", batching_dims = [0] x [0], contracting_dims = [2] x [1]"
                        : ", contracting_dims = [1] x [0]") +
             maybeOpSharding({res}) + " : (" + t + ", " + type(rhs) + ") -> " + type(res) + "\n";
      break;
    }
    case 4: {  // reshape: merge two dims or split one
      Shape res = v.shape;
      if (rank >= 2 && chance(0.5)) {
        const size_t d = static_cast<size_t>(pick(0, static_cast<int>(rank) - 2));
        res[d] *= res[d + 1];
        res.erase(res.begin() + static_cast<long>(d) + 1);
      } else {
        const size_t d = static_cast<size_t>(pick(0, static_cast<int>(rank) - 1));
        const int64_t f = res[d] % 2 == 0 ? 2 : res[d] % 3 == 0 ? 3 : 1;
        if (f == 1 || rank >= 3) return emitOp(body, depth);
        res[d] /= f;
        res.insert(res.begin() + static_cast<long>(d), f);
      }
      result.shape = res;
      out += in + result.name + " = stablehlo.reshape " + v.name + maybeOpSharding({res}) + " : (" +
             t + ") -> " + type(res) + "\n";
      if (body.constant.count(v.name)) body.constant.insert(result.name);
      break;
    }
    case 5: {  // transpose
      std::vector<int64_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng_);
      Shape res(rank);
      for (size_t i = 0; i < rank; ++i) res[i] = v.shape[static_cast<size_t>(perm[i])];
      result.shape = res;
      out += in + result.name + " = stablehlo.transpose " + v.name + ", dims = " + intList(perm) +
             maybeOpSharding({res}) + " : (" + t + ") -> " + type(res) + "\n";
      break;
    }
    case 6: {  // reduce one dimension
      const int64_t d = pick(0, static_cast<int>(rank) - 1);
      Shape res = v.shape;
      res.erase(res.begin() + d);
      const std::string init = body.fresh();
      out += in + init + " = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n";
      result.shape = res;
      out += in + result.name + " = stablehlo.reduce(" + v.name + " init: " + init +
             ") applies stablehlo.add across dimensions = [" + std::to_string(d) + "]" +
             maybeOpSharding({res}) + " : (" + t + ", tensor<f32>) -> " + type(res) + "\n";
      break;
    }
    case 7: {  // concatenate
      const int64_t d = pick(0, static_cast<int>(rank) - 1);
      const Value w = valueOf(body, v.shape);
      Shape res = v.shape;
      res[static_cast<size_t>(d)] *= 2;
      result.shape = res;
      out += in + result.name + " = stablehlo.concatenate " + v.name + ", " + w.name +
             ", dim = " + std::to_string(d) + maybeOpSharding({res}) + " : (" + t + ", " + t +
             ") -> " + type(res) + "\n";
      break;
    }
    case 8: {  // sharding constraint
      out += in + result.name + " = sdy.sharding_constraint " + v.name + " " + sharding(rank) +
             " : " + t + "\n";
      break;
    }
    case 9: {  // while loop over the value
      if (depth > 0) return emitOp(body, depth);
      return emitWhile(body, depth);
    }
    default: {  // a call
      // Calls in a loop body too: the call graph passes see them nested.
      if (callees_.empty() || (depth > 0 && chance(0.5))) return emitOp(body, depth);
      // Mostly a callee that can take a value at hand (not only constants).
      std::vector<Function> fitting;
      for (const Function& g : callees_)
        for (const Value& x : body.values)
          if (!body.constant.count(x.name) &&
              std::find(g.params.begin(), g.params.end(), x.shape) != g.params.end()) {
            fitting.push_back(g);
            break;
          }
      const Function f = !fitting.empty() && chance(0.8) ? any(fitting) : any(callees_);
      std::vector<std::string> args, argTypes, resTypes;
      bool allConstant = true;
      for (const Shape& p : f.params) {
        args.push_back(valueOf(body, p).name);
        argTypes.push_back(type(p));
        allConstant = allConstant && body.constant.count(args.back());
      }
      // sdy's constant splitter copies a call of constants to a function
      // without sharding constraints per use; the pipeline turns a callee's
      // constraints into reshards, so a second run would split a call the
      // first kept whole. Such calls are left out (see the fuzzer's header).
      if (allConstant) return emitOp(body, depth);
      for (const Shape& r : f.results) resTypes.push_back(type(r));
      const std::string name = result.name;
      const std::string results =
          f.results.size() == 1 ? name : name + ":" + std::to_string(f.results.size());
      out += in + results + " = func.call @" + f.name + "(" + join(args) + ")" +
             maybeOpSharding(f.results) + " : (" + join(argTypes) + ") -> " +
             (f.results.size() == 1 ? resTypes[0] : "(" + join(resTypes) + ")") + "\n";
      for (size_t i = 0; i < f.results.size(); ++i)
        body.values.push_back(
            {f.results.size() == 1 ? name : name + "#" + std::to_string(i), f.results[i]});
      return;
    }
  }
  body.used.insert(v.name);
  body.values.push_back(result);
}

void RandomModuleGenerator::emitWhile(Body& body, int depth) {
  const Value v = operand(body);
  const std::string t = type(v.shape);
  const std::string counter = body.fresh();
  body.text += body.indent + counter + " = stablehlo.constant dense<0> : tensor<i32>\n";
  const std::string loop = body.fresh();
  const std::string iter = "%iterArg_" + std::to_string(body.next++);
  const std::string count = "%iterArg_" + std::to_string(body.next++);
  Body inner;
  inner.next = body.next;
  inner.indent = body.indent + "  ";
  inner.values.push_back({iter, v.shape});
  const std::string limit = inner.fresh(), cmp = inner.fresh();
  std::string cond = inner.indent + limit + " = stablehlo.constant dense<3> : tensor<i32>\n" +
                     inner.indent + cmp + " = stablehlo.compare LT, " + count + ", " + limit +
                     " : (tensor<i32>, tensor<i32>) -> tensor<i1>\n" + inner.indent +
                     "stablehlo.return " + cmp + " : tensor<i1>\n";
  const std::string one = inner.fresh(), next = inner.fresh();
  inner.text += inner.indent + one + " = stablehlo.constant dense<1> : tensor<i32>\n" +
                inner.indent + next + " = stablehlo.add " + count + ", " + one +
                " : tensor<i32>\n";
  for (int i = pick(1, 3); i > 0; --i) emitOp(inner, depth + 1);
  // The loop carries its value's shape: the last value of that shape.
  std::string yielded = iter;
  for (const Value& x : inner.values)
    if (x.shape == v.shape) yielded = x.name;
  body.next = inner.next;
  body.text += body.indent + loop + ":2 = stablehlo.while(" + iter + " = " + v.name + ", " +
               count + " = " + counter + ") : " + t + ", tensor<i32>\n" + body.indent +
               "  cond {\n" + cond + body.indent + "} do {\n" + inner.text + inner.indent +
               "stablehlo.return " + yielded + ", " + next + " : " + t + ", tensor<i32>\n" +
               body.indent + "}\n";
  body.used.insert(v.name);
  body.values.push_back({loop + "#0", v.shape});
}

std::string RandomModuleGenerator::function(const Function& f, bool isMain) {
  Body body;
  std::vector<std::string> params;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const std::string name = "%arg" + std::to_string(i);
    body.values.push_back({name, f.params[i]});
    std::string p = name + ": " + type(f.params[i]);
    if (chance(0.5)) p += " {sdy.sharding = #sdy.sharding" + sharding(f.params[i].size()) + "}";
    params.push_back(p);
  }
  for (int i = pick(1, isMain ? 10 : 4); i > 0; --i) emitOp(body, 0);
  // Results: every value no op reads (a module without dead code: the
  // pipeline may drop dead calls on a second run where it kept them on the
  // first, as sdy does once constraints became reshards), else the last one.
  std::vector<Value> results;
  for (const Value& v : body.values)
    if (!body.used.count(v.name) && v.name.rfind("%arg", 0) != 0) results.push_back(v);
  if (results.empty()) results.push_back(body.values.back());
  Function& defined = callees_.emplace_back(f);
  defined.results.clear();
  std::vector<std::string> resTypes, names, types;
  for (const Value& r : results) {
    defined.results.push_back(r.shape);
    std::string rt = type(r.shape);
    if (chance(0.4)) rt += " {sdy.sharding = #sdy.sharding" + sharding(r.shape.size()) + "}";
    resTypes.push_back(rt);
    names.push_back(r.name);
    types.push_back(type(r.shape));
  }
  if (isMain) callees_.pop_back();
  return std::string("func.func ") + (isMain ? "@" : "private @") + f.name + "(" +
         join(params) + ") -> (" + join(resTypes) + ") {\n" + body.text + "  return " +
         join(names) + " : " + join(types) + "\n}\n";
}

std::string RandomModuleGenerator::generate() {
  meshes_.clear();
  callees_.clear();
  shapePool_.clear();
  // Pool shapes mostly divide by every axis: a callee result that does not
  // divide is normalised in every run, so its module is never checked for
  // idempotence (see propagation_fuzzer.cpp).
  for (int i = pick(1, 3); i > 0; --i) {
    Shape shape = randomShape();
    if (chance(0.8))
      for (int64_t& d : shape) d = any(std::vector<int64_t>{8, 16, 32, 24});
    shapePool_.push_back(shape);
  }
  static const std::vector<std::string> kNames = {"a", "b", "c", "x", "y"};
  static const std::vector<int64_t> kSizes = {1, 2, 2, 2, 4, 4, 8, 3};
  std::string text;
  const int numMeshes = chance(0.2) ? 2 : 1;
  for (int m = 0; m < numMeshes; ++m) {
    Mesh mesh{m == 0 ? "mesh" : "mesh_" + std::to_string(m), {}};
    std::vector<std::string> names = kNames;
    std::shuffle(names.begin(), names.end(), rng_);
    for (int i = pick(1, 3); i > 0; --i) mesh.axes.push_back({names[static_cast<size_t>(i)], any(kSizes)});
    std::vector<std::string> axes;
    for (const Axis& a : mesh.axes) axes.push_back("\"" + a.name + "\"=" + std::to_string(a.size));
    text += "sdy.mesh @" + mesh.name + " = <[" + join(axes) + "]>\n";
    meshes_.push_back(mesh);
  }
  std::string functions;
  for (int i = 0, n = chance(0.15) ? 0 : pick(1, 3); i < n; ++i) {
    Function f{"f" + std::to_string(i), {}, {}};
    for (int p = pick(1, 2); p > 0; --p) f.params.push_back(randomShape());
    functions += function(f, false);
  }
  Function main{"main", {}, {}};
  for (int p = pick(1, 3); p > 0; --p) main.params.push_back(randomShape());
  return text + functions + function(main, true);
}

}  // namespace shardscope::fuzz
