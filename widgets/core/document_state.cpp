#include "core/document_state.h"

#include <QFileInfo>
#include <algorithm>

#include "core/axis_style.h"

namespace shardscope::widgets {

DocumentState::DocumentState(QObject* parent) : QObject(parent) {}

QString DocumentState::fileName() const {
  if (!doc_) return {};
  return toQString(doc_->name);
}

const ir::Op* enclosingFunction(const ir::Op* op) {
  while (op && !op->is("func.func")) op = op->parentOp();
  return op;
}

std::vector<const ir::Op*> DocumentState::functions() const {
  std::vector<const ir::Op*> out;
  if (const ir::Module* m = module())
    for (ir::Op* f : m->functions()) out.push_back(f);
  return out;
}

const ir::Op* DocumentState::firstShownFunction(const ir::Module& module) {
  const ir::Op* first = nullptr;
  for (const ir::Op* f : module.functions()) {
    if (api::symbolName(*f) == "main") return f;
    if (!first) first = f;
  }
  return first;
}

const ir::Op* DocumentState::findFunction(const QString& name) const {
  QString n = name;
  if (n.startsWith(u'@')) n.remove(0, 1);
  for (const ir::Op* f : functions())
    if (toQString(api::symbolName(*f)) == n) return f;
  return nullptr;
}

namespace {
const ir::Value* findValueIn(const ir::Op* root, const QString& name) {
  const ir::Value* found = nullptr;
  const_cast<ir::Op*>(root)->walkPreOrder([&](ir::Op& op) {
    if (found) return false;
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks())
        for (ir::Value* arg : block->arguments())
          if (!found && toQString(api::valueName(*arg)) == name) found = arg;
    for (unsigned i = 0; i < op.numResults() && !found; ++i)
      if (toQString(api::valueName(*op.result(i))) == name) found = op.result(i);
    return !found;
  });
  return found;
}
}  // namespace

const ir::Value* DocumentState::findValue(const QString& rawName) const {
  if (!module()) return nullptr;
  QString name = rawName.trimmed();
  if (!name.startsWith(u'%')) name.prepend(u'%');
  if (function_)
    if (const ir::Value* v = findValueIn(function_, name)) return v;
  for (const ir::Op* f : functions())
    if (const ir::Value* v = findValueIn(f, name)) return v;
  // `%3` for a multi-result op printed `%3#0`.
  if (!name.contains(u'#')) return findValue(name + QStringLiteral("#0"));
  return nullptr;
}

const ir::Op* DocumentState::findOp(const QString& name) const {
  if (!module() || name.isEmpty()) return nullptr;
  if (name.startsWith(u'%')) {
    const ir::Value* v = findValue(name);
    if (!v) return nullptr;
    return v->isBlockArgument() ? v->ownerBlock->parentOp() : v->definingOp;
  }
  if (const ir::Op* f = findFunction(name)) return f;
  const ir::Op* found = nullptr;
  auto search = [&](const ir::Op* root) {
    const_cast<ir::Op*>(root)->walkPreOrder([&](ir::Op& op) {
      if (found) return false;
      const QString opName = toQString(op.name());
      if (opName == name || opName.section(u'.', 1) == name) found = &op;
      return !found;
    });
  };
  if (function_) search(function_);
  for (const ir::Op* f : functions())
    if (!found) search(f);
  return found;
}

const ir::Value* DocumentState::defaultValue() const {
  const ir::Op* f = function_;
  if (!f || f->numRegions() == 0 || f->region(0).empty()) return nullptr;
  const ir::Block& body = f->region(0).front();
  for (ir::Value* arg : body.arguments())
    if (api::valueSharding(*arg) && arg->type->isRankedTensor()) return arg;
  const ir::Value* found = nullptr;
  const_cast<ir::Op*>(f)->walk([&](ir::Op& op) {
    for (unsigned i = 0; i < op.numResults() && !found; ++i)
      if (api::valueSharding(*op.result(i)) && op.result(i)->type->isRankedTensor())
        found = op.result(i);
  });
  if (found) return found;
  for (ir::Value* arg : body.arguments())
    if (arg->type->isRankedTensor()) return arg;
  return nullptr;
}

QString DocumentState::valueKey(const ir::Value& value) {
  const ir::Op* owner = value.isBlockArgument() ? value.ownerBlock->parentOp() : value.definingOp;
  const ir::Op* f = enclosingFunction(owner);
  return u'@' + (f ? toQString(api::symbolName(*f)) : QString()) + u'/' +
         toQString(api::valueName(value));
}

bool DocumentState::isValueChanged(const ir::Value* value) const {
  return value && !changed_.isEmpty() && changed_.contains(valueKey(*value));
}

void DocumentState::setChangedValues(QSet<QString> keys) {
  if (keys == changed_) return;
  changed_ = std::move(keys);
  emit changedValuesChanged();
}

int DocumentState::stepsApplied() const {
  return run_ ? static_cast<int>(run_->timeline->stepsApplied()) : 0;
}

int DocumentState::stepCount() const {
  return run_ ? static_cast<int>(run_->timeline->stepCount()) : 0;
}

