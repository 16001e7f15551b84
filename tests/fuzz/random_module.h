// Random valid StableHLO + sdy modules for the propagation fuzzer.
//
// Each module has one or two meshes (axis sizes 1 to 8, so sub-axes such as
// `"a":(2)2` fit), a `main` and up to three private functions called as a
// DAG (`main -> f1 -> f0`, `main -> f0`, never a cycle; calls also inside
// while bodies), and a body mixing elementwise ops, dot_general, reshape,
// transpose, reduce, concatenate, while loops, sharding constraints and calls. Shardings are random too:
// open or closed dimensions, priorities, sub-axes, replicated axes, on
// arguments, results and ops. The same seed always gives the same text.
//
//   RandomModuleGenerator gen(42);
//   std::string text = gen.generate();   // parses and verifies
#pragma once
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace shardscope::fuzz {

class RandomModuleGenerator {
 public:
  explicit RandomModuleGenerator(uint64_t seed) : rng_(seed) {}
  std::string generate();

 private:
  struct Axis {
    std::string name;
    int64_t size;
  };
  struct Mesh {
    std::string name;
    std::vector<Axis> axes;
  };
  using Shape = std::vector<int64_t>;
  struct Value {
    std::string name;  // with '%'
    Shape shape;
  };
  struct Function {
    std::string name;
    std::vector<Shape> params;
    std::vector<Shape> results;
  };
  // The function being written: its values and text.
  struct Body {
    std::vector<Value> values;
    std::set<std::string> used;  // values some op reads
    // Constant expressions as sdy's constant splitter sees them: constants,
    // and elementwise ops and reshapes of constant expressions only.
    std::set<std::string> constant;
    // A constant expression is read once at most: sdy's splitter copies one
    // per use and its merger joins copies whose attributes are equal, which
    // a second run can find them to be after the first closed their
    // shardings (so the two runs would differ as they do in sdy).
    bool reusable(const Value& v) const { return !constant.count(v.name) || !used.count(v.name); }
    std::string text;
    int next = 0;
    std::string indent = "  ";
    std::string fresh() { return "%" + std::to_string(next++); }
  };

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& any(const std::vector<T>& v) {
    return v[static_cast<size_t>(pick(0, static_cast<int>(v.size()) - 1))];
  }

  Shape randomShape();
  static std::string type(const Shape& shape);
  static int64_t elements(const Shape& shape);
  // A sharding of a tensor of `rank` dims: `<@mesh, [{"a", ?}p1, {}], replicated={"b"}>`.
  std::string sharding(size_t rank);
  std::string shardingPerValue(const std::vector<Shape>& shapes);
  // ` {sdy.sharding = ...}` on an op with these results, or nothing.
  std::string maybeOpSharding(const std::vector<Shape>& shapes);
  // An operand for the next op (see Body::reusable).
  Value operand(Body& body);
  // A value of `shape` in `body` (marked used), made from an existing one when needed.
  Value valueOf(Body& body, const Shape& shape);
  void emitOp(Body& body, int depth);
  void emitWhile(Body& body, int depth);
  std::string function(const Function& f, bool isMain);

  std::mt19937_64 rng_;
  std::vector<Mesh> meshes_;
  std::vector<Function> callees_;  // defined so far (callable from later ones)
  std::vector<Shape> shapePool_;   // the shapes parameters mostly take
};

}  // namespace shardscope::fuzz
