// Shardings held in op attributes (see sharding_attr_access.h).
#include "ir/sharding_attr_access.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace shardscope::ir {

std::optional<TensorSharding> valueShardingIn(const Attribute* attr, unsigned index) {
  if (!attr) return std::nullopt;
  if (const auto* perValue = attr->as<TensorShardingPerValue>()) {
    if (index < perValue->shardings.size()) return perValue->shardings[index];
    return std::nullopt;
  }
  if (const auto* single = attr->as<TensorSharding>())
    if (index == 0) return *single;
  return std::nullopt;
}

void setEntryInDictList(Op& op, std::string_view listName, unsigned index, unsigned count,
                        std::string_view key, Attribute value) {
  std::vector<Attribute> dicts;
  if (const Attribute* list = op.attr(listName))
    if (const ArrayAttr* array = list->array()) dicts = array->elems;
  count = std::max(count, index + 1);
  while (dicts.size() < count) dicts.push_back(Attribute::makeDict({}));
  std::vector<NamedAttribute> entries;
  if (const DictionaryAttr* dict = dicts[index].dict()) entries = dict->entries;
  auto it = std::find_if(entries.begin(), entries.end(),
                         [&](const NamedAttribute& e) { return e.first == key; });
  if (it != entries.end())
    it->second = std::move(value);
  else
    entries.emplace_back(std::string(key), std::move(value));
  dicts[index] = Attribute::makeDict(std::move(entries));
  op.setAttr(std::string(listName), Attribute::makeArray(std::move(dicts)), true);
}

}  // namespace shardscope::ir