void DocumentState::setSteppedRun(std::shared_ptr<api::SteppedRun> run) {
  if (!run) {
    if (!run_) return;
    run_.reset();
    emit steppedRunChanged();
    return;
  }
  std::shared_ptr<const api::Document> doc = run->doc;
  run_ = std::move(run);
  replaceKeepingSelection(std::move(doc));
  emit steppedRunChanged();
}

void DocumentState::setStepsApplied(int steps) {
  if (!run_) return;
  const int previous = stepsApplied();
  steps = std::clamp(steps, 0, stepCount());
  if (steps == previous) return;
  emit shardingsAboutToChange();
  const api::TimelineChanges changes = run_->timeline->seek(static_cast<size_t>(steps));
  emit shardingsChanged(changes);
  emit stepChanged(steps, previous);
}

void DocumentState::setDocument(std::shared_ptr<const api::Document> doc) {
  if (run_) {
    run_.reset();
    emit steppedRunChanged();
  }
  doc_ = std::move(doc);
  if (!changed_.isEmpty()) {
    changed_.clear();
    emit changedValuesChanged();
  }
  function_ = nullptr;
  op_ = nullptr;
  value_ = nullptr;
  if (const ir::Module* m = module()) function_ = firstShownFunction(*m);
  emit documentChanged();
  emit functionChanged();
  value_ = defaultValue();
  emit selectionChanged();
}

namespace {
// Pre-order position of every op of a module (module op excluded).
std::vector<const ir::Op*> preOrder(const ir::Module* m) {
  std::vector<const ir::Op*> out;
  if (!m) return out;
  for (const auto& op : m->body().ops()) op->walk([&](ir::Op& o) { out.push_back(&o); });
  return out;
}
int positionOf(const std::vector<const ir::Op*>& ops, const ir::Op* op) {
  auto it = std::find(ops.begin(), ops.end(), op);
  return it == ops.end() ? -1 : static_cast<int>(it - ops.begin());
}
}  // namespace

void DocumentState::setDocumentKeepingSelection(std::shared_ptr<const api::Document> doc) {
  if (run_) {
    run_.reset();
    emit steppedRunChanged();
  }
  replaceKeepingSelection(std::move(doc));
}

void DocumentState::replaceKeepingSelection(std::shared_ptr<const api::Document> doc) {
  const auto before = preOrder(module());
  const int funcPos = positionOf(before, function_);
  const int opPos = positionOf(before, op_);
  // The value: (owner op position, block argument?, region, index).
  int valueOwner = -1, valueRegion = 0;
  unsigned valueIndex = 0;
  bool valueIsArg = false;
  if (value_) {
    valueIsArg = value_->isBlockArgument();
    const ir::Op* owner = valueIsArg ? value_->ownerBlock->parentOp() : value_->definingOp;
    valueOwner = positionOf(before, owner);
    valueIndex = value_->index;
    if (valueIsArg && owner)
      for (unsigned r = 0; r < owner->numRegions(); ++r)
        if (!owner->region(r).empty() && &owner->region(r).front() == value_->ownerBlock)
          valueRegion = static_cast<int>(r);
  }
  doc_ = std::move(doc);
  const auto after = preOrder(module());
  auto at = [&](int pos) -> const ir::Op* {
    return pos >= 0 && pos < static_cast<int>(after.size()) ? after[static_cast<size_t>(pos)]
                                                            : nullptr;
  };
  function_ = at(funcPos);
  if (!function_ || !function_->is("func.func")) {
    const auto funcs = functions();
    function_ = funcs.empty() ? nullptr : funcs.front();
  }
  op_ = at(opPos);
  value_ = nullptr;
  if (const ir::Op* owner = at(valueOwner)) {
    if (valueIsArg) {
      if (static_cast<unsigned>(valueRegion) < owner->numRegions() &&
          !owner->region(static_cast<unsigned>(valueRegion)).empty()) {
        const ir::Block& b = owner->region(static_cast<unsigned>(valueRegion)).front();
        if (valueIndex < b.numArguments()) value_ = b.argument(valueIndex);
      }
    } else if (valueIndex < owner->numResults()) {
      value_ = owner->result(valueIndex);
    }
  }
  emit documentChanged();
  emit functionChanged();
  emit selectionChanged();
}

void DocumentState::setFunction(const ir::Op* func) {
  if (func == function_) return;
  function_ = func;
  emit functionChanged();
}

void DocumentState::selectOp(const ir::Op* op, bool keepFunction) {
  if (op && !(keepFunction && function_)) {
    const ir::Op* f = enclosingFunction(op);
    if (f) setFunction(f);
  }
  op_ = op;
  value_ = (op && op->numResults() > 0) ? op->result(0) : value_;
  if (op && op->is("func.func")) value_ = defaultValue();
  emit selectionChanged();
}

void DocumentState::selectValue(const ir::Value* value) {
  value_ = value;
  if (value) {
    const ir::Op* owner =
        value->isBlockArgument() ? value->ownerBlock->parentOp() : value->definingOp;
    if (const ir::Op* f = enclosingFunction(owner)) setFunction(f);
    if (!value->isBlockArgument()) op_ = value->definingOp;
  }
  emit selectionChanged();
}

}  // namespace shardscope::widgets
