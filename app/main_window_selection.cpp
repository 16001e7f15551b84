// The selection from the window's lists: the op tree (rows, expansion,
// column widths, following the selection), the mesh tab's tensor combo, and
// diagnostics (a click shows the line).
#include "main_window.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <algorithm>

#include "core/axis_style.h"
#include "api/op_source.h"
#include "core/document_state.h"
#include "core/op_source_text.h"
#include "diagnostics/diagnostics_model.h"
#include "outline/op_tree_model.h"
#include "source/source_view.h"

namespace shardscope::app {

using namespace shardscope::widgets;

namespace {
// Op trees with more rows than this get computed column widths (measuring
// every row at each layout blocks the UI thread on large modules).
constexpr size_t kLargeTree = 5000;
}  // namespace

void MainWindow::selectOpByPreOrder(int opIndex) {
  const ir::Module* m = state_->module();
  if (!m || opIndex < 0) return;
  int i = 0;
  const ir::Op* found = nullptr;
  for (const auto& top : m->body().ops())
    top->walk([&](ir::Op& o) {
      if (i++ == opIndex) found = &o;
    });
  if (found && !found->is("func.func")) state_->selectOp(found);
}

void MainWindow::selectValueByKey(const QString& key) {
  // "@main/%3"
  const qsizetype slash = key.indexOf(u'/');
  if (slash < 0) return;
  if (const ir::Op* f = state_->findFunction(key.left(slash))) state_->setFunction(f);
  if (const ir::Value* v = state_->findValue(key.mid(slash + 1))) {
    state_->selectValue(v);
    const ir::Op* owner = v->isBlockArgument() ? v->ownerBlock->parentOp() : v->definingOp;
    if (owner && owner->loc().line > 0) source_->goToLine(static_cast<int>(owner->loc().line));
  }
}
void MainWindow::updateOpSource() {
  // The selected value's op, or for a block argument (JAX names function
  // arguments) its own location.
  api::OpSource source;
  QString summary;
  const ir::Value* v = state_->selectedValue();
  if (v && v->isBlockArgument()) {
    source = api::argumentSource(*v->ownerBlock, v->index);
    summary = argumentSourceSummary(source);
  } else if (const ir::Op* op = state_->selectedOp()) {
    source = api::opSource(*op);
    summary = opSourceSummary(source);
  }
  // Elided in the middle when long: the file and the primitive stay readable.
  const int room = std::max(200, width() / 2);
  opSourceLabel_->setText(opSourceLabel_->fontMetrics().elidedText(summary, Qt::ElideMiddle, room));
  opSourceLabel_->setToolTip(opSourceToolTip(source));
}

void MainWindow::expandTree() { tree_->expandToDepth(0); }

void MainWindow::fitTreeColumns() {
  QHeaderView* header = tree_->header();
  if (treeModel_->opCount() <= kLargeTree) {
    // Small modules: sized to every row, as the rows change.
    header->setSectionResizeMode(OpTreeModel::OpColumn, QHeaderView::ResizeToContents);
    for (int c = 0; c < OpTreeModel::NumColumns - 1; ++c) tree_->resizeColumnToContents(c);
    return;
  }
  // Large ones: ResizeToContents measures up to 1,000 rows at every layout of
  // the tree (tens of ms each on the UI thread). The widths are computed once
  // from a sample instead: the top-level rows and the first rows under each.
  header->setSectionResizeMode(OpTreeModel::OpColumn, QHeaderView::Interactive);
  constexpr int kSample = 150;
  const QAbstractItemModel* m = tree_->model();
  for (int c = 0; c < OpTreeModel::NumColumns - 1; ++c) {
    int width = header->sectionSizeHint(c);
    const int top = std::min(m->rowCount(), kSample);
    for (int r = 0; r < top; ++r) {
      width = std::max(width, tree_->sizeHintForIndex(m->index(r, c)).width() +
                                  (c == 0 ? tree_->indentation() : 0));
      const QModelIndex first = m->index(r, 0);
      const int children = std::min(m->rowCount(first), kSample);
      for (int k = 0; k < children; ++k)
        width = std::max(width, tree_->sizeHintForIndex(m->index(k, c, first)).width() +
                                    (c == 0 ? 2 * tree_->indentation() : 0));
    }
    header->resizeSection(c, width + 8);
  }
}

void MainWindow::syncTreeToSelection() {
  const QModelIndex src = treeModel_->indexOfOp(state_->selectedOp());
  if (!src.isValid()) return;
  const QModelIndex idx = treeProxy_->mapFromSource(src);
  if (idx.isValid() && tree_->currentIndex() != idx) {
    QSignalBlocker block(tree_->selectionModel());
    tree_->setCurrentIndex(idx);
    tree_->scrollTo(idx);
  }
}
namespace {
QString comboText(const ir::Value& v) {
  QString text =
      toQString(api::valueName(v)) + QStringLiteral(" : ") + toQString(api::shortType(v.type));
  if (const auto s = api::valueSharding(v)) text += QStringLiteral("   ") + shardingText(*s);
  return text;
}
}  // namespace

void MainWindow::updateComboTexts(const api::TimelineChanges& changes) {
  for (const ir::Value* v : changes.values)
    if (auto it = comboRows_.constFind(v); it != comboRows_.constEnd())
      valueCombo_->setItemText(*it, comboText(*v));
}

void MainWindow::showValueInCombo(const ir::Value* value) {
  if (!value) return;
  auto it = comboRows_.constFind(value);
  if (it != comboRows_.constEnd()) {
    valueCombo_->setCurrentIndex(*it);
    return;
  }
  // Past the listed values (or in another function): one transient entry at
  // the end names it, so the combo never names a value the mesh view does
  // not show.
  if (!value->type->isRankedTensor()) return;
  const QVariant data = QVariant::fromValue(reinterpret_cast<quintptr>(value));
  if (comboTransientRow_ < 0) {
    valueCombo_->addItem(comboText(*value), data);
    comboTransientRow_ = valueCombo_->count() - 1;
  } else {
    valueCombo_->setItemText(comboTransientRow_, comboText(*value));
    valueCombo_->setItemData(comboTransientRow_, data);
  }
  valueCombo_->setCurrentIndex(comboTransientRow_);
}

void MainWindow::fillValueCombo() {
  valueCombo_->clear();
  comboRows_.clear();
  comboTransientRow_ = -1;
  const ir::Op* func = state_->function();
  if (!func) return;
  // One insertion for all items: adding 100,000 values one by one (a model
  // signal each) blocks the UI thread for a quarter of a second.
  // A list of 100,000 values is unusable and costs the UI thread ~100 ms to
  // label: list the first ones (arguments first) and say how to reach the rest.
  constexpr int kMaxComboValues = 2000;
  QList<QStandardItem*> items;
  bool more = false;
  auto add = [this, &items, &more](const ir::Value* v) {
    if (!v->type->isRankedTensor()) return;
    if (items.size() >= kMaxComboValues) {
      more = true;
      return;
    }
    comboRows_.insert(v, static_cast<int>(items.size()));
    auto* item = new QStandardItem(comboText(*v));
    item->setData(QVariant::fromValue(reinterpret_cast<quintptr>(v)), Qt::UserRole);
    items.append(item);
  };
  // The walk stops at the first value past the limit (walking all of a
  // 100,000-op function only to count the rest costs ~30 ms).
  const_cast<ir::Op*>(func)->walkPreOrder([&](ir::Op& op) {
    if (more) return false;
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks())
        for (ir::Value* a : block->arguments()) add(a);
    if (&op != func)
      for (ir::Value* r : op.results()) add(r);
    return !more;
  });
  if (more) {
    auto* item = new QStandardItem(
        tr("… more values (the first %L1 are listed): select them in the graph or the op tree")
            .arg(kMaxComboValues));
    item->setEnabled(false);
    items.append(item);
  }
  if (auto* model = qobject_cast<QStandardItemModel*>(valueCombo_->model()))
    model->invisibleRootItem()->appendRows(items);
  else
    for (QStandardItem* item : items) {
      valueCombo_->addItem(item->text(), item->data(Qt::UserRole));
      delete item;
    }
  showValueInCombo(state_->selectedValue());
}

void MainWindow::onTreeActivated(const QModelIndex& index) {
  if (!index.isValid()) return;
  const QModelIndex src = treeProxy_->mapToSource(index);
  const ir::Op* op = OpTreeModel::opAt(src);
  if (!op) {
    // A region row: select its parent op.
    op = OpTreeModel::opAt(treeModel_->parent(src));
  }
  if (!op || op->is("sdy.mesh")) return;
  if (op->is("func.func")) {
    state_->setFunction(op);
    state_->selectOp(op);
    return;
  }
  state_->selectOp(op);
}

void MainWindow::onDiagnosticActivated(const QModelIndex& index) {
  const QModelIndex src = diagProxy_->mapToSource(index);
  const int line = src.data(DiagnosticsModel::LineRole).toInt();
  const int col = src.data(DiagnosticsModel::ColRole).toInt();
  if (line > 0) source_->goToLine(line, col);
}

}  // namespace shardscope::app
