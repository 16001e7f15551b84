#include "outline/op_tree_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>
#include <algorithm>
#include <functional>
#include <mutex>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "core/region_label.h"

namespace shardscope::widgets {

struct OpTreeModel::Node {
  Node* parent = nullptr;
  int row = 0;
  NodeKind kind = OpNode;
  const ir::Op* op = nullptr;
  unsigned region = 0;
  // A RangeNode: the positions of its first and last op in the list it splits.
  size_t first = 0, last = 0;
  std::vector<std::unique_ptr<Node>> children;

  // The first (last) op row under this one, through nested ranges.
  const Node* firstLeaf() const {
    const Node* n = this;
    while (n->kind == RangeNode && !n->children.empty()) n = n->children.front().get();
    return n;
  }
  const Node* lastLeaf() const {
    const Node* n = this;
    while (n->kind == RangeNode && !n->children.empty()) n = n->children.back().get();
    return n;
  }

  Node* add(NodeKind k, const ir::Op* o, unsigned r = 0) {
    auto n = std::make_unique<Node>();
    n->parent = this;
    n->row = static_cast<int>(children.size());
    n->kind = k;
    n->op = o;
    n->region = r;
    children.push_back(std::move(n));
    return children.back().get();
  }
};

OpTreeModel::OpTreeModel(QObject* parent)
    : QAbstractItemModel(parent), root_(std::make_unique<Node>()) {}
OpTreeModel::~OpTreeModel() = default;

struct OpTreeModel::Tree {
  std::weak_ptr<const api::Document> doc;
  std::unique_ptr<Node> root = std::make_unique<Node>();
  std::vector<std::pair<const ir::Op*, Node*>> opIndex;
};


// Moves items [begin, end) under `parent`, in ranges of `size` items (each
// split again by size / kMaxChildRows) until a range holds the items.
void OpTreeModel::fillRanges(Node* parent, std::vector<std::unique_ptr<Node>>& items, size_t begin,
                             size_t end, size_t size) {
  if (size <= 1) {
    for (size_t i = begin; i < end; ++i) {
      items[i]->parent = parent;
      items[i]->row = static_cast<int>(parent->children.size());
      parent->children.push_back(std::move(items[i]));
    }
    return;
  }
  for (size_t b = begin; b < end; b += size) {
    const size_t e = std::min(end, b + size);
    Node* range = parent->add(RangeNode, parent->op, parent->region);
    range->first = b;
    range->last = e - 1;
    fillRanges(range, items, b, e, size / kMaxChildRows);
  }
}

void OpTreeModel::splitLongLists(Node* node) {
  for (auto& child : node->children) splitLongLists(child.get());
  const size_t n = node->children.size();
  if (n <= size_t(kMaxChildRows)) return;
  // The smallest range size (a power of kMaxChildRows) that leaves at most
  // kMaxChildRows ranges here.
  size_t size = kMaxChildRows;
  while ((n + size - 1) / size > size_t(kMaxChildRows)) size *= kMaxChildRows;
  std::vector<std::unique_ptr<Node>> items = std::move(node->children);
  node->children.clear();
  fillRanges(node, items, 0, n, size);
}

std::unique_ptr<OpTreeModel::Tree> OpTreeModel::buildTree(
    const std::shared_ptr<const api::Document>& doc) {
  auto tree = std::make_unique<Tree>();
  tree->doc = doc;
  if (!doc || !doc->module) return tree;
  auto& opIndex = tree->opIndex;
  std::function<void(Node*, const ir::Op&)> addOp = [&](Node* parent, const ir::Op& op) {
    NodeKind kind = op.is("func.func") ? FunctionNode : op.is("sdy.mesh") ? MeshNode : OpNode;
    Node* n = parent->add(kind, &op);
    opIndex.emplace_back(&op, n);
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Node* regionParent = n;
      // A function's single body region is shown inline.
      if (kind != FunctionNode) regionParent = n->add(RegionNode, &op, r);
      for (const auto& block : op.region(r).blocks())
        for (const auto& child : block->ops()) addOp(regionParent, *child);
    }
  };
  for (const auto& op : doc->module->body().ops()) addOp(tree->root.get(), *op);
  splitLongLists(tree->root.get());
  std::sort(opIndex.begin(), opIndex.end(), [](const auto& a, const auto& b) {
    return std::less<const ir::Op*>()(a.first, b.first);
  });
  return tree;
}

void OpTreeModel::prepare(const std::shared_ptr<const api::Document>& doc) {
  prepared().put(buildTree(doc));
}

void OpTreeModel::setDocument(std::shared_ptr<const api::Document> doc) {
  std::unique_ptr<Tree> tree = prepared().take(doc.get());
  if (!tree) tree = buildTree(doc);
  beginResetModel();
  doc_ = std::move(doc);
  root_ = std::move(tree->root);
  opIndex_ = std::move(tree->opIndex);
  endResetModel();
}

