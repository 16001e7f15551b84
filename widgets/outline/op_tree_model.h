// Tree of the module: top-level meshes and functions -> ops -> regions ->
// nested ops. Columns: op, results (names and short types), sharding.
// No row has more than kMaxChildRows children: a longer list (a function of
// a million ops) is split into ranges, "ops 1000–1999", nested again when
// there are still too many, so that expanding any row lays out at most a
// thousand rows on the UI thread.
//   func.func @main               1,000,000 ops in its body
//     ops 0–999                   1,000 ranges of 1,000 ops
//       stablehlo.dot_general     the ops of that range
//     ops 1000–1999 ...
#pragma once
#include <QAbstractItemModel>
#include <QSet>
#include <QString>
#include <memory>
#include <vector>

#include "api/document.h"
#include "core/prepared_for_document.h"

namespace shardscope::widgets {

class OpTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Columns { OpColumn, ResultsColumn, ShardingColumn, NumColumns };
  enum Roles {
    OpRole = Qt::UserRole,  // const ir::Op* as quintptr (0 for region and range rows)
    LineRole,               // 1-based source line (0 unknown)
    KindRole,               // NodeKind
    ChangedRole,            // bool: a result (a function: an argument) changed sharding
                            // in the last what-if re-run (also a background colour)
  };
  enum NodeKind { MeshNode, FunctionNode, OpNode, RegionNode, RangeNode };
  // Most children of one row; more are grouped in ranges of this many (or
  // of this many ranges).
  static constexpr int kMaxChildRows = 1000;

  explicit OpTreeModel(QObject* parent = nullptr);
  ~OpTreeModel() override;

  // Model reset with a new document (nullptr clears). Uses the rows built by
  // prepare() for this document when there are some (no walk of the module on
  // the calling thread).
  void setDocument(std::shared_ptr<const api::Document> doc);
  // Builds the rows of `doc` (any thread; only reads the document) for the
  // next setDocument(doc). One document is kept; a newer prepare() replaces it.
  static void prepare(const std::shared_ptr<const api::Document>& doc);
  // The index of `op` in column 0 (invalid if not in the tree).
  QModelIndex indexOfOp(const ir::Op* op) const;
  static const ir::Op* opAt(const QModelIndex& index);
  // Ops (meshes and functions included) in the tree.
  size_t opCount() const { return opIndex_.size(); }
  // What-if: keys of values whose sharding changed (DocumentState::valueKey);
  // rows of their ops get ChangedRole and a background. Emits dataChanged.
  void setChangedValues(const QSet<QString>& keys);
  bool isOpChanged(const ir::Op* op) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct Node;
  struct Tree;
  static std::unique_ptr<Tree> buildTree(const std::shared_ptr<const api::Document>& doc);
  // Every list of more than kMaxChildRows children under `node` in ranges.
  static void splitLongLists(Node* node);
  static void fillRanges(Node* parent, std::vector<std::unique_ptr<Node>>& items, size_t begin,
                         size_t end, size_t size);
  static QVariant rangeText(const Node& range, int column);
  static PreparedForDocument<Tree>& prepared();
  Node* nodeAt(const QModelIndex& index) const;
  QModelIndex indexOfNode(const Node* node, int column) const;
  void emitAllDataChanged(const QModelIndex& parent);

  std::shared_ptr<const api::Document> doc_;
  std::unique_ptr<Node> root_;
  std::vector<std::pair<const ir::Op*, Node*>> opIndex_;  // sorted by op pointer
  QSet<QString> changed_;
};

}  // namespace shardscope::widgets
