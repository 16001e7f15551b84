// `-sdy-sharding-group-import`: canonicalize and check sharding groups.
//
// Groups that share a value are one group: with
//   sdy.sharding_group %a group_id=0, sdy.sharding_group %a group_id=1,
//   sdy.sharding_group %b group_id=1
// %a and %b end up in group 0. Groups are then renumbered 0..N-1 and a value
// is kept once per group. Each group must stay within one manual computation
// level and hold values of one shape.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

int64_t groupIdOf(const ir::Op& op) {
  const ir::Attribute* a = op.attr("group_id");
  if (a && a->integer()) return *a->integer();
  return 0;
}

void setGroupId(ir::Op& op, int64_t id) {
  std::string type = "i64";
  bool inherent = true;
  for (const ir::Op::Attr& a : op.attrs())
    if (a.name == "group_id") {
      inherent = a.inherent;
      if (auto* i = a.value.as<ir::IntegerAttr>()) type = i->type;
    }
  op.setAttr("group_id", ir::IntegerAttr{id, type}, inherent);
}

// Union-find over group ids; the class leader is kept as in llvm's
// EquivalenceClasses (the leader of the first argument of a union), and
// classes are enumerated in the order their first member was inserted.
class GroupClasses {
 public:
  void unite(int64_t a, int64_t b) {
    int64_t la = find(add(a));
    int64_t lb = find(add(b));
    if (la != lb) parent_[lb] = la;
  }
  int64_t leader(int64_t id) { return find(id); }
  const std::vector<int64_t>& members() const { return order_; }
  bool isLeader(int64_t id) { return find(id) == id; }

 private:
  int64_t add(int64_t id) {
    if (parent_.try_emplace(id, id).second) order_.push_back(id);
    return id;
  }
  int64_t find(int64_t id) {
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }
  std::unordered_map<int64_t, int64_t> parent_;
  std::vector<int64_t> order_;
};

}  // namespace

bool shardingGroupImport(ir::Module& module, ir::DiagnosticSink& diags) {
  // Value -> its sharding_group ops, in the order values were first seen.
  std::vector<ir::Value*> values;
  std::unordered_map<ir::Value*, std::vector<ir::Op*>> groupsOf;
  std::map<int64_t, ir::Op*> groupToManual;
  std::map<int64_t, std::vector<int64_t>> groupToShape;
  bool ok = true;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.sharding_group")) return ok;

  std::vector<ir::Op*> groupOps;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.sharding_group") && op.numOperands() == 1) groupOps.push_back(&op);
  });
  for (ir::Op* op : groupOps) {
    ir::Value* input = op->operand(0);
    auto [it, inserted] = groupsOf.try_emplace(input);
    if (inserted) values.push_back(input);
    it->second.push_back(op);

    int64_t id = groupIdOf(*op);
    ir::Op* manual = op->parentOfName("sdy.manual_computation");
    auto [mit, minserted] = groupToManual.try_emplace(id, manual);
    if (!minserted && mit->second != manual) {
      diags.error(op->loc(),
                  "'sdy.sharding_group' op ShardingGroupOps values cannot cross "
                  "ManualComputationOp boundaries for groupId: " + std::to_string(id));
      ok = false;
      break;
    }
    auto [sit, sinserted] = groupToShape.try_emplace(id, input->type->shape);
    if (!sinserted && sit->second != input->type->shape) {
      diags.error(op->loc(),
                  "'sdy.sharding_group' op ShardingGroupOps values must have the same shape for "
                  "groupId: " + std::to_string(id));
      ok = false;
      break;
    }
  }
  if (values.empty()) return ok;

  GroupClasses classes;
  for (ir::Value* v : values) {
    int64_t canonical = groupIdOf(*groupsOf[v].front());
    for (ir::Op* op : groupsOf[v]) classes.unite(canonical, groupIdOf(*op));
  }
  std::unordered_map<int64_t, int64_t> reindex;
  int64_t next = 0;
  for (int64_t id : classes.members())
    if (classes.isLeader(id)) reindex[id] = next++;

  std::vector<std::vector<ir::Op*>> byGroup(static_cast<size_t>(next));
  for (ir::Value* v : values)
    for (ir::Op* op : groupsOf[v]) {
      int64_t id = reindex[classes.leader(groupIdOf(*op))];
      setGroupId(*op, id);
      byGroup[static_cast<size_t>(id)].push_back(op);
    }
  // A value appears once per group.
  for (auto& ops : byGroup) {
    std::unordered_set<ir::Value*> seen;
    for (ir::Op* op : ops)
      if (!seen.insert(op->operand(0)).second) util::eraseOp(op);
  }
  return ok;
}

}  // namespace shardscope::passes