// The one tree built off the UI thread.
PreparedForDocument<OpTreeModel::Tree>& OpTreeModel::prepared() {
  static PreparedForDocument<Tree> slot;
  return slot;
}

OpTreeModel::Node* OpTreeModel::nodeAt(const QModelIndex& index) const {
  return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

QModelIndex OpTreeModel::indexOfNode(const Node* node, int column) const {
  if (!node || node == root_.get()) return {};
  return createIndex(node->row, column, const_cast<Node*>(node));
}

QModelIndex OpTreeModel::indexOfOp(const ir::Op* op) const {
  auto it = std::lower_bound(
      opIndex_.begin(), opIndex_.end(), op,
      [](const auto& e, const ir::Op* o) { return std::less<const ir::Op*>()(e.first, o); });
  if (it == opIndex_.end() || it->first != op) return {};
  return indexOfNode(it->second, 0);
}

const ir::Op* OpTreeModel::opAt(const QModelIndex& index) {
  return reinterpret_cast<const ir::Op*>(index.data(OpRole).value<quintptr>());
}

void OpTreeModel::setChangedValues(const QSet<QString>& keys) {
  if (keys == changed_) return;
  changed_ = keys;
  emitAllDataChanged({});
}

void OpTreeModel::emitAllDataChanged(const QModelIndex& parent) {
  const int rows = rowCount(parent);
  if (rows == 0) return;
  emit dataChanged(index(0, 0, parent), index(rows - 1, NumColumns - 1, parent),
                   {ChangedRole, Qt::BackgroundRole});
  for (int r = 0; r < rows; ++r) emitAllDataChanged(index(r, 0, parent));
}

bool OpTreeModel::isOpChanged(const ir::Op* op) const {
  if (!op || changed_.isEmpty()) return false;
  if (op->is("func.func")) {
    if (op->numRegions() == 0 || op->region(0).empty()) return false;
    for (ir::Value* a : op->region(0).front().arguments())
      if (changed_.contains(DocumentState::valueKey(*a))) return true;
    return false;
  }
  for (ir::Value* r : op->results())
    if (changed_.contains(DocumentState::valueKey(*r))) return true;
  return false;
}

QModelIndex OpTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= NumColumns || row < 0) return {};
  if (parent.isValid() && parent.column() != 0) return {};
  Node* p = nodeAt(parent);
  if (row >= static_cast<int>(p->children.size())) return {};
  return createIndex(row, column, p->children[static_cast<size_t>(row)].get());
}

QModelIndex OpTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  return indexOfNode(nodeAt(child)->parent, 0);
}

int OpTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(nodeAt(parent)->children.size());
}

int OpTreeModel::columnCount(const QModelIndex&) const { return NumColumns; }

namespace {

// Joins parts with `separator` until the text holds `limit` characters; the
// caller stops making parts once full() says so. A function of 130,000
// arguments (a 1M-op transformer) built megabytes of text at every paint of
// its row (tens of ms on the UI thread), to show 400 characters of it.
class CappedJoin {
 public:
  CappedJoin(QString separator, qsizetype limit) : separator_(std::move(separator)), limit_(limit) {}
  bool full() const { return text_.size() >= limit_; }
  void add(const QString& part) {
    if (parts_++) text_ += separator_;
    text_ += part;
  }
  // The text, "…" after it when `more` parts were left out.
  QString text(bool more) const { return more ? text_ + QChar(0x2026) : text_; }

