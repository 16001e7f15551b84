#include "whatif/what_if_diff.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>
#include <algorithm>
#include <map>

#include "core/axis_style.h"
#include "core/document_state.h"

namespace shardscope::widgets {

namespace {

struct Entry {
  QString function, name;
  int line = 0;
  std::optional<TensorSharding> sharding;
};

// key -> entry, plus the keys in pre-order.
void collect(const api::Document& doc, std::map<QString, Entry>& out, std::vector<QString>& order) {
  if (!doc.module) return;
  const QStringList lines = toQString(doc.text).split(u'\n');
  // A function argument's own line in a signature spanning several lines.
  auto argLine = [&](const ir::Value* v, int funcLine) {
    const QString token = toQString(api::valueName(*v)) + u':';
    for (int l = std::max(1, funcLine); l <= funcLine + 64 && l <= lines.size(); ++l) {
      if (lines[l - 1].contains(token)) return l;
      if (lines[l - 1].contains(u'{') && !lines[l - 1].contains(QStringLiteral("sdy."))) break;
    }
    return funcLine;
  };
  for (ir::Op* f : doc.module->functions()) {
    const QString fname = toQString(api::symbolName(*f));
    auto add = [&](const ir::Value* v, int line) {
      if (!v->type->isRankedTensor()) return;
      const QString key = DocumentState::valueKey(*v);
      if (out.count(key)) return;
      out[key] = Entry{fname, toQString(api::valueName(*v)), line, api::valueSharding(*v)};
      order.push_back(key);
    };
    f->walkPreOrder([&](ir::Op& op) {
      for (const auto& region : op.regions())
        for (const auto& block : region->blocks())
          for (ir::Value* a : block->arguments())
            add(a, op.is("func.func") ? argLine(a, static_cast<int>(op.loc().line))
                                      : static_cast<int>(op.loc().line));
      if (&op != f)
        for (ir::Value* r : op.results()) add(r, static_cast<int>(op.loc().line));
      return true;
    });
  }
}

}  // namespace

std::vector<WhatIfChange> diffDocuments(const api::Document& before, const api::Document& after) {
  std::map<QString, Entry> a, b;
  std::vector<QString> orderA, orderB;
  collect(before, a, orderA);
  collect(after, b, orderB);
  std::vector<WhatIfChange> out;
  for (const QString& key : orderB) {
    const Entry& e = b[key];
    auto it = a.find(key);
    if (it != a.end() && it->second.sharding == e.sharding) continue;
    WhatIfChange c{key, e.function, e.name, e.line,
                   it == a.end() ? std::nullopt : it->second.sharding, e.sharding,
                   it == a.end(), false};
    out.push_back(std::move(c));
  }
  for (const QString& key : orderA) {
    if (b.count(key)) continue;
    const Entry& e = a[key];
    out.push_back({key, e.function, e.name, 0, e.sharding, std::nullopt, false, true});
  }
  return out;
}

QSet<QString> changedKeys(const std::vector<WhatIfChange>& changes) {
  QSet<QString> out;
  for (const auto& c : changes) out.insert(c.key);
  return out;
}

WhatIfDiffModel::WhatIfDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void WhatIfDiffModel::setChanges(std::vector<WhatIfChange> changes) {
  beginResetModel();
  changes_ = std::move(changes);
  endResetModel();
}

int WhatIfDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(changes_.size());
}

int WhatIfDiffModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QVariant WhatIfDiffModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const WhatIfChange& c = changes_[static_cast<size_t>(index.row())];
  auto text = [](const std::optional<TensorSharding>& s) {
    return s ? shardingText(*s) : tr("(none)");
  };
  switch (role) {
    case KeyRole:
      return c.key;
    case LineRole:
      return c.line;
    case NameRole:
      return c.name;
    case Qt::FontRole:
      if (index.column() == BeforeColumn || index.column() == AfterColumn) {
        QFont f(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      return tr("%1 in @%2: %3 → %4").arg(c.name, c.function, text(c.before), text(c.after));
    case Qt::DisplayRole:
      switch (index.column()) {
        case ValueColumn:
          return c.added     ? tr("%1 (new)").arg(c.name)
                 : c.removed ? tr("%1 (gone)").arg(c.name)
                             : c.name;
        case LineColumn:
          return c.line ? QVariant(c.line) : QVariant();
        case BeforeColumn:
          return text(c.before);
        case AfterColumn:
          return text(c.after);
      }
      return {};
  }
  return {};
}

QVariant WhatIfDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case ValueColumn:
      return tr("Value");
    case LineColumn:
      return tr("Line");
    case BeforeColumn:
      return tr("Before this edit");
    case AfterColumn:
      return tr("This run");
  }
  return {};
}

}  // namespace shardscope::widgets
