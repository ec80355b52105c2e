// eval/kernel_set_check.cpp — see kernel_set_check.hpp.
#include "eval/kernel_set_check.hpp"

#include <algorithm>

namespace kbv::eval {
namespace {

// " +added -dropped" from `from` to `to`.
std::string difference(const KernelSetCheck::Names& from, const KernelSetCheck::Names& to) {
  const auto contains = [](const KernelSetCheck::Names& set, const std::string& name) {
    return std::find(set.begin(), set.end(), name) != set.end();
  };
  std::string text;
  for (const auto& name : to)
    if (!contains(from, name)) text += " +" + name;
  for (const auto& name : from)
    if (!contains(to, name)) text += " -" + name;
  return text;
}

}  // namespace

void KernelSetCheck::learn(const std::string& family, const Names& names) {
  ++traced_calls_;
  seen_[family].insert(names);
}

std::optional<std::string> KernelSetCheck::check(const std::string& family, const Names& names) {
  ++traced_calls_;
  const auto known = seen_.find(family);
  if (known == seen_.end()) return difference({}, names);
  if (known->second.count(names) != 0) return std::nullopt;
  std::optional<std::string> nearest;
  for (const Names& set : known->second) {
    std::string text = difference(set, names);
    if (!nearest || text.size() < nearest->size()) nearest = std::move(text);
  }
  return nearest;
}

size_t KernelSetCheck::distinct_sets() const {
  std::set<Names> all;
  for (const auto& [family, sets] : seen_) all.insert(sets.begin(), sets.end());
  return all.size();
}

}  // namespace kbv::eval