 private:
  QString separator_;
  qsizetype limit_;
  QString text_;
  int parts_ = 0;
};

// "%name: type" of `count` values (`at(i)` gives the i-th), joined with ", "
// up to `limit` characters: a function's arguments, an op's results, a
// region's arguments.
template <typename At>
QString typedValuesText(size_t count, At at, qsizetype limit) {
  CappedJoin join(QStringLiteral(", "), limit);
  size_t i = 0;
  for (; i < count && !join.full(); ++i) {
    const ir::Value& v = at(i);
    join.add(toQString(api::valueName(v)) + QStringLiteral(": ") + toQString(api::shortType(v.type)));
  }
  return join.text(i < count);
}

QString blockArgumentsText(const ir::Block& block, qsizetype limit) {
  const auto& args = block.arguments();
  return typedValuesText(args.size(), [&](size_t i) -> const ir::Value& { return *args[i]; }, limit);
}

QString resultsText(const ir::Op& op, qsizetype limit) {
  if (op.is("func.func") && op.numRegions() > 0 && !op.region(0).empty())
    return u'(' + blockArgumentsText(op.region(0).front(), limit) + u')';
  return typedValuesText(
      op.numResults(), [&](size_t i) -> const ir::Value& { return *op.result(unsigned(i)); }, limit);
}

QString regionArgumentsText(const ir::Op& op, unsigned region, qsizetype limit) {
  if (op.region(region).empty()) return {};
  return blockArgumentsText(op.region(region).front(), limit);
}

QString shardingColumnText(const ir::Op& op, qsizetype limit) {
  if (op.is("sdy.mesh")) {
    const ir::Attribute* m = op.attr("mesh");
    if (const Mesh* mesh = m ? m->as<Mesh>() : nullptr) return toQString(mesh->str());
    return {};
  }
  CappedJoin join(QStringLiteral("; "), limit);
  if (op.is("func.func")) {
    if (op.numRegions() == 0 || op.region(0).empty()) return {};
    const auto& args = op.region(0).front().arguments();
    size_t i = 0;
    for (; i < args.size() && !join.full(); ++i)
      if (auto s = api::valueSharding(*args[i]))
        join.add(toQString(api::valueName(*args[i])) + QStringLiteral(" ") + shardingText(*s));
    return join.text(i < args.size());
  }
  bool any = false;
  unsigned i = 0;
  for (; i < op.numResults() && !join.full(); ++i) {
    auto s = api::valueSharding(*op.result(i));
    any = any || s.has_value();
    join.add(s ? (u'@' + toQString(s->mesh.isInline() ? std::string("inline") : s->mesh.name) +
                  u' ' + shardingText(*s))
               : QStringLiteral("—"));
  }
  return any ? join.text(i < op.numResults()) : QString();
}

}  // namespace

// A range row: which ops it holds, and the names of the values from its
// first op to its last, so that a value can be found without expanding.
QVariant OpTreeModel::rangeText(const Node& range, int column) {
  switch (column) {
    case OpColumn:
      return tr("ops %1–%2").arg(range.first).arg(range.last);
    case ResultsColumn: {
      auto name = [](const Node* leaf) {
        return leaf->op && leaf->kind != RegionNode && leaf->op->numResults() > 0
                   ? toQString(api::valueName(*leaf->op->result(0)))
                   : QString();
      };
      const QString from = name(range.firstLeaf()), to = name(range.lastLeaf());
      if (from.isEmpty() && to.isEmpty()) return {};
      return QString(from + QStringLiteral(" … ") + to);
    }
    default:
      return {};
  }
}

QVariant OpTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  // A function of thousands of arguments has a results/sharding text of
  // hundreds of kilobytes: shown cut to what a row can show, the tooltip
  // somewhat longer.
  constexpr qsizetype kMaxShown = 400, kMaxTip = 4000;
  const qsizetype limit = role == Qt::DisplayRole ? kMaxShown : kMaxTip;
  const Node* n = nodeAt(index);
  switch (role) {
    case OpRole:
      return QVariant::fromValue<quintptr>(
          n->kind == RegionNode || n->kind == RangeNode ? 0 : reinterpret_cast<quintptr>(n->op));
    case LineRole:
      if (n->kind == RangeNode) n = n->firstLeaf();
      return n->op ? static_cast<int>(n->op->loc().line) : 0;
    case KindRole:
      return static_cast<int>(n->kind);
    case ChangedRole:
      return n->kind != RegionNode && isOpChanged(n->op);
    case Qt::BackgroundRole:
      // Translucent amber: readable on light and dark palettes.
      if (n->kind != RegionNode && isOpChanged(n->op)) return QBrush(QColor(0xff, 0xb3, 0x00, 90));
      return {};
    case Qt::FontRole:
      if (n->kind == FunctionNode && index.column() == OpColumn) {
        QFont f;
        f.setBold(true);
        return f;
      }
      if (index.column() != OpColumn) {
        QFont f(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        return f;
      }
      return {};
    case Qt::ForegroundRole:
      if (n->kind == RegionNode || n->kind == RangeNode) return QBrush(QColor(0x66, 0x66, 0x66));
      return {};
    case Qt::ToolTipRole:
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  if (n->kind == RangeNode) return rangeText(*n, index.column());
  const ir::Op& op = *n->op;
  switch (index.column()) {
    case OpColumn:
      if (n->kind == RegionNode) return regionLabel(op, n->region);
      if (n->kind == FunctionNode || n->kind == MeshNode)
        return QString(toQString(op.name()) + QStringLiteral(" @") +
                       toQString(api::symbolName(op)));
      return toQString(op.name());
    case ResultsColumn:
      if (n->kind == RegionNode) return regionArgumentsText(op, n->region, limit);
      if (n->kind == MeshNode) return {};
      return resultsText(op, limit);
    case ShardingColumn:
      if (n->kind == RegionNode) return {};
      return shardingColumnText(op, limit);
  }
  return {};
}

QVariant OpTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case OpColumn:
      return tr("Op");
    case ResultsColumn:
      return tr("Results");
    case ShardingColumn:
      return tr("Sharding");
  }
  return {};
}

}  // namespace shardscope::widgets
